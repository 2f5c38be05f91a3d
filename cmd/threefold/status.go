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
		Use:   "status",
		Short: "Show the group of instances sharing the store: instances, leases, sources, lag, e-boards",
		Long: `status shows what the store (store.dsn, or the SQLite file threefold.db in
data_dir) says about the instances of threefold that share it:

  instances  each instance, alive (a heartbeat within its lease lifetime) or
             dead, when it was last seen, its budgets and what it holds;
  leases     which instance holds which source and game, and until when;
  sources    each source, its holder, when its resume state was saved, and
             its connection (Lichess streams, DGT servers): connected, or
             down since when, after how many attempts, and why;
  outbox     per sink, the alerts not yet sent, the oldest one's age, the
             attempts and the last error;
  games      each unfinished game: the last ply processed against the last
             ply seen, most behind first;
  boards     the e-boards of DGT LiveChess sources, as their source last
             kept them: LiveChess's state, whether the board is followed,
             why it fails (a refused subscription, switched off, not
             listed), its game.

With --json it writes the same as one JSON object.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.Context(), env, opts, statusNow())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.json, "json", false, "one JSON object")
	f.IntVar(&opts.limit, "limit", 50, "at most this many leases and games in the text (0: all)")
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
