package randgame

import (
	"slices"
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
