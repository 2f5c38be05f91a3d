package listener_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testlog"
	"github.com/threefold-chess/threefold/listener"
)

// flakySource reports the connection attempts of a script through the
// health hook, then waits until it is stopped.
type flakySource struct {
	name     string
	h        *listener.Health
	attempts []error       // nil: connected
	reported chan struct{} // closed when every attempt is reported
}

func (s *flakySource) Name() string { return s.name }

func (s *flakySource) Run(ctx context.Context, _ listener.Emit) error {
	for _, err := range s.attempts {
		s.h.State(s.name, err == nil, err)
	}
	close(s.reported)
	<-ctx.Done()
	return ctx.Err()
}

// TestHealth: a source that keeps failing is said at WARN with the
// reason (2nd, 4th, 8th failure in a row), at INFO when it is back; the
// saver has its state; watch --once (giveUp) stops a source that never
// connected, and only such a source.
func TestHealth(t *testing.T) {
	refused := errors.New("dial tcp 127.0.0.1:1: connection refused")
	down := func(n int) []error {
		out := make([]error, n)
		for i := range out {
			out[i] = refused
		}
		return out
	}
	tests := []struct {
		name     string
		giveUp   int
		attempts []error
		warns    int
		back     bool // "connected again" said
		gaveUp   bool // Run ended with errNeverConnected
		want     threefold.SourceHealth
	}{
		{name: "one blip", attempts: []error{nil, refused, nil}, want: threefold.SourceHealth{Connected: true}},
		{name: "keeps failing", attempts: down(9), warns: 3, want: threefold.SourceHealth{Failures: 9, LastError: refused.Error()}},
		{name: "back after failing", attempts: append(append([]error{nil}, down(4)...), nil), warns: 2, back: true,
			want: threefold.SourceHealth{Connected: true}},
		{name: "once: never connected", giveUp: 5, attempts: down(5), warns: 2, gaveUp: true,
			want: threefold.SourceHealth{Failures: 5, LastError: refused.Error()}},
		{name: "once: connected before", giveUp: 5, attempts: append([]error{nil}, down(6)...), warns: 2,
			want: threefold.SourceHealth{Failures: 6, LastError: refused.Error()}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logs testlog.Buffer
			h := listener.NewHealth(slog.New(slog.NewTextHandler(&logs, nil)), tc.giveUp)
			saved := map[string]threefold.SourceHealth{}
			h.SetSave(func(_ context.Context, s threefold.SourceHealth) error {
				saved[s.Source] = s
				return nil
			})
			var shown int
			h.SetShow(func(string, bool, error) { shown++ })
			src := &flakySource{name: "lichess game abcdEFGH", h: h, attempts: tc.attempts, reported: make(chan struct{})}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- h.Watch(src).Run(ctx, nil) }()
			<-src.reported
			if !tc.gaveUp {
				cancel()
			}
			err := <-done
			cancel()
			if gave := errors.Is(err, listener.ErrNeverConnected); gave != tc.gaveUp {
				t.Errorf("Run: %v; gave up %v, want %v", err, gave, tc.gaveUp)
			}
			if n := strings.Count(logs.String(), `level=WARN msg="source not connected"`); n != tc.warns {
				t.Errorf("%d warnings, want %d:\n%s", n, tc.warns, logs.String())
			}
			if tc.warns > 0 && !strings.Contains(logs.String(), "connection refused") {
				t.Errorf("the warning lacks the reason:\n%s", logs.String())
			}
			if back := strings.Contains(logs.String(), "source connected again"); back != tc.back {
				t.Errorf("'connected again' said %v, want %v:\n%s", back, tc.back, logs.String())
			}
			if shown != len(tc.attempts) {
				t.Errorf("the dashboard was told %d times, want %d", shown, len(tc.attempts))
			}
			got, ok := saved[src.name]
			if len(saved) != 1 || !ok || !healthIs(&got, tc.want) {
				t.Errorf("saved %+v; want %+v", saved, tc.want)
			}
		})
	}
}

func healthIs(h *threefold.SourceHealth, want threefold.SourceHealth) bool {
	return h != nil && h.Connected == want.Connected && h.Failures == want.Failures && h.LastError == want.LastError
}
