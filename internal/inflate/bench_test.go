package inflate

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"

	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/internal/testmeasure"
)

// BenchmarkCorpus decompresses the shared corpus (pgn/corpus.pgn.gz, 53.7 MB of PGN) from memory in
// 16 KB reads, as pgn.Splitter reads it: this package against klauspost/compress's gzip, the decoder it
// replaces, in the same run. cpu-ns/op is the CPU time of the decoding thread, which a busy machine
// changes less than the wall time.
func BenchmarkCorpus(b *testing.B) {
	gz, err := os.ReadFile(testenv.Corpus(b, "pgn/corpus.pgn.gz"))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 16<<10)
	drain := func(b *testing.B, r io.Reader) {
		var n int64
		for {
			k, err := r.Read(buf)
			n += int64(k)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(n)
	}
	run := func(b *testing.B, loop func()) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		start, ok := testmeasure.Now()
		for b.Loop() {
			loop()
		}
		if end, _ := testmeasure.Now(); ok {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
	b.Run("klauspost", func(b *testing.B) {
		run(b, func() {
			r, err := kgzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				b.Fatal(err)
			}
			drain(b, r)
		})
	})
	b.Run("inflate", func(b *testing.B) {
		run(b, func() {
			r, err := NewReader(bytes.NewReader(gz))
			if err != nil {
				b.Fatal(err)
			}
			drain(b, r)
		})
	})
}
