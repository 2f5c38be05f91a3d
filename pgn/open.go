package pgn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/inflate"
	"github.com/threefold-chess/threefold/internal/zstframes"
)

// Magic numbers recognised by NewDecompressingReader.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// isZstd says whether a stream that starts with magic is zstd: a frame, or a skippable frame (magic 50..5f
// 2a 4d 18), which pzstd writes first.
func isZstd(magic []byte) bool {
	return bytes.HasPrefix(magic, zstdMagic) ||
		len(magic) == 4 && magic[0]&0xf0 == 0x50 && magic[1] == 0x2a && magic[2] == 0x4d && magic[3] == 0x18
}

// Open opens a PGN source for reading. name "-" means stdin (which Close leaves open). Compression is
// detected from the first bytes (gzip magic 1f 8b, zstd magic 28 b5 2f fd or a skippable frame's, as
// pzstd writes), never from the file name.
// Close closes the decompressor and the file. A zstd stream is decoded on the goroutine that reads.
func Open(name string, stdin io.Reader) (io.ReadCloser, error) {
	return Decompression{}.Open(name, stdin)
}

// NewDecompressingReader returns a reader of the decompressed bytes of r: gzip and zstd streams are
// recognised by their magic numbers, anything else is passed through unchanged. Close releases the
// decompressor (it does not close r).
func NewDecompressingReader(r io.Reader) (io.ReadCloser, error) {
	return Decompression{}.NewReader(r)
}

// Decompression says how a compressed input is decoded. The zero value decodes on the goroutine that
// reads, as Open does.
type Decompression struct {
	// ZstdDecoders is how many blocks of a zstd stream are in flight at once. At 0 or 1 the goroutine that
	// reads decodes each block whole. Above 1 the decoding is a pipeline of goroutines of its own, owned
	// and stopped by Close (klauspost's stream decoder: the input and literals, the sequences, their
	// execution against the window), and the reading goroutine keeps the checksum and the copy, a tenth
	// of the decoding; the longest stage, the sequences, is about two thirds of it (callgrind, text shaped
	// as Lichess writes it), for about 1% more instructions in all. 4 fills the pipeline; more gives
	// nothing. A frame that fails its checksum then gives its last block before the error, where one
	// goroutine drops it.
	ZstdDecoders int
	// ZstdFrames is how many frames of a zstd stream made of frames of up to 16 MB (pzstd's output, .zst
	// files put end to end) are decoded at once when ZstdDecoders is above 1 (internal/zstframes): the
	// reading goroutine then only copies them out. 0 means ZstdDecoders.
	ZstdFrames int
}

// DecompressionFor is how Run decodes its files for a scan on workers goroutines. On one or two
// workers the decoding stays on the reading goroutine: the other core is the workers', and a pipeline
// would only add its hand-overs. From three on, the reading goroutine, which decompresses and cuts the
// text into chunks whatever the workers, is the longest stage of a zstd scan of text shaped as Lichess
// writes it (412 instructions a ply against about 800 for a worker's part: it keeps up with about two
// workers; 260 with the pipeline), so the decoding gets goroutines of its own (bench/README.md, "The
// pipeline: one reader, the workers, the order"). A frame's decoding is about half a worker's part of a
// ply, so a file made of frames has one frame decoded at once for every two workers, 4 at least.
func DecompressionFor(workers int) Decompression {
	if workers <= 2 {
		return Decompression{ZstdDecoders: 1}
	}
	return Decompression{ZstdDecoders: 4, ZstdFrames: max(4, (workers+1)/2)}
}

// Open is the package's Open, decoding as d says.
func (d Decompression) Open(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("pgn: open -: no standard input")
		}
		rc, err := d.NewReader(stdin)
		if err != nil {
			return nil, fmt.Errorf("pgn: open stdin: %w", err)
		}
		return rc, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("pgn: %w", err)
	}
	rc, err := d.NewReader(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("pgn: open %s: %w", name, err)
	}
	return &multiCloser{Reader: rc, closers: []io.Closer{rc, f}}, nil
}

// NewReader is NewDecompressingReader, decoding as d says.
func (d Decompression) NewReader(r io.Reader) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(len(zstdMagic))
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("detect compression: %w", err)
	}
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		// Our own inflate: on PGN it takes about half the instructions and CPU time of klauspost's
		// gzip (bench/README.md, "Decompression"), on the one goroutine that reads the file.
		zr, err := inflate.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return &wrapError{Reader: zr, closers: []io.Closer{zr}, what: "gzip"}, nil
	case isZstd(magic) && d.ZstdDecoders > 1:
		frames := d.ZstdFrames
		if frames <= 0 {
			frames = d.ZstdDecoders
		}
		zr, err := zstframes.NewReader(br, frames, d.ZstdDecoders)
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return &wrapError{Reader: zr, closers: []io.Closer{zr}, what: "zstd"}, nil
	case isZstd(magic):
		zd, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		rc := zd.IOReadCloser()
		return &wrapError{Reader: rc, closers: []io.Closer{rc}, what: "zstd"}, nil
	default:
		return io.NopCloser(br), nil
	}
}

// multiCloser closes every closer, in order, and reports the first error.
type multiCloser struct {
	io.Reader
	closers []io.Closer
}

func (m *multiCloser) Close() error {
	var first error
	for _, c := range m.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	m.closers = nil
	return first
}

// wrapError names the decompressor in its read errors ("gzip: unexpected EOF"), so that a truncated or
// corrupt archive is told apart from a syntax problem in the PGN, and keeps the first one: klauspost's
// zstd decoder returns nothing and no error on the reads after one.
type wrapError struct {
	io.Reader
	closers []io.Closer
	what    string
	err     error // the first error, returned by every read after it
}

func (w *wrapError) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", w.what, err)
	}
	w.err = err
	return n, err
}

func (w *wrapError) Close() error {
	var first error
	for _, c := range w.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	w.closers = nil
	return first
}
