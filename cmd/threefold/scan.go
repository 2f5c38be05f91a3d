package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/pgn/scan"
)

func newScanCmd(env *environment) *cobra.Command {
	var opts scanOptions
	cmd := &cobra.Command{
		Use:   "scan FILE...",
		Short: "Report every repetition in the games of PGN files (plain, .gz or .zst; - for stdin)",
		Long: `scan replays every game of the PGN files (plain, gzip or zstd, detected from
the content; "-" reads stdin) and reports, for each game with something to
report, the plies at which a position occurred the third time and who may
claim, the first claim by declared move (FIDE 9.2.1), the fifth occurrence
(9.6.1), the 50- and 75-move rules, and the first near repetition (the
pieces stand as at an earlier ply with the same side to move, but castling
rights or en passant captures differ: not the same position; "threefold
explain" says why). Totals follow. The [Variant] tag
decides between standard chess and Chess960 (Chess960, Chess 960,
Fischerandom, Freestyle); a game in another variant is an error.

With --json it writes one JSON object per game, in input order, with the
fields of the reference annotations (id, plies, max_occurrences,
threefold_plies, fivefold_ply, claimable_plies, final_fen, start_fen, error)
and more (variant: standard or chess960; near_repetitions); see README,
"scan --json".

Games are numbered from 1 in the text; the JSON "id" is 0-based, as in the
reference annotations (#1 is id 0).

Exit status: 0 when every game was read, 3 when some game or file could not
be read (each is reported and the scan goes on), 2 for bad usage, 1 when the
scan itself failed (for example stdout closed).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("scan: which games? give one or more PGN files (- for stdin)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			cfg, err := env.loadConfig()
			if err != nil {
				return err
			}
			opts.limits = cfg.PGN.limits()
			opts.lang = cfg.lang
			failed, err := runScan(cmd.Context(), env, opts)
			if err != nil {
				return err
			}
			if failed {
				env.code = exitSomeGames
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object per game, in input order")
	cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "games analysed in parallel")
	cmd.Flags().BoolVar(&opts.all, "all", false, "text output: a line for every game, not only those with something to report")
	return cmd
}

type scanOptions struct {
	files   []string
	json    bool
	all     bool
	workers int
	limits  pgn.Limits // the pgn.* keys of the config
	lang    i18n.Lang  // of the text lines and the totals
}

// runScan is scan.Print over the files, the reports on stdout, the
// totals on stderr. It reports whether any game or file failed.
func runScan(ctx context.Context, env *environment, opts scanOptions) (failed bool, err error) {
	if opts.workers < 1 {
		return false, usagef("scan: --workers must be at least 1")
	}
	return scan.Print(ctx, scan.Options{Files: opts.files, Stdin: env.stdin, Workers: opts.workers, Limits: opts.limits, Lang: opts.lang,
		ReadError: func(msg string) { fmt.Fprintf(env.stderr, "threefold: scan: %s\n", msg) }},
		scan.Output{Stdout: env.stdout, Stderr: env.stderr, JSON: opts.json, All: opts.all, Live: isTerminal(env.stderr)})
}

// isTerminal reports whether w is a terminal (progress shows there only).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
