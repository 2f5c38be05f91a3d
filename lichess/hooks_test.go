package lichess_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// The hooks of Options and WithStreamObserver see a stream connect, drop
// and connect again, and a 429 pause.
func TestStreamHooks(t *testing.T) {
	var mu sync.Mutex
	var events []string
	add := func(s string) { mu.Lock(); events = append(events, s); mu.Unlock() }
	e := newEnv(t, envOpts{client: lichess.Options{
		OnReconnect: func(stream string, err error) { add("reconnect " + stream + " " + boolStr(err != nil)) },
		OnRateLimit: func(pause time.Duration) { add("ratelimit " + pause.String()) },
	}})
	e.allScopes()
	b := e.fake.Broadcast("hookRnd1")
	b.SetPGN("[Event \"x\"]\n[GameURL \"https://lichess.org/broadcast/x/r/hookRnd1/g1\"]\n[Result \"*\"]\n\n1. e4 *\n")
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/broadcast/round/*", Disconnect: true, AfterLines: 1})
	ctx := lichess.WithStreamObserver(e.ctx, func(connected bool, err error) {
		add("observed " + boolStr(connected) + " " + boolStr(err != nil))
	})
	var pgns int
	done := run(t, func() error {
		return e.c.StreamBroadcastRound(ctx, "hookRnd1", func(string) error {
			mu.Lock()
			pgns++
			n := pgns
			mu.Unlock()
			switch n {
			case 1: // the next line is cut
				go func() { _ = b.AppendMove("g1", "e5") }()
			case 2: // the whole round again, after the reconnect
				go b.Finish()
			}
			return nil
		})
	})
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a timed assertion: -race on a busy machine
		mu.Lock()
		t.Fatalf("stuck: %v pgns=%d\n%s", events, pgns, e.logs.String())
	}
	e.fake.Inject(fakelichess.RateLimited("/api/challenge/*/accept", 90))
	var rl *lichess.RateLimitError
	if err := e.c.AcceptChallenge(e.ctx, "abc"); !errors.As(err, &rl) {
		t.Fatalf("accept: %v, want a rate-limit error", err)
	}
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(events, "; ")
	want := "observed true false; observed false true; reconnect broadcast round hookRnd1 true; observed true false; ratelimit 1m30s"
	// The observer is told before OnReconnect or after it; both orders are fine.
	alt := "observed true false; reconnect broadcast round hookRnd1 true; observed false true; observed true false; ratelimit 1m30s"
	if got != want && got != alt {
		t.Errorf("hooks saw\n  %s\nwant\n  %s", got, want)
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
