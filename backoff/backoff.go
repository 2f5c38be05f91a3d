// Package backoff computes the waits between retries: capped, exponential, jittered.
//
// It computes the waits between retries of something that
// failed: a capped exponential backoff, jittered unless asked not to be,
// that starts again from the first wait after a success. The n-th wait
// (n from 0) is d = min(Initial·2ⁿ, Max), or with jitter a random duration
// in [d/2, d] so that many clients that failed together do not come back
// together. It only computes durations: the caller logs the wait and
// sleeps on its own (injected) clock, and the random source is injected
// too, so tests never depend on time or chance.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Defaults for the zero values of Policy.
const (
	DefaultInitial = time.Second
	DefaultMax     = time.Minute
)

// Policy is the shape of a backoff. The zero value is a jittered backoff
// from 1 s to 1 min.
type Policy struct {
	Initial time.Duration // the first wait (before jitter); default 1 s
	Max     time.Duration // the cap (before jitter); default 1 min, never below Initial
	// NoJitter makes every wait exactly min(Initial·2ⁿ, Max).
	NoJitter bool
	// Rand returns a number in [0,1] that places a jittered wait in
	// [d/2, d]; default math/rand/v2.Float64.
	Rand func() float64
}

// Delay returns the wait before retry number attempt (from 0).
func (p Policy) Delay(attempt int) time.Duration {
	initial, ceiling := p.Initial, p.Max
	if initial <= 0 {
		initial = DefaultInitial
	}
	if ceiling <= 0 {
		ceiling = DefaultMax
	}
	ceiling = max(ceiling, initial)
	d := initial
	for i := 0; i < attempt && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	if p.NoJitter {
		return d
	}
	r := p.Rand
	if r == nil {
		r = rand.Float64
	}
	return d/2 + time.Duration(r()*float64(d/2))
}

// Backoff counts the failures in a row of one thing. The zero value uses
// the zero Policy. It is not safe for concurrent use: give each retry
// loop its own.
type Backoff struct {
	Policy Policy
	n      int
}

// Next returns the wait before the next retry and counts one failure.
func (b *Backoff) Next() time.Duration {
	d := b.Policy.Delay(b.n)
	b.n++
	return d
}

// Reset starts again from the first wait, after a success.
func (b *Backoff) Reset() { b.n = 0 }

// Failures returns how many waits Next handed out since the last Reset.
func (b *Backoff) Failures() int { return b.n }
