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
	// some game on (the games before it were emitted); message names the
	// file and the problem. It is called on Run's goroutine, as emit is, in
	// input order.
	ReadError func(message string)
	// Lang is the language of a file that is not there ("" is English).
	Lang i18n.Lang
	// JSON says the reports will be written as JSON lines (Writer.JSON):
	// the workers render each line but its file and id, which spares
	// Run's one goroutine, which puts the reports in order, that work.
	JSON bool
}

// Run reads the files one after the other, analyses their games on
// opts.Workers goroutines, and hands each report to emit in input order.
// A report's File is "" when there is one file. When emit returns an
// error, Run stops reading and analysing and returns it. When ctx ends
// first, Run stops and returns an error that wraps ctx's: the scan is not
// complete. readFailed says whether some file could not be read whole.
//
// One goroutine decompresses and cuts the text into chunks of whole lines
// (pgn.Splitter); the workers read the games of a chunk and analyse them;
// the chunks are put back in order (pgn.Stitcher), and a chunk read wrong
// on its own (a comment open over the cut) is read and analysed again
// there. At most a few chunks per worker are held at once, whatever the
// size of the files.
func Run(ctx context.Context, opts Options, emit func(*Report) error) (readFailed bool, err error) {
	type job struct {
		seq     int
		file    int
		chunk   *pgn.Chunk
		failure string // instead of a chunk: why the file cannot be read
	}
	type result struct {
		job
		part    *pgn.Part
		reports []*Report
	}
	workers := max(opts.Workers, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// held bounds the chunks read and not yet emitted: sending a job or a
	// result never blocks.
	held := make(chan struct{}, heldPerWorker*workers)
	jobs := make(chan job, cap(held))
	results := make(chan result, cap(held))
	var (
		wg        sync.WaitGroup
		readFails atomic.Int64
	)
	fileName := func(i int) string {
		if len(opts.Files) == 1 {
			return ""
		}
		return opts.Files[i]
	}
	// The reader: one goroutine, files in order.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		seq := 0
		for i, name := range opts.Files {
			splitFile(ctx, name, opts, func(c *pgn.Chunk, failure string) bool {
				select {
				case held <- struct{}{}:
				case <-ctx.Done():
					if c != nil {
						c.Release()
					}
					return false
				}
				jobs <- job{seq, i, c, failure}
				seq++
				return true
			})
		}
	}()
	// The workers.
	var analysts sync.WaitGroup
	for range workers {
		analysts.Add(1)
		go func() {
			defer analysts.Done()
			var a Analyser
			cr := pgn.NewChunkReader(opts.Limits)
			cr.KeepTags = analysedTags
			for j := range jobs {
				if j.chunk == nil {
					results <- result{job: j}
					continue
				}
				res := result{job: j, part: cr.Read(j.chunk)}
				for _, g := range res.part.Games {
					if ctx.Err() != nil {
						break
					}
					res.reports = append(res.reports, a.Analyse(g, fileName(j.file)))
				}
				if opts.JSON {
					renderJSON(res.reports)
				}
				results <- res
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		analysts.Wait()
		close(results)
	}()

	pending := map[int]result{}
	next := 0
	var (
		emitErr  error
		stitcher *pgn.Stitcher
		file     = -1
		a        Analyser
	)
	for res := range results {
		pending[res.seq] = res
		for r, ok := pending[next]; ok; r, ok = pending[next] {
			delete(pending, next)
			next++
			if r.chunk == nil {
				readFails.Add(1)
				if opts.ReadError != nil {
					opts.ReadError(r.failure)
				}
			} else if emitErr == nil && ctx.Err() == nil {
				if r.file != file {
					file, stitcher = r.file, pgn.NewStitcher(opts.Limits)
					stitcher.KeepTags = analysedTags
				}
				games, reread, err := stitcher.Stitch(r.part)
				if reread {
					r.reports = r.reports[:0]
					for _, g := range games {
						r.reports = append(r.reports, a.Analyse(g, fileName(r.file)))
					}
				}
				for i, rep := range r.reports {
					rep.ID = games[i].Index
					if emitErr = emit(rep); emitErr != nil {
						cancel()
						break
					}
				}
				if err != nil {
					readFails.Add(1)
					if opts.ReadError != nil {
						opts.ReadError(fmt.Sprintf("%s: %v", displayName(opts.Files[r.file]), err))
					}
				}
			}
			if r.chunk != nil {
				r.chunk.Release()
			}
			<-held
		}
	}
	wg.Wait()
	if emitErr != nil {
		return readFails.Load() > 0, emitErr
	}
	if err := ctx.Err(); err != nil {
		// The caller's context ended (a signal, for one): the games after
		// those emitted were not read, and that is not a complete scan.
		return readFails.Load() > 0, fmt.Errorf("scan: stopped before the end of the input: %w", err)
	}
	return readFails.Load() > 0, nil
}

// heldPerWorker is how many chunks read and not yet emitted Run holds for
// each worker. The chunks are emitted in input order, so while one worker
// is still on the oldest chunk the others can go on only as far as the
// bound: at 2 a worker and 2 more a runtime/trace of a scan showed most
// of the idle core time in that state (the reader blocked on the bound, a
// worker waiting for a job), and scan --json of the gzip corpus kept the
// two cores 94% busy; at 8 a worker, 96%, 2-6% less wall time, for 10-13
// MB more memory (bench/README.md, "The pipeline: one reader, the workers, the order").
const heldPerWorker = 8

// renderJSON renders the JSON lines of reports, but their file and id
// (Report.jsonTail), into one buffer.
func renderJSON(reports []*Report) {
	buf := make([]byte, 0, 512*len(reports)) // a line is some 400 bytes
	ends := make([]int, len(reports))
	for i, r := range reports {
		buf = r.appendJSONTail(buf)
		ends[i] = len(buf)
	}
	start := 0
	for i, r := range reports {
		r.jsonTail = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
}

// splitFile hands the chunks of one file to emit, in order, until emit
// returns false; a read error inside the file is in its last chunk. A file
// that cannot be opened is handed over as a failure message instead.
func splitFile(ctx context.Context, name string, opts Options, emit func(c *pgn.Chunk, failure string) bool) {
	f, err := pgn.DecompressionFor(opts.Workers).Open(name, opts.Stdin)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, fs.ErrNotExist) && opts.Lang != "" && opts.Lang != i18n.English {
			msg = i18n.For(opts.Lang).Sprintf(i18n.ErrNoSuchFile, name)
		}
		emit(nil, msg)
		return
	}
	defer f.Close()
	sp := pgn.NewSplitter(f, opts.Limits, 0)
	for ctx.Err() == nil {
		c, err := sp.Next()
		if err != nil || !emit(c, "") { // Next returns no error but io.EOF
			return
		}
	}
}

func displayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}
