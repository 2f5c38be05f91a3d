package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
	"github.com/threefold-chess/threefold/web"
)

// runParts are what a run of watch and one of bot both stand on: the
// store, the dashboard, the Lichess client, the webhooks' queues, and
// what is undone at the end.
type runParts struct {
	cfg *config
	log *slog.Logger
	// dash and st, when set, are the dashboard and the store to use (the
	// demo's); otherwise the run starts them from the config.
	dash    *web.Dashboard
	st      *store.Store
	closers []func() // undone in reverse order at the end
}

func (p *runParts) close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
}

// openStore opens the store of the config; op names the command in an
// error.
func (p *runParts) openStore(ctx context.Context, op string) error {
	if p.st != nil {
		return nil
	}
	st, err := openStore(ctx, p.cfg, storeOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err) // the store's errors say "store: "
	}
	p.st = st
	p.closers = append(p.closers, func() { st.Close() })
	return nil
}

// startDashboard serves the dashboard when http.addr is set, until the
// run is over or ctx is done.
func (p *runParts) startDashboard(ctx context.Context) error {
	if p.dash != nil {
		return nil
	}
	d, stop, err := serveDashboard(ctx, p.cfg, p.log)
	if err != nil {
		return err
	}
	p.dash = d
	p.closers = append(p.closers, stop)
	return nil
}

// lichessClient makes the Lichess client of o (lichess.url and the
// command's token), its reconnects and pauses counted on the dashboard.
func (p *runParts) lichessClient(o lichess.Options) *lichess.Client {
	o.Logger, o.Version = p.log, programVersion()
	if p.dash != nil {
		o.OnReconnect, o.OnRateLimit = p.dash.LichessReconnect, p.dash.LichessRateLimit
	}
	c := lichess.NewClient(o)
	p.closers = append(p.closers, func() { c.Close() })
	return c
}

// catchUpPeriod is how often a webhook that refused alerts (or whose queue
// dropped some) is sent them again.
const catchUpPeriod = time.Minute

// alertPath starts the durable queue of each webhook (what a webhook did
// not accept is sent again, at the next start too), sending on
// deliverCtx, and returns them with the function that sends an alert to
// first (when not nil), the queues and the dashboard.
func (p *runParts) alertPath(ctx, deliverCtx context.Context, first notify.Sink, hooks []*notify.Webhook) (delivery.Durables, func(threefold.Alert), error) {
	var sinks notify.Fanout
	if first != nil {
		sinks = append(sinks, first)
	}
	dc := p.cfg.Watch.DurableConfig
	dc.CatchUp, dc.Log = catchUpPeriod, p.log
	durables, err := delivery.StartWebhooks(ctx, deliverCtx, p.st, hooks, dc)
	if err != nil {
		return nil, nil, err
	}
	for _, dw := range durables {
		sinks = append(sinks, dw)
	}
	if p.dash != nil {
		sinks = append(sinks, p.dash)
	}
	return durables, func(a threefold.Alert) {
		if err := sinks.Send(deliverCtx, a); err != nil {
			p.log.Error("alert not written", "alert", a.ID, "err", err)
		}
	}, nil
}
