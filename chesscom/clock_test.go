package chesscom_test

import (
	"context"
	"time"

	"github.com/threefold-chess/threefold/clock"
)

// newFakeClock returns a fake clock at 2026-11-29 12:00 UTC. On an auto
// clock every wait ends at once; otherwise the test receives each wait
// with nextSleep and ends it with release.
func newFakeClock(auto bool) *clock.Fake {
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if auto {
		return clock.NewAutoFake(start)
	}
	return clock.NewFake(start)
}

// sleeper is one wait of the client under test, handed to the test.
type sleeper struct {
	d   time.Duration
	clk *clock.Fake
}

// release ends the wait, moving the fake time on by its length.
func (s *sleeper) release() { s.clk.Advance(s.d) }

// nextSleep returns the next wait the client begins on clk, or, when done
// delivers first (the call returned instead of waiting), ended and its
// error.
func nextSleep(clk *clock.Fake, done <-chan error) (s *sleeper, ended bool, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan time.Duration, 1)
	go func() {
		if d, err := clk.NextWait(ctx); err == nil {
			got <- d
		}
	}()
	select {
	case d := <-got:
		return &sleeper{d: d, clk: clk}, false, nil
	case err := <-done:
		return nil, true, err
	}
}
