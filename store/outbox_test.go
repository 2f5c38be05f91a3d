package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
)

func TestOutboxLifecycle(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clock), openWithClock(t, cfg, clock)
		sinks := []string{"webhook-0", "discord-1"}
		a1 := testAlert("lichess", "g1", threefold.KindThreefold, 20, epoch)
		a2 := testAlert("lichess", "g1", threefold.KindFivefold, 36, epoch)
		for i, want := range []bool{true, false} {
			isNew, err := sa.PutAlertOutbox(ctx, a1, sinks)
			if err != nil || isNew != want {
				t.Fatalf("put #%d: new %v, %v", i+1, isNew, err)
			}
		}
		// The same alert from another instance: stored once, due once.
		if isNew, err := sb.PutAlertOutbox(ctx, a1, sinks); err != nil || isNew {
			t.Fatalf("put from b: new %v, %v", isNew, err)
		}
		clock.Advance(time.Second)
		if _, err := sb.PutAlertOutbox(ctx, a2, sinks[:1]); err != nil {
			t.Fatal(err)
		}

		items, err := sa.ClaimOutbox(ctx, "a", time.Minute, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range items {
			got = append(got, it.Alert.ID[:6]+" "+it.Sink)
			if it.Attempts != 1 || it.ClaimedBy != "a" || !it.ClaimedUntil.Equal(epoch.Add(61*time.Second)) {
				t.Errorf("item %+v", it)
			}
		}
		want := []string{a1.ID[:6] + " discord-1", a1.ID[:6] + " webhook-0", a2.ID[:6] + " webhook-0"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("claimed %v, want %v", got, want)
		}
		if items[0].Alert.Game.ID != "g1" || items[0].Alert.Count != 3 {
			t.Errorf("the claimed alert is not the stored one: %+v", items[0].Alert)
		}
		if more, err := sb.ClaimOutbox(ctx, "b", time.Minute, 0); err != nil || len(more) != 0 {
			t.Fatalf("b claimed rows a holds: %v %v", more, err)
		}

		// a delivers one, fails one, dies with the third.
		if err := sa.MarkSent(ctx, items[0]); err != nil {
			t.Fatal(err)
		}
		if err := sa.FailOutbox(ctx, items[1], "webhook-0: HTTP 500", clock.Now().Add(10*time.Second)); err != nil {
			t.Fatal(err)
		}
		if ok, err := sa.Delivered(ctx, a1.ID, "discord-1"); err != nil || !ok {
			t.Errorf("Delivered after MarkSent: %v %v", ok, err)
		}
		if more, err := sb.ClaimOutbox(ctx, "b", time.Minute, 0); err != nil || len(more) != 0 {
			t.Fatalf("b claimed before the retry time and the claim ran out: %v %v", more, err)
		}
		st, err := sb.Status(ctx, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(st.Outbox, func(i, j int) bool { return st.Outbox[i].Sink < st.Outbox[j].Sink })
		if len(st.Outbox) != 2 || st.Outbox[1].Pending != 2 || st.Outbox[1].Claimed != 1 || st.Outbox[1].LastError != "webhook-0: HTTP 500" ||
			st.Outbox[0].Sent != 1 || st.Outbox[0].Pending != 0 {
			t.Errorf("outbox status %+v", st.Outbox)
		}

		clock.Advance(10 * time.Second) // the failed one is due again
		more, err := sb.ClaimOutbox(ctx, "b", time.Minute, 0, "webhook-0")
		if err != nil || len(more) != 1 || more[0].Alert.ID != a1.ID || more[0].Attempts != 2 {
			t.Fatalf("b after the retry time: %+v %v", more, err)
		}
		clock.Advance(50 * time.Second) // a's claim of a2 ran out: a died
		taken, err := sb.ClaimOutbox(ctx, "b", time.Minute, 0)
		if err != nil || len(taken) != 1 || taken[0].Alert.ID != a2.ID || taken[0].Attempts != 2 {
			t.Fatalf("b takes over a's claim: %+v %v", taken, err)
		}
		// a, back, fails its old claim: b's claim is left alone.
		if err := sa.FailOutbox(ctx, items[2], "late", clock.Now()); err != nil {
			t.Fatal(err)
		}
		if again, err := sa.ClaimOutbox(ctx, "a", time.Minute, 0); err != nil || len(again) != 0 {
			t.Fatalf("a's late failure freed b's claim: %+v %v", again, err)
		}
		for _, it := range append(more, taken...) {
			if err := sb.MarkSent(ctx, it); err != nil {
				t.Fatal(err)
			}
		}
		if err := sb.MarkSent(ctx, taken[0]); err != nil {
			t.Errorf("marking twice: %v", err)
		}
		clock.Advance(time.Hour)
		if rest, err := sa.ClaimOutbox(ctx, "a", time.Minute, 0); err != nil || len(rest) != 0 {
			t.Fatalf("sent rows claimed again: %+v %v", rest, err)
		}
		if n, err := sa.PruneOutbox(ctx, clock.Now()); err != nil || n != 3 {
			t.Errorf("pruned %d, %v", n, err)
		}
		if _, err := sa.ClaimOutbox(ctx, "", time.Minute, 0); err == nil {
			t.Error("a claim without a claimer")
		}
	})
}

