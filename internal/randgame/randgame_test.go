package randgame

import (
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

func TestLine(t *testing.T) {
	a, ok := Line(7, 300)
	if !ok || len(a) != 300 {
		t.Fatalf("Line(7, 300): %d moves, ok %v", len(a), ok)
	}
	if b, _ := Line(7, 300); !slices.Equal(a, b) {
		t.Error("the same seed gave another line")
	}
	if c, _ := Line(8, 300); slices.Equal(a, c) {
		t.Error("another seed gave the same line")
	}
	g := rules.NewGame(rules.StartPosition())
	for i, san := range a {
		if _, err := g.PlaySAN(san); err != nil {
			t.Fatalf("ply %d: %v", i+1, err)
		}
	}
}

// TestQuietLines: the lines are Line's, and nothing in their windows
// asks the rules of a draw anything: checked again ply by ply, with
// every window's plies' positions first occurrences.
func TestQuietLines(t *testing.T) {
	windows := [][2]int{{10, 20}, {200, 210}}
	lines := QuietLines(t, 5, 210, windows...)
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5", len(lines))
	}
	again := QuietLines(t, 5, 210, windows...)
	for i, line := range lines {
		if !slices.Equal(line, again[i]) {
			t.Fatalf("line %d differs the second time", i)
		}
		g := rules.NewGame(rules.StartPosition())
		for p, san := range line {
			if _, err := g.PlaySAN(san); err != nil {
				t.Fatalf("line %d ply %d: %v", i, p+1, err)
			}
			for _, w := range windows {
				if p+1 >= w[0] && p+1 <= w[1] {
					if v := g.Verdict(); v.Count != 1 || len(v.ClaimMoves) > 0 || v.FiftyMoves || v.Fivefold || v.SeventyFiveMoves {
						t.Errorf("line %d ply %d: %+v", i, p+1, v)
					}
				}
			}
		}
	}
}

// TestQuiet: what makes a line not quiet in a window.
func TestQuiet(t *testing.T) {
	shuffle := strings.Fields("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
	for _, tc := range []struct {
		name   string
		moves  []string
		window [2]int
		want   bool
	}{
		{"first occurrences", shuffle[:3], [2]int{1, 3}, true},
		{"a second occurrence in the window", shuffle[:4], [2]int{1, 4}, false},
		{"second occurrences before it only", append(slices.Clone(shuffle[:4]), "e4"), [2]int{5, 5}, true},
		{"drawn by a fifth occurrence before it", append(slices.Clone(shuffle), "e4"), [2]int{17, 17}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quiet(tc.moves, [][2]int{tc.window}); got != tc.want {
				t.Errorf("quiet = %v, want %v", got, tc.want)
			}
		})
	}
}
