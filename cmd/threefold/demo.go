package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/demo"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/web"
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
		Use: "demo",
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
	cmd.Flags().DurationVar(&o.duration, "duration", 3*time.Minute, "")
	cmd.Flags().DurationVar(&o.pace, "pace", time.Second, "")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:0", "")
	cmd.Flags().StringVar(&o.token, "token", "", "")
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, "")
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "")
	return cmd
}

// runDemo runs the watch and bot wiring against the simulated Lichess,
// with a store in a temporary directory and a webhook that counts what it
// receives, and plays the recorded games through the simulator.
func runDemo(parent context.Context, env *environment, o demoOptions) error {
	// The demo reads no config file: its language is --lang, else
	// THREEFOLD_LANG, else the locale.
	cfg := defaultConfig()
	cfg.Lang = os.Getenv("THREEFOLD_LANG")
	if err := resolveLang(&cfg, env.lang, "THREEFOLD_LANG"); err != nil {
		return usageError{err}
	}
	env.sayLang = cfg.lang
	cfg.Bot.chatLang = cfg.lang
	ctx, cancel := context.WithTimeout(parent, o.duration)
	defer cancel()
	out := demo.NewConsole(env.stdout, cfg.lang)
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))

	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	hook := demo.NewWebhook()
	defer hook.Close()
	dir, err := os.MkdirTemp("", "threefold-demo-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(dir)
	cfg.DataDir, cfg.Lichess.BaseURL = dir, fake.URL
	cfg.HTTP = web.Options{Addr: o.addr, Token: o.token, Lang: cfg.lang}
	cfg.Watch.Webhooks = []notify.WebhookSpec{{Kind: string(notify.JSON), URL: hook.URL}}
	// Opening the store (its migrations) is not part of the demo's
	// duration: a short --duration on a busy machine must not cut it.
	st, err := openStore(parent, &cfg, storeOptions{})
	if err != nil {
		return fmt.Errorf("demo: %w", err) // the store's errors say "store: "
	}
	defer st.Close()
	d, err := newDashboard(&cfg, log)
	if err != nil {
		return err
	}
	if err := d.Start(ctx); err != nil {
		return err
	}
	out.Intro(fake.URL, d.URL, o.duration)

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
	targets, err := scenario.Targets()
	if err != nil {
		return err
	}
	watch := &watchRun{runParts: runParts{cfg: &watchCfg, log: log, dash: d, st: st}, targets: targets, jsonOut: o.jsonOut, stdout: out}
	bc, err := demo.BotConfig(o.pace, cfg.lang)
	if err != nil {
		return err
	}
	player := &botRun{runParts: runParts{cfg: &botCfg, log: log, dash: d, st: st}, bc: bc, source: i18n.For(i18n.English).Sprintf(i18n.SourceLichessBotNamed, fakelichess.BotUser),
		alerts: notify.NewLines(out, o.jsonOut, cfg.lang), records: []bot.RecordSink{out}}

	failed := func(part string, err error) { log.Error("demo: "+part+" stopped", "err", err) }
	demo.RunParts(failed,
		demo.Part{Name: "watcher", Run: func() error { return watch.run(ctx) }},
		demo.Part{Name: "bot", Run: func() error { return player.run(ctx) }},
		demo.Part{Name: "games", Run: func() error { scenario.Run(ctx, failed); return nil }})
	dashErr := d.Wait()

	alerts, stored := demo.Stored(context.Background(), st)
	out.Outro(o.duration, parent.Err() != nil, stored, alerts, hook.Received())
	return dashErr
}
