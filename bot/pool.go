package bot

import (
	"context"
	"log/slog"
	"sync"
)

// enginePool keeps started engines for the games to come: a game takes
// one when it starts and gives it back when it ends, so a new game does
// not wait for an engine to start (which, with several at once on a busy
// machine, can take longer than Lichess gives for the first move). It
// keeps at most max idle engines; one that failed is closed, not kept.
// Each game has its own engine process while it runs.
type enginePool struct {
	cfg EngineConfig
	log *slog.Logger
	max int

	mu     sync.Mutex
	idle   []*EngineMover
	closed bool
}

func newEnginePool(cfg EngineConfig, max int, log *slog.Logger) *enginePool {
	return &enginePool{cfg: cfg, max: max, log: log}
}

// get returns an idle engine, or a new one (started at its first search or
// by the game).
func (p *enginePool) get() *EngineMover {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		m := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return m
	}
	return NewEngineMover(p.cfg, p.log)
}

// put takes an engine back from a game that ended.
func (p *enginePool) put(m *EngineMover) {
	if !m.reusable() {
		m.Close()
		return
	}
	p.mu.Lock()
	if !p.closed && len(p.idle) < p.max {
		m.reset()
		p.idle = append(p.idle, m)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	m.Close()
}

// warm starts engines until n are idle, one after another (starting many
// at once on a small machine is slower, not faster), and returns when
// they are ready or ctx ends.
func (p *enginePool) warm(ctx context.Context, n int) {
	for ctx.Err() == nil {
		p.mu.Lock()
		enough := p.closed || len(p.idle) >= min(n, p.max)
		p.mu.Unlock()
		if enough {
			return
		}
		m := NewEngineMover(p.cfg, p.log)
		if err := m.Start(ctx); err != nil {
			p.log.Warn("engine warm-up failed", "engine", p.cfg.Path, "err", err)
			m.Close()
			return
		}
		p.put(m)
	}
}

// idleCount returns how many engines are ready and unused.
func (p *enginePool) idleCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// close stops the idle engines; engines given back later are closed.
func (p *enginePool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, m := range idle {
		m.Close()
	}
}
