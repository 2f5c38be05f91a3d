package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
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
		Use:   "watch SOURCE...",
		Short: "Follow live games (Lichess, chess.com, DGT boards, relay PGN files) and alert on repetitions",
		Long: `watch follows every game of the given sources and says the moment a position
occurs the third time (a draw may be claimed, FIDE 9.2.2), the moment a claim by
declaring a move becomes possible (9.2.1), and the moment the fifth occurrence
(9.6.1), the 50-move rule (9.3) or the 75-move rule (9.6.2) applies. Each alert
carries its proof: the plies and moves of every occurrence, the position, who
may claim, a link to the game, the source and how far behind the board it is.
Alerts about over-the-board games (broadcasts, DGT boards, relay files) are for
arbiters and spectators: telling a player about a claim breaks the Laws.

Alerts go to stdout as text lines, or as JSON lines with --json, and to every
webhook of watch.webhooks in the config file. Logs go to stderr. A source that
fails is reported and the others keep running. Sources from watch.sources in the
config file are followed as well.

Every alert is stored (store.dsn; by default <data_dir>/threefold.db) before it
is reported, once by its stable id: after a restart, an alert raised before is
not reported again, and what a webhook had not accepted is sent to it first
(each request carries the alert id as Idempotency-Key). The games followed and
how far each was processed are stored too. With http.addr set, the dashboard,
/metrics and /healthz are served.

With --group (or watch.group: true), this process is one instance of a group
sharing store.dsn (PostgreSQL, for instances on several machines): each source
is followed by the one instance holding its lease (at most watch.stream_budget
sources and watch.game_budget single Lichess games per instance, within
Lichess's per-address stream limits); leases are renewed every lease_ttl/3, and
the sources of an instance that died are taken over by the others within about
watch.lease_ttl, resumed without sending again what was sent. Alerts reach the
webhooks through the store's outbox, each once, sent by whichever instance is
up. A source that ended is not started again; an instance ends when all its
sources have ended. threefold status shows the group.

SOURCE is one of:
` + listener.SourceForms,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWatch(cmd.Context(), env, args, jsonOut, once, grouped)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "write alerts as JSON lines (the alert JSON of the README)")
	cmd.Flags().BoolVar(&once, "once", false, "read PGN files and folders once and stop, instead of following them")
	cmd.Flags().BoolVar(&grouped, "group", false, "be one instance of a group sharing store.dsn (watch.group)")
	return cmd
}

