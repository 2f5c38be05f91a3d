package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store/delivery"
)

func newBotCmd(env *environment) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bot",
		Short: "Run the Lichess BOT account of the config file (stop with Ctrl-C or SIGTERM)",
		Long: `threefold bot runs a Lichess BOT account: it accepts the challenges the bot:
section of the config allows, plays every game with the configured UCI engine
(or a built-in mover), never lets a won game end in a repetition draw, seeks
one in a lost game, writes repetition notices in the game chat, and records
every game with the true reason it ended in <data_dir>/games.jsonl and in the
store (store.dsn; by default <data_dir>/threefold.db), with the repetition
alerts of its games. With http.addr set, the dashboard shows its games live.

On SIGTERM or Ctrl-C it accepts no new challenge and finishes (or, with
bot.on_stop: resign, resigns) the games it is playing, then exits.`,
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
			if cfg.Lichess.Token, err = cfg.lichessToken(roleBot); err != nil {
				return fmt.Errorf("bot: %w", err)
			}
			if cfg.Lichess.Token == "" {
				return usagef("bot: no Lichess token: run `threefold login --for bot`, or set lichess.token or THREEFOLD_LICHESS_TOKEN (a token with the bot:play and challenge:read scopes)")
			}
			return runBot(cmd.Context(), env, cfg, bc)
		},
	}
	cmd.AddCommand(newBotUpgradeCmd(env))
	return cmd
}

// runBot runs the bot with its records in the store (and games.jsonl),
// the repetition alerts of its games in the store, and the dashboard when
// http.addr is set.
func runBot(ctx context.Context, env *environment, cfg *config, bc bot.Config) error {
	log := newBotLogger(cfg, env.stderr)
	st, err := openStore(ctx, cfg, storeOptions{})
	if err != nil {
		return fmt.Errorf("bot: store: %w", err)
	}
	defer st.Close()
	records := recordSinks{storeRecords{st: st}}
	if bc.RecordFile != "" {
		records = append(records, &bot.JSONLines{Path: bc.RecordFile})
	}

	d, stopDashboard, err := serveDashboard(ctx, cfg.HTTP, log)
	if err != nil {
		return err
	}
	defer stopDashboard()
	lo := lichess.Options{BaseURL: cfg.Lichess.URL, Token: cfg.Lichess.Token, Logger: log}
	if d != nil {
		lo.OnReconnect, lo.OnRateLimit = d.LichessReconnect, d.LichessRateLimit
	}
	client := lichess.NewClient(lo)
	defer client.Close()

	// The alerts of the bot's own games: stored once (Gate) and shown on
	// the dashboard. The bot speaks about them in the game chat itself.
	const source = "lichess bot"
	w := listener.NewWatcher(listener.WatcherOptions{Logger: log, Alert: delivery.Gate(ctx, st, log, func(a threefold.Alert) {
		if d != nil {
			d.Hub.Alert(a)
		}
	})})
	onGame := func(gs threefold.GameState) {
		gs.Source = source
		w.Apply(gs)
		if d != nil {
			d.Hub.Update(gs)
		}
	}
	b, err := bot.New(bot.Options{API: client, Config: bc, Logger: log, BaseURL: cfg.Lichess.URL, Records: records, OnGame: onGame})
	if err != nil {
		return usagef("%w", err)
	}
	return b.Run(ctx)
}

func newBotLogger(cfg *config, w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.Log.Level)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func newBotUpgradeCmd(env *environment) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "upgrade",
		Short: "Turn the token's Lichess account into a BOT account (irreversible)",
		Long: `threefold bot upgrade turns the Lichess account of the configured token into a
BOT account. Lichess allows it only for an account that has never played a
game, and it cannot be undone. It asks for confirmation unless --yes is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := env.loadConfig()
			if err != nil {
				return err
			}
			if cfg.Lichess.Token, err = cfg.lichessToken(roleBot); err != nil {
				return fmt.Errorf("bot upgrade: %w", err)
			}
			if cfg.Lichess.Token == "" {
				return usagef("bot upgrade: no Lichess token: run `threefold login --for bot`, or set lichess.token or THREEFOLD_LICHESS_TOKEN")
			}
			log := newBotLogger(cfg, env.stderr)
			client := lichess.NewClient(lichess.Options{BaseURL: cfg.Lichess.URL, Token: cfg.Lichess.Token, Logger: log})
			defer client.Close()
			ctx := cmd.Context()
			acct, err := client.CheckScopes(ctx, lichess.ScopeBotPlay)
			if err != nil {
				return fmt.Errorf("bot upgrade: %w", err)
			}
			if acct.IsBot() {
				fmt.Fprintf(env.stdout, "%s is already a BOT account.\n", acct.Username)
				return nil
			}
			if !yes {
				fmt.Fprintf(env.stdout, "Turn the Lichess account %s into a BOT account? This cannot be undone, and the\naccount can then only play as a bot. Type yes to go on: ", acct.Username)
				line, err := bufio.NewReader(env.stdin).ReadString('\n')
				if err != nil && !errors.Is(err, io.EOF) {
					return fmt.Errorf("bot upgrade: read the answer: %w", err)
				}
				if a := strings.ToLower(strings.TrimSpace(line)); a != "yes" && a != "y" {
					fmt.Fprintln(env.stdout)
					return errors.New("bot upgrade: not confirmed; nothing changed (use --yes to skip the question)")
				}
			}
			if err := client.UpgradeToBot(ctx); err != nil {
				return fmt.Errorf("bot upgrade: %w", err)
			}
			fmt.Fprintf(env.stdout, "%s is now a BOT account.\n", acct.Username)
			return nil
		},
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask for confirmation")
	return cmd
}
