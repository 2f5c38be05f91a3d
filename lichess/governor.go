package lichess

import (
	"context"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/clock"
)

// governor serialises the requests of one account (Lichess asks for one
// request at a time) and holds every request back while the account is
// paused after a 429. The holder of the slot waits out a pause, so the
// others queue behind it and nothing is sent before the pause ends.
type governor struct {
	clk   clock.Clock
	slot  chan struct{} // capacity 1
	mu    sync.Mutex
	until time.Time
}

func (g *governor) acquire(ctx context.Context) error {
	select {
	case g.slot <- struct{}{}:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	for {
		wait := g.pausedUntil().Sub(g.clk.Now())
		if wait <= 0 {
			return nil
		}
		if err := clock.Sleep(ctx, g.clk, wait); err != nil {
			<-g.slot
			return context.Cause(ctx)
		}
	}
}

func (g *governor) release() { <-g.slot }

func (g *governor) pauseFor(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if u := g.clk.Now().Add(d); u.After(g.until) {
		g.until = u
	}
}

func (g *governor) pausedUntil() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.until
}

// StreamBudget keeps the number of open streams within Lichess's per-IP
// limits: spectator game streams (/api/stream/game/{id}, 8 per IP) and
// "events" streams (games by users, games by ids, broadcast PGN streams,
// 4 per IP). A stream waits for a free slot before it connects and holds it
// while connected. Share one budget between every client of a process.
type StreamBudget struct {
	games  chan struct{}
	events chan struct{}
}

// Per-IP stream limits of Lichess.
const (
	MaxGameStreams  = 8
	MaxEventStreams = 4
)

// NewStreamBudget returns a budget; zero or negative values take the Lichess
// limits (MaxGameStreams, MaxEventStreams).
func NewStreamBudget(gameStreams, eventStreams int) *StreamBudget {
	if gameStreams <= 0 {
		gameStreams = MaxGameStreams
	}
	if eventStreams <= 0 {
		eventStreams = MaxEventStreams
	}
	return &StreamBudget{games: make(chan struct{}, gameStreams), events: make(chan struct{}, eventStreams)}
}

func acquirePool(ctx context.Context, pool chan struct{}) error {
	if pool == nil {
		return nil
	}
	select {
	case pool <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func releasePool(pool chan struct{}) {
	if pool != nil {
		<-pool
	}
}
