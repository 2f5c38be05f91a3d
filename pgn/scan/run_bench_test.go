package scan

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// BenchmarkRun runs Run (reading, analysing, reports in order; no output)
// on a quarter, a half and the whole of the shared corpus, as plain files,
// on GOMAXPROCS workers (-cpu 1,2,... for the scaling): plies per second,
// and the largest live heap seen (as the last garbage collection marked
// it, sampled every 256 reports), which must not grow with the file.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	parts := []struct {
		name string
		num  int
		size int
	}{{"quarter", 1, 0}, {"half", 2, 0}, {"whole", 4, 0}}
	func() { // the corpus is not held while Run runs
		text := refgames.Corpus(b).Text(b)
		for i, part := range parts {
			cut := len(text) * part.num / 4
			if i := strings.Index(text[cut:], "\n[Event "); i >= 0 {
				cut += i + 1
			}
			if err := os.WriteFile(filepath.Join(dir, part.name+".pgn"), []byte(text[:cut]), 0o644); err != nil {
				b.Fatal(err)
			}
			parts[i].size = cut
		}
	}()
	runtime.GC()
	for _, part := range parts {
		name := filepath.Join(dir, part.name+".pgn")
		b.Run(part.name, func(b *testing.B) {
			var plies, peak uint64
			live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			for b.Loop() {
				plies = 0
				n := 0
				_, err := Run(context.Background(), Options{Files: []string{name}, Workers: runtime.GOMAXPROCS(0)}, func(r *Report) error {
					plies += uint64(r.Plies)
					if n++; n%256 == 0 {
						metrics.Read(live)
						peak = max(peak, live[0].Value.Uint64())
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-live-heap-MB")
			b.ReportMetric(float64(part.size)/(1<<20), "file-MB")
			b.ReportMetric(0, "ns/op")
		})
	}
}
