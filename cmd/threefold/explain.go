package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/listener"
)

// explainOptions are the flags of explain.
type explainOptions struct {
	jsonOut bool
	game    int
	plies   string
	fens    []string
	svgFile string
}

func newExplainCmd(env *environment) *cobra.Command {
	var o explainOptions
	cmd := &cobra.Command{
		Use:   "explain [--json] [--svg FILE] (SOURCE --plies A,B [--game N] | --fen FEN1 --fen FEN2)",
		Short: "Say why two moments of a game are, or are not, the same position (FIDE 9.2.3)",
		Long: `explain compares two positions, the plies A and B of a game (ply 0 is the
start, ply n the position after the n-th half-move) or two FENs, and says
whether they are the same position in the sense of FIDE 9.2.3: the same
player to move, the same pieces on the same squares, the same castling
rights (a right lost never returns, a right held counts even while castling
is blocked) and the same en passant captures (only a capture that is legal
counts). When they are not, it gives every reason, each in a sentence: the
side to move, every square whose occupant differs, every castling right held
in one and not the other (with the ply and move that lost it), every en
passant capture possible in one and not the other. Move numbers and clocks
are never a reason.

The text output shows the two boards side by side. --json writes one JSON
object: {"same", "plies", "fens", "differences": [{"kind": "side_to_move" |
"placement" | "castling" | "en_passant", "explanation", ...details}], ...};
see README, "explain". --svg FILE also writes both diagrams with the
differences marked.

SOURCE is one of:
` + listener.GameSourceForms + `

Exit status: 0 when the comparison was made (same or not), 2 for bad input.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplain(cmd.Context(), env, args, o)
		},
	}
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, "write the comparison as one JSON object")
	cmd.Flags().IntVar(&o.game, "game", 1, "the game of SOURCE, counted from 1")
	cmd.Flags().StringVar(&o.plies, "plies", "", "the two plies to compare, A,B (0 is the start position)")
	cmd.Flags().StringArrayVar(&o.fens, "fen", nil, "a position to compare (twice)")
	cmd.Flags().StringVar(&o.svgFile, "svg", "", "also write the two diagrams, differences marked, to this SVG file")
	return cmd
}

// runExplain compares two FENs, or two plies of the game SOURCE names,
// and writes the answer (and the diagrams to --svg).
func runExplain(ctx context.Context, env *environment, args []string, o explainOptions) error {
	cfg, err := env.loadConfig()
	if err != nil {
		return err
	}
	var r *explain.Report
	switch {
	case len(o.fens) > 0:
		if len(o.fens) != 2 || len(args) > 0 || o.plies != "" {
			return usagef("explain: give two --fen and nothing else, or a SOURCE with --plies A,B")
		}
		a, err := parseFENArg("--fen", o.fens[0])
		if err != nil {
			return err
		}
		b, err := parseFENArg("--fen", o.fens[1])
		if err != nil {
			return err
		}
		r = explain.Compare(a, b, cfg.lang)
	case len(args) == 1:
		a, b, err := parsePlies(o.plies)
		if err != nil {
			return err
		}
		lg, err := readGame(ctx, env, cfg, args[0], o.game)
		if err != nil {
			return err
		}
		for _, p := range []int{a, b} {
			if err := lg.checkPly(p); err != nil {
				return err
			}
		}
		if r, err = explain.ComparePlies(lg.game, a, b, cfg.lang); err != nil {
			return err
		}
	default:
		return usagef("explain: give a SOURCE with --plies A,B, or two --fen")
	}
	if o.svgFile != "" {
		if err := os.WriteFile(o.svgFile, []byte(r.SVG()), 0o644); err != nil {
			return fmt.Errorf("explain: --svg: %w", err)
		}
	}
	return writeAnswer(env.stdout, o.jsonOut, r)
}

// parsePlies reads --plies A,B.
func parsePlies(s string) (int, int, error) {
	as, bs, ok := strings.Cut(s, ",")
	a, errA := strconv.Atoi(strings.TrimSpace(as))
	b, errB := strconv.Atoi(strings.TrimSpace(bs))
	if s == "" || !ok || errA != nil || errB != nil {
		return 0, 0, usagef("--plies %q: want two plies A,B (0 is the start position)", s)
	}
	return a, b, nil
}
