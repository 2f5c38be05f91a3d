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
		Use: "scan FILE...",
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
			opts.limits = cfg.PGN
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
	cmd.Flags().BoolVar(&opts.json, "json", false, "")
	cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "")
	cmd.Flags().BoolVar(&opts.all, "all", false, "")
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

// maxScanWorkers bounds --workers. scan.Run sets aside room for 8 chunks
// of input a worker before it reads: --workers 10000000, a typo, took 12
// GB and four minutes to scan a file of two games.
const maxScanWorkers = 1024

// runScan is scan.Print over the files, the reports on stdout, the
// totals on stderr. It reports whether any game or file failed.
func runScan(ctx context.Context, env *environment, opts scanOptions) (failed bool, err error) {
	if opts.workers < 1 {
		return false, usagef("scan: --workers must be at least 1")
	}
	if opts.workers > maxScanWorkers {
		return false, usagef("scan: --workers %d: at most %d (more workers than cores gain nothing)", opts.workers, maxScanWorkers)
	}
	defer scan.TuneGC(os.Getenv)()
	return scan.Print(ctx, scan.Options{Files: opts.files, Stdin: env.stdin, Workers: opts.workers, Limits: opts.limits, Lang: opts.lang,
		ReadError: func(msg string) { fmt.Fprintf(env.stderr, "threefold: scan: %s\n", msg) }},
		scan.Output{Stdout: env.stdout, Stderr: env.stderr, JSON: opts.json, All: opts.all, Live: isTerminal(env.stderr)})
}

// isTerminal reports whether w is a terminal (progress shows there only).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
