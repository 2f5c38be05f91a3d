package zstframes

import (
	"bytes"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/testmeasure"
)

// BenchmarkFrames decodes 24 MB of text compressed as pzstd does it (frames
// of 4 MB, each with its size) with klauspost's stream decoder on one
// goroutine, and with a Reader decoding 1, 2 and 4 frames at once: the
// wall time of each (MB/s) and every thread's CPU time (cpu-ns/B). On 2
// idle cores, 2 frames at once should take about half the wall time.
func BenchmarkFrames(b *testing.B) {
	plain := text(330000)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	var data []byte
	for p := plain; len(p) > 0; {
		n := min(len(p), 4<<20)
		data = enc.EncodeAll(p[:n], data)
		p = p[n:]
	}
	enc.Close()
	measure := func(b *testing.B, open func() io.ReadCloser) {
		b.SetBytes(int64(len(plain)))
		buf := make([]byte, 16<<10)
		start, ok := testmeasure.ProcessNow()
		for b.Loop() {
			r := open()
			n := 0
			for {
				k, err := r.Read(buf)
				n += k
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			r.Close()
			if n != len(plain) {
				b.Fatalf("%d bytes, want %d", n, len(plain))
			}
		}
		if end, _ := testmeasure.ProcessNow(); ok {
			b.ReportMetric(float64(end-start)/float64(b.N)/float64(len(plain)), "cpu-ns/B")
		}
	}
	b.Run("stream", func(b *testing.B) {
		measure(b, func() io.ReadCloser {
			d, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1))
			if err != nil {
				b.Fatal(err)
			}
			return d.IOReadCloser()
		})
	})
	for _, workers := range []int{1, 2, 4} {
		b.Run("frames="+string(rune('0'+workers)), func(b *testing.B) {
			measure(b, func() io.ReadCloser {
				z, err := NewReader(bytes.NewReader(data), workers, 1)
				if err != nil {
					b.Fatal(err)
				}
				return z
			})
		})
	}
}
