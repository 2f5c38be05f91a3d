// Package delivery makes alerts reach their sinks across crashes and restarts, on top of a store.
//
// An alert is stored before any sink sees it (Gate), a sink's acceptance is
// recorded only after the sink accepted it (Mark), and at start-up each
// sink is sent what a crash left unsent (Resume). An alert seen again after
// a restart (same stable id) is not sent twice; one whose sink accepted it
// just before a crash, before the mark was written, is sent again: delivery
// is at least once, and exactly once in every other case. Durable puts a
// webhook behind a queue with all of this, plus a periodic catch-up of what
// it refused. The interfaces are the few store methods it uses, and the Send
// of package notify's sinks. For a group of instances on one database,
// Relay does the same through the store's outbox: its Gate stores each
// alert with one outbox row per durable sink, and every instance's Relay
// claims due rows, sends them and marks them, so a row whose instance died
// is sent by another (see package store for what "once" means there).
package delivery

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/threefold-chess/threefold"
)

// Store is the part of *store.Store delivery uses.
type Store interface {
	PutAlert(ctx context.Context, a threefold.Alert) (bool, error)
	MarkDelivered(ctx context.Context, alertID, sink string) error
	Undelivered(ctx context.Context, sink string, limit int) ([]threefold.Alert, error)
}

// Sink delivers one alert (notify.Sink has this method).
type Sink interface {
	Send(ctx context.Context, a threefold.Alert) error
}

// Gate returns the function a watcher (listener.WatcherOptions.Alert) or
// the bot calls with each alert: it stores the alert and passes it to next
// only if it is new. An alert already stored came from an earlier run or
// an earlier snapshot: it was delivered then, or Resume sends it. If the
// store fails, the alert is passed on anyway and the failure logged at
// error level: an alert is never held back because the disk is full.
func Gate(ctx context.Context, st Store, log *slog.Logger, next func(threefold.Alert)) func(threefold.Alert) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return func(a threefold.Alert) {
		isNew, err := st.PutAlert(ctx, a)
		if err != nil {
			log.Error("alert not stored; sending it anyway", "alert", a.ID, "err", err)
			next(a)
			return
		}
		if isNew {
			next(a)
		}
	}
}

// marked is a sink whose acceptances are recorded.
type marked struct {
	st   Store
	name string
	sink Sink
}

// Mark returns a sink that sends to sink and, once it accepted an alert,
// records that it did under name. Put it behind any queue (the mark must
// follow the real acceptance, not the queueing): notify.NewQueue(name,
// delivery.Mark(st, name, webhook), …). name identifies the sink across
// restarts; keep it stable (the webhook's kind and position, not its URL).
func Mark(st Store, name string, sink Sink) Sink {
	return &marked{st: st, name: name, sink: sink}
}

func (m *marked) Send(ctx context.Context, a threefold.Alert) error {
	if err := m.sink.Send(ctx, a); err != nil {
		return err
	}
	if err := m.st.MarkDelivered(ctx, a.ID, m.name); err != nil {
		return fmt.Errorf("delivery: %s accepted alert %s, but the mark was not stored (it may be sent again after a restart): %w", m.name, a.ID, err)
	}
	return nil
}

// Resume sends sink, oldest first, every stored alert it has not accepted,
// marking each as it is accepted, and returns how many it sent. It stops at
// the first alert the sink refuses (the rest wait for the next start). Call
// it for every sink at start-up, before the first alert of this run is
// stored: the first call for a sink name registers it, and a sink starts
// with the alerts stored after its registration.
func Resume(ctx context.Context, st Store, name string, sink Sink) (int, error) {
	const batch = 100
	m := Mark(st, name, sink)
	sent := 0
	for {
		as, err := st.Undelivered(ctx, name, batch)
		if err != nil {
			return sent, fmt.Errorf("delivery: resume %s: %w", name, err)
		}
		for _, a := range as {
			if err := m.Send(ctx, a); err != nil {
				return sent, fmt.Errorf("delivery: resume %s: %w", name, err)
			}
			sent++
		}
		if len(as) < batch {
			return sent, nil
		}
	}
}
