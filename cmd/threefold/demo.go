package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/demo"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
)

type demoOptions struct {
	duration, pace time.Duration
	addr, token    string
	jsonOut        bool
	verbose        bool
}

func newDemoCmd(env *environment) *cobra.Command {
	o := demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole system offline: a simulated Lichess, the bot, the watcher and the dashboard",
		Long: `demo runs threefold with no account and no network. It starts a simulated
Lichess on localhost that replays recorded real games: a broadcast round of five
boards, a blitz game that reaches a fifth occurrence, and games against the
threefold bot (which plays with its built-in mover against a scripted opponent).
The watcher follows them all; the dashboard shows them live. The dashboard's
address and every alert are printed as they happen. The demo ends by itself
after --duration, or on Ctrl-C.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("demo takes no arguments (got %q)", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.duration <= 0 || o.pace <= 0 {
				return usagef("demo: --duration and --pace must be positive")
			}
			return runDemo(cmd.Context(), env, o)
		},
	}
	cmd.Flags().DurationVar(&o.duration, "duration", 3*time.Minute, "how long the demo runs")
	cmd.Flags().DurationVar(&o.pace, "pace", time.Second, "time between two moves of a game")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:0", "dashboard address (port 0: a free port)")
	cmd.Flags().StringVar(&o.token, "token", "", "dashboard access token (required with an --addr beyond localhost)")
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, "write alerts as JSON lines")
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "log what every component does (stderr)")
	return cmd
}

// lockedWriter serialises the lines several goroutines write to stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) printf(format string, args ...any) {
	fmt.Fprintf(l, format+"\n", args...)
}

// runDemo runs the watch and bot wiring against the simulated Lichess,
// with a store in a temporary directory and a webhook that counts what it
// receives, and plays the recorded games through the simulator.
func runDemo(parent context.Context, env *environment, o demoOptions) error {
	ctx, cancel := context.WithTimeout(parent, o.duration)
	defer cancel()
	out := &lockedWriter{w: env.stdout}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))

	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	hook := newDemoWebhook()
	defer hook.Close()
	dir, err := os.MkdirTemp("", "threefold-demo-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(dir)
	cfg := defaultConfig()
	cfg.DataDir, cfg.Lichess.URL = dir, fake.URL
	cfg.HTTP = httpConfig{Addr: o.addr, Token: o.token}
	cfg.Watch.Webhooks = []webhookConfig{{Kind: string(notify.JSON), URL: hook.URL}}
	// Opening the store (its migrations) is not part of the demo's
	// duration: a short --duration on a busy machine must not cut it.
	st, err := openStore(parent, &cfg, storeOptions{})
	if err != nil {
		return fmt.Errorf("demo: store: %w", err)
	}
	defer st.Close()
	d, err := startDashboard(ctx, cfg.HTTP, log)
	if err != nil {
		return err
	}
	out.printf("threefold demo — no account, no network: a simulated Lichess at %s replays recorded real games.", fake.URL)
	out.printf("dashboard: %s", d.URL)
	out.printf("following: a broadcast round of %d boards, a blitz game that reaches a fifth occurrence, and the bot's games; the demo ends after %s (Ctrl-C ends it sooner).", demo.Boards, o.duration)

	// The games must exist on the simulated Lichess before the watcher
	// opens their streams.
	scenario, err := demo.New(fake, o.pace)
	if err != nil {
		return err
	}

	// watch and bot, as the commands run them, on one store and one
	// dashboard.
	watchCfg, botCfg := cfg, cfg
	watchCfg.Lichess.Token, botCfg.Lichess.Token = fakelichess.WatchToken, fakelichess.BotToken
	targets, err := demoTargets(fake.URL, scenario.URLs()...)
	if err != nil {
		return err
	}
	watch := &watchRun{cfg: &watchCfg, targets: targets, jsonOut: o.jsonOut, stdout: out, log: log, dash: d, st: st}
	var botAlerts notify.Sink = notify.NewTextIn(out, cfg.lang)
	if o.jsonOut {
		botAlerts = notify.NewJSONLines(out)
	}
	bc, err := demoBotConfig(o.pace)
	if err != nil {
		return err
	}
	player := &botRun{cfg: &botCfg, bc: bc, log: log, dash: d, st: st, source: "lichess bot " + fakelichess.BotUser,
		alerts: botAlerts, records: []bot.RecordSink{demoRecords{out: out}}}

	var wg sync.WaitGroup
	run := func(name string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				log.Error("demo: "+name+" stopped", "err", err)
			}
		}()
	}
	run("watcher", func() error { return watch.run(ctx) })
	run("bot", func() error { return player.run(ctx) })
	run("games", func() error {
		scenario.Run(ctx, func(part string, err error) { log.Error("demo: "+part+" stopped", "err", err) })
		return nil
	})
	wg.Wait()
	dashErr := d.Wait()

	reason := "after " + o.duration.String()
	if parent.Err() != nil {
		reason = "interrupted"
	}
	alerts, stored := demoStored(st)
	out.printf("the store (a temporary one) holds %d games and %d alerts; the webhook (watch.webhooks) received %d of them.",
		stored, alerts, hook.received())
	out.printf("demo over (%s): %d alerts.", reason, alerts)
	return dashErr
}

// demoTargets are the sources the demo's watcher follows, as a user would
// paste them.
func demoTargets(base string, urls ...string) ([]listener.Target, error) {
	var targets []listener.Target
	for _, u := range urls {
		t, err := listener.ParseTarget(u, listener.ParseOptions{LichessBase: base})
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// demoBotConfig is the bot's config in the demo: the built-in mover, games
// resigned at the end, and a pawn down counts as behind, so the bot seeks
// the repetition.
func demoBotConfig(pace time.Duration) (bot.Config, error) {
	bc := bot.DefaultConfig()
	bc.OnStop = "resign"
	bc.StopTimeout = 5 * time.Second
	bc.Policy.BehindMargin = 50
	bc.Policy.ClaimWait = pace
	bc.Chat.MinInterval = 0
	if err := bc.Validate(); err != nil {
		return bc, fmt.Errorf("demo: bot: %w", err)
	}
	return bc, nil
}

// demoStored counts the alerts and games in the demo's store.
func demoStored(st *store.Store) (alerts, games int) {
	ctx := context.Background()
	if as, err := st.Alerts(ctx, store.AlertFilter{}); err == nil {
		alerts = len(as)
	}
	if gs, err := st.Games(ctx, store.GameFilter{}); err == nil {
		games = len(gs)
	}
	return alerts, games
}

// demoWebhook is the demo's webhook: it counts the alerts it receives, by
// their Idempotency-Key.
type demoWebhook struct {
	*httptest.Server
	mu  sync.Mutex
	ids map[string]bool
}

func newDemoWebhook() *demoWebhook {
	h := &demoWebhook{ids: map[string]bool{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		h.mu.Lock()
		h.ids[r.Header.Get(notify.IdempotencyHeader)] = true
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return h
}

func (h *demoWebhook) received() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.ids)
}

// demoRecords prints how each bot game ended.
type demoRecords struct{ out *lockedWriter }

func (r demoRecords) WriteRecord(_ context.Context, rec threefold.BotRecord) error {
	r.out.printf("bot game %s (%s vs %s) over: %s, %s after %d plies.", rec.GameID, rec.White.Name, rec.Black.Name,
		rec.Result, strings.ReplaceAll(string(rec.Termination), "_", " "), rec.Plies)
	return nil
}
