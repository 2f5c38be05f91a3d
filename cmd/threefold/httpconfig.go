package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/web"
)

// httpConfig is the `http:` section: the dashboard, /metrics and /healthz,
// served by watch and bot when addr is set.
type httpConfig struct {
	// Addr is host:port to listen on; "" serves nothing. Bind 127.0.0.1
	// (the default suggestion) unless others must reach it; any other
	// address requires Token.
	Addr string `mapstructure:"addr"`
	// Token is the access token every request must carry (Authorization:
	// Bearer TOKEN, or ?token=TOKEN in the URL).
	Token string `mapstructure:"token"`
	// Hosts are more host names the dashboard answers to without a token
	// (besides localhost, the loopback addresses and the host of Addr): a
	// request naming any other host is refused (DNS rebinding).
	Hosts []string `mapstructure:"hosts"`
	// Caps on open connections and on dashboard pages (websockets), in
	// total and per client address.
	MaxConnections          int `mapstructure:"max_connections"`
	MaxConnectionsPerClient int `mapstructure:"max_connections_per_client"`
	MaxWebsockets           int `mapstructure:"max_websockets"`
	MaxWebsocketsPerClient  int `mapstructure:"max_websockets_per_client"`

	// games bounds what the dashboard keeps of each game: it is set from
	// pgn.max_plies and watch.finished_grace, not a key of its own.
	games web.HubOptions
	// lang is the pages' language when the browser names none of ours:
	// the lang of the config.
	lang i18n.Lang
}

func defaultHTTPConfig() httpConfig {
	return httpConfig{MaxConnections: web.DefaultMaxConnections, MaxConnectionsPerClient: web.DefaultMaxConnectionsPerClient,
		MaxWebsockets: web.DefaultMaxWebsockets, MaxWebsocketsPerClient: web.DefaultMaxWebsocketsPerClient}
}

// dashboard is the web dashboard of one run, with what feeds it.
type dashboard struct {
	Hub     *web.Hub
	Metrics *web.Metrics
	URL     string

	wg   sync.WaitGroup
	errs [2]error
}

// serveDashboard starts the dashboard when http.addr is set (d is nil
// when it is not) and returns the function that stops it and waits for
// it, to be called when the command's work is over.
func serveDashboard(ctx context.Context, hc httpConfig, log *slog.Logger) (d *dashboard, stop func(), err error) {
	if hc.Addr == "" {
		return nil, func() {}, nil
	}
	runCtx, cancel := context.WithCancel(ctx)
	d, err = startDashboard(runCtx, hc, log)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	log.Info("dashboard", "url", redactToken(d.URL))
	return d, func() {
		cancel()
		if err := d.Wait(); err != nil {
			log.Warn("dashboard stopped with an error", "err", err)
		}
	}, nil
}

// startDashboard listens on cfg.Addr and serves the dashboard until ctx is
// done; Wait then returns when everything has stopped. An address beyond
// localhost without a token is refused (a usage error).
func startDashboard(ctx context.Context, cfg httpConfig, log *slog.Logger) (*dashboard, error) {
	m := web.NewMetrics()
	hub := web.NewHub(web.HubOptions{Metrics: m, Logger: log, MaxPlies: cfg.games.MaxPlies, FinishedGrace: cfg.games.FinishedGrace})
	srv, err := web.New(web.Options{Addr: cfg.Addr, Token: cfg.Token, Hub: hub, Metrics: m, Logger: log, Hosts: cfg.Hosts,
		MaxConnections: cfg.MaxConnections, MaxConnectionsPerClient: cfg.MaxConnectionsPerClient,
		MaxWebsockets: cfg.MaxWebsockets, MaxWebsocketsPerClient: cfg.MaxWebsocketsPerClient, Lang: cfg.lang})
	if errors.Is(err, web.ErrTokenRequired) {
		return nil, usagef("http.addr %s is not a loopback address: set http.token (or THREEFOLD_HTTP_TOKEN) to protect the dashboard", cfg.Addr)
	}
	if err != nil {
		return nil, usagef("http: %w", err)
	}
	ln, err := srv.Listen(ctx)
	if err != nil {
		return nil, err
	}
	d := &dashboard{Hub: hub, Metrics: m, URL: srv.URL(ln)}
	d.wg.Add(2)
	go func() { defer d.wg.Done(); d.errs[0] = hub.Run(ctx) }()
	go func() { defer d.wg.Done(); d.errs[1] = srv.Serve(ctx, ln) }()
	return d, nil
}

// Wait waits for the dashboard to stop (after its context is done).
func (d *dashboard) Wait() error {
	d.wg.Wait()
	return errors.Join(d.errs[:]...)
}

// Send implements notify.Sink: alerts go to the dashboard's feed.
func (d *dashboard) Send(_ context.Context, a threefold.Alert) error {
	d.Hub.Alert(a)
	return nil
}

// Tap wraps a source so that every snapshot also updates the dashboard, and
// the source's state shows in /healthz: connected from its first snapshot,
// down with its error when Run fails, gone when it ends.
func (d *dashboard) Tap(src listener.Source) listener.Source { return &tappedSource{src: src, d: d} }

type tappedSource struct {
	src listener.Source
	d   *dashboard
}

func (t *tappedSource) Name() string { return t.src.Name() }

func (t *tappedSource) Run(ctx context.Context, emit listener.Emit) error {
	name := t.src.Name()
	hub := t.d.Hub
	hub.SourceStatus(name, false, errors.New("connecting"))
	connected := false
	err := t.src.Run(ctx, func(s threefold.GameState) error {
		if !connected {
			connected = true
			hub.SourceStatus(name, true, nil)
		}
		if s.Source == "" {
			s.Source = name
		}
		hub.Update(s)
		return emit(s)
	})
	switch {
	case err == nil, ctx.Err() != nil:
		hub.SourceGone(name)
	default:
		hub.SourceStatus(name, false, err)
	}
	return err
}

// SourceState is listener.Deps.OnSourceState: a source's connection
// state shows in /healthz and /metrics as soon as it changes, before any
// game (a quiet source is connected too).
func (d *dashboard) SourceState(name string, connected bool, err error) {
	d.Hub.SourceStatus(name, connected, err)
}

// LichessReconnect is lichess.Options.OnReconnect: it counts the
// reconnects of each stream in /metrics.
func (d *dashboard) LichessReconnect(stream string, _ error) { d.Metrics.Reconnect(stream) }

// LichessRateLimit is lichess.Options.OnRateLimit: it counts the 429
// pauses in /metrics.
func (d *dashboard) LichessRateLimit(time.Duration) { d.Metrics.RateLimitPause("lichess") }

// ChessComRateLimit is chesscom.Options.OnRateLimit: it counts the 429
// pauses in /metrics.
func (d *dashboard) ChessComRateLimit(time.Duration) { d.Metrics.RateLimitPause("chess.com") }
