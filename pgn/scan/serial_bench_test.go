package scan

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/pgn"
)

// BenchmarkSerial measures, on the shared corpus, the work of Run that one
// goroutine does whatever the number of workers, beside the whole of Run
// on one worker, in CPU ns a ply (cpu-ns/ply: the whole process's, every
// thread's, with ns/ply of wall time beside it). The serial share s of a
// run bounds what n cores can give it (Amdahl: at most 1/(s + (1-s)/n)).
//   - split/gzip, split/zstd, split/plain: decompressing (the corpus as
//     stored, and compressed again as zstd) and cutting the text into
//     chunks (pgn.Splitter), the reading goroutine;
//   - order: putting the workers' parts back in order (pgn.Stitcher) and
//     writing the reports as JSON lines (Writer: the file and id, the rest
//     rendered by the workers), Run's own goroutine;
//   - run/gzip, run/zstd, run/plain: Run with one worker, the reports written the
//     same way.
func BenchmarkSerial(b *testing.B) {
	defer TuneGC(os.Getenv)() // as threefold scan runs
	corpus := refgames.Corpus(b)
	gzPath := corpus.PGNPath
	text := []byte(corpus.Text(b))
	dir := b.TempDir()
	plainPath, zstdPath := filepath.Join(dir, "corpus.pgn"), filepath.Join(dir, "corpus.pgn.zst")
	if err := os.WriteFile(plainPath, text, 0o644); err != nil {
		b.Fatal(err)
	}
	// The Lichess database is zstd: the same text so compressed, as a stream (the encoder's default level).
	var zst bytes.Buffer
	enc, err := zstd.NewWriter(&zst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := enc.Write(text); err != nil {
		b.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(zstdPath, zst.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	// The parts and reports the workers hand over, made once.
	var (
		parts   []*pgn.Part
		reports [][]*Report
		plies   int
	)
	sp := pgn.NewSplitter(bytes.NewReader(text), pgn.Limits{}, 0)
	cr := pgn.NewChunkReader(pgn.Limits{})
	cr.KeepTags = analysedTags
	var a Analyser
	for {
		c, err := sp.Next()
		if err == io.EOF {
			break
		}
		p := cr.Read(c)
		var rs []*Report
		for _, g := range p.Games {
			r := a.Analyse(g, "")
			plies += r.Plies
			rs = append(rs, r)
		}
		renderJSON(rs) // as the workers do for scan --json
		parts, reports = append(parts, p), append(reports, rs)
	}
	measure := func(b *testing.B, loop func()) {
		start, ok := testmeasure.ProcessNow()
		for b.Loop() {
			loop()
		}
		n := float64(b.N) * float64(plies)
		if end, _ := testmeasure.ProcessNow(); ok {
			b.ReportMetric(float64(end-start)/n, "cpu-ns/ply")
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/ply")
		b.ReportMetric(0, "ns/op")
	}
	split := func(b *testing.B, path string) {
		measure(b, func() {
			f, err := pgn.Open(path, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			sp := pgn.NewSplitter(f, pgn.Limits{}, 0)
			for {
				c, err := sp.Next()
				if err == io.EOF {
					return
				}
				c.Release()
			}
		})
	}
	b.Run("split/gzip", func(b *testing.B) { split(b, gzPath) })
	b.Run("split/zstd", func(b *testing.B) { split(b, zstdPath) })
	b.Run("split/plain", func(b *testing.B) { split(b, plainPath) })
	b.Run("order", func(b *testing.B) {
		measure(b, func() {
			st := pgn.NewStitcher(pgn.Limits{})
			w := Writer{Out: io.Discard, JSON: true}
			for i, p := range parts {
				games, reread, err := st.Stitch(p)
				if reread || err != nil {
					b.Fatalf("part %d: read again %v, error %v", i, reread, err)
				}
				for j, r := range reports[i] {
					r.ID = games[j].Index
					if err := w.Write(r); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	})
	run := func(b *testing.B, path string) {
		measure(b, func() {
			w := Writer{Out: io.Discard, JSON: true}
			if _, err := Run(context.Background(), Options{Files: []string{path}, Workers: 1, JSON: true}, w.Write); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.Run("run/gzip", func(b *testing.B) { run(b, gzPath) })
	b.Run("run/zstd", func(b *testing.B) { run(b, zstdPath) })
	b.Run("run/plain", func(b *testing.B) { run(b, plainPath) })
}
