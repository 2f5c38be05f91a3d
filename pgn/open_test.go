package pgn

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/internal/testzstd"
)

// zstdFrame compresses text as one zstd frame (klauspost's encoder at its default level, with the
// checksum), of 128 KB blocks.
func zstdFrame(t testing.TB, text []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(text, nil)
}

// readDecompressed reads what d makes of data in reads of 16 KB (as a Splitter does) up to the first
// error, and returns the bytes and that error (nil at the end of the input); it checks that the error
// stays.
func readDecompressed(t *testing.T, d Decompression, data []byte) ([]byte, error) {
	t.Helper()
	rc, err := d.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := rc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	var out []byte
	buf := make([]byte, 16<<10)
	for {
		n, err := rc.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			if _, again := rc.Read(buf); again == nil || again.Error() != err.Error() {
				t.Errorf("error %q, then %v", err, again)
			}
			return out, err
		}
	}
}

// TestZstdDecoders reads whole, truncated and damaged zstd streams with the decoding on the reading
// goroutine and on pipelines of 2 and 4 blocks: errors say "zstd: " and stay, each pipeline gives the
// same error as the one goroutine and the same bytes, but for a frame that fails its checksum: the one
// goroutine drops the frame's last block then, a pipeline gives it before the error.
func TestZstdDecoders(t *testing.T) {
	text := []byte(strings.Repeat(refgames.ReferencePGN(), 4)) // 1.2 MB: ten blocks
	whole := zstdFrame(t, text)
	half := bytes.LastIndex(text[:len(text)/2], []byte("\n[Event ")) + 1
	second := zstdFrame(t, text[half:])
	twoFrames := append(zstdFrame(t, text[:half]), second...)
	damaged := func(data []byte, at int) []byte {
		d := bytes.Clone(data)
		d[at] ^= 0x55
		return d
	}
	tests := []struct {
		name string
		data []byte
		want string // the error's start, "" for none
		// whole: all of the text comes out of the one goroutine (the damage is after the frame); prefix:
		// what it gives is the text's start (no block decoded from damaged bytes); last: the damage is in
		// the frame fails its checksum, and a pipeline gives the last block too.
		whole, prefix, last bool
	}{
		{"whole stream", whole, "", true, true, false},
		{"a stream that does not say its size (the pipeline)", testzstd.Stream(t, text, zstd.WithEncoderConcurrency(1)), "", true, true, false},
		{"the same, cut in the middle", func() []byte { s := testzstd.Stream(t, text, zstd.WithEncoderConcurrency(1)); return s[:len(s)/2] }(), "zstd: ", false, true, false},
		{"two frames", twoFrames, "", true, true, false},
		{"cut in the frame header", whole[:5], "zstd: ", false, true, false},
		{"cut in the middle", whole[:len(whole)/2], "zstd: ", false, true, false},
		{"cut in the second frame", twoFrames[:len(twoFrames)-len(second)/2], "zstd: ", false, true, false},
		{"cut before the checksum", whole[:len(whole)-4], "zstd: ", false, true, false},
		{"cut inside the checksum", whole[:len(whole)-2], "zstd: ", false, true, false},
		{"wrong checksum", damaged(whole, len(whole)-1), "zstd: ", false, true, true},
		{"a byte damaged in a middle block", damaged(whole, len(whole)/2), "zstd: ", false, false, true},
		{"garbage after the frame", append(bytes.Clone(whole), "not zstd at all"...), "zstd: ", true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			one, oneErr := readDecompressed(t, Decompression{ZstdDecoders: 1}, tt.data)
			switch {
			case tt.want == "" && oneErr != nil:
				t.Fatalf("one goroutine: error %v", oneErr)
			case tt.want != "" && (oneErr == nil || !strings.HasPrefix(oneErr.Error(), tt.want)):
				t.Fatalf("one goroutine: error %v, want one starting %q", oneErr, tt.want)
			case tt.whole && !bytes.Equal(one, text):
				t.Fatalf("one goroutine: %d bytes, want the whole text (%d)", len(one), len(text))
			case tt.prefix && !bytes.HasPrefix(text, one):
				t.Fatalf("one goroutine: %d bytes that are not the text's start", len(one))
			}
			if tt.last && (len(one) == len(text) || len(one) < len(text)-128<<10) {
				t.Fatalf("one goroutine: %d bytes, want all but the last block of the %d", len(one), len(text))
			}
			for _, n := range []int{2, 4} {
				got, err := readDecompressed(t, Decompression{ZstdDecoders: n}, tt.data)
				if tt.last && (len(got) != len(text) || !bytes.HasPrefix(got, one) || tt.prefix && !bytes.Equal(got, text)) {
					t.Errorf("%d decoders: %d bytes, want the one goroutine's %d and the last block, %d in all", n, len(got), len(one), len(text))
				} else if !tt.last && !bytes.Equal(got, one) {
					t.Errorf("%d decoders: %d bytes, one goroutine %d (first difference at %d)", n, len(got), len(one), firstByteDifference(got, one))
				}
				if (err == nil) != (oneErr == nil) || err != nil && err.Error() != oneErr.Error() {
					t.Errorf("%d decoders: error %v, one goroutine %v", n, err, oneErr)
				}
			}
		})
	}
}

func firstByteDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestZstdDecodersThroughOpen reads a zstd file and stdin with a pipeline of decoders: the same games
// as with Open, and an error that says "zstd: " for a file cut short.
func TestZstdDecodersThroughOpen(t *testing.T) {
	text := []byte(strings.Repeat(refgames.ReferencePGN(), 2))
	data := zstdFrame(t, text)
	want := readAll(t, NewReader(bytes.NewReader(text)))
	for _, src := range []struct {
		name string
		data []byte
		err  string
	}{{"whole", data, ""}, {"cut short", data[:len(data)*3/4], "zstd: "}} {
		t.Run(src.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "games.pgn.zst")
			if err := os.WriteFile(path, src.data, 0o600); err != nil {
				t.Fatal(err)
			}
			rc, err := DecompressionFor(8).Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			r := NewReader(rc)
			var got []*Game
			for {
				g, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					if src.err == "" || !strings.Contains(err.Error(), src.err) {
						t.Fatalf("after %d games: %v, want an error containing %q", len(got), err, src.err)
					}
					break
				}
				got = append(got, g)
			}
			if src.err == "" && len(got) != len(want) || len(got) > len(want) {
				t.Fatalf("%d games, want %d", len(got), len(want))
			}
			for i, g := range got {
				if strings.Join(g.Moves, " ") != strings.Join(want[i].Moves, " ") || g.Result != want[i].Result {
					t.Fatalf("game %d differs", i)
				}
			}
		})
	}
}

func TestDecompressionFor(t *testing.T) {
	tests := []struct {
		name    string
		workers int
		want    Decompression
	}{
		{"no workers said", 0, Decompression{ZstdDecoders: 1}},
		{"one worker", 1, Decompression{ZstdDecoders: 1}},
		{"two workers: no pipeline, no CPU added", 2, Decompression{ZstdDecoders: 1}},
		{"three workers", 3, Decompression{ZstdDecoders: 4, ZstdFrames: 4}},
		{"nine workers", 9, Decompression{ZstdDecoders: 4, ZstdFrames: 5}},
		{"sixteen workers", 16, Decompression{ZstdDecoders: 4, ZstdFrames: 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DecompressionFor(tt.workers); got != tt.want {
				t.Errorf("DecompressionFor(%d) = %+v, want %+v", tt.workers, got, tt.want)
			}
		})
	}
}

// TestZstdAfterSkippableFrame: pzstd starts its files with a skippable frame (magic 50..5f 2a 4d 18, the
// size of the frame after it); such a file is zstd, on one goroutine and on several.
func TestZstdAfterSkippableFrame(t *testing.T) {
	text := []byte(refgames.ReferencePGN())
	for _, first := range []byte{0x50, 0x5e} {
		data := append([]byte{first, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}, zstdFrame(t, text)...)
		for _, n := range []int{1, 4} {
			got, err := readDecompressed(t, Decompression{ZstdDecoders: n}, data)
			if err != nil || !bytes.Equal(got, text) {
				t.Errorf("skippable frame %#x, %d decoders: %d bytes, error %v; want the %d of the text", first, n, len(got), err, len(text))
			}
		}
	}
}

// TestInputErrorIsReported: an error of the input that a later read would not repeat (a network's, as
// iotest.TimeoutReader gives: the second read fails, the next ones succeed) is what reading the
// decompressed text returns, whatever the compression and the decoding, never a clean end or a
// decompressor's error of the bytes after it; and the text before it is the text's start.
func TestInputErrorIsReported(t *testing.T) {
	text := []byte(strings.Repeat(refgames.ReferencePGN(), 2))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(text); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	third := bytes.Index(text[len(text)/3:], []byte("\n[Event ")) + len(text)/3 + 1
	inputs := []struct {
		name string
		data []byte
	}{
		{"plain text", text},
		{"gzip", gz.Bytes()},
		{"zstd, one frame", zstdFrame(t, text)},
		{"zstd, three frames", append(append(zstdFrame(t, text[:third]), zstdFrame(t, text[third:2*third])...), zstdFrame(t, text[2*third:])...)},
		{"zstd, a stream that does not say its size", testzstd.Stream(t, text, zstd.WithEncoderConcurrency(1))},
	}
	for _, in := range inputs {
		for _, at := range []int{0, 3, 100, len(in.data) / 3, len(in.data) - 5} {
			for _, d := range []Decompression{{}, {ZstdDecoders: 4}, DecompressionFor(8)} {
				name := fmt.Sprintf("%s, error after %d bytes, %+v", in.name, at, d)
				src := io.MultiReader(bytes.NewReader(in.data[:at]), iotest.TimeoutReader(bytes.NewReader(in.data[at:])))
				rc, err := d.NewReader(src)
				if err != nil {
					if !errors.Is(err, iotest.ErrTimeout) {
						t.Errorf("%s: NewReader: %v", name, err)
					}
					continue
				}
				got, err := io.ReadAll(rc)
				rc.Close()
				if !errors.Is(err, iotest.ErrTimeout) {
					t.Errorf("%s: error %v, want the input's", name, err)
				}
				if !bytes.HasPrefix(text, got) {
					t.Errorf("%s: %d bytes that are not the text's start", name, len(got))
				}
			}
		}
	}
}
