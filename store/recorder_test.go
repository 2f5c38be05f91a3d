package store

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

func TestMovesTermination(t *testing.T) {
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
			if got := MovesTermination(s); got != tc.want {
				t.Errorf("termination = %q, want %q", got, tc.want)
			}
		})
	}
}

// A Recorder puts a game the first time, updates it after, writes the
// progress with it and the source's games, and writes nothing for a state
// it recorded already; the true termination comes with the finished game.
func TestRecorder(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Config{DataDir: t.TempDir()})
	var states []string
	r := NewRecorder(s, nil)
	r.SetStateWriter(func(ctx context.Context, source string, state []byte) error {
		states = append(states, source+" "+string(state))
		return s.SaveSourceState(ctx, source, state)
	})
	ref := threefold.GameRef{Site: "file", ID: "r1.pgn#1", White: "A", Black: "B"}
	tags := []threefold.Tag{{Name: "Event", Value: "Club"}, {Name: "Round", Value: "3"}}
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}
	for _, st := range []threefold.GameState{
		{Game: ref, Event: "Club", Tags: tags, Moves: shuffle[:4], Result: "*", ObservedAt: epoch},
		{Game: ref, Moves: shuffle[:4], Result: "*", ObservedAt: epoch}, // the same again
		{Game: ref, Moves: shuffle, Result: "1/2-1/2", Finished: true},
	} {
		r.Record(ctx, "file r1.pgn", st)
	}
	g, err := s.Game(ctx, "file", "r1.pgn#1")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 16 || !g.Finished || g.Termination != threefold.TermFivefold || g.Source != "file r1.pgn" || !g.StartedAt.Equal(epoch) {
		t.Errorf("stored game %+v", g)
	}
	if g.Event != "Club" || !reflect.DeepEqual(g.Tags, tags) {
		t.Errorf("stored event %q, tags %v; want the state's", g.Event, g.Tags)
	}
	if ply, ok, err := s.LoadProgress(ctx, "file", "r1.pgn#1"); err != nil || !ok || ply != 16 {
		t.Errorf("progress %d %v %v, want 16", ply, ok, err)
	}
	if len(states) != 2 || states[1] != `file r1.pgn {"games":{"file/r1.pgn#1":16}}` {
		t.Errorf("source states written %q, want the game when first seen and when finished", states)
	}
}

// A game is stored as started when a recorder first sees it; a recorder
// of a later run (a restart) that sees it again keeps that time, and
// gives its own to a game the store did not have. With and without a
// batcher.
func TestRecorderKeepsFirstSight(t *testing.T) {
	later := epoch.Add(time.Hour)
	for _, batched := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "batched"}[batched], func(t *testing.T) {
			ctx := context.Background()
			s := openTest(t, Config{DataDir: t.TempDir()})
			record := func(states ...threefold.GameState) {
				r := NewRecorder(s, nil)
				if batched {
					r.SetBatcher(NewBatcher(ctx, s, nil, func(threefold.Alert) {}))
				}
				for _, st := range states {
					r.Record(ctx, "file r.pgn", st)
				}
				r.Flush()
			}
			old := threefold.GameRef{Site: "file", ID: "r.pgn#1"}
			record(threefold.GameState{Game: old, Moves: []string{"e4"}, ObservedAt: epoch})
			// The next run.
			fresh := threefold.GameRef{Site: "file", ID: "r.pgn#2"}
			record(threefold.GameState{Game: old, Moves: []string{"e4", "e5"}, ObservedAt: later, More: true},
				threefold.GameState{Game: fresh, Moves: []string{"d4"}, ObservedAt: later})
			for _, tc := range []struct {
				ref   threefold.GameRef
				want  time.Time
				plies int
			}{{old, epoch, 2}, {fresh, later, 1}} {
				g, err := s.Game(ctx, tc.ref.Site, tc.ref.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !g.StartedAt.Equal(tc.want) || len(g.Moves) != tc.plies {
					t.Errorf("%s: started %v with %d plies, want %v with %d", tc.ref.ID, g.StartedAt, len(g.Moves), tc.want, tc.plies)
				}
			}
		})
	}
}

