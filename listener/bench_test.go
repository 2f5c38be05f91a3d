package listener

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/pgn"
)

// BenchmarkBroadcastRound500 is one broadcast round of 500 boards (games of
// the shared data that repeat; $THREEFOLD_CORPUS) as Lichess relays it: on every move the whole PGN
// of that game is resent. Each iteration processes the whole round, move by
// move across the boards, through the same path as the broadcast source
// (PGN parse, per-game feed, watcher). It reports ns per update (one
// resent PGN) and the heap kept per followed game at the end of the round.
func BenchmarkBroadcastRound500(b *testing.B) {
	all, err := pgn.ParseGames(refgames.Repetitions(b).Text(b))
	if err != nil {
		b.Fatal(err)
	}
	const boards = 500
	games := all[:boards]
	// The texts Lichess would send: board i after ply p.
	type update struct {
		board int
		text  string
	}
	var updates []update
	for ply := 1; ; ply++ {
		more := false
		for i, g := range games {
			if ply > len(g.Moves) {
				continue
			}
			more = true
			head := fmt.Sprintf("[Event \"bench\"]\n[White \"w%d\"]\n[Black \"b%d\"]\n[GameURL \"https://lichess.org/broadcast/b/r/bench001/g%04d\"]\n", i, i, i)
			if fen, ok := g.StartFEN(); ok {
				head += "[FEN \"" + fen + "\"]\n"
			}
			updates = append(updates, update{i, pgnOf(head, g.Moves[:ply], "*")})
		}
		if !more {
			break
		}
	}
	fallback := func(i int) string { return "x" + strconv.Itoa(i) }
	var alerts int
	var perGame float64
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		w := NewWatcher(WatcherOptions{Alert: func(threefold.Alert) { alerts++ }})
		feed := newPGNFeed("lichess", "bench", LichessBroadcastDelay, threefold.AudienceArbiters, nil, pgn.Limits{})
		emit := func(s threefold.GameState) error { w.Apply(s); return nil }
		b.StartTimer()
		for _, u := range updates {
			if err := feed.feedText(u.text, fallback, emit); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		perGame = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / boards
		runtime.KeepAlive(w)
		runtime.KeepAlive(feed)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(updates)), "ns/update")
	b.ReportMetric(perGame, "heap-B/game")
	b.ReportMetric(float64(len(updates)), "updates/round")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkWatcherUpdateByLength measures the watcher alone: one more ply
// of a game already followed to a given length (the snapshot shares the
// source's move slice, as every source here does). The cost per update
// does not grow with the length of the game.
func BenchmarkWatcherUpdateByLength(b *testing.B) {
	const games = 200
	const extra = 200
	for _, length := range []int{20, 100, 400} {
		b.Run("plies="+strconv.Itoa(length), func(b *testing.B) {
			lines := make([][]string, games)
			for i := range lines {
				lines[i] = randgame.MustLine(b, uint64(i), length+extra)
			}
			var w *Watcher
			var next []int
			alerts := 0
			reset := func() {
				w = NewWatcher(WatcherOptions{Alert: func(threefold.Alert) { alerts++ }})
				next = make([]int, games)
				for i, l := range lines {
					w.Apply(snap(strconv.Itoa(i), l[:length]))
					next[i] = length + 1
				}
			}
			reset()
			runtime.GC()
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				i := n % games
				if next[i] > length+extra {
					b.StopTimer()
					reset()
					runtime.GC()
					b.StartTimer()
				}
				w.Apply(snap(strconv.Itoa(i), lines[i][:next[i]]))
				next[i]++
			}
			b.ReportMetric(float64(alerts)/float64(b.N), "alerts/update")
		})
	}
}

// BenchmarkBroadcastUpdateByLength is the whole broadcast path for one
// resent PGN of a game of a given length: parsing the PGN text is linear
// in its length (the whole game is resent); what follows is not.
func BenchmarkBroadcastUpdateByLength(b *testing.B) {
	for _, length := range []int{20, 100, 400} {
		b.Run("plies="+strconv.Itoa(length), func(b *testing.B) {
			const games = 50
			const extra = 100
			texts := make([][]string, games)
			for i := range texts {
				line := randgame.MustLine(b, uint64(i), length+extra)
				head := fmt.Sprintf("[Event \"bench\"]\n[GameURL \"https://x/%d\"]\n", i)
				for p := length; p <= length+extra; p++ {
					texts[i] = append(texts[i], pgnOf(head, line[:p], "*"))
				}
			}
			var feed *pgnFeed
			var w *Watcher
			var next []int
			alerts := 0
			emit := func(s threefold.GameState) error { w.Apply(s); return nil }
			fallback := func(int) string { return "" }
			reset := func() {
				w = NewWatcher(WatcherOptions{Alert: func(threefold.Alert) { alerts++ }})
				feed = newPGNFeed("lichess", "bench", 0, "", nil, pgn.Limits{})
				next = make([]int, games)
				for i := range texts {
					feed.feedText(texts[i][0], fallback, emit)
					next[i] = 1
				}
			}
			reset()
			runtime.GC()
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				i := n % games
				if next[i] >= len(texts[i]) {
					b.StopTimer()
					reset()
					runtime.GC()
					b.StartTimer()
				}
				if err := feed.feedText(texts[i][next[i]], fallback, emit); err != nil {
					b.Fatal(err)
				}
				next[i]++
			}
			b.ReportMetric(float64(alerts)/float64(b.N), "alerts/update")
			b.ReportMetric(float64(feed.tailParses)/float64(feed.tailParses+feed.fullParses), "tail-parse-share")
		})
	}
}

