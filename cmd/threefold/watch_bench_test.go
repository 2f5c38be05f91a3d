package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// BenchmarkWatchOnce measures `threefold watch --once --json FILE` into the
// default store (SQLite in data_dir, every alert stored before it is
// written) on the same 1,000 games of the shared corpus read once, twice
// and four times in one file (the copies are other games: a game of a file
// is named by its place in it): linear in the number of games means the
// same ns/game and plies/s in every row. The first 1,000 games of the
// corpus hold 9 with a third occurrence and 63 with a claim by declared
// move; the 3,244 games of the repetitions file, all of which repeat, are
// the second set (the store's work grows with the alerts).
func BenchmarkWatchOnce(b *testing.B) {
	corpus := refgames.Corpus(b)
	raw, err := os.ReadFile(corpus.PGNPath)
	if err != nil {
		b.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	text, err := io.ReadAll(z)
	if err != nil {
		b.Fatal(err)
	}
	reps, err := os.ReadFile(filepath.Join(filepath.Dir(corpus.PGNPath), "repetitions.pgn"))
	if err != nil {
		b.Fatal(err)
	}
	sets := []struct {
		name string
		text string
	}{
		{"corpus1000", firstGames(string(text), 1000)},
		{"repetitions500", firstGames(string(reps), 500)},
	}
	for _, set := range sets {
		for _, copies := range []int{1, 2, 4} {
			input := strings.Repeat(strings.TrimRight(set.text, "\n")+"\n\n", copies)
			b.Run(set.name+"x"+strconv.Itoa(copies), func(b *testing.B) {
				dir := b.TempDir()
				pgnPath := filepath.Join(dir, "games.pgn")
				if err := os.WriteFile(pgnPath, []byte(input), 0o644); err != nil {
					b.Fatal(err)
				}
				var games, plies int
				for b.Loop() {
					b.StopTimer()
					data := b.TempDir()
					cfg := filepath.Join(data, "threefold.yaml")
					if err := os.WriteFile(cfg, []byte("data_dir: "+data+"\n"), 0o600); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					var out, errb bytes.Buffer
					if code := Main(context.Background(), []string{"watch", "--once", "--json", "--config", cfg, pgnPath}, strings.NewReader(""), &out, &errb); code != 0 {
						b.Fatalf("exit %d: %s", code, errb.String())
					}
				}
				// Count what was watched with scan, outside the timing.
				var out, errb bytes.Buffer
				if code := Main(context.Background(), []string{"scan", pgnPath}, strings.NewReader(""), &out, &errb); code != 0 {
					b.Fatalf("scan: exit %d: %s", code, errb.String())
				}
				plies = countPlies(errb.String())
				games = strings.Count(input, "\n[Event ") + 1
				s := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(plies)/s, "plies/s")
				b.ReportMetric(s*1e9/float64(games), "ns/game")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
