package rules_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/rules"
)

// BenchmarkMemoryShuffleByLength: a game of knights going back and forth
// (every position recurs, the tracker's worst case) played to a length,
// as the watcher plays it (DropMoves). live-B is the heap the game still
// holds after it: flat from 10 to 100,000 plies (it keeps the positions
// since the last irreversible move, four here, not one per ply). The
// baseline, moves=kept, is the same game keeping its move list (as the
// watcher did before it called DropMoves).
func BenchmarkMemoryShuffleByLength(b *testing.B) {
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	for _, run := range []struct {
		name string
		drop bool
	}{{"dropped", true}, {"kept", false}} {
		for _, plies := range []int{10, 1000, 10000, 100000} {
			memoryShuffle(b, "moves="+run.name+"/plies="+strconv.Itoa(plies), plies, run.drop, cycle)
		}
	}
}

func memoryShuffle(b *testing.B, name string, plies int, drop bool, cycle []string) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		var live int64
		for b.Loop() {
			before := testmeasure.LiveHeap()
			g := rules.NewGame(rules.StartPosition())
			if drop {
				g.DropMoves()
			}
			for i := range plies {
				if _, err := g.PlayUCI(cycle[i%4]); err != nil {
					b.Fatal(err)
				}
			}
			live = testmeasure.LiveHeap() - before
			runtime.KeepAlive(g)
		}
		b.ReportMetric(float64(live), "live-B")
	})
}
