package rules_test

import (
	"fmt"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

func TestCanMate(t *testing.T) {
	tests := []struct {
		name         string
		fen          string
		white, black bool
	}{
		{"start position", rules.StartFEN, true, true},
		{"lone kings", "8/8/4k3/8/8/4K3/8/8 w - - 0 1", false, false},
		{"king and knight against a rook", "8/8/4k3/3r4/8/4K3/2N5/8 w - - 0 1", false, true},
		{"king and bishop", "8/8/4k3/8/8/4K3/2B5/8 w - - 0 1", false, false},
		{"two knights", "8/8/4k3/8/8/4K3/2NN4/8 w - - 0 1", true, false},
		{"bishop and knight", "8/8/4k3/8/8/4K3/2NB4/8 w - - 0 1", true, false},
		{"a pawn", "8/8/4k3/8/8/4K3/7p/8 w - - 0 1", false, true},
		{"a queen", "8/8/4k3/8/8/4K3/8/Q7 w - - 0 1", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := rules.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.CanMate(rules.White); got != tt.white {
				t.Errorf("white: CanMate %v, want %v", got, tt.white)
			}
			if got := p.CanMate(rules.Black); got != tt.black {
				t.Errorf("black: CanMate %v, want %v", got, tt.black)
			}
		})
	}
}

func ExamplePosition_CanMate() {
	// White has a king and a knight: whatever happens, White cannot win.
	p, _ := rules.ParseFEN("8/8/4k3/3r4/8/4K3/2N5/8 w - - 0 1")
	fmt.Println(p.CanMate(rules.White), p.CanMate(rules.Black))
	// Output: false true
}
