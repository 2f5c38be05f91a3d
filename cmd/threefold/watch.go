package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/group"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

func newWatchCmd(env *environment) *cobra.Command {
	var (
		jsonOut bool
		once    bool
		grouped bool
	)
	cmd := &cobra.Command{
		Use: "watch SOURCE...",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWatch(cmd.Context(), env, args, jsonOut, once, grouped)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "")
	cmd.Flags().BoolVar(&once, "once", false, "")
	cmd.Flags().BoolVar(&grouped, "group", false, "")
	return cmd
}

// runWatch is `threefold watch`: the config, the targets, then the run.
func runWatch(ctx context.Context, env *environment, args []string, jsonOut, once, grouped bool) error {
	cfg, err := env.loadConfig()
	if err != nil {
		return err
	}
	if grouped {
		cfg.Watch.Group = true
	}
	if cfg.Lichess.Token, err = cfg.Lichess.TokenFor(lichess.RoleWatch); err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	raw := append(append([]string(nil), args...), cfg.Watch.Sources...)
	if len(raw) == 0 {
		return usagef("watch: no source given; SOURCE is one of:\n%s", listener.SourceForms)
	}
	targets, err := listener.ParseTargets(raw, cfg.parseOptions())
	if err != nil {
		return usagef("watch: %w", err)
	}
	r := &watchRun{runParts: runParts{cfg: cfg, log: cfg.Log.Logger(env.stderr)}, targets: targets, jsonOut: jsonOut, once: once, stdout: env.stdout}
	return r.run(ctx)
}

// onceGiveUpFailures is how many attempts in a row a source that never
// connected may fail before watch --once gives it up (and ends with a
// non-zero status): with the Lichess client's backoff, about 15 seconds.
const onceGiveUpFailures = 5

// watchRun is one run of the watcher: what it is given, and what its steps
// build. `threefold watch` and the demo run it.
type watchRun struct {
	runParts
	targets []listener.Target
	jsonOut bool // alerts on stdout as JSON lines, else text
	once    bool // PGN files are read once
	stdout  io.Writer

	hooks      []*notify.Webhook
	health     *listener.Health // the sources' connection state
	deps       listener.Deps
	sources    []listener.Source
	names      []string
	deliverCtx context.Context
	durables   delivery.Durables
	grp        *group.Session
	batch      *store.Batcher // out of group mode: the store writes, in batches
	watcher    *listener.Watcher
}

// run builds everything in order, follows the sources until they are over
// or ctx is done, and delivers what is still due before it returns.
func (r *watchRun) run(ctx context.Context) error {
	defer r.close()
	if err := r.buildWebhooks(); err != nil {
		return err
	}
	if err := r.startDashboard(ctx); err != nil {
		return err
	}
	if err := r.connectClients(ctx); err != nil {
		return err
	}
	if err := r.buildSources(); err != nil {
		return err
	}
	if err := r.openStore(ctx); err != nil {
		return err
	}
	if err := r.joinGroup(ctx); err != nil {
		return err
	}
	if err := r.buildAlertPath(ctx); err != nil {
		return err
	}
	r.wrapSources()
	runErr := r.follow(ctx)
	r.deliverTheRest()
	r.watcher.ReportAttention()
	if runErr != nil {
		if ctx.Err() != nil && errors.Is(runErr, ctx.Err()) {
			return nil
		}
		return fmt.Errorf("watch: %w", runErr)
	}
	return nil
}

// buildWebhooks reads watch.webhooks.
func (r *watchRun) buildWebhooks() (err error) {
	r.hooks, err = watchWebhooks(r.cfg, r.log)
	return err
}

// connectClients makes the chess.com and Lichess clients the targets need.
func (r *watchRun) connectClients(ctx context.Context) error {
	cfg, d, log := r.cfg, r.dash, r.log
	r.deps = listener.Deps{Config: cfg.Watch.Config, LichessBase: cfg.Lichess.BaseURL, ChessComConfig: cfg.ChessCom.ChessComConfig,
		PGNLimits: cfg.PGN, FilesOnce: r.once, Logger: log}
	// A source that keeps failing is said at WARN, shown on the dashboard
	// and by threefold status; watch --once gives up one that never
	// connects.
	giveUp := 0
	if r.once {
		giveUp = onceGiveUpFailures
	}
	r.health = listener.NewHealth(log, giveUp)
	r.deps.OnSourceState = r.health.State
	if d != nil {
		r.health.SetShow(d.SourceState)
		r.deps.OnBoards = d.Hub.SourceBoards
	}
	for _, t := range r.targets {
		switch {
		case t.Kind == listener.TargetChessCom && r.deps.ChessCom == nil:
			co := cfg.ChessCom.Options
			co.UserAgent, co.Logger = "threefold/"+programVersion(), log
			if d != nil {
				co.OnRateLimit = d.ChessComRateLimit
			}
			c, err := chesscom.New(co)
			if err != nil {
				return usagef("watch: chess.com: %w (set chesscom.contact in the config file, or THREEFOLD_CHESSCOM_CONTACT)", err)
			}
			r.deps.ChessCom = c
		case t.Kind.Lichess() && r.deps.Lichess == nil:
			lo := cfg.Lichess
			lo.MaxPGNBytes = cfg.PGN.MaxGameBytes
			c := r.lichessClient(lo)
			if err := listener.CheckBroadcastToken(ctx, c, cfg.Lichess.Token != "", r.targets, log); err != nil {
				return fmt.Errorf("watch: %w", err)
			}
			r.deps.Lichess = c
		}
	}
	return nil
}

