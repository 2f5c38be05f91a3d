package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

// Group mode (watch.group): every `threefold watch` started with the same
// store is an instance of one group. Each offers its sources to the group
// (store leases of kind source, or game for a single Lichess game) and
// follows only those whose lease it holds: a groupMember takes leases up
// to a fair share (its sources divided by the live instances, rounded up,
// never beyond its budget) and gives back what it holds beyond it, so the
// work spreads as instances come and go. KeepAlive renews the leases; a
// lease found lost stops its source at once. When an instance dies its
// leases expire after lease_ttl and the others take its sources over:
// a source resumes from the full snapshot it delivers, and the alerts it
// raises again have the ids already stored, so they are not sent again
// (the outbox holds one row per alert and webhook). A source that ended
// (a finished broadcast round) is marked finished in its stored state and
// is not started again by any instance; an instance ends when all its
// sources have ended.

// groupMember is this process's part in the group: the leased sources and
// the loop that takes and gives back their leases.
type groupMember struct {
	st     *store.Store
	in     *store.Instance
	log    *slog.Logger
	period time.Duration
	srcs   []*leasedSource
	byKey  map[[2]string]*leasedSource
	wake   chan struct{}
	now    func() time.Time
}

// leasedSource runs its source only while the instance holds its lease.
type leasedSource struct {
	src        listener.Source
	kind, name string
	m          *groupMember

	start    chan run      // the lease was won: run the source
	finished chan struct{} // closed: the source ended (here or elsewhere)

	mu      sync.Mutex
	running bool // assigned a run (from the take of the lease to the run's end)
	cur     run
	done    bool
	once    sync.Once
}

// run is one spell of a source under its lease.
type run struct {
	stop    chan struct{} // closed: stop the run (the lease is lost or given back)
	stopped chan struct{} // closed when the run returned
	once    *sync.Once    // closes stop
}

// leaseKind is the lease kind of a source: a single Lichess game opens a
// spectator game stream (the game budget), anything else counts against
// the stream budget.
func leaseKind(s listener.Source) string {
	if _, ok := s.(*listener.LichessGameSource); ok {
		return store.LeaseGame
	}
	return store.LeaseSource
}

func newGroupMember(st *store.Store, in *store.Instance, log *slog.Logger) *groupMember {
	return &groupMember{st: st, in: in, log: log, period: in.HeartbeatPeriod(), byKey: map[[2]string]*leasedSource{},
		wake: make(chan struct{}, 1), now: time.Now}
}

// wrap returns src run under its lease (of kind, leaseKind of the bare
// source); pass it to the watcher.
func (m *groupMember) wrap(src listener.Source, kind string) listener.Source {
	l := &leasedSource{src: src, kind: kind, name: src.Name(), m: m,
		start: make(chan run, 1), finished: make(chan struct{})}
	m.srcs = append(m.srcs, l)
	m.byKey[[2]string{l.kind, l.name}] = l
	return l
}

func (l *leasedSource) Name() string { return l.name }

// Run waits for the lease, runs the source while it is held, and waits
// again when it is lost, until the source ends (here or on another
// instance) or ctx is done.
func (l *leasedSource) Run(ctx context.Context, emit listener.Emit) error {
	for {
		var r run
		select {
		case <-ctx.Done():
			return nil
		case <-l.finished:
			return nil
		case r = <-l.start:
		}
		runCtx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-r.stop:
				cancel()
			case <-runCtx.Done():
			}
		}()
		l.m.log.Info("group: lease won, following the source", "kind", l.kind, "source", l.name)
		err := l.src.Run(runCtx, emit)
		stopped := r.isStopped()
		cancel()
		// A source that returned nil ended by itself (even if a stop
		// came at the same moment): nobody follows it again.
		ended := err == nil && ctx.Err() == nil
		l.mu.Lock()
		l.running = false
		if ended {
			l.done = true
		}
		l.mu.Unlock()
		close(r.stopped)
		if ctx.Err() != nil {
			return nil
		}
		if !ended && stopped {
			l.m.log.Info("group: lease lost or given back, source stopped", "kind", l.kind, "source", l.name)
			l.m.poke()
			continue
		}
		fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		if ended {
			if ferr := l.m.markFinished(fctx, l); ferr != nil {
				l.m.log.Warn("group: source ended but its end could not be recorded", "source", l.name, "err", ferr)
			}
		} else if rerr := l.m.in.Release(fctx, l.kind, l.name); rerr != nil {
			l.m.log.Warn("group: lease not given back", "source", l.name, "err", rerr)
		}
		fcancel()
		l.finish()
		l.m.poke()
		return err
	}
}

