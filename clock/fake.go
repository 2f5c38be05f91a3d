package clock

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Epoch is where a Fake made with a zero start begins: 2026-01-01 UTC.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Fake is a Clock that moves only when told to. Share one between the code
// under test and the fakes it talks to, so that keep-alives, watchdogs,
// backoff and pauses all run on the same time. Its methods are safe for
// concurrent use.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	auto    bool          // every timer fires at once, moving the clock to its deadline
	step    time.Duration // every Now moves the clock on by step first
	timers  []*fakeTimer
	waits   []time.Duration // every wait asked for, in order
	taken   int             // waits handed out by NextWait
	changed chan struct{}   // closed and replaced when the timers or waits change
}

// NewFake returns a fake clock set to start (zero: Epoch).
func NewFake(start time.Time) *Fake {
	if start.IsZero() {
		start = Epoch
	}
	return &Fake{now: start, changed: make(chan struct{})}
}

// NewAutoFake returns a fake clock on which every wait ends at once, the
// clock jumping to its end: for code that waits from one goroutine, when a
// test cares only about what was waited for (Waits), not about when.
func NewAutoFake(start time.Time) *Fake {
	f := NewFake(start)
	f.auto = true
	return f
}

// SetStep makes every reading of Now move the clock on by d first (0:
// off), for code that needs each of its timestamps to be distinct.
func (f *Fake) SetStep(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.step = d
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(f.step)
	return f.now
}

// NewTimer returns a timer firing when the clock reaches Now()+d.
func (f *Fake) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clk: f, ch: make(chan time.Time, 1)}
	f.arm(t, d)
	return t
}

// NewTicker returns a ticker firing every d once the clock reaches
// Now()+d, Now()+2d, …
func (f *Fake) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clk: f, ch: make(chan time.Time, 1), period: d}
	f.arm(t, d)
	return fakeTicker{t}
}

// arm (mu held) schedules t at now+d, firing at once when d <= 0 (or on
// an auto fake).
func (f *Fake) arm(t *fakeTimer, d time.Duration) {
	f.waits = append(f.waits, d)
	defer f.notify()
	if f.auto && d > 0 {
		f.now = f.now.Add(d)
		d = 0
	}
	t.when = f.now.Add(d)
	if d <= 0 {
		t.fire(f.now)
		return
	}
	f.timers = append(f.timers, t)
}

func (f *Fake) notify() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *Fake) remove(t *fakeTimer) bool {
	i := slices.Index(f.timers, t)
	if i < 0 {
		return false
	}
	f.timers = slices.Delete(f.timers, i, i+1)
	f.notify()
	return true
}

// Advance moves the clock forward by d, firing every timer due, in order
// of their deadlines.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	end := f.now.Add(d)
	for {
		slices.SortStableFunc(f.timers, func(a, b *fakeTimer) int { return a.when.Compare(b.when) })
		if len(f.timers) == 0 || f.timers[0].when.After(end) {
			break
		}
		t := f.timers[0]
		f.timers = f.timers[1:]
		if t.when.After(f.now) {
			f.now = t.when
		}
		t.fire(f.now)
		if t.period > 0 { // a ticker: due again a period on
			t.when = t.when.Add(t.period)
			f.timers = append(f.timers, t)
		}
	}
	f.now = end
	f.notify()
}

// Timers returns how many timers are waiting.
func (f *Fake) Timers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

// Next returns the duration until the earliest waiting timer, and false if
// there is none.
func (f *Fake) Next() (time.Duration, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.timers) == 0 {
		return 0, false
	}
	first := f.timers[0].when
	for _, t := range f.timers[1:] {
		if t.when.Before(first) {
			first = t.when
		}
	}
	return first.Sub(f.now), true
}

// Waits returns the duration of every wait asked for so far (each
// NewTimer and Reset), in order.
func (f *Fake) Waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.waits)
}

// WaitTimers blocks until at least n timers are waiting (or ctx is done).
// Use it before Advance to be sure the goroutine under test has reached
// its wait.
func (f *Fake) WaitTimers(ctx context.Context, n int) error {
	return f.WaitFor(ctx, func() bool { return f.Timers() >= n })
}

// NextWait blocks until a wait that no earlier NextWait returned has been
// asked for (or ctx is done) and returns its duration: the waits of the
// code under test, handed to the test one by one, in order.
func (f *Fake) NextWait(ctx context.Context) (time.Duration, error) {
	var d time.Duration
	err := f.WaitFor(ctx, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.taken == len(f.waits) {
			return false
		}
		d = f.waits[f.taken]
		f.taken++
		return true
	})
	return d, err
}

// WaitFor blocks until cond() holds, re-checking whenever the timers or
// waits change (or ctx is done).
func (f *Fake) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		f.mu.Lock()
		ch := f.changed
		f.mu.Unlock()
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
func (f *Fake) WaitTimer(ctx context.Context, d time.Duration) error {
	return f.WaitFor(ctx, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, t := range f.timers {
			if t.when.Sub(f.now) == d {
				return true
			}
		}
		return false
	})
}

type fakeTimer struct {
	clk    *Fake
	ch     chan time.Time
	when   time.Time
	period time.Duration // a ticker's interval; 0 for a timer
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

type fakeTicker struct{ t *fakeTimer }

func (k fakeTicker) C() <-chan time.Time { return k.t.ch }
func (k fakeTicker) Stop()               { k.t.Stop() }

func (k fakeTicker) Reset(d time.Duration) {
	if d <= 0 {
		panic("clock: non-positive interval for Ticker.Reset")
	}
	k.t.clk.mu.Lock()
	defer k.t.clk.mu.Unlock()
	k.t.clk.remove(k.t)
	k.t.period = d
	k.t.clk.arm(k.t, d)
}
