package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// TestBatcherCommitsPerReading: the games and alerts of one reading of a
// file (each state but the last says More) are stored in one transaction,
// not several writes per game (8,000 games took 73 s, growing faster than
// their number); every alert is passed on once, after it was stored; a
// live state (no More) is stored at once, and a reading seen again passes
// nothing on twice.
func TestBatcherCommitsPerReading(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, Config{DataDir: t.TempDir()})
	var passed []threefold.Alert
	b := NewBatcher(ctx, st, nil, func(a threefold.Alert) {
		if _, err := st.Alert(ctx, a.ID); err != nil {
			t.Errorf("alert %s passed on before it was stored: %v", a.ID, err)
		}
		passed = append(passed, a)
	})
	rec := NewRecorder(st, nil)
	rec.SetBatcher(b)
	gate := b.Gate()
	// read plays a watcher: the state's alert first, then the record.
	read := func(states []threefold.GameState) {
		for _, s := range states {
			gate(testAlert(s.Game.Site, s.Game.ID, threefold.KindThreefold, 8, epoch))
			rec.Record(ctx, "file round.pgn", s)
		}
	}
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}
	const games = 300
	var states []threefold.GameState
	for i := range games {
		states = append(states, threefold.GameState{Game: threefold.GameRef{Site: "file", ID: fmt.Sprintf("round.pgn#%d", i+1)},
			Notation: rules.SAN, Moves: shuffle, Result: "1/2-1/2", Finished: true, More: i < games-1})
	}

	read(states)
	if b.commits != 1 {
		t.Fatalf("%d commits for one reading of %d games, want 1", b.commits, games)
	}
	if len(passed) != games {
		t.Fatalf("%d alerts passed on, want %d", len(passed), games)
	}
	gs, err := st.Games(ctx, GameFilter{})
	if err != nil || len(gs) != games {
		t.Fatalf("%d games stored, want %d (%v)", len(gs), games, err)
	}
	if data, ok, err := st.LoadSourceState(ctx, "file round.pgn"); err != nil || !ok || len(data) < games*10 {
		t.Fatalf("source state %d bytes, %v %v", len(data), ok, err)
	}

	live := threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "live"}, Notation: rules.SAN, Moves: shuffle}
	read([]threefold.GameState{live})
	if b.commits != 2 || len(passed) != games+1 {
		t.Fatalf("after a live state: %d commits, %d alerts passed on; want 2, %d", b.commits, len(passed), games+1)
	}

	read(states)
	if len(passed) != games+1 {
		t.Fatalf("%d alerts passed on again", len(passed)-games-1)
	}
}

// TestRecorderFlush: what states with More left in the batch is stored by
// Flush (a source that ended, or was stopped, before its last state).
func TestRecorderFlush(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, Config{DataDir: t.TempDir()})
	rec := NewRecorder(st, nil)
	rec.SetBatcher(NewBatcher(ctx, st, nil, func(threefold.Alert) {}))
	ref := threefold.GameRef{Site: "file", ID: "round.pgn#1"}
	rec.Record(ctx, "file round.pgn", threefold.GameState{Game: ref, Notation: rules.SAN, Moves: []string{"e4"}, More: true})
	if _, err := st.Game(ctx, ref.Site, ref.ID); err == nil {
		t.Fatal("a state with More was stored before the batch was committed")
	}
	rec.Flush()
	if g, err := st.Game(ctx, ref.Site, ref.ID); err != nil || len(g.Moves) != 1 {
		t.Fatalf("after Flush: %+v, %v", g, err)
	}
}

// TestBatcherWritesSourceStateOncePerReading: a reading of a file longer
// than a batch commits several batches, but the source's state (which
// names every game of the source) is written once, with the last: writing
// it with every full batch made a reading take time in the square of its
// games.
func TestBatcherWritesSourceStateOncePerReading(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, Config{DataDir: t.TempDir()})
	var passed []threefold.Alert
	b := NewBatcher(ctx, st, nil, func(a threefold.Alert) { passed = append(passed, a) })
	rec := NewRecorder(st, nil)
	rec.SetBatcher(b)
	gate := b.Gate()
	prepare, prepared := b.prepare, 0
	b.prepare = func(batch *Batch) { prepared++; prepare(batch) }
	games := maxBatch / 2 // three writes each: two batches at least
	for i := range games {
		ref := threefold.GameRef{Site: "file", ID: fmt.Sprintf("big.pgn#%d", i+1)}
		gate(testAlert(ref.Site, ref.ID, threefold.KindThreefold, 8, epoch))
		rec.Record(ctx, "file big.pgn", threefold.GameState{Game: ref, Notation: rules.SAN, Moves: []string{"e4", "e5"}, Result: "*", More: i < games-1})
	}
	// The last state said no more follow: everything is stored, every
	// alert passed on, in order.
	if b.commits < 2 || prepared != 1 {
		t.Errorf("%d commits, source state prepared %d times; want 2 or more, and once", b.commits, prepared)
	}
	if n, err := st.CountGames(ctx, GameFilter{}); n != games || err != nil {
		t.Errorf("%d games stored (%v), want %d", n, err, games)
	}
	if len(passed) != games {
		t.Fatalf("%d alerts passed on, want %d", len(passed), games)
	}
	for i, a := range passed {
		if want := fmt.Sprintf("big.pgn#%d", i+1); a.Game.ID != want {
			t.Fatalf("alert %d is of game %s, want %s: out of order", i, a.Game.ID, want)
		}
	}
	data, ok, err := st.LoadSourceState(ctx, "file big.pgn")
	var state SourceState
	if err != nil || !ok || json.Unmarshal(data, &state) != nil || len(state.Games) != games {
		t.Errorf("source state %d games (%v %v), want %d", len(state.Games), ok, err, games)
	}
}
