package scan

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// Output is where Print writes: the reports to Stdout, as JSON lines or as
// text (All: a line for every game, not only those with something to
// report), the totals and, when Live (Stderr is a terminal), the progress
// to Stderr.
type Output struct {
	Stdout, Stderr  io.Writer
	JSON, All, Live bool
}

// Print is `threefold scan`: Run over opts, every report written to out in
// input order (in opts.Lang), then the totals. failed says whether some
// game or file could not be read. err is Run's (ctx's end, for one), or
// one of writing ("scan: write: …"), which comes first.
func Print(ctx context.Context, opts Options, out Output) (failed bool, err error) {
	opts.JSON = out.JSON
	progress := Progress{Lang: opts.Lang}
	stopProgress := progress.Start(out.Stderr, out.Live)
	bw := bufio.NewWriterSize(out.Stdout, 1<<16)
	w := Writer{Out: bw, JSON: out.JSON, All: out.All, Lang: opts.Lang}
	readFailed, err := Run(ctx, opts, func(r *Report) error {
		progress.Add(r.Plies)
		return w.Write(r)
	})
	stopProgress()
	var writeErr error
	if err != nil && !errors.Is(err, ctx.Err()) {
		writeErr = err
	}
	if writeErr == nil {
		writeErr = w.Totals(out.Stderr, progress.Elapsed())
	}
	if err := bw.Flush(); writeErr == nil {
		writeErr = err
	}
	if writeErr != nil {
		return true, fmt.Errorf("scan: write: %w", writeErr)
	}
	if err != nil {
		return true, err
	}
	return w.Failed() > 0 || readFailed, nil
}
