package store

import (
	"context"
	"log/slog"
	"sync"

	"github.com/threefold-chess/threefold"
)

// maxBatch is the most writes a Batcher gathers before it commits them.
const maxBatch = 4000

// Batcher gathers what a watch writes to the store — the games, progress
// and source states a Recorder writes, and the alerts the watcher raises —
// into batches, each committed in one transaction: when a state says no
// more follow at once (Recorder.Record, on every live move), when the
// batch is full, and on Flush. An alert is passed on only after the commit
// that stored it, and only if it is new, as delivery.Gate does, with one
// sync to disk per batch instead of several per game: `watch --once` on a
// file of thousands of games takes time in proportion to their number.
//
// A full batch is committed in the background while the next one fills
// (one at a time, in order); Flush waits for it, then commits what is left
// before it returns. Call Flush before dropping a Batcher.
type Batcher struct {
	ctx  context.Context // of every commit: what was found while the run stops is stored all the same
	st   *Store
	log  *slog.Logger
	next func(threefold.Alert)
	// prepare, if set, adds to a batch about to be committed by Flush what
	// its owner kept back until then (the recorder's source states). A
	// batch committed because it is full goes without: a file of n games
	// writes its source's state once, not n/maxBatch times.
	prepare func(*Batch)

	commit sync.Mutex // one flush at a time, so that alerts are passed on in order
	// background is closed when the batch committed in the background is
	// done; nil when none is. commit is held to read or set it.
	background chan struct{}
	mu         sync.Mutex
	b          Batch
	alerts     []threefold.Alert // the alerts of b, in order
	commits    int               // batches committed (tests)
}

// NewBatcher returns a batcher on st that passes each new alert to next
// once it is stored, and commits with ctx (which should outlive the
// sources, as a watch's delivery context does); log gets failed commits.
func NewBatcher(ctx context.Context, st *Store, log *slog.Logger, next func(threefold.Alert)) *Batcher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Batcher{ctx: ctx, st: st, log: log, next: next}
}

// add lets f add writes to the current batch; a full batch is committed.
func (sb *Batcher) add(f func(b *Batch)) {
	sb.mu.Lock()
	f(&sb.b)
	full := sb.b.Len() >= maxBatch
	sb.mu.Unlock()
	if full {
		sb.flush(false)
	}
}

// Gate is the watcher's Alert function (listener.WatcherOptions.Alert):
// the alert joins the batch, and is passed on after the commit if new.
func (sb *Batcher) Gate() func(threefold.Alert) {
	return func(a threefold.Alert) {
		sb.add(func(b *Batch) {
			b.PutAlert(a)
			sb.alerts = append(sb.alerts, a)
		})
	}
}

// Flush commits the batch and passes on its new alerts, after the batch
// committed in the background, if one is. If the store fails, the alerts
// are passed on anyway and the failure logged: an alert is never held back
// because the disk is full.
func (sb *Batcher) Flush() { sb.flush(true) }

// flush commits the batch: with what prepare adds and before it returns
// if final, else in the background. Either way the batch committed in the
// background before is done first.
func (sb *Batcher) flush(final bool) {
	sb.commit.Lock()
	defer sb.commit.Unlock()
	if sb.background != nil {
		<-sb.background
		sb.background = nil
	}
	sb.mu.Lock()
	if final && sb.prepare != nil {
		sb.prepare(&sb.b)
	}
	b, alerts := sb.b, sb.alerts
	sb.b, sb.alerts = Batch{}, nil
	sb.mu.Unlock()
	if b.Len() > 0 {
		sb.commits++
	}
	if final {
		sb.store(&b, alerts)
		return
	}
	done := make(chan struct{})
	sb.background = done
	go func() {
		defer close(done)
		sb.store(&b, alerts)
	}()
}

// store commits b and passes on its new alerts.
func (sb *Batcher) store(b *Batch, alerts []threefold.Alert) {
	isNew, err := sb.st.Commit(sb.ctx, b)
	if err != nil {
		sb.log.Error("games and alerts not stored; the alerts are sent anyway", "alerts", len(alerts), "err", err)
	}
	for i, a := range alerts {
		if err != nil || isNew[i] {
			sb.next(a)
		}
	}
}
