package listener

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// The read-ahead gives the consumer exactly the bytes of the reader it
// reads, however the reader and the consumer cut them.
func TestReadAheadGivesTheBytes(t *testing.T) {
	text := make([]byte, 5*readAheadBlock+7)
	for i := range text {
		text[i] = byte('a' + i%26)
	}
	cases := []struct {
		name    string
		size    int
		wrap    func(io.Reader) io.Reader // how the read reader cuts its bytes
		byteful bool                      // the consumer reads one byte at a time
	}{
		{"empty", 0, nil, false},
		{"one byte", 1, nil, false},
		{"a block less one", readAheadBlock - 1, nil, false},
		{"a block", readAheadBlock, nil, false},
		{"a block and one", readAheadBlock + 1, nil, false},
		{"more blocks than held", len(text), nil, false},
		{"one byte at a time", 3*readAheadBlock + 5, iotest.OneByteReader, false},
		{"half reads", 2*readAheadBlock + 3, iotest.HalfReader, false},
		{"data with io.EOF", 2*readAheadBlock + 3, iotest.DataErrReader, false},
		{"consumer reads bytes", 2*readAheadBlock + 3, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r io.Reader = bytes.NewReader(text[:c.size])
			if c.wrap != nil {
				r = c.wrap(r)
			}
			ra := newReadAhead(r, "f.pgn")
			defer ra.Close()
			var consumer io.Reader = ra
			if c.byteful {
				consumer = iotest.OneByteReader(ra)
			}
			got, err := io.ReadAll(consumer)
			if err != nil || !bytes.Equal(got, text[:c.size]) {
				t.Fatalf("got %d bytes, err %v; want %d bytes", len(got), err, c.size)
			}
			if n, err := ra.Read(make([]byte, 10)); n != 0 || err != io.EOF {
				t.Errorf("a read past the end: %d, %v; want 0, io.EOF", n, err)
			}
		})
	}
}

// errAfter returns its text, then err.
type errAfter struct {
	text []byte
	err  error
}

func (e *errAfter) Read(p []byte) (int, error) {
	if len(e.text) == 0 {
		return 0, e.err
	}
	n := copy(p, e.text)
	e.text = e.text[n:]
	return n, nil
}

// A read error reaches the consumer after the bytes read before it, with
// the file's name; an error that looks like a short read (a truncated
// gzip stream's io.ErrUnexpectedEOF) is not taken for the end of the file.
func TestReadAheadCarriesTheError(t *testing.T) {
	cases := []struct {
		name string
		err  error
	}{
		{"disk error", errors.New("input/output error")},
		{"truncated gzip", io.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := bytes.Repeat([]byte("1. e4 e5 "), readAheadBlock/4)
			ra := newReadAhead(&errAfter{text: text, err: c.err}, "games.pgn.gz")
			defer ra.Close()
			got, err := io.ReadAll(ra)
			if !bytes.Equal(got, text) {
				t.Errorf("got %d bytes before the error, want %d", len(got), len(text))
			}
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), "games.pgn.gz") {
				t.Errorf("err = %v, want %v naming games.pgn.gz", err, c.err)
			}
			if _, again := ra.Read(make([]byte, 1)); !errors.Is(again, c.err) {
				t.Errorf("the next read: %v, want the error again", again)
			}
		})
	}
}

// endless is a reader that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// Close stops the reading goroutine (blocked with its blocks full, or
// never waited on) and returns once it has; twice is harmless.
func TestReadAheadCloseStopsTheGoroutine(t *testing.T) {
	cases := []struct {
		name string
		read int // bytes the consumer reads before closing
	}{
		{"nothing read", 0},
		{"some read", 10},
		{"blocks read", 3 * readAheadBlock},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ra := newReadAhead(endless{}, "endless")
			if _, err := io.ReadFull(ra, make([]byte, c.read)); err != nil {
				t.Fatal(err)
			}
			if err := ra.Close(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ra.done:
			default:
				t.Fatal("Close returned before the goroutine did")
			}
			if err := ra.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
