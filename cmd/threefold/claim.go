package main

import (
	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/rules"
)

// exitClaimInvalid is claim's exit status for a claim that is not correct.
const exitClaimInvalid = 1

func newClaimCmd(env *environment) *cobra.Command {
	var (
		jsonOut bool
		game    int
		ply     int
		move    string
	)
	cmd := &cobra.Command{
		Use:   "claim [--json] SOURCE [--game N] [--ply P] [--move SAN]",
		Short: "Check a claim of a draw by repetition or by the 50-move rule, as an arbiter would (FIDE 9.2, 9.3)",
		Long: `claim checks the claim of a draw that the player having the move makes at
ply P of a game (ply 0 is the start, ply n the position after the n-th
half-move; by default the last ply, the current position), as FIDE 9.2 and
9.3 say: correct when the position has just appeared the third time (9.2.2)
or when the last 50 moves of each player were made without a pawn move or a
capture (9.3.2). A claim made by declaring the move about to be played
(--move, in SAN) is correct when that move makes a position appear the third
time (9.2.1) or completes the 50 moves (9.3.1).

The answer: correct or not, the rule, the claimant (the side to move), and
the proof — the plies and moves of every occurrence, or where the 50 moves
began — or why not, with every earlier moment whose pieces stood the same
but that was not the same position (castling rights, en passant), and the
claim that would have been correct. --json writes one JSON object:
{"valid", "rule", "claimant", "occurrences", "reason", ...}; see README,
"claim".

SOURCE is one of:
` + listener.GameSourceForms + `

Exit status: 0 the claim is correct, 1 it is not, 2 bad input.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("claim: give one SOURCE: a PGN file, a game URL or the moves in SAN")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := env.loadConfig()
			if err != nil {
				return err
			}
			lg, err := readGame(cmd.Context(), env, cfg, args[0], game)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("ply") {
				if lg.readErr != nil {
					return usagef("claim: the game can be replayed only to ply %d (%v); give --ply", lg.game.Plies(), lg.readErr)
				}
				ply = lg.game.Plies()
			}
			if err := lg.checkPly(ply); err != nil {
				return err
			}
			declared := rules.NoMove
			if move != "" {
				p := lg.game.Position(ply)
				if declared, err = p.ParseSAN(move); err != nil {
					return usagef("--move %s at ply %d: %w", move, ply, err)
				}
			}
			r := explain.NewClaims(lg.game, cfg.lang).Check(ply, declared)
			if !r.Valid {
				env.code = exitClaimInvalid
			}
			return writeAnswer(env.stdout, jsonOut, r)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "write the answer as one JSON object")
	cmd.Flags().IntVar(&game, "game", 1, "the game of SOURCE, counted from 1")
	cmd.Flags().IntVar(&ply, "ply", 0, "the ply at which the claim is made (default: the last, the current position)")
	cmd.Flags().StringVar(&move, "move", "", "the move the claimant declares (SAN), for a claim under 9.2.1 or 9.3.1")
	return cmd
}
