package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/store/report"
)

type historyOptions struct {
	source, kind, player, since string
	limit                       int
	json                        bool
	alertsOnly, gamesOnly       bool
}

func newHistoryCmd(env *environment) *cobra.Command {
	var opts historyOptions
	cmd := &cobra.Command{
		Use:  "history",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHistory(cmd.Context(), env, opts, histNow())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.source, "source", "", "")
	f.StringVar(&opts.kind, "kind", "", "")
	f.StringVar(&opts.player, "player", "", "")
	f.StringVar(&opts.since, "since", "", "")
	f.IntVar(&opts.limit, "limit", 20, "")
	f.BoolVar(&opts.json, "json", false, "")
	f.BoolVar(&opts.alertsOnly, "alerts", false, "")
	f.BoolVar(&opts.gamesOnly, "games", false, "")
	return cmd
}

// histNow is the clock --since counts back from (tests set it).
var histNow = time.Now

// parseSince reads --since (report.ParseSince), a usage error when it is
// neither a duration nor a date.
func parseSince(s string, now time.Time) (time.Time, error) {
	t, err := report.ParseSince(s, now)
	if err != nil {
		return time.Time{}, usageError{fmt.Errorf("--since %q: %w", strings.TrimSpace(s), err)}
	}
	return t, nil
}

func runHistory(ctx context.Context, env *environment, opts historyOptions, now time.Time) error {
	since, err := parseSince(opts.since, now)
	if err != nil {
		return err
	}
	kind := threefold.AlertKind(opts.kind)
	if kind != "" && !slices.Contains(threefold.Kinds, kind) {
		return usagef("--kind %q: want one of %v", opts.kind, threefold.Kinds)
	}
	if opts.limit < 0 {
		return usagef("--limit %d: want 0 (all) or more", opts.limit)
	}
	if opts.alertsOnly && opts.gamesOnly {
		return usagef("--alerts and --games: give one or neither")
	}
	cfg, st, err := env.openStoreToRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := report.ReadHistory(ctx, st, report.Query{Source: opts.source, Kind: kind, Player: opts.player, Since: since,
		Limit: opts.limit, AlertsOnly: opts.alertsOnly, GamesOnly: opts.gamesOnly})
	if err != nil {
		return err
	}
	if opts.json {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(h)
	}
	h.WriteText(cfg.printer(), env.stdout)
	return nil
}
