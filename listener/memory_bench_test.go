package listener

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/pgn"
)

// BenchmarkMemoryWatcherByLength: the watcher following one game ply by
// ply, up to a length: knights going back and forth (the game: a
// fifth occurrence, then more of the same), or random legal moves. live-B
// is the heap the watcher holds after it, beside the move list its source
// owns. The tracker's window stays small (see rules'
// BenchmarkMemoryShuffleByLength), and so does the watcher's: it keeps the
// moves of the current reversible stretch only, for the SAN of the alerts'
// proofs, and none once the game is drawn by rule (it kept every move
// played, about 2.4 B a ply). What grows, in a random game that goes on
// long past the 75-move rule with bare kings, is the tracker's positions
// since the last irreversible move.
func BenchmarkMemoryWatcherByLength(b *testing.B) {
	cycle := strings.Fields("Nf3 Nf6 Ng1 Ng8")
	for _, run := range []struct {
		name  string
		moves func(n int) []string
	}{
		{"shuffle", func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = cycle[i%4]
			}
			return out
		}},
		{"random", func(n int) []string { return randgame.MustLine(b, 7, n) }},
	} {
		benchWatcherLength(b, run.name, run.moves)
	}
}

func benchWatcherLength(b *testing.B, name string, gen func(n int) []string) {
	for _, plies := range []int{10, 1000, 10000, 100000} {
		b.Run(name+"/plies="+strconv.Itoa(plies), func(b *testing.B) {
			moves := gen(plies)
			var live int64
			b.ReportAllocs()
			for b.Loop() {
				before := testmeasure.LiveHeap()
				w := NewWatcher(WatcherOptions{MaxPlies: plies})
				for i := 1; i <= plies; i++ {
					w.Apply(snap("g", moves[:i]))
				}
				live = testmeasure.LiveHeap() - before
				runtime.KeepAlive(w)
			}
			b.ReportMetric(float64(live), "live-B")
		})
	}
}

// BenchmarkMemoryFinishedGames: a broadcast feed and the watcher see
// games one after another, a minute apart, each finished after 12 plies
// (a threefold in each). live-B is what they hold after the last one:
// with grace=1h it is flat from 1,000 to 100,000 games (finished games
// leave after the grace period); the baseline grace=never keeps every
// game, as both did before.
func BenchmarkMemoryFinishedGames(b *testing.B) {
	shuffle := strings.Fields("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
	for _, run := range []struct {
		name  string
		grace time.Duration
		games []int
	}{
		{"grace=1h", time.Hour, []int{1000, 10000, 100000}},
		{"grace=never", 100000 * time.Hour, []int{1000, 10000}},
	} {
		for _, games := range run.games {
			b.Run(run.name+"/games="+strconv.Itoa(games), func(b *testing.B) {
				texts := make([]string, games)
				for i := range texts {
					texts[i] = pgnOf("[GameURL \"https://lichess.org/broadcast/b/r/bench001/g"+strconv.Itoa(i)+"\"]\n", shuffle, "1/2-1/2")
				}
				var live int64
				alerts := 0
				b.ReportAllocs()
				for b.Loop() {
					before := testmeasure.LiveHeap()
					clk := newFakeClock()
					w := NewWatcher(WatcherOptions{FinishedGrace: run.grace, Clock: clk, Alert: func(threefold.Alert) { alerts++ }})
					feed := newPGNFeed("lichess", "bench", 0, threefold.AudienceArbiters, clk, pgn.Limits{})
					feed.grace = run.grace
					emit := func(s threefold.GameState) error { w.Apply(s); return nil }
					for _, text := range texts {
						if err := feed.feedText(text, func(int) string { return "" }, emit); err != nil {
							b.Fatal(err)
						}
						clk.Advance(time.Minute)
					}
					live = testmeasure.LiveHeap() - before
					runtime.KeepAlive(w)
					runtime.KeepAlive(feed)
				}
				if alerts == 0 {
					b.Fatal("no alert: the games were not followed")
				}
				b.ReportMetric(float64(live), "live-B")
			})
		}
	}
}

// BenchmarkMemoryGzipOfZeros: watch --once on a gzip of 256 MB of zeros
// (no line end at all): B/op, everything allocated while reading it, is
// a few MB, bounded by pgn.max_line_bytes, not the file (it was read
// whole: 1 GB took 4 GB).
func BenchmarkMemoryGzipOfZeros(b *testing.B) {
	path := filepath.Join(b.TempDir(), "zeros.pgn.gz")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	zeros := make([]byte, 1<<20)
	for range 256 {
		zw.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.ReportAllocs()
	for b.Loop() {
		w := NewWatcher(WatcherOptions{})
		if err := w.Run(context.Background(), &FileSource{Path: path, Once: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(256<<20, "input-B")
}

// BenchmarkMemoryWatchOnce: watch --once of a file of 2,000 and 8,000
// games (random, 40 plies each), finished (1/2-1/2) or unfinished (without
// a result, "*"), the way watch reads it: the file source read once, the
// watcher, and after each state a question to the watcher about how the
// game ended (as the recorder asks). live-B is what the watcher holds once
// the file is read: flat in the number of games (each game is forgotten
// once the next comes); it held every finished game for the 2-hour grace
// period, and every unfinished one to the end, though no state of them
// follows.
func BenchmarkMemoryWatchOnce(b *testing.B) {
	lines := make([][]string, 50)
	for i := range lines {
		lines[i] = randgame.MustLine(b, uint64(i), 40)
	}
	for _, run := range []struct{ name, result string }{{"finished", "1/2-1/2"}, {"unfinished", "*"}} {
		for _, games := range []int{2000, 8000} {
			b.Run(run.name+"/games="+strconv.Itoa(games), func(b *testing.B) {
				var text strings.Builder
				for i := range games {
					text.WriteString(pgnOf("[Event \"bench\"]\n[GameURL \"https://x/"+strconv.Itoa(i)+"\"]\n", lines[i%len(lines)], run.result))
				}
				path := filepath.Join(b.TempDir(), "games.pgn")
				if err := os.WriteFile(path, []byte(text.String()), 0o600); err != nil {
					b.Fatal(err)
				}
				var live int64
				var w *Watcher
				states, asked := 0, 0
				for b.Loop() {
					w = nil // the last loop's
					before := testmeasure.LiveHeap()
					w = NewWatcher(WatcherOptions{})
					src := AfterTaken(&FileSource{Path: path, Once: true}, func(_ context.Context, _ string, s threefold.GameState) {
						states++
						if _, _, ok := w.Termination(s.Game.Site, s.Game.ID); ok {
							asked++
						}
					}, func() {})
					if err := w.Run(context.Background(), src); err != nil {
						b.Fatal(err)
					}
					live = testmeasure.LiveHeap() - before
					runtime.KeepAlive(w)
				}
				if states < games || (run.result != "*" && asked == 0) {
					b.Fatalf("%d states taken in (want %d); the watcher knew how %d ended", states, games, asked)
				}
				b.ReportMetric(float64(live), "live-B")
				b.ReportMetric(float64(w.Games()), "games-held")
			})
		}
	}
}
