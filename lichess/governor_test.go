package lichess_test

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// A 429 pauses the whole account: the caller gets a *RateLimitError, every
// later call waits, and nothing reaches the server before the pause ends.
func TestRateLimitPausesTheWholeAccount(t *testing.T) {
	tests := []struct {
		name    string
		seconds int // ratelimit.seconds in the body, 0 for none
		pause   time.Duration
	}{
		{"plain 429 pauses a minute", 0, time.Minute},
		{"ratelimit body asks longer", 3600, time.Hour},
		{"ratelimit body asks shorter: still a minute", 5, time.Minute},
		{"ratelimit body asks for years: capped", 999999999, lichess.MaxRateLimitPause},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{clock: true})
			game := e.newGame()
			t0 := e.clk.Now()
			e.fake.Inject(fakelichess.RateLimited("/api/challenge/*/accept", tc.seconds))
			err := e.c.AcceptChallenge(e.ctx, "someid")
			var rl *lichess.RateLimitError
			if !errors.As(err, &rl) || rl.Pause != tc.pause {
				t.Fatalf("err = %v, want a rate-limit error with pause %s", err, tc.pause)
			}
			if got := e.c.PausedUntil(); !got.Equal(t0.Add(tc.pause)) {
				t.Errorf("paused until %s, want %s", got, t0.Add(tc.pause))
			}
			sent := len(e.fake.Requests())

			// Three callers of different endpoints all wait.
			var wg sync.WaitGroup
			errs := make(chan error, 3)
			for _, f := range []func() error{
				func() error { return e.c.Move(e.ctx, game, "e2e4", false) },
				func() error { _, err := e.c.Account(e.ctx); return err },
				func() error { _, err := e.c.Playing(e.ctx); return err },
			} {
				wg.Add(1)
				go func() { defer wg.Done(); errs <- f() }()
			}
			// The first caller waits out the pause on the clock.
			if err := e.clk.WaitTimer(e.ctx, tc.pause); err != nil {
				t.Fatal(err)
			}
			e.clk.Advance(tc.pause - time.Second)
			if got := len(e.fake.Requests()); got != sent {
				t.Fatalf("%d requests sent during the pause", got-sent)
			}
			e.clk.Advance(time.Second)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("call after the pause: %v", err)
				}
			}
			reqs := e.fake.Requests()[sent:]
			if len(reqs) != 3 {
				t.Fatalf("%d requests after the pause, want 3", len(reqs))
			}
			for _, r := range reqs {
				if r.Time.Before(t0.Add(tc.pause)) {
					t.Errorf("%s %s sent at %s, during the pause", r.Method, r.Path, r.Time.Sub(t0))
				}
			}
		})
	}
}

// A 429 on a stream pauses the account too, and the stream connects after
// the pause.
func TestRateLimitedStreamWaits(t *testing.T) {
	e := newEnv(t, envOpts{clock: true, client: lichess.Options{Backoff: lichess.Backoff{Initial: time.Second, Max: time.Second, Rand: func() float64 { return 1 }}}})
	t0 := e.clk.Now()
	e.fake.Inject(fakelichess.RateLimited("/api/stream/event", 0))
	got := make(chan lichess.Event, 10)
	done := run(t, func() error {
		return e.c.StreamEvents(e.ctx, func(ev lichess.Event) error { got <- ev; return errStop })
	})
	// The backoff (1 s), then the rest of the governor's pause (59 s).
	if err := e.clk.WaitTimer(e.ctx, time.Second); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(time.Second)
	if err := e.clk.WaitTimer(e.ctx, 59*time.Second); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(59*time.Second - time.Millisecond)
	if n := len(e.fake.RequestsTo(http.MethodGet, "/api/stream/event")); n != 1 {
		t.Fatalf("%d stream requests during the pause", n-1)
	}
	e.clk.Advance(time.Millisecond)
	e.waitFor("the stream", func() bool { return e.streamsOpened("/api/stream/event") == 1 })
	opened := e.fake.RequestsTo(http.MethodGet, "/api/stream/event")
	if last := opened[len(opened)-1]; last.Time.Sub(t0) < time.Minute {
		t.Errorf("stream reopened %s after the 429", last.Time.Sub(t0))
	}
	e.fake.Challenge(fakelichess.ChallengeSpec{})
	if err := wait(t, done); !errors.Is(err, errStop) {
		t.Fatalf("stream ended with %v", err)
	}
}

var errStop = errors.New("stop")

// Requests of one account never overlap.
func TestOneRequestAtATime(t *testing.T) {
	e := newEnv(t, envOpts{})
	release := make(chan struct{})
	e.fake.Inject(fakelichess.Fault{Path: "/api/account", Hold: release})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.c.Account(e.ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	e.waitFor("the held request", func() bool { return len(e.fake.Requests()) >= 1 })
	close(release)
	wg.Wait()
	if got := e.fake.MaxInFlight(); got != 1 {
		t.Errorf("%d requests in flight at once, want 1", got)
	}
}
