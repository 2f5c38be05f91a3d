package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
)

// onceGiveUpFailures is how many attempts in a row a source that never
// connected may fail before watch --once gives it up (and ends with a
// non-zero status): with the Lichess client's backoff, about 15 seconds.
const onceGiveUpFailures = 5

// errNeverConnected ends a source that watch --once gave up.
var errNeverConnected = errors.New("never connected")

// sourceHealth follows the connection state of the sources that know it
// (Lichess streams, DGT servers: listener.Deps.OnSourceState). A source
// that keeps failing is said at WARN with the reason (at its 2nd, 4th,
// 8th, … failure in a row), and again at INFO when it connects after
// that; every change goes to the dashboard and to the store, where
// threefold status shows it. With giveUp > 0 (watch --once), a source that
// failed giveUp times in a row without ever connecting is stopped.
type sourceHealth struct {
	log    *slog.Logger
	now    func() time.Time
	giveUp int

	mu      sync.Mutex
	sources map[string]*health
	st      *store.Store                                 // set once the store is open; nil before
	show    func(name string, connected bool, err error) // the dashboard, or nil
}

type health struct {
	store.SourceHealth
	ever   bool                    // connected at least once
	cancel context.CancelCauseFunc // of the running source (watched)
}

func newSourceHealth(log *slog.Logger, giveUp int) *sourceHealth {
	return &sourceHealth{log: log, now: time.Now, giveUp: giveUp, sources: map[string]*health{}}
}

// setStore makes every later change saved in st.
func (h *sourceHealth) setStore(st *store.Store) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.st = st
}

func (h *sourceHealth) of(name string) *health {
	s := h.sources[name]
	if s == nil {
		s = &health{SourceHealth: store.SourceHealth{Source: name, Since: h.now()}}
		h.sources[name] = s
	}
	return s
}

// State is listener.Deps.OnSourceState.
func (h *sourceHealth) State(name string, connected bool, err error) {
	h.mu.Lock()
	s := h.of(name)
	now := h.now()
	if connected {
		if s.Failures >= 2 {
			h.log.Info("source connected again", "source", name, "failed_attempts", s.Failures, "down_for", now.Sub(s.Since).Round(time.Second))
		}
		if !s.Connected {
			s.Since = now
		}
		s.Connected, s.ever, s.Failures, s.LastError = true, true, 0, ""
	} else {
		if s.Connected || s.Failures == 0 {
			s.Since = now
		}
		s.Connected = false
		s.Failures++
		s.LastError = "unknown"
		if err != nil {
			s.LastError = err.Error()
		}
		if s.Failures >= 2 && bits.OnesCount(uint(s.Failures)) == 1 {
			h.log.Warn("source not connected", "source", name, "failed_attempts", s.Failures,
				"since", s.Since.Format(time.RFC3339), "err", s.LastError)
		}
		if h.giveUp > 0 && !s.ever && s.Failures >= h.giveUp && s.cancel != nil {
			s.cancel(fmt.Errorf("%w: %d attempts failed, the last: %s", errNeverConnected, s.Failures, s.LastError))
		}
	}
	saved, st, show := s.SourceHealth, h.st, h.show
	h.mu.Unlock()
	if show != nil {
		show(name, connected, err)
	}
	if st != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := st.SaveSourceHealth(ctx, saved); err != nil {
			h.log.Warn("source state not stored", "source", name, "err", err)
		}
	}
}

// watch wraps src so that a source given up (see giveUp) ends with an
// error that says so.
func (h *sourceHealth) watch(src listener.Source) listener.Source {
	return &watchedSource{Source: src, h: h}
}

type watchedSource struct {
	listener.Source
	h *sourceHealth
}

func (s *watchedSource) Run(ctx context.Context, emit listener.Emit) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.h.mu.Lock()
	s.h.of(s.Name()).cancel = cancel
	s.h.mu.Unlock()
	err := s.Source.Run(ctx, emit)
	if cause := context.Cause(ctx); errors.Is(cause, errNeverConnected) {
		return cause
	}
	return err
}
