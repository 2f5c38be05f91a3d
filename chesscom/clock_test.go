package chesscom_test

import (
	"context"
	"sync"
	"time"
)

// sleeper is one Sleep call waiting for the test.
type sleeper struct {
	d       time.Duration
	release chan struct{}
}

// fakeClock records every Sleep. In auto mode Sleep returns at once (the
// fake time moves on by d); otherwise each Sleep is handed to the test on
// sleeps and returns when the test releases it (or ctx ends).
type fakeClock struct {
	auto   bool
	sleeps chan *sleeper

	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newFakeClock(auto bool) *fakeClock {
	return &fakeClock{auto: auto, sleeps: make(chan *sleeper), now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.slept = append(c.slept, d)
	c.mu.Unlock()
	if !c.auto {
		s := &sleeper{d: d, release: make(chan struct{})}
		select {
		case c.sleeps <- s:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-s.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

func (c *fakeClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}