func newWatchLogger(cfg *config, w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.Log.Level)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(cfg.Log.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func runWatch(ctx context.Context, env *environment, args []string, jsonOut, once, grouped bool) error {
	cfg, err := env.loadConfig()
	if err != nil {
		return err
	}
	if grouped {
		cfg.Watch.Group = true
	}
	if cfg.Lichess.Token, err = cfg.lichessToken(roleWatch); err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	log := newWatchLogger(cfg, env.stderr)
	raw := append(append([]string(nil), args...), cfg.Watch.Sources...)
	if len(raw) == 0 {
		return usagef("watch: no source given; SOURCE is one of:\n%s", listener.SourceForms)
	}
	popts := listener.ParseOptions{LichessBase: cfg.Lichess.URL, ChessComBase: cfg.ChessCom.URL}
	var targets []listener.Target
	for _, s := range raw {
		t, err := listener.ParseTarget(s, popts)
		if err != nil {
			return usagef("watch: %w", err)
		}
		targets = append(targets, t)
	}
	hooks, err := watchWebhooks(cfg, log)
	if err != nil {
		return err
	}

	// The dashboard ends when ctx ends, or when the sources are over
	// (watch --once) and the queues drained.
	d, stopDashboard, err := serveDashboard(ctx, cfg.HTTP, log)
	if err != nil {
		return err
	}
	defer stopDashboard()

	deps := listener.Deps{LichessBase: cfg.Lichess.URL, ChessComPoll: cfg.ChessCom.PollInterval, ChessComAfterTheGame: cfg.ChessCom.AfterTheGame,
		FilePoll: cfg.Watch.FilePollInterval, DGTMaxFailures: cfg.Watch.DGTMaxFailures, DGTSettle: cfg.Watch.DGTSettle,
		DGTBoardsEvery: cfg.Watch.DGTBoardsEvery, Logger: log}
	if d != nil {
		deps.OnSourceState, deps.OnBoards = d.SourceState, d.Hub.SourceBoards
	}
	for _, t := range targets {
		switch t.Kind {
		case listener.TargetChessCom:
			if deps.ChessCom != nil {
				continue
			}
			co := chesscom.Options{BaseURL: cfg.ChessCom.URL, Contact: cfg.ChessCom.Contact,
				UserAgent: "threefold/" + strings.Fields(versionString())[1], Logger: log}
			if d != nil {
				co.OnRateLimit = d.ChessComRateLimit
			}
			c, err := chesscom.New(co)
			if err != nil {
				return usagef("watch: chess.com: %w (set chesscom.contact in the config file, or THREEFOLD_CHESSCOM_CONTACT)", err)
			}
			deps.ChessCom = c
		case listener.TargetLichessGame, listener.TargetLichessUser, listener.TargetLichessTV,
			listener.TargetLichessRound, listener.TargetLichessTour:
			if deps.Lichess != nil {
				continue
			}
			lo := lichess.Options{BaseURL: cfg.Lichess.URL, Token: cfg.Lichess.Token, Logger: log}
			if d != nil {
				lo.OnReconnect, lo.OnRateLimit = d.LichessReconnect, d.LichessRateLimit
			}
			c := lichess.NewClient(lo)
			defer c.Close()
			if err := checkWatchToken(ctx, c, cfg.Lichess.Token != "", targets, log); err != nil {
				return fmt.Errorf("watch: %w", err)
			}
			deps.Lichess = c
		}
	}
	sources, err := listener.Sources(targets, deps)
	if err != nil {
		return usagef("watch: %w", err)
	}
	if once {
		for _, s := range sources {
			if f, ok := s.(*listener.FileSource); ok {
				f.Once = true
			}
		}
	}

	st, err := openStore(ctx, cfg, storeOptions{})
	if err != nil {
		return fmt.Errorf("watch: store: %w", err)
	}
	defer st.Close()
	log.Info("store", "backend", st.Backend(), "where", st.Where())

	// The alert path: the watcher → Gate (stored, durably, before anything
	// is reported; an id stored before is not passed on) → stdout, each
	// webhook's queue (→ resume first, then send and mark), the dashboard.
	var sinks notify.Fanout
	if jsonOut {
		sinks = append(sinks, notify.NewJSONLines(env.stdout))
	} else {
		sinks = append(sinks, notify.NewText(env.stdout))
	}
	deliverCtx, stopDeliver := context.WithCancel(context.WithoutCancel(ctx))
	defer stopDeliver()
	var durables []*delivery.Durable
	var grp *group.Session
	if cfg.Watch.Group {
		// Group mode: the webhooks are sent to by the outbox relay of
		// every instance, not by this process's queues.
		grp, err = joinGroup(ctx, st, cfg, hooks, log)
		if err != nil {
			return fmt.Errorf("watch: %w", err)
		}
		hooks = nil
	}
	for _, h := range hooks {
		dw, err := delivery.NewDurable(ctx, st, h, delivery.DurableConfig{Name: h.Name, QueueSize: cfg.Watch.QueueSize,
			CatchUp: catchUpPeriod, Log: log})
		if err != nil {
			return fmt.Errorf("watch: %w", err)
		}
		dw.Start(deliverCtx)
		durables = append(durables, dw)
		sinks = append(sinks, dw)
	}
	if d != nil {
		sinks = append(sinks, d)
	}
	local := func(a threefold.Alert) {
		if err := sinks.Send(ctx, a); err != nil {
			log.Error("alert not written", "alert", a.ID, "err", err)
		}
	}
	alert := delivery.Gate(ctx, st, log, local)
	if grp != nil {
		alert = grp.Gate(deliverCtx, local)
	}
	w := listener.NewWatcher(listener.WatcherOptions{Logger: log, Alert: alert})
	rec := newGameRecorder(st, log)
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name()
		if ds, ok := s.(*listener.DGTSource); ok {
			ds.State = rec.keeper(ds.Name()) // the games on the boards keep their ids across restarts
		}
		kind := group.LeaseKind(s)
		if d != nil {
			s = d.Tap(s)
		}
		sources[i] = rec.wrap(s)
		if grp != nil {
			sources[i] = grp.Wrap(sources[i], kind)
		}
	}
	if grp != nil {
		rec.saveState = grp.SaveState
		grp.Start(ctx, deliverCtx)
		// Each source is watched by the instance that wins its lease,
		// which says so then.
		log.Info("group: offering sources", "sources", strings.Join(names, "; "))
	} else {
		log.Info("watching", "sources", strings.Join(names, "; "))
	}
	runErr := w.Run(ctx, sources...)
	if grp != nil {
		// Up to an outbox hold more: the claims of a dead instance.
		grp.Close(grp.Hold() + 10*time.Second)
	}

	// Deliver what is queued (and what the resume still sends), but not
	// forever: what is left is sent at the next start.
	drain, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, dw := range durables {
		dw.Close(drain)
	}
	reportAttention(w, log)
	if runErr != nil {
		if ctx.Err() != nil && errors.Is(runErr, ctx.Err()) {
			return nil
		}
		return fmt.Errorf("watch: %w", runErr)
	}
	return nil
}

