package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/explain"
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
		Use:  "explain [--json] [--svg FILE] (SOURCE --plies A,B [--game N] | --fen FEN1 --fen FEN2)",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplain(cmd.Context(), env, args, o)
		},
	}
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, "")
	cmd.Flags().IntVar(&o.game, "game", 1, "")
	cmd.Flags().StringVar(&o.plies, "plies", "", "")
	cmd.Flags().StringArrayVar(&o.fens, "fen", nil, "")
	cmd.Flags().StringVar(&o.svgFile, "svg", "", "")
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
	return explain.Write(env.stdout, r, o.jsonOut)
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
