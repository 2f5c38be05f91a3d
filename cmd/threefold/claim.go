package main

import (
	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/explain"
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
		Use: "claim [--json] SOURCE [--game N] [--ply P] [--move SAN]",
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
			return explain.Write(env.stdout, r, jsonOut)
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "")
	cmd.Flags().IntVar(&game, "game", 1, "")
	cmd.Flags().IntVar(&ply, "ply", 0, "")
	cmd.Flags().StringVar(&move, "move", "", "")
	return cmd
}