// buildSources makes one source per target.
func (r *watchRun) buildSources() (err error) {
	r.sources, err = listener.Sources(r.targets, r.deps)
	if err != nil {
		return usagef("watch: %w", err)
	}
	for _, s := range r.sources {
		r.names = append(r.names, s.Name())
	}
	return nil
}

// openStore opens the store of the config, and says which.
func (r *watchRun) openStore(ctx context.Context) error {
	if err := r.runParts.openStore(ctx, "watch"); err != nil {
		return err
	}
	r.log.Info("store", "backend", r.st.Backend(), "where", r.st.Where())
	return nil
}

// joinGroup joins the group in group mode, with the budgets of the config
// (its ranges keep them and the durations non-negative): then the webhooks
// are sent to by the outbox relay of every instance, not by this process's
// queues; they are named alike on every instance, by kind and position.
func (r *watchRun) joinGroup(ctx context.Context) error {
	deliverCtx, stopDeliver := context.WithCancel(context.WithoutCancel(ctx))
	r.deliverCtx = deliverCtx
	r.closers = append(r.closers, stopDeliver)
	if !r.cfg.Watch.Group {
		return nil
	}
	sinks := map[string]delivery.Sink{}
	for _, h := range r.hooks {
		sinks[h.Name] = h
	}
	grp, err := group.Join(ctx, r.st, r.cfg.Watch.Settings.Config(sinks, r.log))
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	r.grp, r.hooks = grp, nil
	return nil
}

// buildAlertPath makes the watcher and the path of its alerts: Gate
// (stored, durably, before anything is reported; an id stored before is
// not passed on) → stdout, each webhook's durable queue, the dashboard; in
// group mode the group's outbox relay instead of the queues.
func (r *watchRun) buildAlertPath(ctx context.Context) error {
	stdout := notify.NewLines(r.stdout, r.jsonOut, r.cfg.lang)
	var local func(threefold.Alert)
	var err error
	if r.durables, local, err = r.alertPath(ctx, r.deliverCtx, stdout, r.hooks); err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	// An alert found while the run stops is stored all the same. Out of
	// group mode, alerts are stored in batches with the game records.
	var alert func(threefold.Alert)
	if r.grp != nil {
		alert = r.grp.Gate(r.deliverCtx, local)
	} else {
		r.batch = store.NewBatcher(r.deliverCtx, r.st, r.log, local)
		alert = r.batch.Gate()
	}
	r.watcher = listener.NewWatcher(listener.WatcherOptions{Logger: r.log, Alert: alert, MaxPlies: r.cfg.PGN.MaxPlies, FinishedGrace: r.cfg.Watch.FinishedGrace})
	return nil
}

// wrapSources puts each source behind the dashboard's tap, the game
// recorder and, in group mode, its lease.
func (r *watchRun) wrapSources() {
	rec := store.NewRecorder(r.st, r.log)
	rec.SetTerminations(r.watcher) // it took each state in before the recorder sees it
	r.health.SetSave(r.st.SaveSourceHealth)
	for i, s := range r.sources {
		if ds, ok := s.(*listener.DGTSource); ok {
			ds.State = rec.Keeper(ds.Name()) // the games on the boards keep their ids across restarts
		}
		kind := group.LeaseKind(s)
		s = r.health.Watch(s)
		if r.dash != nil {
			s = listener.Tap(s, r.dash.Hub)
		}
		r.sources[i] = listener.AfterTaken(s, rec.Record, rec.Flush)
		if r.grp != nil {
			r.sources[i] = r.grp.Wrap(r.sources[i], kind)
		}
	}
	if r.grp != nil {
		rec.SetStateWriter(r.grp.SaveState)
	} else {
		rec.SetBatcher(r.batch)
	}
}

// follow runs the watcher on the sources until they are over or ctx is
// done; in group mode under the group's leases.
func (r *watchRun) follow(ctx context.Context) error {
	if r.grp == nil {
		r.log.Info("watching", "sources", strings.Join(r.names, "; "))
		return r.watcher.Run(ctx, r.sources...)
	}
	r.grp.Start(ctx, r.deliverCtx)
	// Each source is watched by the instance that wins its lease, which
	// says so then.
	r.log.Info("group: offering sources", "sources", strings.Join(r.names, "; "))
	err := r.watcher.Run(ctx, r.sources...)
	// Up to an outbox hold more: the claims of a dead instance.
	r.grp.Close(r.grp.Hold() + 10*time.Second)
	return err
}

// deliverTheRest delivers what is queued (and what the resumes still
// send), but not forever: what is left is sent at the next start.
func (r *watchRun) deliverTheRest() { r.durables.Close(10 * time.Second) }

// watchWebhooks builds one webhook per entry of watch.webhooks, named by
// its kind and position (notify.WebhookSpec).
func watchWebhooks(cfg *config, log *slog.Logger) ([]*notify.Webhook, error) {
	var hooks []*notify.Webhook
	for i, h := range cfg.Watch.Webhooks {
		hook, err := h.Webhook(i, os.Getenv)
		if err != nil {
			return nil, usagef("watch.webhooks[%d]: %w", i, err)
		}
		hook.Logger, hook.Lang = log, cfg.lang
		hooks = append(hooks, hook)
	}
	return hooks, nil
}
