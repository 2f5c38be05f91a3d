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
		// The game ended at the fifth occurrence (9.6.1) though the
		// players went on (zacnick – klut of examples/, 2 plies more).
		{"fivefold, then moves played on", "", []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5", "Nf3"}, "fivefold"},
		{"fivefold, then an illegal move", "", []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Ke3"}, "fivefold"},
		{"75 moves", "8/8/8/3k4/8/8/4K3/R7 w - - 149 80", []string{"Ra2"}, "seventy_five_moves"},
		{"75 moves, then moves played on", "8/8/8/3k4/8/8/4K3/R7 w - - 149 80", []string{"Ra2", "Kd6", "Ra3"}, "seventy_five_moves"},
		{"74.5 moves: nothing yet", "8/8/8/3k4/8/8/4K3/R7 w - - 148 80", []string{"Ra2"}, ""},
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
