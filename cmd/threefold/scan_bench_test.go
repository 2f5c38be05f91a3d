package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// BenchmarkScan measures `threefold scan --json` end to end — reading,
// decompressing, replaying with full tracking and the per-ply claim check,
// writing JSON — on the shared corpus, and on its first games against the
// baseline: notnil/chess reading the same PGN, which replays each game and
// tracks repetitions as it goes (it answers only the 9.2.2 question).
func BenchmarkScan(b *testing.B) {
	path := refgames.Corpus(b).PGNPath
	raw, err := os.ReadFile(path)
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
	const sample = 300
	head := firstGames(string(text), sample)

	scan := func(b *testing.B, input []byte) {
		var plies float64
		for b.Loop() {
			var in io.Reader = bytes.NewReader(input)
			var out, errb bytes.Buffer
			if code := Main(context.Background(), []string{"scan", "--json", "-"}, in, &out, &errb); code != 0 {
				b.Fatalf("exit %d: %s", code, errb.String())
			}
			plies = float64(countPlies(errb.String()))
		}
		b.ReportMetric(plies*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	}
	b.Run("corpus", func(b *testing.B) { scan(b, raw) })
	b.Run("first300/threefold", func(b *testing.B) { scan(b, []byte(head)) })
	b.Run("first300/notnil", func(b *testing.B) {
		var plies float64
		for b.Loop() {
			plies = 0
			sc := chess.NewScanner(strings.NewReader(head))
			for sc.Scan() {
				g := sc.Next()
				plies += float64(len(g.Moves()))
				g.EligibleDraws()
			}
			if err := sc.Err(); err != nil && err != io.EOF {
				b.Fatal(err)
			}
		}
		b.ReportMetric(plies*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	})
}

// firstGames returns the text of the first n games of a PGN text.
func firstGames(text string, n int) string {
	i, count := 0, 0
	for count <= n {
		j := strings.Index(text[i+1:], "\n[Event ")
		if j < 0 {
			return text
		}
		i += j + 1
		count++
	}
	return text[:i]
}

// countPlies reads the plies total from scan's summary line.
func countPlies(summary string) int {
	var games, plies int
	for _, line := range strings.Split(summary, "\n") {
		// The totals group their digits ("59,915 games, 5,136,052 plies").
		line = strings.ReplaceAll(line, ",", "")
		if n, _ := fmt.Sscanf(line, "%d games %d plies", &games, &plies); n == 2 {
			return plies
		}
	}
	return 0
}

// TestCountPlies: the benchmarks' plies figure is read from the summary as
// scan writes it today (it read "25,744 plies" as 25).
func TestCountPlies(t *testing.T) {
	for _, tc := range []struct {
		name, summary string
		want          int
	}{
		{"grouped", "done\n300 games, 25,744 plies, 3 threefold\n", 25744},
		{"large", "59,915 games, 5,136,052 plies\n", 5136052},
		{"small", "2 games, 85 plies\n", 85},
		{"none", "nothing here\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := countPlies(tc.summary); got != tc.want {
				t.Errorf("countPlies = %d, want %d", got, tc.want)
			}
		})
	}
}
