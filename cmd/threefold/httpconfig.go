package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/threefold-chess/threefold/internal/i18n"
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

// serveDashboard starts the dashboard when http.addr is set (d is nil
// when it is not) and returns the function that stops it and waits for
// it, to be called when the command's work is over.
func serveDashboard(ctx context.Context, hc httpConfig, log *slog.Logger) (d *web.Dashboard, stop func(), err error) {
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
func startDashboard(ctx context.Context, cfg httpConfig, log *slog.Logger) (*web.Dashboard, error) {
	d, err := web.NewDashboard(web.Options{Addr: cfg.Addr, Token: cfg.Token, Logger: log, Hosts: cfg.Hosts,
		MaxConnections: cfg.MaxConnections, MaxConnectionsPerClient: cfg.MaxConnectionsPerClient,
		MaxWebsockets: cfg.MaxWebsockets, MaxWebsocketsPerClient: cfg.MaxWebsocketsPerClient, Lang: cfg.lang}, cfg.games)
	if errors.Is(err, web.ErrTokenRequired) {
		return nil, usagef("http.addr %s is not a loopback address: set http.token (or THREEFOLD_HTTP_TOKEN) to protect the dashboard", cfg.Addr)
	}
	if err != nil {
		return nil, usagef("http: %w", err)
	}
	if err := d.Start(ctx); err != nil {
		return nil, err
	}
	return d, nil
}
