package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestScanFiftyMoveRule: the 50-move claim (9.3) is found at ply 0 when
// the [FEN] already carries a halfmove clock of 100 or more, also when
// moves follow, and never at a position where the side to move is mated
// (the game is over, there is nothing to claim).
func TestScanFiftyMoveRule(t *testing.T) {
	for _, tc := range []struct {
		name, pgn string
		want      any // fifty_moves_ply: a float64 ply or nil
	}{
		{"clock run out in the FEN, moves follow",
			"[FEN \"7k/8/6K1/8/8/8/8/6Q1 w - - 100 80\"]\n\n80. Kf6 Kh7 *\n", 0.0},
		{"clock run out in the FEN, no moves",
			"[FEN \"7k/8/6K1/8/8/8/8/6Q1 w - - 100 80\"]\n\n*\n", 0.0},
		{"clock run out, but the side to move is mated",
			"[FEN \"7k/6Q1/6K1/8/8/8/8/8 b - - 100 80\"]\n\n1-0\n", nil},
		{"clock reaches 100 with a mate",
			"[FEN \"7k/8/6K1/8/8/8/8/6Q1 b - - 98 80\"]\n\n80... Kg8 81. Qb1 Kh8 82. Qb8#  1-0\n", 1.0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), []string{"scan", "--json", "-"}, strings.NewReader(tc.pgn), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			g := readJSONLinesFrom(t, &stdout)
			if len(g) != 1 {
				t.Fatalf("got %v", g)
			}
			if got := g[0]["fifty_moves_ply"]; got != tc.want {
				t.Fatalf("fifty_moves_ply = %v, want %v (%v)", got, tc.want, g[0])
			}
		})
	}
}
