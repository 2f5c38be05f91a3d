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
	"github.com/threefold-chess/threefold/web"
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
	r := &watchRun{cfg: cfg, targets: targets, jsonOut: jsonOut, once: once, stdout: env.stdout, log: cfg.logger(env.stderr)}
	return r.run(ctx)
}

// onceGiveUpFailures is how many attempts in a row a source that never
// connected may fail before watch --once gives it up (and ends with a
// non-zero status): with the Lichess client's backoff, about 15 seconds.
const onceGiveUpFailures = 5

// watchRun is one run of the watcher: what it is given, and what its steps
// build. `threefold watch` and the demo run it.
type watchRun struct {
	cfg     *config
	targets []listener.Target
	jsonOut bool // alerts on stdout as JSON lines, else text
	once    bool // PGN files are read once
	stdout  io.Writer
	log     *slog.Logger
	// dash and st, when set, are the dashboard and the store to use (the
	// demo's); otherwise the run starts them from the config.
	dash *web.Dashboard
	st   *store.Store

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
	closers    []func() // undone in reverse order at the end
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

func (r *watchRun) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// buildWebhooks reads watch.webhooks.
func (r *watchRun) buildWebhooks() (err error) {
	r.hooks, err = watchWebhooks(r.cfg, r.log)
	return err
}

// startDashboard serves the dashboard when http.addr is set. It ends when
// ctx ends, or when the sources are over (watch --once) and the queues
// drained.
func (r *watchRun) startDashboard(ctx context.Context) error {
	if r.dash != nil {
		return nil
	}
	d, stop, err := serveDashboard(ctx, r.cfg, r.log)
	if err != nil {
		return err
	}
	r.dash = d
	r.closers = append(r.closers, stop)
	return nil
}

// connectClients makes the chess.com and Lichess clients the targets need.
func (r *watchRun) connectClients(ctx context.Context) error {
	cfg, d, log := r.cfg, r.dash, r.log
	r.deps = listener.Deps{LichessBase: cfg.Lichess.BaseURL, ChessComPoll: cfg.ChessCom.PollInterval, ChessComAfterTheGame: cfg.ChessCom.AfterTheGame,
		FilePoll: cfg.Watch.FilePollInterval, DGTMaxFailures: cfg.Watch.DGTMaxFailures, DGTSettle: cfg.Watch.DGTSettle,
		DGTBoardsEvery: cfg.Watch.DGTBoardsEvery, PGNLimits: cfg.PGN, FinishedGrace: cfg.Watch.FinishedGrace, Logger: log}
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
		switch t.Kind {
		case listener.TargetChessCom:
			if r.deps.ChessCom != nil {
				continue
			}
			co := chesscom.Options{BaseURL: cfg.ChessCom.URL, Contact: cfg.ChessCom.Contact,
				UserAgent: "threefold/" + programVersion(), Logger: log}
			if d != nil {
				co.OnRateLimit = d.ChessComRateLimit
			}
			c, err := chesscom.New(co)
			if err != nil {
				return usagef("watch: chess.com: %w (set chesscom.contact in the config file, or THREEFOLD_CHESSCOM_CONTACT)", err)
			}
			r.deps.ChessCom = c
		case listener.TargetLichessGame, listener.TargetLichessUser, listener.TargetLichessTV,
			listener.TargetLichessRound, listener.TargetLichessTour:
			if r.deps.Lichess != nil {
				continue
			}
			lo := lichess.Options{BaseURL: cfg.Lichess.BaseURL, Token: cfg.Lichess.Token, Logger: log, MaxPGNBytes: cfg.PGN.MaxGameBytes, Version: programVersion()}
			if d != nil {
				lo.OnReconnect, lo.OnRateLimit = d.LichessReconnect, d.LichessRateLimit
			}
			c := lichess.NewClient(lo)
			r.closers = append(r.closers, func() { c.Close() })
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
		if f, ok := s.(*listener.FileSource); ok && r.once {
			f.Once = true
		}
	}
	return nil
}

// openStore opens the store of the config.
func (r *watchRun) openStore(ctx context.Context) error {
	if r.st == nil {
		st, err := openStore(ctx, r.cfg, storeOptions{})
		if err != nil {
			return fmt.Errorf("watch: store: %w", err)
		}
		r.st = st
		r.closers = append(r.closers, func() { st.Close() })
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
	wc := r.cfg.Watch
	sinks := map[string]delivery.Sink{}
	for _, h := range r.hooks {
		sinks[h.Name] = h
	}
	grp, err := group.Join(ctx, r.st, group.Config{LeaseTTL: wc.LeaseTTL, OutboxHold: wc.OutboxHold, Sinks: sinks, Log: r.log,
		Budget: map[string]int{store.LeaseSource: wc.StreamBudget, store.LeaseGame: wc.GameBudget}})
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
	var sinks notify.Fanout
	if r.jsonOut {
		sinks = append(sinks, notify.NewJSONLines(r.stdout))
	} else {
		sinks = append(sinks, notify.NewTextIn(r.stdout, r.cfg.lang))
	}
	var err error
	r.durables, err = delivery.StartWebhooks(ctx, r.deliverCtx, r.st, r.hooks, delivery.DurableConfig{QueueSize: r.cfg.Watch.QueueSize,
		CatchUp: catchUpPeriod, Log: r.log})
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	for _, dw := range r.durables {
		sinks = append(sinks, dw)
	}
	if r.dash != nil {
		sinks = append(sinks, r.dash)
	}
	local := func(a threefold.Alert) {
		if err := sinks.Send(ctx, a); err != nil {
			r.log.Error("alert not written", "alert", a.ID, "err", err)
		}
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

// catchUpPeriod is how often a webhook that refused alerts (or whose queue
// dropped some) is sent them again.
const catchUpPeriod = time.Minute

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
