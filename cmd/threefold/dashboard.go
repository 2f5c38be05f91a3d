package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/threefold-chess/threefold/web"
)

// newDashboard makes the dashboard of the http: section, logging to log.
// An address beyond localhost without a token is refused (a usage error).
func newDashboard(cfg *config, log *slog.Logger) (*web.Dashboard, error) {
	opts := cfg.HTTP
	opts.Logger = log
	d, err := web.NewDashboard(opts, cfg.hubOptions())
	if errors.Is(err, web.ErrTokenRequired) {
		return nil, usagef("http.addr %s is not a loopback address: set http.token (or THREEFOLD_HTTP_TOKEN) to protect the dashboard", opts.Addr)
	}
	if err != nil {
		return nil, usagef("http: %w", err)
	}
	return d, nil
}

// serveDashboard serves the dashboard when http.addr is set (d is nil
// when it is not) and returns the function that stops it and waits for
// it, to be called when the command's work is over.
func serveDashboard(ctx context.Context, cfg *config, log *slog.Logger) (d *web.Dashboard, stop func(), err error) {
	if cfg.HTTP.Addr == "" {
		return nil, func() {}, nil
	}
	if d, err = newDashboard(cfg, log); err != nil {
		return nil, nil, err
	}
	stop, err = d.Serve(ctx)
	return d, stop, err
}
