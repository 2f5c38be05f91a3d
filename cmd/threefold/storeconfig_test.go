package main

import (
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

func TestTermination(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
		want  threefold.Termination
	}{
		{"checkmate", "", []string{"f3", "e5", "g4", "Qh4#"}, "checkmate"},
		{"stalemate", "7k/5Q2/5K2/8/8/8/8/8 w - - 0 1", []string{"Qg6"}, "stalemate"},
		{"fivefold", "", []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}, "fivefold"},
		{"resigned: the moves do not say", "", []string{"e4", "e5"}, ""},
		{"bad move", "", []string{"e5"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := threefold.GameState{StartFEN: tc.fen, Notation: rules.SAN, Moves: tc.moves, Finished: true}
			if got := termination(s); got != tc.want {
				t.Errorf("termination = %q, want %q", got, tc.want)
			}
		})
	}
}
