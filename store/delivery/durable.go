package delivery

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/notify"
)

// DurableStore is the part of *store.Store a Durable uses.
type DurableStore interface {
	Store
	Delivered(ctx context.Context, alertID, sink string) (bool, error)
}

// DurableConfig names a Durable's sink and sizes its queue.
//
// QueueSize is the key watch.queue_size of the config file (its
// mapstructure tag): when the queue is full, the oldest alert is dropped
// (and counted in a warning), so that a slow webhook never delays
// detection.
type DurableConfig struct {
	Name      string // the sink's name in the store's deliveries: stable across restarts
	QueueSize int    `mapstructure:"queue_size" range:"1,1000000"` // alerts waiting in the queue (notify.Queue); default 1000
	// CatchUp is how often the alerts the sink refused or the queue
	// dropped are sent again from the store; 0: never (they wait for the
	// next start).
	CatchUp time.Duration
	Log     *slog.Logger
	Clock   clock.Clock
}

// Durable is a sink as watch sends to it, through a queue: at start it is
// sent what the store still owes it (Resume, before anything new), then
// each queued alert that the resume has not sent already; each acceptance
// is marked in the store (Mark) only after the sink accepted the alert.
//
// What this guarantees, with the alert path Gate → Durable: an alert is
// stored before any sink sees it; one stored and not yet accepted when the
// process dies (queued, or being sent) is sent at the next start; one
// accepted and marked is never sent again. The one window left is an
// acceptance whose mark was not written (the process died between the
// sink's answer and the mark's commit): that alert is sent again, once,
// with the same Idempotency-Key (its id). The queue sends one alert at a
// time, so the window holds at most one alert per sink.
//
// An alert the sink refused (it gave up after its retries) or that the
// queue dropped (full) stays unmarked in the store; the catch-up, every
// CatchUp, sends it (a resume again). Sends and resumes hold one lock, so
// an alert is never sent by both at once.
type Durable struct {
	st      DurableStore
	name    string
	sink    Sink
	marked  Sink
	queue   *notify.Queue
	period  time.Duration
	log     *slog.Logger
	clock   clock.Clock
	resumed chan struct{}

	mu     sync.Mutex  // one send or resume at a time
	behind atomic.Bool // an alert was refused since the last resume

	stopCatchUp, stopResume func()
	wg                      sync.WaitGroup // the resume and the catch-up
}

// NewDurable registers the sink in the store (so that alerts stored from
// now on are its business) and returns it; Start it, and Close it at the
// end.
func NewDurable(ctx context.Context, st DurableStore, sink Sink, cfg DurableConfig) (*Durable, error) {
	// Undelivered registers a sink it has never seen: it must happen
	// before the first alert of this run is stored.
	if _, err := st.Undelivered(ctx, cfg.Name, 1); err != nil {
		return nil, fmt.Errorf("delivery: %s: %w", cfg.Name, err)
	}
	d := &Durable{st: st, name: cfg.Name, sink: sink, marked: Mark(st, cfg.Name, sink), period: cfg.CatchUp, log: cfg.Log,
		clock: clock.Or(cfg.Clock), resumed: make(chan struct{}), stopCatchUp: func() {}, stopResume: func() {}}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	size := cfg.QueueSize
	if size <= 0 {
		size = 1000
	}
	d.queue = notify.NewQueue(cfg.Name, sinkFunc(d.send), size, d.log)
	return d, nil
}

// sinkFunc is a Sink made of its Send.
type sinkFunc func(ctx context.Context, a threefold.Alert) error

func (f sinkFunc) Send(ctx context.Context, a threefold.Alert) error { return f(ctx, a) }

// Send queues a and returns at once (notify.Sink): a slow sink never
// delays the caller.
func (d *Durable) Send(ctx context.Context, a threefold.Alert) error { return d.queue.Send(ctx, a) }

