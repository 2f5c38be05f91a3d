package delivery

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
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
// by the catch-up, once; an alert it accepted is never sent again.
func TestDurableCatchesUp(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sink := &flakySink{refuse: map[string]bool{"a2": true}}
	dw, err := NewDurable(ctx, st, sink, DurableConfig{Name: "json webhook 1"})
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
		err := dw.send(ctx, alert(id))
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
	if err := dw.send(ctx, alert("a4")); err != nil { // the queue had it after all
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

// Through Start and Close: what an earlier run left unsent goes first,
// then what was queued; Close returns once the queue is delivered and the
// resume and the catch-up (armed on the clock) have stopped.
func TestDurableStartAndClose(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	alert := func(id string) threefold.Alert {
		return threefold.Alert{ID: id, Kind: threefold.KindThreefold, Game: threefold.GameRef{Site: "file", ID: "g"}}
	}
	sink := &flakySink{}
	clk := clock.NewFake(time.Time{})
	dw, err := NewDurable(ctx, st, sink, DurableConfig{Name: "json webhook 1", CatchUp: time.Minute, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutAlert(ctx, alert("old")); err != nil { // stored by an earlier run, never sent
		t.Fatal(err)
	}
	dw.Start(ctx)
	for _, id := range []string{"new1", "new2"} {
		if _, err := st.PutAlert(ctx, alert(id)); err != nil {
			t.Fatal(err)
		}
		if err := dw.Send(ctx, alert(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := clk.WaitTimers(ctx, 1); err != nil { // the catch-up's ticker
		t.Fatal(err)
	}
	drain, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	dw.Close(drain)
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if !slices.Equal(sink.accepted, []string{"old", "new1", "new2"}) {
		t.Errorf("accepted %v, want old (resumed first), then new1 and new2", sink.accepted)
	}
	if n := clk.Timers(); n != 0 {
		t.Errorf("%d timers left after Close", n)
	}
	if as, err := st.Undelivered(ctx, "json webhook 1", 10); err != nil || len(as) != 0 {
		t.Errorf("still owed after Close: %v, %v", as, err)
	}
}