// BenchmarkLiveUpdate is the cost of one broadcast update — a board's
// whole PGN resent with one more move, through the broadcast path (PGN
// parse of the new tail, per-game feed, watcher) — with 10 and 1,000
// boards followed, each at 10 and 500 plies. The cost should depend on
// neither: the rows are to be compared with each other. Run it with a
// -benchtime of at least 10,000x, so that each of 1,000 boards has had its
// updates (the setup's first reading of each board is not timed). Beside
// ns/op (wall time) it reports cpu-ns/op, the CPU time of the updating
// thread (Linux), which a busy machine does not inflate, and alerts/op,
// the alerts the timed updates raised: none, the games being chosen so
// (randgame.QuietLines), since an alert is work of its own.
//
// Each text is a new string put together shortly before its update (the
// next textBatch of them at a time, not timed), as a source makes one of
// every text it receives: the update reads a text just written, in the
// cache. Texts built beforehand for every board and update (44 MB at 1,000
// boards of 500 plies, as before session 9) made the benchmark's own input
// a third of the cache misses it counted at 1,000 boards.
func BenchmarkLiveUpdate(b *testing.B) {
	const lines = 50 // distinct random games; board i plays line i%lines
	const extra = 10 // updates per board before the round starts over
	// Lines whose updates raise no alert at either length (random play
	// past a few hundred plies repeats positions): the rows compare the
	// same work.
	moves := randgame.QuietLines(b, lines, 500+extra, [2]int{10, 10 + extra}, [2]int{500, 500 + extra})
	for _, boards := range []int{10, 1000} {
		for _, length := range []int{10, 500} {
			b.Run(fmt.Sprintf("boards=%d/plies=%d", boards, length), func(b *testing.B) {
				// Board i's PGN after length+k plies is heads[i] +
				// movetexts[i%lines][:cuts[i%lines][k]] + "*\n\n".
				heads := make([]string, boards)
				for i := range heads {
					heads[i] = fmt.Sprintf("[Event \"bench\"]\n[GameURL \"https://x/%d\"]\n[Result \"*\"]\n\n", i)
				}
				movetexts := make([]string, lines)
				cuts := make([][]int, lines)
				for l := range lines {
					var movetext strings.Builder
					for p, m := range moves[l][:length+extra] {
						if p%2 == 0 {
							movetext.WriteString(strconv.Itoa(p/2+1) + ". ")
						}
						movetext.WriteString(m + " ")
						if p+1 >= length {
							cuts[l] = append(cuts[l], movetext.Len())
						}
					}
					movetexts[l] = movetext.String()
				}
				text := func(i, k int) string { return heads[i] + movetexts[i%lines][:cuts[i%lines][k]] + "*\n\n" }
				var feed *pgnFeed
				var w *Watcher
				var next []int
				alerts := 0 // raised by the updates timed
				emit := func(s threefold.GameState) error { w.Apply(s); return nil }
				fallback := func(int) string { return "" }
				reset := func() {
					w = NewWatcher(WatcherOptions{Alert: func(threefold.Alert) { alerts++ }})
					feed = newPGNFeed("lichess", "bench", 0, "", nil, pgn.Limits{})
					next = make([]int, boards)
					before := alerts
					for i := range boards {
						if err := feed.feedText(text(i, 0), fallback, emit); err != nil {
							b.Fatal(err)
						}
						next[i] = 1
					}
					alerts = before
				}
				// batch[j]: the text of update n+j, for the updates n to
				// n+len(batch)-1 (board n%boards first); made before them.
				var batch []string
				refill := func(n int) {
					batch = batch[:0]
					for j := range textBatch {
						i := (n + j) % boards
						if next[i]+j/boards > extra {
							break // the round starts over first
						}
						batch = append(batch, text(i, next[i]+j/boards))
					}
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				reset()
				runtime.GC()
				b.ReportAllocs() // allocations per update do not depend on the machine's load
				b.ResetTimer()
				cpuStart, cpuOK := testmeasure.Now()
				var untimed time.Duration
				for n := 0; n < b.N; n++ {
					i := n % boards
					if next[i] > extra || len(batch) == 0 {
						c0, _ := testmeasure.Now()
						b.StopTimer()
						if next[i] > extra {
							reset()
							runtime.GC()
						}
						refill(n)
						b.StartTimer()
						c1, _ := testmeasure.Now()
						untimed += c1 - c0
					}
					if err := liveUpdate(feed, batch[0], fallback, emit); err != nil {
						b.Fatal(err)
					}
					batch = batch[1:]
					next[i]++
				}
				if cpuEnd, ok := testmeasure.Now(); ok && cpuOK {
					b.ReportMetric(float64(cpuEnd-cpuStart-untimed)/float64(b.N), "cpu-ns/op")
				}
				if w.Games() != boards {
					b.Fatalf("%d games followed, want %d", w.Games(), boards)
				}
				b.ReportMetric(float64(feed.tailParses)/float64(feed.tailParses+feed.fullParses), "tail-parse-share")
				b.ReportMetric(float64(alerts)/float64(b.N), "alerts/op")
			})
		}
	}
}

// liveUpdate is the update BenchmarkLiveUpdate times, in a function of
// its own so that callgrind can count it alone (bench/live-cg.sh:
// --toggle-collect='*liveUpdate').
//
//go:noinline
func liveUpdate(feed *pgnFeed, text string, fallback func(int) string, emit Emit) error {
	return feed.feedText(text, fallback, emit)
}

// textBatch is how many texts BenchmarkLiveUpdate makes at a time, with
// its timer stopped: 64 KB at 500 plies, which the cache holds.
const textBatch = 16