// TestOutboxConcurrentClaimers: several claimers, each on its own
// connection pool, drain one outbox at once; every row is claimed and
// sent exactly once.
func TestOutboxConcurrentClaimers(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		s := openWithClock(t, cfg, clock)
		const alerts = 150
		sinks := []string{"w0", "w1"}
		for i := 0; i < alerts; i++ {
			if _, err := s.PutAlertOutbox(ctx, testAlert("lichess", fmt.Sprint("g", i%7), threefold.KindThreefold, i+8, epoch), sinks); err != nil {
				t.Fatal(err)
			}
		}
		var (
			mu   sync.Mutex
			sent = map[string]int{}
			wg   sync.WaitGroup
			errs = make(chan error, 4)
		)
		for c := 0; c < 4; c++ {
			st := openWithClock(t, cfg, clock)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					items, err := st.ClaimOutbox(ctx, fmt.Sprint("c", c), time.Hour, 7)
					if err != nil {
						errs <- err
						return
					}
					if len(items) == 0 {
						return
					}
					for _, it := range items {
						mu.Lock()
						sent[it.Alert.ID+" "+it.Sink]++
						mu.Unlock()
						if err := st.MarkSent(ctx, it); err != nil {
							errs <- err
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if len(sent) != alerts*len(sinks) {
			t.Errorf("%d rows sent, want %d", len(sent), alerts*len(sinks))
		}
		for k, n := range sent {
			if n != 1 {
				t.Errorf("%s sent %d times", k, n)
			}
		}
	})
}

// TestOutboxKeepsAlertAndRowsTogether: a failed transaction stores neither
// the alert nor its rows.
func TestOutboxKeepsAlertAndRowsTogether(t *testing.T) {
	s := openTest(t, Config{DataDir: t.TempDir()})
	ctx := context.Background()
	a := testAlert("lichess", "g", threefold.KindThreefold, 8, epoch)
	// The same sink twice is one row; a cancelled context stores nothing.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.PutAlertOutbox(cctx, a, []string{"w"}); err == nil {
		t.Fatal("stored under a cancelled context")
	}
	if _, err := s.Alert(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("alert after a failed put: %v", err)
	}
	if _, err := s.PutAlertOutbox(ctx, a, []string{"w", "w"}); err != nil {
		t.Fatal(err)
	}
	items, err := s.ClaimOutbox(ctx, "x", time.Minute, 0)
	if err != nil || len(items) != 1 {
		t.Fatalf("claimed %+v %v", items, err)
	}
}
