package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
)

// Options say what Run reads.
type Options struct {
	Files   []string  // PGN files (plain, gzip or zstd), "-" for Stdin
	Stdin   io.Reader // read for "-"
	Workers int       // games analysed at once; at least 1
	Limits  pgn.Limits
	// ReadError is told about a file that could not be read, whole or from
	// some game on (the games before it were analysed); message names the
	// file and the problem.
	ReadError func(message string)
	// Lang is the language of a file that is not there ("" is English).
	Lang i18n.Lang
}

// Run reads the files one after the other, analyses their games on
// opts.Workers goroutines, and hands each report to emit in input order.
// A report's File is "" when there is one file. When emit returns an
// error, Run stops reading and analysing and returns it. readFailed says
// whether some file could not be read whole.
func Run(ctx context.Context, opts Options, emit func(*Report) error) (readFailed bool, err error) {
	type job struct {
		seq  int
		game *pgn.Game
		file string
	}
	type result struct {
		seq    int
		report *Report
	}
	workers := max(opts.Workers, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job, 4*workers)
	results := make(chan result, 4*workers)
	var (
		wg        sync.WaitGroup
		readFails atomic.Int64
	)
	// The reader: one goroutine, files in order.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		seq := 0
		for _, name := range opts.Files {
			if !readFile(ctx, name, opts, func(g *pgn.Game) bool {
				select {
				case jobs <- job{seq, g, name}:
					seq++
					return true
				case <-ctx.Done():
					return false
				}
			}) {
				readFails.Add(1)
			}
		}
	}()
	// The workers.
	var analysts sync.WaitGroup
	for range workers {
		analysts.Add(1)
		go func() {
			defer analysts.Done()
			var a Analyser
			for j := range jobs {
				r := a.Analyse(j.game, j.file)
				if len(opts.Files) == 1 {
					r.File = ""
				}
				select {
				case results <- result{j.seq, r}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		analysts.Wait()
		close(results)
	}()

	pending := map[int]*Report{}
	next := 0
	var emitErr error
	for res := range results {
		pending[res.seq] = res.report
		for r, ok := pending[next]; ok; r, ok = pending[next] {
			delete(pending, next)
			next++
			if emitErr == nil {
				emitErr = emit(r)
			}
			if emitErr != nil {
				cancel()
			}
		}
	}
	wg.Wait()
	if emitErr != nil {
		return readFails.Load() > 0, emitErr
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return readFails.Load() > 0, err
	}
	return readFails.Load() > 0, nil
}

// readFile feeds every game of one file to emit and reports whether the
// whole file could be read. A read error goes to opts.ReadError with the
// file name; the games read before it have been emitted.
func readFile(ctx context.Context, name string, opts Options, emit func(*pgn.Game) bool) bool {
	report := func(format string, args ...any) {
		if opts.ReadError != nil {
			opts.ReadError(fmt.Sprintf(format, args...))
		}
	}
	f, err := pgn.Open(name, opts.Stdin)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && opts.Lang != "" && opts.Lang != i18n.English {
			report("%s", i18n.For(opts.Lang).Sprintf(i18n.ErrNoSuchFile, name))
			return false
		}
		report("%v", err)
		return false
	}
	defer f.Close()
	rd := pgn.NewReaderLimits(f, opts.Limits)
	for ctx.Err() == nil {
		g, err := rd.Next()
		if err == io.EOF {
			return true
		}
		if err != nil {
			report("%s: %v", displayName(name), err)
			return false
		}
		if !emit(g) {
			return false
		}
	}
	return false
}

func displayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}
