package delivery

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/store"
)

// OutboxStore is the part of *store.Store a Relay uses.
type OutboxStore interface {
	PutAlertOutbox(ctx context.Context, a threefold.Alert, sinks []string) (bool, error)
	ClaimOutbox(ctx context.Context, claimer string, hold time.Duration, limit int, sinks ...string) ([]store.OutboxItem, error)
	MarkSent(ctx context.Context, it store.OutboxItem) error
	FailOutbox(ctx context.Context, it store.OutboxItem, cause string, retryAt time.Time) error
}

// RelayConfig configures a Relay.
type RelayConfig struct {
	// Claimer is the instance's id in the group (store.Instance.ID).
	Claimer string
	// Sinks are the durable sinks (webhooks) by stable name: the same
	// names in every instance of the group, never URLs. Give them
	// unqueued: the relay marks an alert sent when Send returns nil.
	Sinks map[string]Sink
	// Hold is how long a claim lasts; default 5 min. A send is cancelled
	// at Hold/2, so that no claim runs out while its send is still going
	// (which would let another instance send the same alert).
	Hold time.Duration
	// Batch is how many rows one pass claims; default 50.
	Batch int
	// Backoff is the wait before a refused alert is tried again, by the
	// attempts so far; default 5 s doubling up to 5 min.
	Backoff func(attempts int) time.Duration
	// Poll is how often Run looks for due rows when nothing woke it;
	// default 1 s.
	Poll time.Duration
	// Clock times retries and the Poll; default clock.Real.
	Clock clock.Clock
	Log   *slog.Logger
}

// Relay sends the outbox of a group's database to the durable sinks: it
// claims due rows, sends each to its sink, marks it sent once the sink
// accepted it, and gives it back with a retry time when the sink refused
// it. Every instance of the group runs one; the database hands each row to
// one of them at a time.
type Relay struct {
	st      OutboxStore
	claimer string
	sinks   map[string]Sink
	names   []string
	hold    time.Duration
	batch   int
	backoff func(int) time.Duration
	poll    time.Duration
	clock   clock.Clock
	log     *slog.Logger
	wake    chan struct{}

	mu       sync.Mutex
	unstored []threefold.Alert // alerts the store refused: sent directly, once, unmarked
}

// maxUnstored bounds the alerts kept in memory while the store fails.
const maxUnstored = 1000

// NewRelay returns a relay over st.
func NewRelay(st OutboxStore, cfg RelayConfig) *Relay {
	r := &Relay{st: st, claimer: cfg.Claimer, sinks: cfg.Sinks, hold: cfg.Hold, batch: cfg.Batch,
		backoff: cfg.Backoff, poll: cfg.Poll, clock: clock.Or(cfg.Clock), log: cfg.Log, wake: make(chan struct{}, 1)}
	if r.hold <= 0 {
		r.hold = 5 * time.Minute
	}
	if r.batch <= 0 {
		r.batch = 50
	}
	if r.backoff == nil {
		p := backoff.Policy{Initial: 5 * time.Second, Max: 5 * time.Minute, NoJitter: true}
		r.backoff = func(attempts int) time.Duration { return p.Delay(attempts - 1) }
	}
	if r.poll <= 0 {
		r.poll = time.Second
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	for name := range r.sinks {
		r.names = append(r.names, name)
	}
	sort.Strings(r.names)
	return r
}

// Gate returns the function a watcher or the bot calls with each alert: it
// stores the alert together with an outbox row for each of the relay's
// sinks, wakes the relay, and passes the alert to next (the local,
// non-durable sinks: stdout, the dashboard) only if it is new. If the
// store fails, the alert is logged at error level, passed to next anyway
// and sent to the relay's sinks directly on its next pass, unmarked (at
// most once): an alert is never held back because the database is down.
func (r *Relay) Gate(ctx context.Context, next func(threefold.Alert)) func(threefold.Alert) {
	return func(a threefold.Alert) {
		isNew, err := r.st.PutAlertOutbox(ctx, a, r.names)
		if err != nil {
			r.log.Error("alert not stored; sending it without the outbox", "alert", a.ID, "err", err)
			r.mu.Lock()
			if len(r.unstored) >= maxUnstored {
				r.log.Error("too many alerts not stored; dropping the oldest", "alert", r.unstored[0].ID)
				r.unstored = r.unstored[1:]
			}
			r.unstored = append(r.unstored, a)
			r.mu.Unlock()
			r.Wake()
			next(a)
			return
		}
		if isNew {
			r.Wake()
			next(a)
		}
	}
}

// Wake makes Run look at the outbox now.
func (r *Relay) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run passes over the outbox (Once) when woken and every Poll until ctx
// is done, then returns ctx's error. Errors of a pass are logged.
func (r *Relay) Run(ctx context.Context) error {
	t := r.clock.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-r.wake:
		case <-t.C():
		}
		for {
			n, err := r.Once(ctx)
			if err != nil {
				if ctx.Err() == nil {
					r.log.Warn("outbox pass failed", "err", err)
				}
				break
			}
			if n < r.batch {
				break
			}
		}
		t.Reset(r.poll)
	}
}

