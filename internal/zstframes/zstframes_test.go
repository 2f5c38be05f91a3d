package zstframes

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/testzstd"
)

// text is n lines of PGN-like text, different enough to make several
// blocks a frame.
func text(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d. e4 { [%%clk 0:%02d:%02d] } %d... e5 { [%%clk 0:%02d:%02d] } %x\n", i, i%60, i*7%60, i, i*3%60, i*11%60, i*2654435761)
	}
	return []byte(b.String())
}

// frames compresses each piece as a frame of its own (with its size and
// checksum) and joins them.
func frames(t *testing.T, pieces ...[]byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	for _, p := range pieces {
		out = enc.EncodeAll(p, out)
	}
	return out
}

// streamed compresses p as a stream: a frame that does not say its size,
// as pzstd writes them, with a window of 128 KB (pzstd's frames are 4
// windows: decoded whole up to maxFrame) unless opts say otherwise.
func streamed(t *testing.T, p []byte, opts ...zstd.EOption) []byte {
	return testzstd.Stream(t, p, append([]zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(128 << 10)}, opts...)...)
}

// pzstd puts frame after its mark, a skippable frame with frame's length.
func pzstd(frame []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x184d2a50)
	b = binary.LittleEndian.AppendUint32(b, 4)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(frame)))
	return append(b, frame...)
}

func skippable(data string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x184d2a53)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// readAll reads r in reads of size bytes up to its end or first error.
func readAll(r io.Reader, size int) ([]byte, error) {
	var out []byte
	buf := make([]byte, size)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func damaged(data []byte, at int) []byte {
	d := bytes.Clone(data)
	d[at] ^= 0x55
	return d
}

// TestReaderMatchesStream: whatever the stream — one frame or many,
// skippable frames, frames that do not say their size or are over the
// bound, cut or damaged anywhere — the Reader gives the bytes and the error
// klauspost's stream decoder gives for the whole stream, in reads of any
// size, with 1 and 4 frames at once.
func TestReaderMatchesStream(t *testing.T) {
	defer func(m int) { maxFrame = m }(maxFrame)
	maxFrame = 1 << 20
	a, b, c, d := text(3000), text(5000)[3000*60:], text(9000), text(400)
	big := text(40000)              // decoded, over the bound: 2.5 MB
	noise := make([]byte, 1500<<10) // compressed, over the bound: the rest of the stream is streamed
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	eight := frames(t, a, b, c, d, a, b, c, d)
	second := len(frames(t, a))
	tests := []struct {
		name string
		data []byte
		fail bool
		// whole: the frames decoded whole (the others streamed); after an
		// error, the Reader may have decoded more before it was closed
		whole int64
	}{
		{"one frame", frames(t, c), false, 1},
		{"eight frames", eight, false, 8},
		{"skippable frames between and around", join(skippable("pzstd"), frames(t, a), skippable(""), frames(t, b, c), skippable("x")), false, 3},
		{"a frame that does not say its size: the rest streamed", join(frames(t, a), streamed(t, b), frames(t, c)), false, 1},
		{"pzstd's frames: marked, their size not said", join(pzstd(streamed(t, a)), pzstd(streamed(t, b)), pzstd(streamed(t, c))), false, 3},
		{"a marked frame over the bound", join(pzstd(streamed(t, a)), pzstd(streamed(t, big)), pzstd(streamed(t, c))), false, 2},
		{"a marked frame whose 4 windows are over the bound", join(pzstd(streamed(t, a)), pzstd(streamed(t, b, zstd.WithWindowSize(1<<20))), pzstd(streamed(t, c))), false, 1},
		{"a skippable frame that is not the mark", join(frames(t, a), skippable("12345"), streamed(t, b), frames(t, c)), false, 1},
		{"a frame that says a size over the bound", join(frames(t, a), frames(t, big), frames(t, d)), false, 1},
		{"blocks of one byte over and over", frames(t, a, bytes.Repeat([]byte{'x'}, 300<<10), d), false, 3},
		{"a frame whose bytes are over the bound", join(frames(t, a), streamed(t, noise), frames(t, d)), false, 1},
		{"an empty frame", join(frames(t, a), frames(t, nil), frames(t, b)), false, 3},
		{"cut in a frame header", eight[:second+3], true, 1},
		{"cut in the second frame", eight[:second+200], true, 1},
		{"cut in the last frame", eight[:len(eight)-100], true, 7},
		{"cut before the last checksum", eight[:len(eight)-4], true, 7},
		{"a damaged block in the second frame", damaged(eight, second+300), true, 1},
		{"a wrong checksum in the first frame", damaged(eight, second-1), true, 0},
		{"garbage after the frames", join(eight, []byte("not zstd")), true, 8},
		{"garbage between frames", join(frames(t, a), []byte("zz"), frames(t, b)), true, 1},
		{"three bytes after the frames", join(eight, []byte{1, 2, 3}), true, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, decoders := range []int{1, 4} {
				ref, err := zstd.NewReader(bytes.NewReader(tt.data), zstd.WithDecoderConcurrency(decoders))
				if err != nil {
					t.Fatal(err)
				}
				want, wantErr := readAll(ref, 16<<10)
				ref.Close()
				if (wantErr != nil) != tt.fail {
					t.Fatalf("the stream decoder: error %v", wantErr)
				}
				for _, workers := range []int{1, 4} {
					for _, size := range []int{1000, 64 << 10} {
						z, err := NewReader(bytes.NewReader(tt.data), workers, decoders)
						if err != nil {
							t.Fatal(err)
						}
						got, gotErr := readAll(z, size)
						if _, again := z.Read(make([]byte, 10)); gotErr != nil && again != gotErr {
							t.Errorf("error %v, then %v", gotErr, again)
						}
						if err := z.Close(); err != nil {
							t.Errorf("Close: %v", err)
						}
						if n := z.decoded.Load(); !tt.fail && n != tt.whole || n < tt.whole {
							t.Errorf("decoders %d, workers %d: %d frames decoded whole, want %d", decoders, workers, n, tt.whole)
						}
						if !bytes.Equal(got, want) {
							t.Errorf("decoders %d, workers %d, reads of %d: %d bytes, the stream decoder %d", decoders, workers, size, len(got), len(want))
						}
						if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
							t.Errorf("decoders %d, workers %d, reads of %d: error %v, the stream decoder %v", decoders, workers, size, gotErr, wantErr)
						}
					}
				}
			}
		})
	}
}

