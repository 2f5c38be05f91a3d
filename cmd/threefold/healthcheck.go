package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/web"

	"github.com/spf13/cobra"
)

// newHealthcheckCmd is `threefold healthcheck`: the container's health
// check (a distroless image has no curl). It asks /healthz of the
// dashboard that watch or bot serves on http.addr, with http.token.
func newHealthcheckCmd(env *environment) *cobra.Command {
	var (
		u       string
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:  "healthcheck",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := env.loadConfig()
			if err != nil {
				return err
			}
			if u == "" {
				if cfg.HTTP.Addr == "" {
					return usagef("healthcheck: http.addr is not set (nothing serves /healthz); give --url")
				}
				u, err = web.HealthURL(cfg.HTTP.Addr)
				if err != nil {
					return usagef("healthcheck: %w", err)
				}
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			return healthcheck(ctx, u, cfg.HTTP.Token, cfg.printer(), env.stdout)
		},
	}
	cmd.Flags().StringVar(&u, "url", "", "")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Second, "")
	return cmd
}

func healthcheck(ctx context.Context, u, token string, p *i18n.Printer, out io.Writer) error {
	if _, err := url.Parse(u); err != nil {
		return usagef("healthcheck: bad url: %w", err)
	}
	if err := web.Healthcheck(ctx, u, token, p, out); err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	return nil
}
