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
		Use: "challenge USER | challenge --cancel ID",
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
	f.StringVar(&clockFlag, "clock", "", "")
	f.IntVar(&days, "days", 0, "")
	f.StringVar(&color, "color", "random", "")
	f.BoolVar(&rated, "rated", false, "")
	f.StringVar(&variant, "variant", "standard", "")
	f.StringVar(&fen, "fen", "", "")
	f.StringVar(&cancel, "cancel", "", "")
	return cmd
}