// Start sends what an earlier run left unsent, then lets the queue go on,
// and runs the catch-up, until Close (or ctx is done).
func (d *Durable) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	catchUp, stopCatchUp := context.WithCancel(ctx)
	d.stopCatchUp, d.stopResume = stopCatchUp, cancel
	d.wg.Add(1)
	go func() { defer d.wg.Done(); d.resume(ctx) }()
	if d.period > 0 {
		d.wg.Add(1)
		go func() { defer d.wg.Done(); d.catchUpLoop(catchUp) }()
	}
}

// Close delivers what is queued (and what the resume still sends), but
// not beyond drain: what is left is sent at the next start. It returns
// when nothing of the Durable runs any more.
func (d *Durable) Close(drain context.Context) {
	d.queue.Close(drain)
	d.stopCatchUp()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-drain.Done():
		d.stopResume()
		<-done
	}
	d.stopResume()
}

// resume sends what a crash left unsent, then lets the queue go on.
func (d *Durable) resume(ctx context.Context) {
	defer close(d.resumed)
	d.mu.Lock()
	defer d.mu.Unlock()
	n, err := Resume(ctx, d.st, d.name, d.sink)
	switch {
	case err != nil && ctx.Err() == nil:
		d.behind.Store(true)
		d.log.Error("alerts left unsent by an earlier run could not all be sent; they are tried again later",
			"sink", d.name, "sent", n, "err", err)
	case n > 0:
		d.log.Info("sent the alerts an earlier run left unsent", "sink", d.name, "alerts", n)
	}
}

// catchUp sends, oldest first, the stored alerts the sink has not
// accepted, if one was refused or dropped since the last time
// (dropped: whether the queue dropped any). It returns how many it sent.
func (d *Durable) catchUp(ctx context.Context, dropped bool) int {
	if !d.behind.Swap(false) && !dropped {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n, err := Resume(ctx, d.st, d.name, d.sink)
	if err != nil {
		d.behind.Store(true)
		if ctx.Err() == nil {
			d.log.Warn("webhook still refuses alerts; tried again later", "sink", d.name, "sent", n, "err", err)
		}
	}
	if n > 0 {
		d.log.Info("sent alerts the webhook had refused or the queue dropped", "sink", d.name, "alerts", n)
	}
	return n
}

// send is the queue's sink: it sends a unless a resume sent it already,
// and marks it once the sink accepted it.
func (d *Durable) send(ctx context.Context, a threefold.Alert) error {
	select {
	case <-d.resumed:
	case <-ctx.Done():
		return ctx.Err()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if done, err := d.st.Delivered(ctx, a.ID, d.name); err == nil && done {
		return nil // a resume sent it already
	}
	err := d.marked.Send(ctx, a)
	if err != nil && ctx.Err() == nil {
		d.behind.Store(true)
	}
	return err
}

// catchUpLoop runs catchUp every period until ctx ends.
func (d *Durable) catchUpLoop(ctx context.Context) {
	t := d.clock.NewTicker(d.period)
	defer t.Stop()
	seen := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		n := d.queue.Dropped()
		d.catchUp(ctx, n > seen)
		seen = n
	}
}

// Durables are the durable webhooks of a run, started together and closed
// together.
type Durables []*Durable

// StartWebhooks makes a Durable of each webhook (named by its Name; cfg
// gives the rest) and starts it on run, a context that may outlive ctx so
// that what is queued is still delivered after the alerts stop. If one
// cannot be made, those already started are closed at once.
func StartWebhooks(ctx, run context.Context, st DurableStore, hooks []*notify.Webhook, cfg DurableConfig) (Durables, error) {
	var ds Durables
	for _, h := range hooks {
		cfg.Name = h.Name
		d, err := NewDurable(ctx, st, h, cfg)
		if err != nil {
			ds.Close(0)
			return nil, err
		}
		d.Start(run)
		ds = append(ds, d)
	}
	return ds, nil
}

// Close delivers what is queued for at most within, then stops every
// Durable; what is left is sent at the next start.
func (ds Durables) Close(within time.Duration) {
	drain, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for _, d := range ds {
		d.Close(drain)
	}
}
