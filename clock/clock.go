// Package clock is the one source of time for code that waits: the wall clock and a fake for tests.
//
// Everything that pauses (backoff, 429 pauses, poll intervals, stream
// watchdogs, lease renewals) takes a Clock, so that a test moves time on
// with a Fake instead of sleeping. Sleep is the one "wait unless
// cancelled".
package clock

import (
	"context"
	"time"
)

// Clock tells the time and makes timers.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that fires once, d from now.
	NewTimer(d time.Duration) Timer
	// NewTicker returns a ticker that fires every d (> 0) from now; like a
	// time.Ticker it drops ticks a slow receiver misses.
	NewTicker(d time.Duration) Ticker
}

// Timer is the part of *time.Timer that callers use. Stop and Reset may be
// called from any goroutine.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

// Ticker is the part of *time.Ticker that callers use.
type Ticker interface {
	C() <-chan time.Time
	Stop()
	Reset(d time.Duration)
}

// Real is the wall clock.
var Real Clock = wall{}

type wall struct{}

func (wall) Now() time.Time                   { return time.Now() }
func (wall) NewTimer(d time.Duration) Timer   { return wallTimer{time.NewTimer(d)} }
func (wall) NewTicker(d time.Duration) Ticker { return wallTicker{time.NewTicker(d)} }

type wallTimer struct{ t *time.Timer }

func (w wallTimer) C() <-chan time.Time        { return w.t.C }
func (w wallTimer) Stop() bool                 { return w.t.Stop() }
func (w wallTimer) Reset(d time.Duration) bool { return w.t.Reset(d) }

type wallTicker struct{ t *time.Ticker }

func (w wallTicker) C() <-chan time.Time   { return w.t.C }
func (w wallTicker) Stop()                 { w.t.Stop() }
func (w wallTicker) Reset(d time.Duration) { w.t.Reset(d) }

// Or returns c, or Real when c is nil: the default of an optional Clock.
func Or(c Clock) Clock {
	if c == nil {
		return Real
	}
	return c
}

// Sleep waits d on c, or until ctx is done. It returns ctx.Err(): nil when
// the whole wait passed and ctx is still live.
func Sleep(ctx context.Context, c Clock, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C():
	}
	return ctx.Err()
}
