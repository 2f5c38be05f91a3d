package listener

import (
	"fmt"
	"io"
	"sync"
)

// Read-ahead sizes: a few blocks of decompressed text wait for the PGN
// reader, so that a .gz or .zst file is decompressed on one core while its
// games are read, watched and stored on the other.
const (
	readAheadBlock  = 256 << 10
	readAheadBlocks = 4
)

// readAhead reads an io.Reader (a decompressor) in a goroutine of its own,
// up to readAheadBlocks blocks ahead of its consumer. The goroutine is
// owned by the readAhead: Close stops it and waits for it. A read error
// (other than io.EOF) is handed to the consumer after the bytes read
// before it, wrapped with the name of what was read.
type readAhead struct {
	name   string
	filled chan aheadBlock // blocks read, in order
	free   chan []byte     // blocks the consumer is done with
	stop   chan struct{}   // closed by Close
	done   chan struct{}   // closed when the goroutine has returned
	once   sync.Once

	cur  []byte // the unread part of the block being consumed
	last []byte // that block's buffer, to give back
	err  error  // the error that ended the reading, once reached
}

type aheadBlock struct {
	data []byte
	err  error
}

// newReadAhead starts reading r; name says what r reads, in errors.
func newReadAhead(r io.Reader, name string) *readAhead {
	ra := &readAhead{
		name:   name,
		filled: make(chan aheadBlock, readAheadBlocks),
		free:   make(chan []byte, readAheadBlocks+1),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	for range readAheadBlocks + 1 {
		ra.free <- make([]byte, readAheadBlock)
	}
	go ra.fill(r)
	return ra
}

// fill is the goroutine: it reads r into free blocks until an error or
// io.EOF, or until Close.
func (ra *readAhead) fill(r io.Reader) {
	defer close(ra.done)
	for {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.stop:
			return
		}
		n, err := fillBlock(r, buf)
		if err != nil && err != io.EOF {
			err = fmt.Errorf("read %s: %w", ra.name, err)
		}
		select {
		case ra.filled <- aheadBlock{buf[:n], err}:
		case <-ra.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// fillBlock reads r until buf is full or r returns an error (io.EOF
// included), as io.ReadFull does without turning an io.EOF after some
// bytes into io.ErrUnexpectedEOF (a truncated gzip stream's own error).
func fillBlock(r io.Reader, buf []byte) (int, error) {
	n, empty := 0, 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			if empty++; empty >= 100 {
				return n, io.ErrNoProgress
			}
		}
	}
	return n, nil
}

// Read implements io.Reader.
func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.last != nil {
			ra.free <- ra.last[:cap(ra.last)]
			ra.last = nil
		}
		b := <-ra.filled
		ra.cur, ra.last, ra.err = b.data, b.data, b.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the reading goroutine and waits for it to return. It does
// not close the reader it reads.
func (ra *readAhead) Close() error {
	ra.once.Do(func() { close(ra.stop) })
	<-ra.done
	return nil
}
