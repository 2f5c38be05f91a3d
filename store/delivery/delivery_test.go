package delivery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/store"
)

// fakeSink records what it accepted and refuses while down or for the
// ids in refuse.
type fakeSink struct {
	mu     sync.Mutex
	got    []string
	down   bool
	refuse map[string]bool
}

func (f *fakeSink) Send(_ context.Context, a threefold.Alert) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down || f.refuse[a.ID] {
		return errors.New("sink is down")
	}
	f.got = append(f.got, a.ID)
	return nil
}

func (f *fakeSink) accepted() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

func alert(i int) threefold.Alert {
	g := threefold.GameRef{Site: "lichess", ID: "game", White: "A", Black: "B"}
	return threefold.Alert{ID: threefold.AlertID(g, threefold.KindThreefold, i, ""), Kind: threefold.KindThreefold,
		Ply: i, Count: 3, Game: g, Source: "test", ObservedAt: time.Date(2026, 11, 29, 12, 0, i, 0, time.UTC)}
}

func ids(as ...threefold.Alert) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

func open(t *testing.T, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run is one life of a program: the store, two sinks resumed at start,
// and a gate that sends each new alert to both.
func run(t *testing.T, st *store.Store, a, b *fakeSink) func(threefold.Alert) {
	ctx := context.Background()
	for name, s := range map[string]*fakeSink{"a": a, "b": b} {
		if _, err := Resume(ctx, st, name, s); err != nil && !strings.Contains(err.Error(), "sink is down") {
			t.Fatal(err)
		}
	}
	ma, mb := Mark(st, "a", a), Mark(st, "b", b)
	return Gate(ctx, st, nil, func(al threefold.Alert) {
		ma.Send(ctx, al)
		mb.Send(ctx, al)
	})
}

func TestRestartSendsWhatWasLeftAndNothingTwice(t *testing.T) {
	dir := t.TempDir()
	a1, a2, a3, a4 := alert(1), alert(2), alert(3), alert(4)

	// First life: b refuses a2 and a3 (rate limited, down, …), then the
	// process dies.
	st := open(t, dir)
	a := &fakeSink{}
	b := &fakeSink{refuse: map[string]bool{a2.ID: true, a3.ID: true}}
	gate := run(t, st, a, b)
	for _, al := range []threefold.Alert{a1, a2, a3} {
		gate(al)
	}
	st.Close()
	if got, want := a.accepted(), ids(a1, a2, a3); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("first life: a got %v, want %v", got, want)
	}

	// Second life: the sources replay the same events (same ids), b is up.
	st = open(t, dir)
	defer st.Close()
	a2nd, b2nd := &fakeSink{}, &fakeSink{}
	gate = run(t, st, a2nd, b2nd)
	if got, want := b2nd.accepted(), ids(a2, a3); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("resume: b got %v, want the two it refused, in order: %v", got, want)
	}
	if got := a2nd.accepted(); len(got) != 0 {
		t.Errorf("resume: a got %v again", got)
	}
	for _, al := range []threefold.Alert{a1, a2, a3, a4} {
		gate(al)
	}
	if got, want := a2nd.accepted(), ids(a4); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("replayed events: a got %v, want only the new %v", got, want)
	}
	if got, want := b2nd.accepted(), ids(a2, a3, a4); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("replayed events: b got %v, want %v", got, want)
	}
}

func TestResumeManyAndStopAtRefusal(t *testing.T) {
	st := open(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	s := &fakeSink{}
	if n, err := Resume(ctx, st, "s", s); n != 0 || err != nil { // registers the sink
		t.Fatal(n, err)
	}
	const total = 250 // more than one batch
	for i := 0; i < total; i++ {
		if _, err := st.PutAlert(ctx, alert(i)); err != nil {
			t.Fatal(err)
		}
	}
	refusing := &fakeSink{refuse: map[string]bool{alert(120).ID: true}}
	n, err := Resume(ctx, st, "s", refusing)
	if n != 120 || err == nil {
		t.Errorf("resume with a refusal at the 121st: sent %d, %v; want 120 and an error", n, err)
	}
	n, err = Resume(ctx, st, "s", s)
	if n != total-120 || err != nil {
		t.Errorf("resume: sent %d, %v; want %d", n, err, total-120)
	}
	if got := s.accepted(); len(got) == 0 || got[0] != alert(120).ID {
		t.Errorf("resume does not start at the refused alert: %v", got[:min(3, len(got))])
	}
	if n, err := Resume(ctx, st, "s", s); n != 0 || err != nil {
		t.Errorf("nothing left: sent %d, %v", n, err)
	}
}

// brokenStore fails every call.
type brokenStore struct{}

var errDiskFull = fmt.Errorf("disk: %w", store.ErrStorageFull)

func (brokenStore) PutAlert(context.Context, threefold.Alert) (bool, error) {
	return false, errDiskFull
}
func (brokenStore) MarkDelivered(context.Context, string, string) error { return errDiskFull }
func (brokenStore) Undelivered(context.Context, string, int) ([]threefold.Alert, error) {
	return nil, errDiskFull
}

func TestStoreFailures(t *testing.T) {
	ctx := context.Background()
	var passed []string
	Gate(ctx, brokenStore{}, nil, func(a threefold.Alert) { passed = append(passed, a.ID) })(alert(1))
	if len(passed) != 1 {
		t.Errorf("an alert the store could not keep was held back")
	}
	s := &fakeSink{}
	err := Mark(brokenStore{}, "s", s).Send(ctx, alert(1))
	if !errors.Is(err, store.ErrStorageFull) || !strings.Contains(err.Error(), "may be sent again") || len(s.accepted()) != 1 {
		t.Errorf("mark failure: %v (sink got %d)", err, len(s.accepted()))
	}
	if _, err := Resume(ctx, brokenStore{}, "s", s); !errors.Is(err, store.ErrStorageFull) {
		t.Errorf("resume: %v", err)
	}
	down := &fakeSink{down: true}
	st := open(t, t.TempDir())
	defer st.Close()
	if _, err := st.PutAlert(ctx, alert(1)); err != nil {
		t.Fatal(err)
	}
	if err := Mark(st, "down", down).Send(ctx, alert(1)); err == nil {
		t.Error("a refused alert was reported as sent")
	}
	if d, err := st.Delivered(ctx, alert(1).ID, "down"); d || err != nil {
		t.Errorf("a refused alert was marked delivered: %v, %v", d, err)
	}
}