// Once claims one batch of due rows, sends them (each sink's in order, the
// sinks side by side), marks or gives back each, and returns how many rows
// it claimed. After a sink refuses an alert, that sink's later alerts of
// the batch are given back unsent, to keep its order.
func (r *Relay) Once(ctx context.Context) (int, error) {
	r.sendUnstored(ctx)
	if len(r.names) == 0 {
		return 0, nil
	}
	items, err := r.st.ClaimOutbox(ctx, r.claimer, r.hold, r.batch, r.names...)
	if err != nil {
		return 0, fmt.Errorf("delivery: outbox: %w", err)
	}
	bySink := map[string][]store.OutboxItem{}
	for _, it := range items {
		bySink[it.Sink] = append(bySink[it.Sink], it)
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(bySink))
	for name, its := range bySink {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.sendAll(ctx, name, its); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return len(items), err
	}
	return len(items), nil
}

func (r *Relay) sendAll(ctx context.Context, name string, items []store.OutboxItem) error {
	sink := r.sinks[name]
	for i, it := range items {
		if sink == nil {
			return fmt.Errorf("delivery: outbox row for unknown sink %s", name)
		}
		sctx, cancel := context.WithTimeout(ctx, r.hold/2)
		err := sink.Send(sctx, it.Alert)
		cancel()
		if err == nil {
			if err := r.st.MarkSent(ctx, it); err != nil {
				return fmt.Errorf("delivery: %s accepted alert %s, but the mark was not stored (another instance may send it again): %w", name, it.Alert.ID, err)
			}
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err() // the claims run out; another pass or instance sends them
		}
		retry := r.clock.Now().Add(r.backoff(it.Attempts))
		r.log.Warn("sink refused an alert; it will be tried again", "sink", name, "alert", it.Alert.ID,
			"attempts", it.Attempts, "retry_at", retry, "err", err)
		for _, rest := range items[i:] {
			if ferr := r.st.FailOutbox(ctx, rest, err.Error(), retry); ferr != nil {
				return fmt.Errorf("delivery: give back alert %s for %s: %w", rest.Alert.ID, name, ferr)
			}
		}
		return nil
	}
	return nil
}

func (r *Relay) sendUnstored(ctx context.Context) {
	r.mu.Lock()
	as := r.unstored
	r.unstored = nil
	r.mu.Unlock()
	for _, a := range as {
		for _, name := range r.names {
			sctx, cancel := context.WithTimeout(ctx, r.hold/2)
			if err := r.sinks[name].Send(sctx, a); err != nil {
				r.log.Error("alert not stored and not accepted by a sink: lost for it", "sink", name, "alert", a.ID, "err", err)
			}
			cancel()
		}
	}
}
