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

// TestScanLimits: a game over a pgn.* limit is reported with an error that
// names the limit and the line, its moves up to there are analysed, the
// next game is read whole, and the exit status says some game failed.
func TestScanLimits(t *testing.T) {
	isolateConfig(t)
	t.Setenv("THREEFOLD_PGN_MAX_PLIES", "8")
	in := "[White \"Long\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8\n5. Nf3 Nf6 *\n\n[White \"Short\"]\n\n1. e4 e5 *\n"
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"scan", "--json", "-"}, strings.NewReader(in), &stdout, &stderr)
	if code != exitSomeGames {
		t.Fatalf("exit %d, want %d: %s", code, exitSomeGames, stderr.String())
	}
	g := readJSONLinesFrom(t, &stdout)
	if len(g) != 2 {
		t.Fatalf("got %v", g)
	}
	if e, _ := g[0]["error"].(string); !strings.Contains(e, "line 4: more than 8 plies (limit pgn.max_plies)") || g[0]["plies"] != 8.0 {
		t.Errorf("long game: error %q, plies %v", e, g[0]["plies"])
	}
	if _, bad := g[1]["error"]; bad || g[1]["plies"] != 2.0 {
		t.Errorf("short game: %v", g[1])
	}
}

// TestScanTextEscapes: tag values reach the text output with their
// control characters escaped (an ESC sequence in [White] could rewrite the
// terminal).
func TestScanTextEscapes(t *testing.T) {
	in := "[White \"\x1b[2J\x1b]0;x\x07Eve\"]\n[Black \"B\u202eob\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n"
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"scan", "-"}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	s := stdout.String()
	if strings.ContainsAny(s, "\x1b\x07\u202e") {
		t.Fatalf("raw control characters: %q", s)
	}
	if !strings.Contains(s, `\x1b[2J\x1b]0;x\aEve - B\u202eob`) {
		t.Fatalf("escapes missing: %q", s)
	}
}
