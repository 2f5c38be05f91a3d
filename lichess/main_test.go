package lichess_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/testlog"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type env struct {
	t    *testing.T
	fake *fakelichess.Server
	c    *lichess.Client
	clk  *clock.Fake // nil when real time
	logs *testlog.Buffer
	ctx  context.Context
}

type envOpts struct {
	fake   fakelichess.Options
	client lichess.Options
	clock  bool // use a fake clock for both
}

// newEnv starts a fake Lichess and a client for the bot account. Every log
// line of the client goes to env.logs, and at the end of the test the logs
// are checked for every token the fake knows.
func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	e := &env{t: t, logs: &testlog.Buffer{}}
	if o.clock {
		e.clk = clock.NewFake(time.Time{})
		o.fake.Clock = e.clk
		o.client.Clock = e.clk
	}
	e.fake = fakelichess.New(o.fake)
	o.client.BaseURL = e.fake.URL
	if o.client.Token == "" && o.client.TokenSource == nil {
		o.client.Token = fakelichess.BotToken
	}
	if o.client.Account == "" {
		o.client.Account = fakelichess.BotUser
	}
	o.client.Logger = slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if o.client.Backoff.Initial == 0 {
		o.client.Backoff = lichess.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}
	}
	e.c = lichess.NewClient(o.client)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	e.ctx = ctx
	t.Cleanup(func() {
		cancel()
		e.c.Close()
		e.fake.Close()
		for _, tok := range []string{fakelichess.BotToken, fakelichess.WatchToken, o.client.Token} {
			if strings.Contains(e.logs.String(), tok) {
				t.Errorf("a token appears in the logs:\n%s", e.logs.String())
			}
		}
	})
	return e
}

// allScopes gives the bot's token every scope threefold uses (bot and
// broadcasts), for tests that call both kinds of endpoint with one client.
func (e *env) allScopes() {
	e.fake.AddToken(fakelichess.BotToken, fakelichess.BotUser, lichess.ScopeBotPlay, lichess.ScopeChallengeRead, lichess.ScopeChallengeWrite, lichess.ScopeStudyRead)
}

// run starts f in a goroutine owned by the test and returns a channel with
// its error.
func run(t *testing.T, f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- f() }()
	return ch
}

func wait(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("goroutine did not return")
		return nil
	}
}

func (e *env) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 20*time.Second)
	defer cancel()
	if err := e.fake.WaitFor(ctx, cond); err != nil {
		e.t.Fatalf("waiting for %s: %v", what, err)
	}
}

func (e *env) streamsOpened(path string) int {
	n := 0
	for _, r := range e.fake.RequestsTo("", path) {
		if r.Status == http.StatusOK {
			n++
		}
	}
	return n
}
