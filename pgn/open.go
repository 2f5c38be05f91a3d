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
)

// Magic numbers recognised by NewDecompressingReader.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Open opens a PGN source for reading. name "-" means stdin (which Close leaves open). Compression is
// detected from the first bytes (gzip magic 1f 8b, zstd magic 28 b5 2f fd), never from the file name.
// Close closes the decompressor and the file.
func Open(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("pgn: open -: no standard input")
		}
		rc, err := NewDecompressingReader(stdin)
		if err != nil {
			return nil, fmt.Errorf("pgn: open stdin: %w", err)
		}
		return rc, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("pgn: %w", err)
	}
	rc, err := NewDecompressingReader(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("pgn: open %s: %w", name, err)
	}
	return &multiCloser{Reader: rc, closers: []io.Closer{rc, f}}, nil
}

// NewDecompressingReader returns a reader of the decompressed bytes of r: gzip and zstd streams are
// recognised by their magic numbers, anything else is passed through unchanged. Close releases the
// decompressor (it does not close r).
func NewDecompressingReader(r io.Reader) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(len(zstdMagic))
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("detect compression: %w", err)
	}
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		// Our own inflate: on PGN it takes about half the instructions and CPU time of klauspost's
		// gzip (README, "Where scan's time goes"), on the one goroutine that reads the file.
		zr, err := inflate.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return &wrapError{Reader: zr, closers: []io.Closer{zr}, what: "gzip"}, nil
	case bytes.HasPrefix(magic, zstdMagic):
		// One decoding goroutine: the PGN reader is single-threaded, the other core belongs to the consumers.
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
// corrupt archive is told apart from a syntax problem in the PGN.
type wrapError struct {
	io.Reader
	closers []io.Closer
	what    string
}

func (w *wrapError) Read(p []byte) (int, error) {
	n, err := w.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", w.what, err)
	}
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