// finish marks the source ended and ends its Run.
func (l *leasedSource) finish() {
	l.once.Do(func() {
		l.mu.Lock()
		l.done = true
		l.mu.Unlock()
		close(l.finished)
	})
}

// stop ends the current run (the lease is lost or given back); with wait,
// it waits until the run returned, or ctx is done.
func (l *leasedSource) stop(ctx context.Context, wait bool) {
	l.mu.Lock()
	r, running := l.cur, l.running
	l.mu.Unlock()
	if !running {
		return
	}
	r.once.Do(func() { close(r.stop) })
	if !wait {
		return
	}
	select {
	case <-r.stopped:
	case <-ctx.Done():
	}
}

// isStopped reports whether a stop was asked for.
func (r run) isStopped() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// assign starts a run: the instance holds the lease now. A source that is
// running or has ended is left alone.
func (l *leasedSource) assign() {
	r := run{stop: make(chan struct{}), stopped: make(chan struct{}), once: new(sync.Once)}
	l.mu.Lock()
	if l.running || l.done {
		l.mu.Unlock()
		return
	}
	l.running, l.cur = true, r
	l.mu.Unlock()
	l.start <- r // never blocks: Run takes each run before the next assign
}

func (l *leasedSource) state() (running, done bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running, l.done
}

func (m *groupMember) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// finishedState is the source state a source's end is recorded in.
type finishedState struct {
	Finished bool `json:"finished"`
}

// markFinished records that l's source ended, then removes the lease for
// good.
func (m *groupMember) markFinished(ctx context.Context, l *leasedSource) error {
	// The end is a fact about the source, whoever records it: the write
	// is not fenced (the lease may have run out while the source ended).
	state, _ := json.Marshal(finishedState{Finished: true})
	if err := m.st.SaveSourceState(ctx, l.name, state); err != nil {
		return fmt.Errorf("group: record the end of %s: %w", l.name, err)
	}
	if err := m.in.Finish(ctx, l.kind, l.name); err != nil && !errors.Is(err, store.ErrLeaseHeld) {
		return fmt.Errorf("group: finish lease %s: %w", l.name, err)
	}
	return nil
}

// endedElsewhere reports whether another instance recorded the end of l's
// source.
func (m *groupMember) endedElsewhere(ctx context.Context, l *leasedSource) bool {
	data, ok, err := m.st.LoadSourceState(ctx, l.name)
	if err != nil || !ok {
		return false
	}
	var fs finishedState
	return json.Unmarshal(data, &fs) == nil && fs.Finished
}