// TestCloseEarly: closing a Reader before its end stops its goroutines
// (Close waits for them), with frames decoded and not read.
func TestCloseEarly(t *testing.T) {
	data := frames(t, text(3000), text(3000), text(3000), text(3000), text(3000), text(3000))
	for _, read := range []int{0, 1, 200 << 10} {
		z, err := NewReader(bytes.NewReader(data), 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(z, make([]byte, read)); err != nil {
			t.Fatal(err)
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// failingReader gives data up to at, then err once, then the rest of
// data: an error that passes (a network's), which must not be read past.
type failingReader struct {
	data []byte
	at   int
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.at == 0 && r.err != nil {
		err := r.err
		r.err = nil
		return 0, err
	}
	if r.err != nil {
		p = p[:min(len(p), r.at)]
	} else if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data)
	r.data, r.at = r.data[n:], r.at-n
	return n, nil
}

// TestReadErrorIsReported: an error of the input (a disk's, a network's)
// anywhere in a stream of frames is what the Reader returns, after a
// prefix of the decoded bytes, even when a read after it would succeed:
// never a decoding error of what it read past it, or a clean end.
func TestReadErrorIsReported(t *testing.T) {
	pieces := [][]byte{text(3000), text(5000), text(400)}
	data := frames(t, pieces...)
	want := join(pieces...)
	first := len(frames(t, pieces[0]))
	disk := errors.New("read sda: input/output error")
	for _, at := range []int{0, 2, first, first + 3, first + 9, first + 500, len(data) - 2} {
		for _, workers := range []int{1, 4} {
			z, err := NewReader(&failingReader{data: data, at: at, err: disk}, workers, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(z, 4096)
			z.Close()
			if !errors.Is(err, disk) {
				t.Errorf("cut at %d, workers %d: error %v, want the input's", at, workers, err)
			}
			if !bytes.HasPrefix(want, got) {
				t.Errorf("cut at %d, workers %d: %d bytes that are not the text's first", at, workers, len(got))
			}
		}
	}
}
