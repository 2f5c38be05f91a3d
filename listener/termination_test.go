package listener

import (
	"fmt"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// The watcher says how a finished game ended, from the replay it made, as
// store.MovesTermination says it with a replay of its own (so the recorder
// need not replay every game again), or says that it does not know.
func TestWatcherTermination(t *testing.T) {
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}
	tests := []struct {
		name     string
		fen      string
		moves    []string
		finished bool
		want     threefold.Termination
		ok       bool
	}{
		{"checkmate", "", []string{"f3", "e5", "g4", "Qh4#"}, true, threefold.TermCheckmate, true},
		{"stalemate", "7k/5Q2/5K2/8/8/8/8/8 w - - 0 1", []string{"Qg6"}, true, threefold.TermStalemate, true},
		{"insufficient material", "8/8/8/3k4/8/8/3pK3/8 w - - 0 1", []string{"Kxd2"}, true, threefold.TermInsufficient, true},
		{"fivefold", "", shuffle, true, threefold.TermFivefold, true},
		{"fivefold, then moves played on", "", append(shuffle[:16:16], "e4", "e5", "Nf3"), true, threefold.TermFivefold, true},
		{"75 moves", "8/8/8/3k4/8/8/4K3/R7 w - - 149 80", []string{"Ra2"}, true, threefold.TermSeventyFiveMoves, true},
		{"75 moves, then moves played on", "8/8/8/3k4/8/8/4K3/R7 w - - 149 80", []string{"Ra2", "Kd6", "Ra3"}, true, threefold.TermSeventyFiveMoves, true},
		{"74.5 moves: nothing yet", "8/8/8/3k4/8/8/4K3/R7 w - - 148 80", []string{"Ra2"}, true, "", true},
		{"resigned: the moves do not say", "", []string{"e4", "e5"}, true, "", true},
		{"not finished: the watcher does not say", "", []string{"f3", "e5", "g4", "Qh4#"}, false, "", false},
		{"an illegal move: the watcher does not say", "", append(shuffle[:16:16], "Ke3"), true, "", false},
		{"75 moves at the start: the watcher does not say", "8/8/8/3k4/8/8/4K3/R7 w - - 150 80", []string{"Ra2"}, true, "", false},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moves := tc.moves
			w := NewWatcher(WatcherOptions{})
			s := threefold.GameState{Game: threefold.GameRef{Site: "file", ID: fmt.Sprint(i)}, StartFEN: tc.fen, Notation: rules.SAN,
				Moves: moves, Finished: tc.finished, Result: "*"}
			w.Apply(s)
			term, plies, ok := w.Termination("file", fmt.Sprint(i))
			if term != tc.want || ok != tc.ok {
				t.Errorf("Termination = %q, %v; want %q, %v", term, ok, tc.want, tc.ok)
			}
			if ok && plies != len(moves) {
				t.Errorf("plies %d, want %d", plies, len(moves))
			}
			if s.Finished = true; ok {
				if m := store.MovesTermination(s); m != term {
					t.Errorf("MovesTermination says %q, the watcher %q", m, term)
				}
			}
		})
	}
	if _, _, ok := NewWatcher(WatcherOptions{}).Termination("file", "unknown"); ok {
		t.Error("a game the watcher does not hold: ok")
	}
}

// On every reference game, replayed to its end, the watcher's answer is
// MovesTermination's.
func TestWatcherTerminationOnReferenceGames(t *testing.T) {
	onReferenceSets(t, func(t *testing.T, set refgames.Set) {
		w := NewWatcher(WatcherOptions{})
		known := map[threefold.Termination]int{}
		for i, g := range parseSet(t, set) {
			start, err := pgnStart(g)
			if err != nil {
				continue // a variant threefold does not follow
			}
			s := threefold.GameState{Game: threefold.GameRef{Site: "file", ID: fmt.Sprint(i)}, StartFEN: start, Notation: rules.SAN,
				Moves: g.Moves, Finished: true, Result: "*"}
			w.Apply(s)
			term, _, ok := w.Termination("file", fmt.Sprint(i))
			if !ok {
				continue
			}
			known[term]++
			if want := store.MovesTermination(s); term != want {
				t.Errorf("game %d: the watcher says %q, MovesTermination %q", i, term, want)
			}
		}
		t.Logf("%s: %v", set.Name, known)
		if known[threefold.TermCheckmate] == 0 || known[threefold.TermFivefold] == 0 {
			t.Errorf("%s: no checkmate or no fifth occurrence among the games: %v", set.Name, known)
		}
	})
}

// The SAN in every alert's proof is the SAN of the move played at that
// ply, as a replay of the whole game writes it, on every reference game
// fed move by move: the watcher keeps only the moves of the current
// reversible stretch, and must not name a move outside it wrongly.
func TestAlertSANsAreTheGamesMoves(t *testing.T) {
	onReferenceSets(t, func(t *testing.T, set refgames.Set) {
		games := parseSet(t, set)
		checked := 0
		for i, g := range games {
			start, err := pgnStart(g)
			if err != nil {
				continue
			}
			var alerts []threefold.Alert
			w := NewWatcher(WatcherOptions{Alert: func(a threefold.Alert) { alerts = append(alerts, a) }})
			ref := threefold.GameRef{Site: "file", ID: fmt.Sprint(i)}
			for ply := 1; ply <= len(g.Moves); ply++ {
				w.Apply(threefold.GameState{Game: ref, StartFEN: start, Notation: rules.SAN, Moves: g.Moves[:ply]})
			}
			if len(alerts) == 0 {
				continue
			}
			// The SAN of each ply, by a replay of its own.
			// A game with a bad move is checked up to it.
			sans := []string{""}
			var r rules.Replay
			r.Sync(start, rules.SAN, g.Moves, func(st rules.Step) {
				if st.Ply > 0 {
					sans = append(sans, st.Before.SAN(st.Move))
				}
			})
			for _, a := range alerts {
				if a.Ply >= len(sans) {
					continue // beyond a bad move
				}
				checked++
				if a.Ply > 0 && a.SAN != sans[a.Ply] {
					t.Errorf("game %d, %s at ply %d: SAN %q, the move was %q", i, a.Kind, a.Ply, a.SAN, sans[a.Ply])
				}
				for k, p := range a.Occurrences {
					if a.OccurrenceSAN[k] != sans[p] {
						t.Errorf("game %d, %s at ply %d: occurrence %d SAN %q, the move was %q", i, a.Kind, a.Ply, p, a.OccurrenceSAN[k], sans[p])
					}
				}
			}
		}
		if checked == 0 {
			t.Fatal("no alert checked")
		}
		t.Logf("%s: %d alerts checked", set.Name, checked)
	})
}
