package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

func newBotCmd(env *environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:  "bot",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := env.loadConfig()
			if err != nil {
				return err
			}
			bc, err := cfg.Bot.toBot(cfg.DataDir)
			if err != nil {
				return usagef("%w", err)
			}
			if cfg.Lichess.Token, err = cfg.Lichess.TokenFor(lichess.RoleBot); err != nil {
				return fmt.Errorf("bot: %w", err)
			}
			if cfg.Lichess.Token == "" {
				return usageError{i18n.NewError(i18n.ErrNoTokenScopes, "bot")}
			}
			return runBot(cmd.Context(), env, cfg, bc)
		},
	}
	cmd.AddCommand(newBotUpgradeCmd(env), newBotChallengeCmd(env))
	return cmd
}

// runBot runs the bot with its records in the store (and games.jsonl),
// the repetition alerts of its games in the store, and the dashboard when
// http.addr is set.
func runBot(ctx context.Context, env *environment, cfg *config, bc bot.Config) error {
	r := &botRun{runParts: runParts{cfg: cfg, log: cfg.Log.Logger(env.stderr)}, bc: bc}
	return r.run(ctx)
}

// botRun is one run of the bot: what it is given, and what its steps
// build. `threefold bot` and the demo run it.
type botRun struct {
	runParts // its config's lichess.token is the bot's
	bc       bot.Config
	// source names the bot's games in alerts and on the dashboard;
	// default "lichess bot".
	source string
	// alerts and records, when set, get the alerts of the bot's games and
	// its records too (the demo prints them).
	alerts  notify.Sink
	records []bot.RecordSink

	client  *lichess.Client
	watcher *listener.Watcher
}

// run builds everything in order and plays until ctx is done.
func (r *botRun) run(ctx context.Context) error {
	defer r.close()
	if err := r.openStore(ctx, "bot"); err != nil {
		return err
	}
	if err := r.startDashboard(ctx); err != nil {
		return err
	}
	r.client = r.lichessClient(r.cfg.Lichess)
	if err := r.buildAlertPath(ctx); err != nil {
		return err
	}
	b, err := bot.New(bot.Options{API: r.client, Config: r.bc, Logger: r.log, BaseURL: r.cfg.Lichess.BaseURL,
		Records: r.recordSinks(), OnGame: r.onGame, OnStatus: r.onStatus})
	if err != nil {
		return usagef("%w", err)
	}
	return b.Run(ctx)
}

// buildAlertPath makes the watcher of the bot's own games. Their alerts
// take the routes of watch's (audience: the operator): stored once (Gate),
// then each webhook of watch.webhooks (durably: what a webhook did not
// accept is sent again, at the next start too) and the dashboard's feed.
// The bot speaks about them in the game chat itself.
func (r *botRun) buildAlertPath(ctx context.Context) error {
	if r.source == "" {
		r.source = i18n.For(i18n.English).Sprintf(i18n.SourceLichessBot)
	}
	hooks, err := watchWebhooks(r.cfg, r.log)
	if err != nil {
		return err
	}
	// The webhooks outlive ctx: the bot finishes its games after it.
	deliverCtx, stopDeliver := context.WithCancel(context.WithoutCancel(ctx))
	r.closers = append(r.closers, stopDeliver)
	durables, send, err := r.alertPath(ctx, deliverCtx, r.alerts, hooks)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	// Deliver what is queued, but not forever: the rest goes at the next
	// start.
	r.closers = append(r.closers, func() { durables.Close(10 * time.Second) })
	// The bot's games go on after ctx is done (it finishes or resigns
	// them): their alerts are stored all the same.
	r.watcher = listener.NewWatcher(listener.WatcherOptions{Logger: r.log, Alert: delivery.Gate(context.WithoutCancel(ctx), r.st, r.log, send)})
	return nil
}

// onGame is bot.Options.OnGame: the bot's games go to the watcher and the
// dashboard.
func (r *botRun) onGame(gs threefold.GameState) {
	gs.Source = r.source
	r.watcher.Apply(gs)
	if r.dash != nil {
		r.dash.Hub.Update(gs)
	}
}

// onStatus is bot.Options.OnStatus: the dashboard shows the bot's
// ratings, record and games running.
func (r *botRun) onStatus(s threefold.BotStatus) {
	if r.dash != nil {
		r.dash.Hub.SetBot(s)
	}
}

// recordSinks is where the bot's records go: the store, games.jsonl, and
// the run's own.
func (r *botRun) recordSinks() bot.RecordSinks {
	records := bot.RecordSinks{store.BotRecordSink{Store: r.st}}
	if r.bc.RecordFile != "" {
		records = append(records, &bot.JSONLines{Path: r.bc.RecordFile})
	}
	return append(records, r.records...)
}

func newBotUpgradeCmd(env *environment) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:  "upgrade",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			client, err := botClient(env, "bot upgrade")
			if err != nil {
				return err
			}
			defer client.Close()
			ctx := cmd.Context()
			acct, err := client.CheckScopes(ctx, lichess.ScopeBotPlay)
			if err != nil {
				return fmt.Errorf("bot upgrade: %w", err)
			}
			if acct.IsBot() {
				fmt.Fprintln(env.stdout, env.printer().Sprintf(i18n.BotAlready, safetext.Terminal(acct.Username)))
				return nil
			}
			if !yes {
				fmt.Fprint(env.stdout, env.printer().Sprintf(i18n.BotUpgradeAsk, safetext.Terminal(acct.Username)))
				line, err := bufio.NewReader(env.stdin).ReadString('\n')
				if err != nil && !errors.Is(err, io.EOF) {
					return fmt.Errorf("bot upgrade: read the answer: %w", err)
				}
				if a := strings.ToLower(strings.TrimSpace(line)); a != "yes" && a != "y" {
					fmt.Fprintln(env.stdout)
					return i18n.NewError(i18n.ErrNotConfirmed)
				}
			}
			if err := client.UpgradeToBot(ctx); err != nil {
				return fmt.Errorf("bot upgrade: %w", err)
			}
			fmt.Fprintln(env.stdout, env.printer().Sprintf(i18n.BotUpgraded, safetext.Terminal(acct.Username)))
			return nil
		},
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "")
	return cmd
}

// botClient loads the config and makes the Lichess client of the bot's
// token, for op ("bot upgrade"); no token is a usage error.
func botClient(env *environment, op string) (*lichess.Client, error) {
	cfg, err := env.loadConfig()
	if err != nil {
		return nil, err
	}
	token, err := cfg.Lichess.TokenFor(lichess.RoleBot)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if token == "" {
		return nil, usageError{i18n.NewError(i18n.ErrNoToken, op)}
	}
	return lichess.NewClient(lichess.Options{BaseURL: cfg.Lichess.BaseURL, Token: token, Logger: cfg.Log.Logger(env.stderr),
		Version: programVersion()}), nil
}
