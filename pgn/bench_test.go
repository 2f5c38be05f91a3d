package pgn

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/notnil/chess"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// loadCorpus returns the shared corpus, compressed as stored and decompressed.
func loadCorpus(b *testing.B) (compressed, plain []byte) {
	b.Helper()
	compressed, err := os.ReadFile(refgames.Corpus(b).PGNPath)
	if err != nil {
		b.Fatal(err)
	}
	rc, err := NewDecompressingReader(bytes.NewReader(compressed))
	if err != nil {
		b.Fatal(err)
	}
	defer rc.Close()
	plain, err = io.ReadAll(rc)
	if err != nil {
		b.Fatal(err)
	}
	return compressed, plain
}

func reportRate(b *testing.B, bytes, games, plies int) {
	s := b.Elapsed().Seconds()
	if s == 0 {
		return
	}
	n := float64(b.N)
	b.ReportMetric(n*float64(bytes)/1e6/s, "MB/s")
	b.ReportMetric(n*float64(games)/s, "games/s")
	if plies > 0 {
		b.ReportMetric(n*float64(plies)/s, "plies/s")
	}
	b.ReportMetric(0, "ns/op") // the rates say it better than the time of one pass over the corpus
}

// BenchmarkReadCorpus tokenizes the shared corpus (59,915 games, 5.1M plies, 54 MB) with this package,
// from memory and from the gzip file, and reads the same data with notnil/chess's Scanner as the
// baseline. The baseline does more than tokenizing (it decodes every move on its board), but it is what a
// Go program reading PGN with that library pays.
func BenchmarkReadCorpus(b *testing.B) {
	compressed, plain := loadCorpus(b)
	shaped := lichessShaped(b, plain)
	b.Run("pgn", func(b *testing.B) { benchRead(b, plain, len(plain)) })
	b.Run("pgn-lichess-shaped", func(b *testing.B) { benchRead(b, shaped, len(shaped)) })
	b.Run("pgn-gzip", func(b *testing.B) { benchRead(b, compressed, len(plain)) })
	// What scan's reading goroutine does now (decompress, cut into chunks), and the same plus reading the
	// chunks and putting them back together, on one goroutine: the work the reading is split into.
	b.Run("split-gzip", func(b *testing.B) {
		var chunks int
		for b.Loop() {
			chunks = 0
			rc, err := NewDecompressingReader(bytes.NewReader(compressed))
			if err != nil {
				b.Fatal(err)
			}
			sp := NewSplitter(rc, Limits{}, 0)
			for {
				c, err := sp.Next()
				if err == io.EOF {
					break
				}
				chunks++
				c.Release()
			}
			rc.Close()
		}
		b.ReportMetric(float64(chunks), "chunks")
		reportRate(b, len(plain), 0, 0)
	})
	b.Run("split-read-gzip", func(b *testing.B) { splitRead(b, compressed, len(plain)) })
	// The same text without decompression, and as Lichess writes its database: a game's movetext on one
	// line, a clock comment after every move (the corpus has almost no comments). The plies are the same,
	// so the rates compare what the comments cost.
	b.Run("split-read-plain", func(b *testing.B) { splitRead(b, plain, len(plain)) })
	b.Run("split-read-lichess-shaped", func(b *testing.B) { splitRead(b, shaped, len(shaped)) })
	// notnil/chess reads about 0.3 MB/s: a whole pass over the corpus would take minutes, so both readers
	// are also measured on the same first games of the corpus and the ratio is taken there.
	prefix := plain[:prefixEnd(plain, 1000)]
	b.Run("pgn-first1000", func(b *testing.B) { benchRead(b, prefix, len(prefix)) })
	b.Run("notnil-chess-first1000", func(b *testing.B) {
		var games, failed int
		for b.Loop() {
			games, failed = 0, 0
			sc := chess.NewScanner(bytes.NewReader(prefix))
			for fails := 0; fails < 100; {
				if sc.Scan() {
					games++
					fails = 0
					continue
				}
				if sc.Err() == io.EOF {
					break
				}
				failed++
				fails++ // its Scanner can report the same error forever at EOF
			}
		}
		b.ReportMetric(float64(failed), "failed-games")
		reportRate(b, len(prefix), games, 0)
	})
}

