package lichesstest

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/lichess"
)

// Clock is a fake lichess.Clock that moves only when told to. Share one
// between the client and the fake server so keep-alives, watchdogs,
// backoff and rate-limit pauses all run on the same time.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*fakeTimer
	changed chan struct{} // closed and replaced when the set of timers changes
}

// NewClock returns a fake clock set to start (zero: 2026-01-01 UTC).
func NewClock(start time.Time) *Clock {
	if start.IsZero() {
		start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return &Clock{now: start, changed: make(chan struct{})}
}

var _ lichess.Clock = (*Clock)(nil)

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer firing when the clock reaches Now()+d.
func (c *Clock) NewTimer(d time.Duration) lichess.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{clk: c, ch: make(chan time.Time, 1)}
	c.arm(t, d)
	return t
}

// arm (mu held) schedules t at now+d, firing at once when d <= 0.
func (c *Clock) arm(t *fakeTimer, d time.Duration) {
	t.when = c.now.Add(d)
	if d <= 0 {
		t.fire(c.now)
		return
	}
	t.active = true
	c.timers = append(c.timers, t)
	c.notify()
}

func (c *Clock) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Clock) remove(t *fakeTimer) bool {
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			t.active = false
			c.notify()
			return true
		}
	}
	return false
}

// Advance moves the clock forward by d, firing every timer due, in order
// of their deadlines.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	end := c.now.Add(d)
	for {
		sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].when.Before(c.timers[j].when) })
		if len(c.timers) == 0 || c.timers[0].when.After(end) {
			break
		}
		t := c.timers[0]
		c.timers = c.timers[1:]
		t.active = false
		if t.when.After(c.now) {
			c.now = t.when
		}
		t.fire(c.now)
	}
	c.now = end
	c.notify()
}

// Timers returns how many timers are waiting.
func (c *Clock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Next returns the duration until the earliest waiting timer, and false if
// there is none.
func (c *Clock) Next() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return 0, false
	}
	min := c.timers[0].when
	for _, t := range c.timers[1:] {
		if t.when.Before(min) {
			min = t.when
		}
	}
	return min.Sub(c.now), true
}

// WaitTimers blocks until at least n timers are waiting (or ctx is done).
// Use it before Advance to be sure the goroutine under test has reached
// its wait.
func (c *Clock) WaitTimers(ctx context.Context, n int) error {
	return c.WaitFor(ctx, func() bool { return c.Timers() >= n })
}

// WaitFor blocks until cond() holds, re-checking whenever the set of timers
// changes (or ctx is done).
func (c *Clock) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitTimer blocks until a timer with exactly duration d left is waiting,
// i.e. some goroutine has just started waiting for d.
func (c *Clock) WaitTimer(ctx context.Context, d time.Duration) error {
	return c.WaitFor(ctx, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, t := range c.timers {
			if t.when.Sub(c.now) == d {
				return true
			}
		}
		return false
	})
}

type fakeTimer struct {
	clk    *Clock
	ch     chan time.Time
	when   time.Time
	active bool
}

func (t *fakeTimer) fire(now time.Time) {
	select {
	case t.ch <- now:
	default:
	}
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.clk.mu.Lock()
	defer t.clk.mu.Unlock()
	return t.clk.remove(t)
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.clk.mu.Lock()
	defer t.clk.mu.Unlock()
	was := t.clk.remove(t)
	// Drain a value not yet received, as time.Timer does since Go 1.23.
	select {
	case <-t.ch:
	default:
	}
	t.clk.arm(t, d)
	return was
}
