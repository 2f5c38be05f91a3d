// Package group spreads the sources of several watch instances over one store through leases.
//
// Every `threefold watch --group` started with the same store is an
// instance of one group. Each offers its sources to the group (store
// leases of kind source, or game for a single Lichess game) and follows
// only those whose lease it holds: a Member takes leases up to a fair share
// (the live sources divided by the live instances, rounded up, never beyond
// its budget) and gives back what it holds beyond it, one per pass, so the
// work spreads as instances come and go. Heartbeats renew the leases; a
// lease found lost stops its source at once. When an instance dies its
// leases expire after the lease lifetime and the others take its sources
// over (each takeover is logged with the instance it came from and the
// gap): a source resumes from the full game state it delivers, and the
// alerts it raises again have the ids already stored, so they are not sent
// again (the outbox holds one row per alert and webhook). A source that
// ended (a finished broadcast round) is recorded as finished in its stored
// state and is not started again by any instance; an instance ends when all
// its sources have ended. Instances dead for longer than ForgetAfter lease
// lifetimes are removed from the group's table.
package group

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
)

// ForgetAfter is how many lease lifetimes an instance stays listed in the
// group (threefold status) after its last heartbeat.
const ForgetAfter = 10

// Options are what a Member needs besides the store and its instance.
type Options struct {
	Log   *slog.Logger // default: discard
	Clock clock.Clock  // heartbeats and passes; default clock.Real (the instance's own clock decides expiry)
	// Intn returns a number in [0, n): which source to give back, in which
	// order to take; default math/rand/v2.IntN.
	Intn func(n int) int
}

// Member is this process's part in the group: the leased sources and the
// loop that takes and gives back their leases.
type Member struct {
	st     *store.Store
	in     *store.Instance
	log    *slog.Logger
	clock  clock.Clock
	intn   func(int) int
	period time.Duration
	srcs   []*leasedSource
	byKey  map[[2]string]*leasedSource
	wake   chan struct{}
}

// NewMember returns the member of instance in of the group in st.
func NewMember(st *store.Store, in *store.Instance, opts Options) *Member {
	m := &Member{st: st, in: in, log: opts.Log, clock: clock.Or(opts.Clock), intn: opts.Intn, period: in.HeartbeatPeriod(),
		byKey: map[[2]string]*leasedSource{}, wake: make(chan struct{}, 1)}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.intn == nil {
		m.intn = rand.IntN
	}
	return m
}

// LeaseKind is the lease kind of a source: a single Lichess game opens a
// spectator game stream (the game budget), anything else counts against
// the stream budget.
func LeaseKind(s listener.Source) string {
	if _, ok := s.(*listener.LichessGameSource); ok {
		return store.LeaseGame
	}
	return store.LeaseSource
}

// Wrap returns src run under its lease of kind (LeaseKind of the bare
// source, before any wrapping); give it to the watcher. Wrap every source
// before Run.
func (m *Member) Wrap(src listener.Source, kind string) listener.Source {
	l := &leasedSource{src: src, kind: kind, name: src.Name(), m: m,
		start: make(chan *run, 1), finished: make(chan struct{})}
	m.srcs = append(m.srcs, l)
	m.byKey[[2]string{l.kind, l.name}] = l
	return l
}

// Leased reports whether source (by name) runs under a lease of kind
// source, so that its stored state is written fenced by that lease.
func (m *Member) Leased(source string) bool {
	return m.byKey[[2]string{store.LeaseSource, source}] != nil
}

// leasedSource runs its source only while the instance holds its lease.
type leasedSource struct {
	src        listener.Source
	kind, name string
	m          *Member

	start    chan *run     // the lease was won: run the source
	finished chan struct{} // closed: the source ended (here or elsewhere)

	mu      sync.Mutex
	running bool // assigned a run (from the take of the lease to the run's end)
	cur     *run
	done    bool
	once    sync.Once
}

// run is one spell of a source under its lease. Its fields are guarded by
// the source's mu.
type run struct {
	stopAsked bool               // the lease is lost or given back
	cancel    context.CancelFunc // stops the source's Run, once it started
	stopped   chan struct{}      // closed when the source's Run returned
}

func (l *leasedSource) Name() string { return l.name }

