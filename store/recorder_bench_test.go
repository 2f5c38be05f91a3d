package store

import (
	"context"
	"runtime"
	"strconv"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testmeasure"
)

// BenchmarkMemoryRecorderOnce: the recorder of watch --once takes 2,000
// and 8,000 games of one file, finished (1/2-1/2) or unfinished (without
// a result, "*"), batched into SQLite as watch does. live-B is what it
// holds afterwards: flat in the number of games when each state is its
// game's last (a file read once), growing with them as before when it is
// not (last=false, the baseline: a game that may still be corrected, or
// go on, is kept).
func BenchmarkMemoryRecorderOnce(b *testing.B) {
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}
	for _, last := range []bool{true, false} {
		for _, result := range []string{"1/2-1/2", "*"} {
			kind := map[string]string{"*": "unfinished"}[result]
			if kind == "" {
				kind = "finished"
			}
			for _, games := range []int{2000, 8000} {
				b.Run("last="+strconv.FormatBool(last)+"/"+kind+"/games="+strconv.Itoa(games), func(b *testing.B) {
					ctx := context.Background()
					var live int64
					var r *Recorder
					for b.Loop() {
						s, err := Open(ctx, Config{DataDir: b.TempDir()})
						if err != nil {
							b.Fatal(err)
						}
						r = nil
						before := testmeasure.LiveHeap()
						r = NewRecorder(s, nil)
						bt := NewBatcher(ctx, s, nil, func(threefold.Alert) {})
						r.SetBatcher(bt)
						for i := range games {
							r.Record(ctx, "file games.pgn", threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "games.pgn#" + strconv.Itoa(i+1)},
								Moves: moves, Result: result, Finished: result != "*", Last: last, More: i < games-1})
						}
						r.Flush()
						live = testmeasure.LiveHeap() - before
						runtime.KeepAlive(r)
						s.Close()
					}
					b.ReportMetric(float64(live), "live-B")
					b.ReportMetric(float64(len(r.games)), "games-held")
				})
			}
		}
	}
}
