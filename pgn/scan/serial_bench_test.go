package scan

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/internal/testzstd"
	"github.com/threefold-chess/threefold/pgn"
)

// BenchmarkSerial measures the work of Run that one goroutine does whatever
// the number of workers, beside the whole of Run on one worker, in CPU ns a
// ply (cpu-ns/ply: the whole process's, every thread's, with ns/ply of wall
// time beside it). The serial share s of a run bounds what n cores can give
// it (Amdahl: at most 1/(s + (1-s)/n)).
//
// On text shaped as a month of the Lichess database (lichessMonth: made
// here from the repository's games, so it runs anywhere):
//   - lichess/split/zstd, zstd-best, zstd-long, plain: decompressing (zstd
//     at the encoder's default level, at its best, and with a 128 MB window
//     as big archives may have) and cutting the text into chunks, the
//     reading goroutine; zstd-decoders=4 the same with the decoding on a
//     pipeline of its own (pgn.Decompression), as Run does from 3 workers:
//     cpu-ns/ply is then the work of every goroutine of the stage, not the
//     reading goroutine's; zstd-frames, the text as frames of 4 MB (as
//     pzstd writes it), on the reading goroutine and 4 frames at once;
//   - lichess/run/zstd, plain: Run with one worker.
//
// On the shared corpus (skipped without it):
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
	dir := b.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return path
	}
	month := lichessMonth(b, 8000)
	lichess := map[string]string{
		"plain":     write("lichess.pgn", month),
		"zstd":      write("lichess-default.pgn.zst", testzstd.Stream(b, month)),
		"zstd-best": write("lichess-best.pgn.zst", testzstd.Stream(b, month, zstd.WithEncoderLevel(zstd.SpeedBestCompression))),
		"zstd-long": write("lichess-long.pgn.zst", testzstd.Stream(b, month, zstd.WithWindowSize(128<<20))),
		// pzstd's way: frames of 4 MB of text, end to end
		"zstd-frames": write("lichess-frames.pgn.zst", zstdFrames(b, month, 4<<20)),
	}
	monthPlies := countPlies(b, month)
	measure := func(b *testing.B, plies int, loop func()) {
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
	split := func(b *testing.B, plies int, path string, d pgn.Decompression) {
		measure(b, plies, func() {
			f, err := d.Open(path, nil)
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
	run := func(b *testing.B, plies int, path string) {
		measure(b, plies, func() {
			w := Writer{Out: io.Discard, JSON: true}
			if _, err := Run(context.Background(), Options{Files: []string{path}, Workers: 1, JSON: true}, w.Write); err != nil {
				b.Fatal(err)
			}
		})
	}
	one := pgn.Decompression{ZstdDecoders: 1}
	for _, kind := range []string{"zstd", "zstd-best", "zstd-long", "plain"} {
		b.Run("lichess/split/"+kind, func(b *testing.B) { split(b, monthPlies, lichess[kind], one) })
	}
	b.Run("lichess/split/zstd-decoders=4", func(b *testing.B) {
		split(b, monthPlies, lichess["zstd"], pgn.DecompressionFor(16))
	})
	b.Run("lichess/split/zstd-frames", func(b *testing.B) { split(b, monthPlies, lichess["zstd-frames"], one) })
	b.Run("lichess/split/zstd-frames-at-once=4", func(b *testing.B) {
		split(b, monthPlies, lichess["zstd-frames"], pgn.DecompressionFor(4))
	})
	b.Run("lichess/run/zstd", func(b *testing.B) { run(b, monthPlies, lichess["zstd"]) })
	b.Run("lichess/run/plain", func(b *testing.B) { run(b, monthPlies, lichess["plain"]) })

	corpus := refgames.Corpus(b)
	gzPath := corpus.PGNPath
	text := []byte(corpus.Text(b))
	plainPath := write("corpus.pgn", text)
	// The Lichess database is zstd: the same text so compressed, as a stream (the encoder's default level).
	zstdPath := write("corpus.pgn.zst", testzstd.Stream(b, text))
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
	b.Run("split/gzip", func(b *testing.B) { split(b, plies, gzPath, one) })
	b.Run("split/zstd", func(b *testing.B) { split(b, plies, zstdPath, one) })
	b.Run("split/plain", func(b *testing.B) { split(b, plies, plainPath, one) })
	b.Run("order", func(b *testing.B) {
		measure(b, plies, func() {
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
	b.Run("run/gzip", func(b *testing.B) { run(b, plies, gzPath) })
	b.Run("run/zstd", func(b *testing.B) { run(b, plies, zstdPath) })
	b.Run("run/plain", func(b *testing.B) { run(b, plies, plainPath) })
}

// zstdFrames compresses text as frames of size bytes of it, end to end, as
// pzstd does.
func zstdFrames(b *testing.B, text []byte, size int) []byte {
	b.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	for len(text) > 0 {
		n := min(len(text), size)
		out, text = enc.EncodeAll(text[:n], out), text[n:]
	}
	return out
}

// countPlies counts the moves of the games of text.
func countPlies(b *testing.B, text []byte) int {
	b.Helper()
	games, err := pgn.ParseGames(string(text))
	if err != nil {
		b.Fatal(err)
	}
	plies := 0
	for _, g := range games {
		plies += len(g.Moves)
	}
	return plies
}

// lichessMonth writes n games as a month of the Lichess database has them,
// from the repository's real games (those from the standard start, over and
// over): Lichess's 17 tags (a game's own site, players, ratings, time
// control, opening), a blank line, the main line on one line with a clock
// comment after every move (the clock of a game's time control, spent at
// random) and, in one game in eight, an engine evaluation before it, the
// result. Its bytes a ply (about 31 with the tags) and its zstd ratio at the
// default level (about 7) are those of the real files.
func lichessMonth(b *testing.B, n int) []byte {
	b.Helper()
	all, err := pgn.ParseGames(refgames.ReferencePGN())
	if err != nil {
		b.Fatal(err)
	}
	var games []*pgn.Game
	for _, g := range all {
		if g.Err == nil && len(g.Moves) > 0 && !slices.ContainsFunc(g.Tags, func(t pgn.Tag) bool { return t.Name == "FEN" }) {
			games = append(games, g)
		}
	}
	rng := rand.New(rand.NewPCG(18, 10))
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	word := func(min, max int) string {
		w := make([]byte, min+rng.IntN(max-min+1))
		for i := range w {
			w[i] = letters[rng.IntN(len(letters))]
		}
		return string(w)
	}
	controls := []struct {
		name      string
		base, inc int
		speed     string
	}{{"60+0", 60, 0, "Bullet"}, {"180+0", 180, 0, "Blitz"}, {"180+2", 180, 2, "Blitz"}, {"300+0", 300, 0, "Blitz"},
		{"300+3", 300, 3, "Blitz"}, {"600+0", 600, 0, "Rapid"}, {"600+5", 600, 5, "Rapid"}, {"900+10", 900, 10, "Rapid"}}
	openings := make([]string, 300) // Lichess names about 3,000
	for i := range openings {
		openings[i] = fmt.Sprintf("%s Opening: %s Variation", word(5, 12), word(5, 12))
	}
	var out bytes.Buffer
	for i := range n {
		g := games[i%len(games)]
		tc := controls[rng.IntN(len(controls))]
		white, black := 800+rng.IntN(2000), 800+rng.IntN(2000)
		diff := rng.IntN(12)
		sec := i * 26 // a month's games, one every 26 seconds
		fmt.Fprintf(&out, "[Event \"Rated %s game\"]\n[Site \"https://lichess.org/%s\"]\n[Date \"2024.01.%02d\"]\n[Round \"-\"]\n",
			tc.speed, word(8, 8), 1+sec/86400%31)
		fmt.Fprintf(&out, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[UTCDate \"2024.01.%02d\"]\n[UTCTime \"%02d:%02d:%02d\"]\n",
			word(4, 14), word(4, 14), g.Result, 1+sec/86400%31, sec/3600%24, sec/60%60, sec%60)
		fmt.Fprintf(&out, "[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n[WhiteRatingDiff \"+%d\"]\n[BlackRatingDiff \"-%d\"]\n",
			white, black, diff, diff)
		fmt.Fprintf(&out, "[ECO \"%c%02d\"]\n[Opening \"%s\"]\n[TimeControl \"%s\"]\n[Termination \"Normal\"]\n\n",
			'A'+rune(rng.IntN(5)), rng.IntN(100), openings[rng.IntN(len(openings))], tc.name)
		clocks := [2]int{tc.base, tc.base}
		eval, evals := 0, rng.IntN(8) == 0
		for ply, m := range g.Moves {
			if ply%2 == 0 {
				fmt.Fprintf(&out, "%d. %s { ", ply/2+1, m)
			} else {
				fmt.Fprintf(&out, "%d... %s { ", ply/2+1, m)
			}
			if evals {
				eval += rng.IntN(61) - 30
				fmt.Fprintf(&out, "[%%eval %.2f] ", float64(eval)/100)
			}
			c := &clocks[ply%2]
			*c = max(*c-rng.IntN(max(*c/20, 1)+1)+tc.inc, 0)
			fmt.Fprintf(&out, "[%%clk %d:%02d:%02d] } ", *c/3600, *c/60%60, *c%60)
		}
		out.WriteString(g.Result)
		out.WriteString("\n\n")
	}
	return out.Bytes()
}
