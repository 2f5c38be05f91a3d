package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

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

// runScan is scan.Print over the files, the reports on stdout, the
// totals on stderr. It reports whether any game or file failed.
func runScan(ctx context.Context, env *environment, opts scanOptions) (failed bool, err error) {
	if opts.workers < 1 {
		return false, usagef("scan: --workers must be at least 1")
	}
	defer scanGC(os.Getenv)()
	return scan.Print(ctx, scan.Options{Files: opts.files, Stdin: env.stdin, Workers: opts.workers, Limits: opts.limits, Lang: opts.lang,
		ReadError: func(msg string) { fmt.Fprintf(env.stderr, "threefold: scan: %s\n", msg) }},
		scan.Output{Stdout: env.stdout, Stderr: env.stderr, JSON: opts.json, All: opts.all, Live: isTerminal(env.stderr)})
}

// The garbage collector's settings while scan runs, unless GOGC or
// GOMEMLIMIT say otherwise. scan's live heap is a few MB (the attack
// tables, the chunks in flight) while it allocates some 50 bytes a ply, so
// at the default GOGC=100 the collector ran every few MB: about 190 of
// 1,770 instructions a ply (callgrind, scan --json --workers 1, the
// corpus's first 10,000 games); at 800 it is about 10, for a heap of
// some 40 MB more. The soft limit keeps a file of huge games (a chunk is
// at least one whole game) from growing the heap 9-fold past it.
const (
	scanGCPercent   = 800
	scanMemoryLimit = 512 << 20
)

// scanGC sets the collector for a scan (see scanGCPercent) where getenv
// says GOGC and GOMEMLIMIT are not set, and returns what puts the settings
// back.
func scanGC(getenv func(string) string) (restore func()) {
	setPercent, setLimit := getenv("GOGC") == "", getenv("GOMEMLIMIT") == ""
	var percent int
	var limit int64
	if setPercent {
		percent = debug.SetGCPercent(scanGCPercent)
	}
	if setLimit {
		limit = debug.SetMemoryLimit(scanMemoryLimit)
	}
	return func() {
		if setPercent {
			debug.SetGCPercent(percent)
		}
		if setLimit {
			debug.SetMemoryLimit(limit)
		}
	}
}

// isTerminal reports whether w is a terminal (progress shows there only).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
