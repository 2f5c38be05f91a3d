package main

import (
	"context"
	"encoding/json"
	"time"

	"github.com/spf13/cobra"
	"github.com/threefold-chess/threefold/store/report"
)

type statusOptions struct {
	json  bool
	limit int
}

func newStatusCmd(env *environment) *cobra.Command {
	var opts statusOptions
	cmd := &cobra.Command{
		Use:  "status",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.Context(), env, opts, statusNow())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.json, "json", false, "")
	f.IntVar(&opts.limit, "limit", 50, "")
	return cmd
}

// statusNow is the clock liveness and ages are judged by (tests set it).
var statusNow = time.Now

func runStatus(ctx context.Context, env *environment, opts statusOptions, now time.Time) error {
	if opts.limit < 0 {
		return usagef("--limit %d: want 0 (all) or more", opts.limit)
	}
	cfg, st, err := env.openStoreToRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	p := cfg.printer()
	gs, err := st.Status(ctx, now)
	if err != nil {
		return err
	}
	boards, err := st.SourceBoards(ctx, gs.Sources)
	if err != nil {
		return err
	}
	if opts.json {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report.StatusJSON(gs, boards))
	}
	report.StatusTables(p, env.stdout, gs, opts.limit)
	report.BoardTable(p, env.stdout, boards, now)
	return nil
}
