package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// flakySink refuses the alerts whose id is in refuse, and records the
// ones it accepts.
type flakySink struct {
	mu       sync.Mutex
	refuse   map[string]bool
	accepted []string
}

func (f *flakySink) Send(_ context.Context, a threefold.Alert) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse[a.ID] {
		return errors.New("503")
	}
	f.accepted = append(f.accepted, a.ID)
	return nil
}

// A webhook that refused an alert, or whose queue dropped one, is sent it
// by catchUp, once; an alert it accepted is never sent again.
func TestDurableWebhookCatchesUp(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sink := &flakySink{refuse: map[string]bool{"a2": true}}
	dw, err := newDurableWebhook(ctx, st, "json webhook 1", sink, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	dw.resume(ctx) // nothing stored yet
	alert := func(id string) threefold.Alert {
		return threefold.Alert{ID: id, Kind: threefold.KindThreefold, Game: threefold.GameRef{Site: "file", ID: "g"}}
	}
	for _, id := range []string{"a1", "a2", "a3", "a4"} {
		if _, err := st.PutAlert(ctx, alert(id)); err != nil {
			t.Fatal(err)
		}
	}
	// a1 and a3 go through the queue, a2 is refused, a4 was dropped.
	for _, id := range []string{"a1", "a2", "a3"} {
		err := dw.Send(ctx, alert(id))
		if (err != nil) != (id == "a2") {
			t.Fatalf("send %s: %v", id, err)
		}
	}
	sink.mu.Lock()
	sink.refuse = nil
	sink.mu.Unlock()
	if n := dw.catchUp(ctx, false); n != 2 {
		t.Errorf("catch-up sent %d, want 2 (a2 refused, a4 dropped)", n)
	}
	if n := dw.catchUp(ctx, true); n != 0 {
		t.Errorf("second catch-up sent %d, want 0", n)
	}
	if err := dw.Send(ctx, alert("a4")); err != nil { // the queue had it after all
		t.Fatal(err)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if got := len(sink.accepted); got != 4 {
		t.Errorf("accepted %v, want each of a1..a4 once", sink.accepted)
	}
	seen := map[string]bool{}
	for _, id := range sink.accepted {
		if seen[id] {
			t.Errorf("%s accepted twice", id)
		}
		seen[id] = true
	}
}

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
