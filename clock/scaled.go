package clock

import (
	"sync"
	"time"
)

// Scaled is a clock that runs Rate times faster than the wall clock, from
// the moment it was made: after one real second, Rate seconds have passed
// on it, and its timers fire after d/Rate of real time. Tests use it to
// play timed games faster than real time; whoever hands a duration to
// something outside the program (a UCI engine's movetime) must divide it
// by RateOf(clock) so that both sides see the same time.
type Scaled struct {
	rate   float64
	origin time.Time // the scaled time at start
	start  time.Time // the wall clock at start
}

// NewScaled returns a clock that reads origin now and runs rate (> 0)
// times faster than the wall clock.
func NewScaled(origin time.Time, rate float64) *Scaled {
	if rate <= 0 {
		rate = 1
	}
	return &Scaled{rate: rate, origin: origin, start: time.Now()}
}

// Rate is how many seconds pass on s per real second.
func (s *Scaled) Rate() float64 { return s.rate }

// Now implements Clock.
func (s *Scaled) Now() time.Time { return s.at(time.Now()) }

// at is the time on s at the wall-clock time w.
func (s *Scaled) at(w time.Time) time.Time {
	return s.origin.Add(time.Duration(float64(w.Sub(s.start)) * s.rate))
}

// NewTimer implements Clock.
func (s *Scaled) NewTimer(d time.Duration) Timer {
	t := &scaledTimer{s: s, c: make(chan time.Time, 1)}
	t.t = time.AfterFunc(s.real(d), t.fire)
	return t
}

func (s *Scaled) real(d time.Duration) time.Duration {
	return time.Duration(float64(d) / s.rate)
}

type scaledTimer struct {
	s *Scaled
	t *time.Timer
	c chan time.Time
}

func (t *scaledTimer) fire() {
	select {
	case t.c <- t.s.Now():
	default:
	}
}

func (t *scaledTimer) C() <-chan time.Time { return t.c }
func (t *scaledTimer) Stop() bool          { return t.t.Stop() }
func (t *scaledTimer) Reset(d time.Duration) bool {
	return t.t.Reset(t.s.real(d))
}

// RateOf returns how many seconds pass on c per real second: the Rate of
// a Scaled clock, 1 for any other.
func RateOf(c Clock) float64 {
	if r, ok := c.(interface{ Rate() float64 }); ok && r.Rate() > 0 {
		return r.Rate()
	}
	return 1
}

// RealDuration converts d on c to wall-clock time.
func RealDuration(c Clock, d time.Duration) time.Duration {
	return time.Duration(float64(d) / RateOf(c))
}

// NewTicker implements Clock.
func (s *Scaled) NewTicker(d time.Duration) Ticker {
	t := &scaledTicker{s: s, t: time.NewTicker(s.real(d)), c: make(chan time.Time, 1), stop: make(chan struct{})}
	go t.run()
	return t
}

// scaledTicker passes the ticks of a wall-clock ticker on with the scaled
// time; its goroutine ends with Stop.
type scaledTicker struct {
	s    *Scaled
	t    *time.Ticker
	c    chan time.Time
	stop chan struct{}
	once sync.Once
}

func (t *scaledTicker) run() {
	for {
		select {
		case w := <-t.t.C:
			select {
			case t.c <- t.s.at(w):
			default: // dropped, as a time.Ticker drops it
			}
		case <-t.stop:
			return
		}
	}
}

func (t *scaledTicker) C() <-chan time.Time { return t.c }
func (t *scaledTicker) Stop() {
	t.t.Stop()
	t.once.Do(func() { close(t.stop) })
}
func (t *scaledTicker) Reset(d time.Duration) { t.t.Reset(t.s.real(d)) }