// prefixEnd returns the offset where game n+1 starts (counting "[Event " lines), or len(data).
func prefixEnd(data []byte, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		k := bytes.Index(data[off+1:], []byte("\n[Event "))
		if k < 0 {
			return len(data)
		}
		off += 1 + k
	}
	return off + 1
}

// BenchmarkReplayCorpus reads the gzip corpus and replays every game on a rules.Game in one goroutine:
// the work of one `scan` worker plus the reader, before any parallelism.
func BenchmarkReplayCorpus(b *testing.B) {
	compressed, plain := loadCorpus(b)
	var games, plies int
	for b.Loop() {
		games, plies = 0, 0
		rc, err := NewDecompressingReader(bytes.NewReader(compressed))
		if err != nil {
			b.Fatal(err)
		}
		r := NewReader(rc)
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			tracker, err := g.Replay(nil)
			if err != nil {
				b.Fatalf("game %d: %v", g.Index, err)
			}
			games++
			plies += tracker.Ply()
		}
		rc.Close()
	}
	reportRate(b, len(plain), games, plies)
}

// splitRead cuts data (gzip or plain PGN) into chunks, reads them and puts the games back together on
// one goroutine, as scan's pipeline does on several, and reports the rate over size bytes of PGN.
func splitRead(b *testing.B, data []byte, size int) {
	var games, plies, rereads int
	for b.Loop() {
		games, plies, rereads = 0, 0, 0
		rc, err := NewDecompressingReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		sp, cr, st := NewSplitter(rc, Limits{}, 0), NewChunkReader(Limits{}), NewStitcher(Limits{})
		for {
			c, err := sp.Next()
			if err == io.EOF {
				break
			}
			gs, reread, err := st.Stitch(cr.Read(c))
			if err != nil {
				b.Fatal(err)
			}
			if reread {
				rereads++
			}
			for _, g := range gs {
				games++
				ml := g.MoveList()
				plies += ml.Len()
			}
			c.Release()
		}
		rc.Close()
	}
	b.ReportMetric(float64(rereads), "rereads")
	reportRate(b, size, games, plies)
}

// lichessShaped rewrites the games of plain PGN as the Lichess database writes them: the tags, a blank
// line, then the main line on one line with a clock comment after every move and every black move after a
// comment numbered "12...", and the result. Comments, variations and NAGs of the input are dropped.
func lichessShaped(b *testing.B, plain []byte) []byte {
	b.Helper()
	var out bytes.Buffer
	r := NewReader(bytes.NewReader(plain))
	for {
		g, err := r.Next()
		if err == io.EOF {
			return out.Bytes()
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range g.Tags {
			fmt.Fprintf(&out, "[%s %q]\n", t.Name, t.Value)
		}
		out.WriteByte('\n')
		clk := 10800
		for ply, m := range g.Moves {
			if ply%2 == 0 {
				fmt.Fprintf(&out, "%d. ", ply/2+1)
			} else {
				fmt.Fprintf(&out, "%d... ", ply/2+1)
			}
			fmt.Fprintf(&out, "%s { [%%clk %d:%02d:%02d] } ", m, clk/3600, clk%3600/60, clk%60)
			clk = max(clk-3-ply%5, 5)
		}
		out.WriteString(g.Result)
		out.WriteString("\n\n")
	}
}

// benchRead reads the games of data (gzip or plain PGN) with a Reader and reports the rate over size
// bytes of PGN.
func benchRead(b *testing.B, data []byte, size int) {
	var games, plies int
	for b.Loop() {
		games, plies = 0, 0
		rc, err := NewDecompressingReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		r := NewReader(rc)
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			games++
			plies += len(g.Moves)
		}
		rc.Close()
	}
	reportRate(b, size, games, plies)
}