// Run waits for the lease, runs the source while it is held, and waits
// again when it is lost, until the source ends (here or on another
// instance) or ctx is done.
func (l *leasedSource) Run(ctx context.Context, emit listener.Emit) error {
	for {
		var r *run
		select {
		case <-ctx.Done():
			return nil
		case <-l.finished:
			return nil
		case r = <-l.start:
		}
		runCtx, cancel := context.WithCancel(ctx)
		l.mu.Lock()
		r.cancel = cancel
		if r.stopAsked {
			cancel()
		}
		l.mu.Unlock()
		l.m.log.Info("watching", "sources", l.name, "lease", l.kind)
		err := l.src.Run(runCtx, emit)
		cancel()
		// A source that returned nil ended by itself (even if a stop
		// came at the same moment): nobody follows it again.
		ended := err == nil && ctx.Err() == nil
		l.mu.Lock()
		stopped := r.stopAsked
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
	if running {
		r.stopAsked = true
		if r.cancel != nil {
			r.cancel()
		}
	}
	l.mu.Unlock()
	if !running || !wait {
		return
	}
	select {
	case <-r.stopped:
	case <-ctx.Done():
	}
}

// assign starts a run: the instance holds the lease now. A source that is
// running or has ended is left alone.
func (l *leasedSource) assign() {
	r := &run{stopped: make(chan struct{})}
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

func (m *Member) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// finishedState is the source state a source's end is recorded in.
type finishedState struct {
	Finished bool `json:"finished"`
}

// Ended reports whether a source's stored state records that it ended.
func Ended(state []byte) bool {
	var fs finishedState
	return json.Unmarshal(state, &fs) == nil && fs.Finished
}

// markFinished records that l's source ended, then removes the lease for
// good.
func (m *Member) markFinished(ctx context.Context, l *leasedSource) error {
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
func (m *Member) endedElsewhere(ctx context.Context, l *leasedSource) bool {
	data, ok, err := m.st.LoadSourceState(ctx, l.name)
	return err == nil && ok && Ended(data)
}

// Run offers the sources, then every heartbeat period (or when poked)
// stops the sources whose lease is gone, takes leases up to the fair share
// and gives back what is beyond it, until ctx is done. It renews the
// leases in the meantime. It returns when ctx is done and its heartbeats
// have stopped.
func (m *Member) Run(ctx context.Context) {
	var keep sync.WaitGroup
	keep.Add(1)
	go func() {
		defer keep.Done()
		m.keepAlive(ctx)
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
	if clock.Sleep(ctx, m.clock, time.Duration(m.intn(int(m.period/2)+1))) != nil {
		return
	}
	t := m.clock.NewTicker(m.period)
	defer t.Stop()
	for {
		m.balance(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		case <-m.wake:
		}
	}
}

// keepAlive renews the leases every period until ctx is done, and stops a
// source at once when its lease is found lost.
func (m *Member) keepAlive(ctx context.Context) {
	t := m.clock.NewTicker(m.period)
	defer t.Stop()
	_ = m.in.KeepAlive(ctx, t.C(), func(lost []store.Lease) {
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
}

// aliveInstances counts the live instances of the group (at least this
// one) and forgets those dead for ForgetAfter lease lifetimes.
func (m *Member) aliveInstances(ctx context.Context) int {
	now := m.clock.Now()
	if _, err := m.st.ForgetInstances(ctx, now.Add(-ForgetAfter*m.in.LeaseTTL())); err != nil && ctx.Err() == nil {
		m.log.Warn("group: dead instances not forgotten", "err", err)
	}
	gs, err := m.st.Status(ctx, now)
	if err != nil {
		if ctx.Err() == nil {
			m.log.Warn("group: status not read", "err", err)
		}
		return 1
	}
	n := 0
	for _, i := range gs.Instances {
		if i.Alive {
			n++
		}
	}
	return max(n, 1)
}

// balance is one pass of Run.
func (m *Member) balance(ctx context.Context) {
	alive := m.aliveInstances(ctx)
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
		share := FairShare(len(live), alive, m.in.Budget(kind))
		if len(held) > share {
			// Give one back per pass, so the group settles without
			// everyone letting go at once.
			l := held[m.intn(len(held))]
			l.stop(ctx, true)
			if err := m.in.Release(ctx, kind, l.name); err != nil && ctx.Err() == nil {
				m.log.Warn("group: lease not given back", "source", l.name, "err", err)
			} else {
				m.log.Info("group: lease given back to spread the work", "kind", kind, "source", l.name, "share", share)
			}
			continue
		}
		for i := len(idle) - 1; i > 0; i-- { // a shuffle, so instances do not all try the same source first
			j := m.intn(i + 1)
			idle[i], idle[j] = idle[j], idle[i]
		}
		for _, l := range idle {
			if len(held) >= share || ctx.Err() != nil {
				break
			}
			ok, err := m.take(ctx, l)
			if errors.Is(err, store.ErrBudget) {
				return
			}
			if ok {
				held = append(held, l)
				l.assign()
			}
		}
	}
}

// take acquires l's lease for a run, unless the source ended elsewhere,
// and logs a takeover from an instance that died. Its error is
// store.ErrBudget when the instance may take no more of the kind.
func (m *Member) take(ctx context.Context, l *leasedSource) (bool, error) {
	if m.endedElsewhere(ctx, l) {
		l.finish()
		return false, nil
	}
	lease, err := m.in.Acquire(ctx, l.kind, l.name)
	switch {
	case errors.Is(err, store.ErrLeaseHeld):
		return false, nil
	case errors.Is(err, store.ErrBudget):
		return false, err
	case err != nil:
		if ctx.Err() == nil {
			m.log.Warn("group: lease not taken", "source", l.name, "err", err)
		}
		return false, nil
	}
	if m.endedElsewhere(ctx, l) { // ended between the check and the take
		_ = m.in.Finish(ctx, l.kind, l.name)
		l.finish()
		return false, nil
	}
	if from := lease.TakenFrom; from != nil {
		m.log.Warn("group: took over a source from an instance that stopped renewing its lease",
			"kind", l.kind, "source", l.name, "from", from.Holder, "last_renewed", from.RenewedAt,
			"gap", lease.AcquiredAt.Sub(from.RenewedAt).Round(time.Millisecond))
	}
	return true, nil
}

// FairShare is how many of live sources one of alive instances follows:
// live/alive rounded up, within budget (0: no limit).
func FairShare(live, alive, budget int) int {
	share := (live + max(alive, 1) - 1) / max(alive, 1)
	if budget > 0 {
		share = min(share, budget)
	}
	return share
}
