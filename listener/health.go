package listener

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
)

// ErrNeverConnected ends a source that Health gave up: it failed
// GiveUp attempts in a row without ever connecting.
var ErrNeverConnected = errors.New("never connected")

// Health follows the connection state of the sources that report it
// (Deps.OnSourceState: Lichess streams, DGT servers). A source that keeps
// failing is said at WARN with the reason (at its 2nd, 4th, 8th, …
// failure in a row), and again at INFO when it connects after that; every
// change goes to Show and Save. With GiveUp > 0 (watch --once), a source
// run through Watch that failed GiveUp times in a row without ever
// connecting is stopped with ErrNeverConnected.
type Health struct {
	log    *slog.Logger
	now    func() time.Time
	giveUp int

	mu      sync.Mutex
	sources map[string]*health
	save    func(ctx context.Context, h threefold.SourceHealth) error // the store, or nil
	show    func(name string, connected bool, err error)              // the dashboard, or nil
}

type health struct {
	threefold.SourceHealth
	ever   bool                    // connected at least once
	cancel context.CancelCauseFunc // of the running source (Watch)
}

// NewHealth returns the health of a run's sources; giveUp > 0 stops a
// source that never connected after that many attempts.
func NewHealth(log *slog.Logger, giveUp int) *Health {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Health{log: log, now: time.Now, giveUp: giveUp, sources: map[string]*health{}}
}

// SetSave makes every later change saved with save (Store.SaveSourceHealth).
func (h *Health) SetSave(save func(ctx context.Context, h threefold.SourceHealth) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.save = save
}

// SetShow makes every later change shown with show (the dashboard).
func (h *Health) SetShow(show func(name string, connected bool, err error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.show = show
}

func (h *Health) of(name string) *health {
	s := h.sources[name]
	if s == nil {
		s = &health{SourceHealth: threefold.SourceHealth{Source: name, Since: h.now()}}
		h.sources[name] = s
	}
	return s
}

// State is Deps.OnSourceState: source name connected, or failed with err.
func (h *Health) State(name string, connected bool, err error) {
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
			s.cancel(fmt.Errorf("%w: %d attempts failed, the last: %s", ErrNeverConnected, s.Failures, s.LastError))
		}
	}
	saved, save, show := s.SourceHealth, h.save, h.show
	h.mu.Unlock()
	if show != nil {
		show(name, connected, err)
	}
	if save != nil {
		ctx, cancel := context.WithTimeout(context.Background(), healthSaveTimeout)
		defer cancel()
		if err := save(ctx, saved); err != nil {
			h.log.Warn("source state not stored", "source", name, "err", err)
		}
	}
}

// healthSaveTimeout bounds the write of a source's health. It is longer
// than the store's default SQLite busy timeout (10 s), so that on a busy
// store the write waits for another writer's lock as every other write
// does, and gives up only when the store does not answer at all. (5 s was
// shorter: on a loaded machine the save gave up while the lock was about
// to come.)
const healthSaveTimeout = 15 * time.Second

// Watch wraps src so that a source given up (see NewHealth) ends with an
// error that says so.
func (h *Health) Watch(src Source) Source {
	return &watchedSource{Source: src, h: h}
}

type watchedSource struct {
	Source
	h *Health
}

func (s *watchedSource) Run(ctx context.Context, emit Emit) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.h.mu.Lock()
	s.h.of(s.Name()).cancel = cancel
	s.h.mu.Unlock()
	err := s.Source.Run(ctx, emit)
	if cause := context.Cause(ctx); errors.Is(cause, ErrNeverConnected) {
		return cause
	}
	return err
}