// joinGroup joins the group of the store with the budgets of the config
// and builds the relay over the webhooks (named alike on every instance:
// by kind and position in watch.webhooks).
func joinGroup(ctx context.Context, st *store.Store, cfg *config, hooks []*notify.Webhook, log *slog.Logger) (*group.Session, error) {
	wc := cfg.Watch
	if wc.StreamBudget < 0 || wc.GameBudget < 0 {
		return nil, usagef("watch.stream_budget and watch.game_budget must be 0 (no limit) or more")
	}
	if wc.LeaseTTL < 0 || wc.OutboxHold < 0 {
		return nil, usagef("watch.lease_ttl and watch.outbox_hold must not be negative")
	}
	sinks := map[string]delivery.Sink{}
	for _, h := range hooks {
		sinks[h.Name] = h
	}
	return group.Join(ctx, st, group.Config{LeaseTTL: wc.LeaseTTL, OutboxHold: wc.OutboxHold, Sinks: sinks, Log: log,
		Budget: map[string]int{store.LeaseSource: wc.StreamBudget, store.LeaseGame: wc.GameBudget}})
}

// catchUpPeriod is how often a webhook that refused alerts (or whose queue
// dropped some) is sent them again.
const catchUpPeriod = time.Minute

// redactToken hides the access token of a dashboard URL in a log line.
func redactToken(u string) string {
	if i := strings.Index(u, "token="); i >= 0 {
		return u[:i] + "token=xxxxx"
	}
	return u
}

// watchWebhooks builds one webhook per entry of watch.webhooks. Each is
// named by its kind and position ("json webhook 2"): the name is stable
// across restarts (the store records deliveries under it) and never
// quotes the URL, a secret.
func watchWebhooks(cfg *config, log *slog.Logger) ([]*notify.Webhook, error) {
	var hooks []*notify.Webhook
	for i, h := range cfg.Watch.Webhooks {
		kind, err := notify.ParseKind(h.Kind)
		if err != nil {
			return nil, usagef("watch.webhooks[%d]: %w", i, err)
		}
		u := h.URL
		if h.URLEnv != "" {
			if u != "" {
				return nil, usagef("watch.webhooks[%d]: give url or url_env, not both", i)
			}
			u = os.Getenv(h.URLEnv)
			if u == "" {
				return nil, usagef("watch.webhooks[%d]: environment variable %s (url_env) is empty", i, h.URLEnv)
			}
		}
		if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			return nil, usagef("watch.webhooks[%d]: url must be an http(s) URL", i) // never quote it: a secret
		}
		name := string(kind) + " webhook " + strconv.Itoa(i+1)
		hooks = append(hooks, &notify.Webhook{Kind: kind, URL: u, Name: name, Logger: log})
	}
	return hooks, nil
}

// reportAttention logs, at the end, every game whose record could not be
// replayed to its end.
func reportAttention(w *listener.Watcher, log *slog.Logger) {
	for _, st := range w.Status() {
		if a := st.Attention; a != nil {
			log.Warn("game needs attention", "game", st.Game.ID, "source", st.Source, "ply", a.Ply, "move", a.Token, "reason", a.Reason)
		}
	}
}

// checkWatchToken checks, before anything is followed, the token of a
// watcher that follows Lichess broadcasts: every broadcast endpoint needs
// study:read, and a token without it is refused (403) on each of them. A
// missing scope or a token Lichess does not know ends watch at once with
// what to do; no token at all is allowed, with a warning, since Lichess
// still serves anonymous broadcast requests (heavily rate-limited, and
// announced to stop). A check that cannot be made (no network) is left to
// the streams, which retry.
func checkWatchToken(ctx context.Context, c *lichess.Client, haveToken bool, targets []listener.Target, log *slog.Logger) error {
	broadcasts := false
	for _, t := range targets {
		broadcasts = broadcasts || t.Kind == listener.TargetLichessRound || t.Kind == listener.TargetLichessTour
	}
	if !broadcasts {
		return nil
	}
	if !haveToken {
		log.Warn("following Lichess broadcasts without a token: Lichess rate-limits anonymous broadcast requests heavily and has announced they may stop working; run `threefold login --for watch` (scope study:read)")
		return nil
	}
	_, err := c.CheckScopes(ctx, lichess.ScopeStudyRead)
	var ae *lichess.AuthError
	switch {
	case errors.As(err, &ae):
		if ae.Scope == "" {
			return fmt.Errorf("%w; run `threefold login --for watch` for a token with study:read", err)
		}
		return err
	case err != nil:
		log.Warn("cannot check the Lichess token's scopes now; going on", "err", err)
	}
	return nil
}
