package store

import (
	"context"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
)

// An Acquire that takes over the lease of an instance whose lease ran out
// says whose it was and when it was last renewed, so that the taker can log
// the takeover and the gap; an Acquire of a free lease says nothing.
func TestAcquireTellsTakeover(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clk := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clk), openWithClock(t, cfg, clk)
		a, b := join(t, sa, "a", nil), join(t, sb, "b", nil)
		const src = "lichess broadcast round abcd1234"
		if l, err := a.Acquire(ctx, LeaseSource, src); err != nil || l.TakenFrom != nil {
			t.Fatalf("first acquire: %+v, %v", l, err)
		}
		clk.Advance(10 * time.Second)
		if _, err := a.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
		clk.Advance(45 * time.Second) // a died after its heartbeat at +10s
		l, err := b.Acquire(ctx, LeaseSource, src)
		if err != nil {
			t.Fatal(err)
		}
		from := l.TakenFrom
		if from == nil || from.Holder != "a" || !from.RenewedAt.Equal(epoch.Add(10*time.Second)) || !from.ExpiresAt.Equal(epoch.Add(40*time.Second)) {
			t.Fatalf("takeover: %+v, want from a, renewed at +10s, expired at +40s", from)
		}
		if err := b.Release(ctx, LeaseSource, src); err != nil {
			t.Fatal(err)
		}
		if l, err := a.Acquire(ctx, LeaseSource, src); err != nil || l.TakenFrom != nil {
			t.Errorf("acquire of a lease given back: %+v, %v; want no takeover", l, err)
		}
	})
}

// An instance forgotten as dead (its heartbeats stopped reaching the
// database for a long time) registers again at its next heartbeat, and has
// lost its leases.
func TestForgottenInstanceRegistersAgain(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clk := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clk), openWithClock(t, cfg, clk)
		a, b := join(t, sa, "a", nil), join(t, sb, "b", nil)
		if _, err := a.Acquire(ctx, LeaseSource, "s"); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Hour)
		if _, err := b.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := sb.ForgetInstances(ctx, clk.Now().Add(-10*time.Minute)); err != nil || n != 1 {
			t.Fatalf("forget: %d, %v", n, err)
		}
		lost, err := a.Heartbeat(ctx)
		if err != nil || len(lost) != 1 || lost[0].Name != "s" {
			t.Fatalf("heartbeat of a forgotten instance: lost %+v, %v", lost, err)
		}
		st, err := sb.Status(ctx, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Instances) != 2 || !st.Instances[0].Alive || st.Instances[0].ID != "a" {
			t.Errorf("instances %+v, want a back and alive", st.Instances)
		}
	})
}

// A game followed through a source's lease (a broadcast round's board)
// shows that lease's holder in the status, as a single game shows its own.
func TestStatusGameHolderThroughSource(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clk := clock.NewFake(epoch)
		s := openWithClock(t, cfg, clk)
		a := join(t, s, "a", nil)
		const round = "lichess broadcast round abcd1234"
		if _, err := a.Acquire(ctx, LeaseSource, round); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Acquire(ctx, LeaseGame, GameLeaseName("lichess", "single")); err != nil {
			t.Fatal(err)
		}
		for _, g := range []threefold.GameState{
			{Game: threefold.GameRef{Site: "lichess", ID: "board1"}, Source: round, Moves: []string{"e4"}},
			{Game: threefold.GameRef{Site: "lichess", ID: "single"}, Source: "lichess game single", Moves: []string{"d4"}},
			{Game: threefold.GameRef{Site: "file", ID: "r.pgn#1"}, Source: "file r.pgn", Moves: []string{"c4"}},
		} {
			if err := s.PutGame(ctx, Game{GameState: g}); err != nil {
				t.Fatal(err)
			}
		}
		st, err := s.Status(ctx, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		holders := map[string]string{}
		for _, g := range st.Games {
			holders[g.ID] = g.Holder
		}
		if holders["board1"] != "a" || holders["single"] != "a" || holders["r.pgn#1"] != "" || len(holders) != 3 {
			t.Errorf("holders %v, want board1 and single held by a, the file's game by nobody", holders)
		}
		clk.Advance(time.Minute) // the leases ran out
		if st, err = s.Status(ctx, clk.Now()); err != nil {
			t.Fatal(err)
		}
		for _, g := range st.Games {
			if g.Holder != "" {
				t.Errorf("game %s held by %q after the leases expired", g.ID, g.Holder)
			}
		}
	})
}
