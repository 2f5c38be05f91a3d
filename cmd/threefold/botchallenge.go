package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
)

func newBotChallengeCmd(env *environment) *cobra.Command {
	var (
		clockFlag, color, variant, fen, cancel string
		days                                   int
		rated                                  bool
	)
	cmd := &cobra.Command{
		Use:   "challenge USER | challenge --cancel ID",
		Short: "Challenge a Lichess account with the bot's account, or cancel a challenge",
		Long: `threefold bot challenge USER sends a challenge from the bot's account to USER
and prints its id and link. A running threefold bot plays the game when USER
accepts it (the game has the challenge's id). Lichess drops a real-time
challenge that is not accepted within 20 seconds; a correspondence challenge
(--days) waits until it is accepted, declined or cancelled:
threefold bot challenge --cancel ID cancels it (or aborts its game if no move
was played yet). Lichess limits how many challenges and games a bot may have
against other bots each day; a refusal says so.

--clock is minutes+seconds of increment: 1+0, 3+2, 0.5+0 (30 s); Lichess
allows 0, 15, 30, 45 and 90 seconds and whole minutes up to 180, and
increments of whole seconds up to 60.`,
		Example: `  threefold bot challenge maia1 --clock 3+2 --color white
  threefold bot challenge somebot --days 3 --rated
  threefold bot challenge --cancel AbCdEfGh`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cancel != "" && len(args) == 0 || cancel == "" && len(args) == 1 {
				return nil
			}
			return usagef("bot challenge: give a user to challenge, or --cancel ID")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := botClient(env, "bot challenge")
			if err != nil {
				return err
			}
			defer client.Close()
			ctx := cmd.Context()
			if cancel != "" {
				if err := client.CancelChallenge(ctx, cancel); err != nil {
					return fmt.Errorf("bot challenge: cancel %s: %w", cancel, err)
				}
				fmt.Fprintln(env.stdout, env.printer().Sprintf(i18n.ChallengeCancelled, cancel))
				return nil
			}
			req := lichess.ChallengeRequest{Days: days, Rated: rated, Color: color, Variant: variant, FEN: fen}
			if clockFlag != "" {
				if days != 0 {
					return usagef("bot challenge: give --clock or --days, not both")
				}
				req.Limit, req.Increment, err = lichess.ParseTimeControl(clockFlag)
				if err != nil {
					return usagef("bot challenge: --clock %q: %w", clockFlag, err)
				}
				req.Clock = true
			}
			if err := lichess.CheckChallengeRequest(req); err != nil {
				return usagef("bot challenge: %w", err)
			}
			ch, err := client.CreateChallenge(ctx, args[0], req)
			if err != nil {
				return fmt.Errorf("bot challenge: %w", err)
			}
			say := env.printer()
			clock, mode, colour := ch.Terms(say)
			fmt.Fprintln(env.stdout, say.Sprintf(i18n.ChallengeSent, ch.ID, args[0], clock, mode, colour))
			fmt.Fprintln(env.stdout, ch.URL)
			if req.Clock {
				fmt.Fprintln(env.stdout, say.Sprintf(i18n.ChallengeExpires))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&clockFlag, "clock", "", "real-time clock as minutes+increment seconds, e.g. 3+2 (default: unlimited unless --days)")
	f.IntVar(&days, "days", 0, "correspondence: days per move (1, 2, 3, 5, 7, 10 or 14)")
	f.StringVar(&color, "color", "random", "the bot's colour: white, black or random")
	f.BoolVar(&rated, "rated", false, "a rated game")
	f.StringVar(&variant, "variant", "standard", "variant key (the bot plays standard, fromPosition and chess960)")
	f.StringVar(&fen, "fen", "", "start position (variant fromPosition or chess960)")
	f.StringVar(&cancel, "cancel", "", "cancel the challenge with this id instead")
	return cmd
}
