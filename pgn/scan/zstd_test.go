package scan

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// TestRunZstdOnManyWorkers: from 3 workers on, a zstd file is decoded on
// goroutines of its own (pgn.DecompressionFor), its frames several at once;
// the JSON lines and the read errors are those of one worker, whose
// decoding is on the reading goroutine, for a file of one frame and of
// many, whole and cut short.
func TestRunZstdOnManyWorkers(t *testing.T) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	text := strings.Repeat(refgames.ReferencePGN(), 3)
	data := enc.EncodeAll([]byte(text), nil) // seven blocks
	var streamed bytes.Buffer                // as it comes: decoded by the pipeline
	w, err := zstd.NewWriter(&streamed, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var frames []byte // frames of 100 KB, as pzstd writes (internal/zstframes)
	for p := text; len(p) > 0; {
		n := min(len(p), 100<<10)
		frames = enc.EncodeAll([]byte(p[:n]), frames)
		p = p[n:]
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		data []byte
		fail bool
	}{
		{"whole", data, false},
		{"cut short", data[:len(data)*2/3], true},
		{"written as it came", streamed.Bytes(), false},
		{"written as it came, cut short", streamed.Bytes()[:streamed.Len()/2], true},
		{"frames", frames, false},
		{"frames cut short", frames[:len(frames)*2/3], true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".pgn.zst")
			if err := os.WriteFile(path, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			scan := func(workers int) (string, []string) {
				var out strings.Builder
				var readErrors []string
				w := Writer{Out: &out, JSON: true}
				failed, err := Run(context.Background(), Options{Files: []string{path}, Workers: workers, JSON: true,
					ReadError: func(m string) { readErrors = append(readErrors, m) }}, w.Write)
				if err != nil {
					t.Fatal(err)
				}
				if failed != tt.fail || len(readErrors) > 0 != tt.fail {
					t.Fatalf("%d workers: failed %v, read errors %q", workers, failed, readErrors)
				}
				return out.String(), readErrors
			}
			one, oneErrors := scan(1)
			if tt.fail && !strings.Contains(strings.Join(oneErrors, "\n"), "zstd: ") {
				t.Errorf("read errors %q, want one saying zstd", oneErrors)
			}
			if strings.Count(one, "\n") < 100 {
				t.Fatalf("%d lines from one worker", strings.Count(one, "\n"))
			}
			for _, workers := range []int{3, 8} {
				got, gotErrors := scan(workers)
				if got != one {
					t.Errorf("%d workers: %d bytes of JSON lines, one worker %d", workers, len(got), len(one))
				}
				if !slices.Equal(gotErrors, oneErrors) {
					t.Errorf("%d workers: read errors %q, one worker %q", workers, gotErrors, oneErrors)
				}
			}
		})
	}
}
