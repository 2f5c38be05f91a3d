package web

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
)

// Dashboard is a dashboard of one run: its Hub, its Metrics and the Server
// that shows them, started together and stopped together.
type Dashboard struct {
	Hub     *Hub
	Metrics *Metrics
	URL     string // the index page, with the token; set by Start

	srv  *Server
	wg   sync.WaitGroup
	errs [2]error
}

// NewDashboard checks the options and makes a dashboard with a new Hub
// (of games) and new Metrics: opts.Hub and opts.Metrics are ignored, and
// games.Metrics and games.Logger come from them. Its errors are those of
// New: ErrTokenRequired for an address beyond loopback without a token.
func NewDashboard(opts Options, games HubOptions) (*Dashboard, error) {
	m := NewMetrics()
	games.Metrics, games.Logger = m, opts.Logger
	hub := NewHub(games)
	opts.Hub, opts.Metrics = hub, m
	srv, err := New(opts)
	if err != nil {
		return nil, err
	}
	return &Dashboard{Hub: hub, Metrics: m, srv: srv}, nil
}

// Start listens on Options.Addr and serves the dashboard (and runs the
// hub) until ctx is done; Wait then returns when both have stopped.
func (d *Dashboard) Start(ctx context.Context) error {
	ln, err := d.srv.Listen(ctx)
	if err != nil {
		return err
	}
	d.URL = d.srv.URL(ln)
	d.wg.Add(2)
	go func() { defer d.wg.Done(); d.errs[0] = d.Hub.Run(ctx) }()
	go func() { defer d.wg.Done(); d.errs[1] = d.srv.Serve(ctx, ln) }()
	return nil
}

// Serve starts d (Start) and returns the function that stops it and waits
// for it, to be called when the program's work is over; d also stops when
// ctx is done. The address is logged with its access token hidden.
func (d *Dashboard) Serve(ctx context.Context) (stop func(), err error) {
	runCtx, cancel := context.WithCancel(ctx)
	if err := d.Start(runCtx); err != nil {
		cancel()
		return nil, err
	}
	d.srv.log.Info("dashboard", "url", redactToken(d.URL))
	return func() {
		cancel()
		if err := d.Wait(); err != nil {
			d.srv.log.Warn("dashboard stopped with an error", "err", err)
		}
	}, nil
}

// redactToken hides the access token of a dashboard URL in a log line.
func redactToken(u string) string {
	if i := strings.Index(u, "token="); i >= 0 {
		return u[:i] + "token=xxxxx"
	}
	return u
}

// Wait waits for the dashboard to stop (after the context of Start is
// done) and returns the errors of the hub and the server.
func (d *Dashboard) Wait() error {
	d.wg.Wait()
	return errors.Join(d.errs[:]...)
}

// Send is a sink of alerts (notify.Sink): they go to the dashboard's feed.
func (d *Dashboard) Send(_ context.Context, a threefold.Alert) error {
	d.Hub.Alert(a)
	return nil
}

// SourceState shows a source's connection state in /healthz and /metrics
// as soon as it changes, before any game (listener.Deps.OnSourceState).
func (d *Dashboard) SourceState(name string, connected bool, err error) {
	d.Hub.SourceStatus(name, connected, err)
}

// LichessReconnect counts the reconnects of each Lichess stream in
// /metrics (lichess.Options.OnReconnect).
func (d *Dashboard) LichessReconnect(stream string, _ error) { d.Metrics.Reconnect(stream) }

// LichessRateLimit counts Lichess's 429 pauses in /metrics
// (lichess.Options.OnRateLimit).
func (d *Dashboard) LichessRateLimit(time.Duration) { d.Metrics.RateLimitPause("lichess") }

// ChessComRateLimit counts chess.com's 429 pauses in /metrics
// (chesscom.Options.OnRateLimit).
func (d *Dashboard) ChessComRateLimit(time.Duration) { d.Metrics.RateLimitPause("chess.com") }
