package backoff

import (
	"testing"
	"time"
)

func TestPolicyDelay(t *testing.T) {
	fixed := func(v float64) func() float64 { return func() float64 { return v } }
	tests := []struct {
		name     string
		p        Policy
		attempt  int
		min, max time.Duration
	}{
		{"first, defaults", Policy{}, 0, 500 * time.Millisecond, time.Second},
		{"doubles", Policy{Initial: time.Second, Max: time.Minute}, 3, 4 * time.Second, 8 * time.Second},
		{"capped", Policy{Initial: time.Second, Max: 10 * time.Second}, 30, 5 * time.Second, 10 * time.Second},
		{"huge attempt does not overflow", Policy{Initial: time.Second, Max: time.Minute}, 1 << 20, 30 * time.Second, time.Minute},
		{"jitter low end", Policy{Initial: time.Second, Max: time.Minute, Rand: fixed(0)}, 1, time.Second, time.Second},
		{"jitter high end", Policy{Initial: time.Second, Max: time.Minute, Rand: fixed(1)}, 1, 2 * time.Second, 2 * time.Second},
		{"jitter middle", Policy{Initial: 4 * time.Second, Max: time.Minute, Rand: fixed(0.5)}, 0, 3 * time.Second, 3 * time.Second},
		{"max below initial is raised", Policy{Initial: 10 * time.Second, Max: time.Second, NoJitter: true}, 2, 10 * time.Second, 10 * time.Second},
		{"no jitter first", Policy{Initial: time.Second, Max: 30 * time.Second, NoJitter: true}, 0, time.Second, time.Second},
		{"no jitter doubles", Policy{Initial: time.Second, Max: 30 * time.Second, NoJitter: true}, 4, 16 * time.Second, 16 * time.Second},
		{"no jitter capped", Policy{Initial: time.Second, Max: 30 * time.Second, NoJitter: true}, 5, 30 * time.Second, 30 * time.Second},
		{"no jitter defaults", Policy{NoJitter: true}, 10, time.Minute, time.Minute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i := 0; i < 50; i++ {
				if d := tc.p.Delay(tc.attempt); d < tc.min || d > tc.max {
					t.Fatalf("Delay(%d) = %s, want in [%s, %s]", tc.attempt, d, tc.min, tc.max)
				}
			}
		})
	}
}

func TestBackoffNextReset(t *testing.T) {
	type step struct {
		reset bool // Reset before Next
		want  time.Duration
	}
	tests := []struct {
		name  string
		p     Policy
		steps []step
	}{
		{"doubles to the cap", Policy{Initial: time.Second, Max: 5 * time.Second, NoJitter: true},
			[]step{{false, time.Second}, {false, 2 * time.Second}, {false, 4 * time.Second}, {false, 5 * time.Second}, {false, 5 * time.Second}}},
		{"reset starts over", Policy{Initial: time.Second, Max: time.Minute, NoJitter: true},
			[]step{{false, time.Second}, {false, 2 * time.Second}, {true, time.Second}, {false, 2 * time.Second}}},
		{"jittered with injected rand", Policy{Initial: 2 * time.Second, Max: time.Minute, Rand: func() float64 { return 0 }},
			[]step{{false, time.Second}, {false, 2 * time.Second}, {true, time.Second}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := Backoff{Policy: tc.p}
			for i, s := range tc.steps {
				if s.reset {
					b.Reset()
					if b.Failures() != 0 {
						t.Fatalf("step %d: Failures() = %d after Reset", i, b.Failures())
					}
				}
				before := b.Failures()
				if got := b.Next(); got != s.want {
					t.Fatalf("step %d: Next() = %s, want %s", i, got, s.want)
				}
				if b.Failures() != before+1 {
					t.Fatalf("step %d: Failures() = %d, want %d", i, b.Failures(), before+1)
				}
			}
		})
	}
}