// run offers the sources, then every period (or when poked) stops the
// sources whose lease is gone, takes leases up to the fair share and gives
// back what is beyond it, until ctx is done. It also renews the leases
// (KeepAlive); groupSession.close leaves the group.
func (m *groupMember) run(ctx context.Context) {
	var keep sync.WaitGroup
	keep.Add(1)
	go func() {
		defer keep.Done()
		t := time.NewTicker(m.period)
		defer t.Stop()
		_ = m.in.KeepAlive(ctx, t.C, func(lost []store.Lease) {
			for _, ls := range lost {
				if l := m.byKey[[2]string{ls.Kind, ls.Name}]; l != nil {
					m.log.Warn("group: lease lost", "kind", ls.Kind, "source", ls.Name)
					l.stop(ctx, false) // never hold up the heartbeats
				}
			}
			m.poke()
		}, func(err error) {
			m.log.Warn("group: heartbeat failed; leases run out unless the next one succeeds", "err", err)
		})
	}()
	defer keep.Wait()

	byKind := map[string][]string{}
	for _, l := range m.srcs {
		byKind[l.kind] = append(byKind[l.kind], l.name)
	}
	for kind, names := range byKind {
		if err := m.in.Offer(ctx, kind, names...); err != nil && ctx.Err() == nil {
			m.log.Warn("group: sources not offered", "err", err)
		}
	}
	// Instances started together see each other before the first share
	// is taken: wait a random part of a period.
	first := time.NewTimer(time.Duration(rand.Int64N(int64(m.period)/2 + 1)))
	defer first.Stop()
	select {
	case <-ctx.Done():
		return
	case <-first.C:
	}
	t := time.NewTicker(m.period)
	defer t.Stop()
	for {
		m.balance(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-m.wake:
		}
	}
}

// balance is one pass of run.
func (m *groupMember) balance(ctx context.Context) {
	alive := 1
	if gs, err := m.st.Status(ctx, m.now()); err == nil {
		n := 0
		for _, i := range gs.Instances {
			if i.Alive {
				n++
			}
		}
		alive = max(alive, n)
	} else if ctx.Err() == nil {
		m.log.Warn("group: status not read", "err", err)
	}
	for _, kind := range []string{store.LeaseSource, store.LeaseGame} {
		var live, held, idle []*leasedSource
		for _, l := range m.srcs {
			if l.kind != kind {
				continue
			}
			running, done := l.state()
			switch {
			case done:
				continue
			case running && !m.in.Holds(kind, l.name):
				// The lease ran out (heartbeats failed): stop at once.
				m.log.Warn("group: lease expired, source stopped", "kind", kind, "source", l.name)
				l.stop(ctx, true)
				idle = append(idle, l)
			case running:
				held = append(held, l)
			default:
				idle = append(idle, l)
			}
			live = append(live, l)
		}
		if len(live) == 0 {
			continue
		}
		share := (len(live) + alive - 1) / alive
		if b := m.in.Budget(kind); b > 0 {
			share = min(share, b)
		}
		if len(held) > share {
			// Give one back per pass, so the group settles without
			// everyone letting go at once.
			l := held[rand.IntN(len(held))]
			l.stop(ctx, true)
			if err := m.in.Release(ctx, kind, l.name); err != nil && ctx.Err() == nil {
				m.log.Warn("group: lease not given back", "source", l.name, "err", err)
			} else {
				m.log.Info("group: lease given back to spread the work", "kind", kind, "source", l.name, "share", share)
			}
			continue
		}
		rand.Shuffle(len(idle), func(i, j int) { idle[i], idle[j] = idle[j], idle[i] })
		for _, l := range idle {
			if len(held) >= share || ctx.Err() != nil {
				break
			}
			if m.endedElsewhere(ctx, l) {
				l.finish()
				continue
			}
			_, err := m.in.Acquire(ctx, kind, l.name)
			switch {
			case errors.Is(err, store.ErrLeaseHeld):
				continue
			case errors.Is(err, store.ErrBudget):
				return
			case err != nil:
				if ctx.Err() == nil {
					m.log.Warn("group: lease not taken", "source", l.name, "err", err)
				}
				continue
			}
			if m.endedElsewhere(ctx, l) { // ended between the check and the take
				_ = m.in.Finish(ctx, kind, l.name)
				l.finish()
				continue
			}
			held = append(held, l)
			l.assign()
		}
	}
}