// fixedTerminations answers one termination for every game, of a state
// of plies plies.
type fixedTerminations struct {
	term  threefold.Termination
	plies int
	ok    bool
}

func (f fixedTerminations) Termination(site, id string) (threefold.Termination, int, bool) {
	return f.term, f.plies, f.ok
}

// A recorder with Terminations stores the termination they give for the
// state recorded, and replays the moves itself when they do not know or
// speak of another state.
func TestRecorderTerminations(t *testing.T) {
	moves := []string{"e4", "e5"} // the moves do not say: ""
	tests := []struct {
		name  string
		terms Terminations
		want  threefold.Termination
	}{
		{"theirs", fixedTerminations{threefold.TermCheckmate, 2, true}, threefold.TermCheckmate},
		{"they do not know", fixedTerminations{threefold.TermCheckmate, 2, false}, ""},
		{"of another state", fixedTerminations{threefold.TermCheckmate, 3, true}, ""},
		{"none", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := openTest(t, Config{DataDir: t.TempDir()})
			r := NewRecorder(s, nil)
			r.SetTerminations(tc.terms)
			r.Record(ctx, "file r.pgn", threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "r.pgn#1"}, Notation: rules.SAN,
				Moves: moves, Result: "1-0", Finished: true})
			g, err := s.Game(ctx, "file", "r.pgn#1")
			if err != nil {
				t.Fatal(err)
			}
			if g.Termination != tc.want {
				t.Errorf("termination %q, want %q", g.Termination, tc.want)
			}
		})
	}
}

// A finished game whose state is its source's last (a file read once) is
// stored, then forgotten by the recorder: its memory does not grow with
// the games of the file. The source's state names the games that may
// still change. A game that finished but may still be corrected stays.
func TestRecorderForgetsGamesAfterTheirLastState(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Config{DataDir: t.TempDir()})
	r := NewRecorder(s, nil)
	var states []string
	r.SetStateWriter(func(ctx context.Context, source string, state []byte) error {
		states = append(states, string(state))
		return s.SaveSourceState(ctx, source, state)
	})
	moves := []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}
	state := func(id string, last bool) threefold.GameState {
		return threefold.GameState{Game: threefold.GameRef{Site: "file", ID: id}, Moves: moves, Result: "1-0", Finished: true, Last: last, ObservedAt: epoch}
	}
	unfinished := func(id string, last bool) threefold.GameState {
		return threefold.GameState{Game: threefold.GameRef{Site: "file", ID: id}, Moves: moves[:4], Result: "*", Last: last, ObservedAt: epoch}
	}
	cases := []struct {
		name  string
		state threefold.GameState
		held  int    // games the recorder holds after it
		saved string // the source's state written
	}{
		{"the last state of a", state("f.pgn#1", true), 0, `{"games":{}}`},
		{"b, finished, may be corrected", state("f.pgn#2", false), 1, `{"games":{"file/f.pgn#2":7}}`},
		{"the last state of c", state("f.pgn#3", true), 1, `{"games":{"file/f.pgn#2":7}}`},
		{"d, without a result, may go on", unfinished("f.pgn#4", false), 2, `{"games":{"file/f.pgn#2":7,"file/f.pgn#4":4}}`},
		{"the last state of e, without a result", unfinished("f.pgn#5", true), 2, `{"games":{"file/f.pgn#2":7,"file/f.pgn#4":4}}`},
	}
	for _, c := range cases {
		r.Record(ctx, "file f.pgn", c.state)
		g, err := s.Game(ctx, "file", c.state.Game.ID)
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.state.Finished && (!g.Finished || g.Termination != threefold.TermCheckmate || len(g.Moves) != len(moves)):
			t.Errorf("%s: stored %+v", c.name, g)
		case !c.state.Finished && (g.Finished || len(g.Moves) != len(c.state.Moves)):
			t.Errorf("%s: stored %+v", c.name, g)
		}
		r.mu.Lock()
		held := len(r.games)
		r.mu.Unlock()
		if held != c.held {
			t.Errorf("%s: the recorder holds %d games, want %d", c.name, held, c.held)
		}
		if last := states[len(states)-1]; last != c.saved {
			t.Errorf("%s: source state %s, want %s", c.name, last, c.saved)
		}
	}
}
