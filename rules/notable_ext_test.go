package rules_test

import (
	"fmt"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// TestNotableOnRealGames: on every ply of the real games of the reference
// set (and of the shared data when THREEFOLD_CORPUS is set: the games that
// repeat, and the whole corpus unless -short), Notable rules out only
// plies with nothing to report and is what the tracker's state says
// (CheckNotable). Every set has repeated and claimable plies; the clock
// and near repetitions are rarer (TestNotable has rows of each).
func TestNotableOnRealGames(t *testing.T) {
	sources := refgames.All
	if testing.Short() {
		sources = refgames.All[:2]
	}
	refgames.Run(t, sources, func(t *testing.T, set refgames.Set) {
		games, err := pgn.ParseGames(set.Text(t))
		if err != nil {
			t.Fatal(err)
		}
		var plies, notable, repeated, claim, clock, near int
		g := new(rules.Game)
		for i, pg := range games {
			start, _, err := pg.Start()
			if err != nil {
				continue // not a game rules can follow (a variant)
			}
			g.Reset(start)
			for ply := 0; ; ply++ {
				if err := rules.CheckNotable(g); err != nil {
					t.Fatalf("%s game %d: %v", set.Name, i, err)
				}
				plies++
				if g.Notable() {
					notable++
				}
				if g.Count() >= 2 {
					repeated++
				}
				if g.CanClaimRepetition() {
					claim++
				}
				if g.HalfmoveClock() >= 99 {
					clock++
				}
				if len(g.NearRepetitions()) != 0 {
					near++
				}
				if ply == len(pg.Moves) {
					break
				}
				if _, err := g.PlaySAN(pg.Moves[ply]); err != nil {
					break // checked up to there
				}
			}
		}
		t.Logf("%s: %d games, %d plies, %d notable: %d repeated, %d claimable, %d at 99 or more, %d with a near repetition",
			set.Name, len(games), plies, notable, repeated, claim, clock, near)
		if repeated == 0 || claim == 0 {
			t.Errorf("%d repeated and %d claimable plies: the set does not test Notable", repeated, claim)
		}
	})
}

// TestNotable: each thing Notable stands for makes it true, and it is
// false again once that can no longer hold.
func TestNotable(t *testing.T) {
	tests := []struct {
		name  string
		start string
		moves []string
		want  []bool // Notable at ply 0, 1, ...
	}{
		{"a quiet opening", rules.StartFEN, []string{"e4", "e5", "Nf3", "Nc6"},
			[]bool{false, false, false, false, false}},
		{"knights out and back: twice until a pawn moves", rules.StartFEN,
			[]string{"Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "e5"},
			[]bool{false, false, false, false, true, true, false}},
		{"a position twice, then castling rights lost", "rn2k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1",
			[]string{"Nc3", "Nc6", "Nb1", "Nb8", "Kf1"},
			[]bool{false, false, false, false, true, false}},
		{"the clock reaches 99, a capture resets it", "4k3/8/8/8/8/8/r7/R3K3 w - - 97 80",
			[]string{"Kf1", "Kf8", "Rxa2"},
			[]bool{false, false, true, false}},
		{"a start at 99, a pawn move resets it", "4k3/4p3/8/8/8/8/8/R3K3 w - - 99 80",
			[]string{"Kf1", "e5"}, []bool{true, true, false}},
		{"a near repetition after a castling right is lost, until a pawn moves",
			"r3k2r/p7/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Kf1", "Kf8", "Ke1", "Ke8", "Rb1", "a6"},
			[]bool{false, false, false, false, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := mustFEN(tt.start)
			g := new(rules.Game)
			g.Reset(mustFEN("4k3/8/8/8/8/8/8/R3K3 w - - 120 80")) // a notable game before
			g.Reset(start)
			var got []bool
			for ply := 0; ; ply++ {
				if err := rules.CheckNotable(g); err != nil {
					t.Fatal(err)
				}
				got = append(got, g.Notable())
				if ply == len(tt.moves) {
					break
				}
				if _, err := g.PlaySAN(tt.moves[ply]); err != nil {
					t.Fatalf("%s: %v", tt.moves[ply], err)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Notable by ply %v, want %v", got, tt.want)
			}
		})
	}
}