// groupSession is watch's membership of the group: the instance, its
// leased sources and the outbox relay to the webhooks.
type groupSession struct {
	st     *store.Store
	in     *store.Instance
	member *groupMember
	relay  *delivery.Relay
	sinks  map[string]delivery.Sink
	hold   time.Duration
	log    *slog.Logger

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// joinGroup joins the group of the store with the budgets of the config
// and builds the relay over the webhooks (named alike on every instance:
// by kind and position in watch.webhooks).
func joinGroup(ctx context.Context, st *store.Store, cfg *config, hooks []*notify.Webhook, log *slog.Logger) (*groupSession, error) {
	wc := cfg.Watch
	if wc.StreamBudget < 0 || wc.GameBudget < 0 {
		return nil, usagef("watch.stream_budget and watch.game_budget must be 0 (no limit) or more")
	}
	if wc.LeaseTTL < 0 || wc.OutboxHold < 0 {
		return nil, usagef("watch.lease_ttl and watch.outbox_hold must not be negative")
	}
	in, err := st.Join(ctx, store.InstanceConfig{LeaseTTL: wc.LeaseTTL,
		Budget: map[string]int{store.LeaseSource: wc.StreamBudget, store.LeaseGame: wc.GameBudget}})
	if err != nil {
		return nil, fmt.Errorf("group: join: %w", err)
	}
	sinks := map[string]delivery.Sink{}
	for _, h := range hooks {
		sinks[h.Name] = h
	}
	g := &groupSession{st: st, in: in, member: newGroupMember(st, in, log), log: log, sinks: sinks, hold: wc.OutboxHold,
		relay: delivery.NewRelay(st, delivery.RelayConfig{Claimer: in.ID(), Sinks: sinks, Hold: wc.OutboxHold, Log: log})}
	log.Info("group: joined", "instance", in.ID(), "lease_ttl", in.LeaseTTL(),
		"stream_budget", wc.StreamBudget, "game_budget", wc.GameBudget)
	return g, nil
}

// pending counts the outbox rows of the relay's sinks not sent yet.
func (g *groupSession) pending(ctx context.Context) int {
	gs, err := g.st.Status(ctx, time.Now())
	if err != nil {
		return 0
	}
	n := 0
	for _, o := range gs.Outbox {
		if _, ok := g.sinks[o.Sink]; ok {
			n += o.Pending
		}
	}
	return n
}

// saveState is the recorder's SaveSourceState: fenced by the source's
// lease for sources of kind source.
func (g *groupSession) saveState(ctx context.Context, source string, state []byte) error {
	if g.member.byKey[[2]string{store.LeaseSource, source}] != nil {
		return g.in.SaveSourceState(ctx, source, state)
	}
	return g.st.SaveSourceState(ctx, source, state)
}

// start runs the lease loop (until ctx is done) and the relay (until
// close); the sources must all be wrapped already.
func (g *groupSession) start(ctx, deliverCtx context.Context) {
	rctx, cancelRelay := context.WithCancel(deliverCtx)
	mctx, cancelMember := context.WithCancel(ctx)
	g.cancel = func() { cancelMember(); cancelRelay() }
	g.wg.Add(2)
	go func() { defer g.wg.Done(); g.member.run(mctx) }()
	go func() { defer g.wg.Done(); _ = g.relay.Run(rctx) }()
}

// close sends what the outbox holds, stops the relay and the lease loop,
// and leaves the group: the leases still held are free for the others at
// once. It waits (at most drain) until no alert is pending: rows claimed
// by an instance that died are due again when their hold runs out, and
// the last instance of a group that ends must send them.
func (g *groupSession) close(drain time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	for ctx.Err() == nil {
		n, err := g.relay.Once(ctx)
		if err != nil {
			break
		}
		if n > 0 {
			continue
		}
		if g.pending(ctx) == 0 {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
	if n := g.pending(context.Background()); n > 0 {
		g.log.Warn("group: alerts still pending in the outbox at the end; an instance of the group sends them", "alerts", n)
	}
	if g.cancel != nil {
		g.cancel()
	}
	g.wg.Wait()
	lctx, lcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer lcancel()
	if err := g.in.Leave(lctx); err != nil {
		g.log.Warn("group: leave", "err", err)
	}
}
