// Package zstframes decodes a zstd stream made of several frames (pzstd's
// output, concatenated .zst files) on several goroutines, the frames' bytes
// in order, with the bytes and the error a decoder of the whole stream gives.
//
// Frames are independent: a frame's length is known without decoding it
// (its header, then each block's 3-byte header gives the block's size), so
// one goroutine cuts the stream into frames and others decode them whole,
// at most a few at once. What cannot be cut that way — a frame bigger than
// the bound, a damaged or cut header, bytes that are not a frame, a frame
// that does not say its decoded size unless pzstd's mark is before it — is
// decoded from its start on by klauspost's stream decoder; a frame whose
// whole decoding fails (damaged, or decoded bigger than the bound) by a
// stream decoder of its own: its blocks before a damage come out, then the
// stream decoder's error. A
// stream of one big frame (zstd's usual output, the Lichess database) is
// thus decoded by the stream decoder alone. An error of the input itself
// (a disk's, a network's) ends the stream there: it is what Read returns,
// even if a read after it would succeed. Memory: up to workers+1 frames
// decoded and not yet read, and their bytes.
package zstframes

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// maxFrame bounds what one frame may take to be decoded whole: its bytes and
// its decoded bytes, each. Bigger frames are streamed. pzstd's frames are 4
// times zstd's window: 8 MB of text at its level 3 (decoded whole), 32 MB at
// 19 (streamed). (A variable for the tests.)
var maxFrame = 16 << 20

var errNotCut = errors.New("zstframes: not cut") // a frame left to the stream decoder

// A Reader reads the decoded bytes of a zstd stream. Close stops its
// goroutines and waits for them.
type Reader struct {
	futures  chan chan frame // decoded frames, in input order
	decoders int             // for the stream decoder
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	whole    *zstd.Decoder // DecodeAll, shared by the frames' goroutines
	decoded  atomic.Int64  // frames decoded whole

	spare  chan []byte // a decoded frame's memory, for the next frame
	cur    []byte
	curBuf []byte        // cur's memory, given back to spare once read
	stream *zstd.Decoder // decoding a frame whole failed, or the rest could not be cut
	more   bool          // after stream's end, frames follow
	err    error
}

// frame is a frame decoded whole, or the bytes the stream decoder must
// decode (raw; rest: and then the rest of the input, no more frames).
type frame struct {
	data []byte
	raw  []byte
	rest io.Reader
	err  error
}

// NewReader returns a reader of the decoded bytes of the zstd stream r,
// decoding up to workers frames at once; decoders is the stream decoder's
// concurrency (zstd.WithDecoderConcurrency) for what is streamed.
func NewReader(r io.Reader, workers, decoders int) (*Reader, error) {
	whole, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(workers), zstd.WithDecoderMaxMemory(uint64(maxFrame)))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	z := &Reader{futures: make(chan chan frame, workers), decoders: max(decoders, 1), cancel: cancel, whole: whole,
		spare: make(chan []byte, 1)}
	z.wg.Add(1)
	go z.cut(ctx, bufio.NewReaderSize(r, 64<<10), workers)
	return z, nil
}

// cut reads the frames of br and hands each to a goroutine that decodes it,
// at most workers at once, until one cannot be cut: that one is handed over
// with the rest of the input, and cut returns.
func (z *Reader) cut(ctx context.Context, br *bufio.Reader, workers int) {
	defer z.wg.Done()
	defer close(z.futures)
	busy := make(chan struct{}, workers)
	marked := false // the frame follows pzstd's mark
	for {
		raw, size, err := nextFrame(br)
		if err == io.EOF {
			return
		}
		if size == unsized && !marked {
			// Most likely the one frame of a stream written as it came (zstd from a pipe), its decoded
			// size unknown and perhaps huge: streamed from here on, rather than decoded up to the bound
			// in vain. pzstd's frames do not say their size either, but follow its mark.
			err = errNotCut
		}
		marked = size == skip && len(raw) == 12 && binary.LittleEndian.Uint32(raw) == pzstdMark
		f := make(chan frame, 1)
		select {
		case z.futures <- f:
		case <-ctx.Done():
			return
		}
		if err == errNotCut {
			f <- frame{raw: raw, rest: br}
			return
		}
		if err != nil { // the input's own error: a stream decoder would read on past it
			f <- frame{err: err}
			return
		}
		if size == skip {
			f <- frame{}
			continue
		}
		if size == unsized { // pzstd's: the decoder stops at the bound
			size = min(8*len(raw), maxFrame)
		}
		select {
		case busy <- struct{}{}:
		case <-ctx.Done():
			f <- frame{err: ctx.Err()}
			return
		}
		z.wg.Add(1)
		go func() {
			defer z.wg.Done()
			defer func() { <-busy }()
			var buf []byte
			select {
			case buf = <-z.spare:
			default:
			}
			if cap(buf) < size {
				buf = make([]byte, 0, size)
			}
			data, err := z.whole.DecodeAll(raw, buf[:0])
			if err != nil {
				f <- frame{raw: raw}
				return
			}
			z.decoded.Add(1)
			f <- frame{data: data}
		}()
	}
}

// nextFrame reads the next frame of br whole, skippable frames included,
// and returns it and its decoded size: skip for a skippable frame (nothing
// to decode), unsized for one that does not say its decoded size (pzstd
// writes such frames). io.EOF: no byte is left. errNotCut: the frame
// cannot be cut (raw is what was read of it). Another error: the input's,
// which a reader must report rather than read past.
func nextFrame(br *bufio.Reader) (raw []byte, size int, err error) {
	head, err := br.Peek(4)
	if len(head) == 0 && err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil && err != io.EOF {
		return nil, 0, err
	}
	if len(head) < 4 {
		return nil, 0, errNotCut
	}
	var readErr error
	take := func(n int) bool { // appends n more bytes of br to raw
		if len(raw)+n > maxFrame {
			return false
		}
		start := len(raw)
		raw = append(raw, make([]byte, n)...)
		k, err := io.ReadFull(br, raw[start:])
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			readErr = err
		}
		raw = raw[:start+k]
		return k == n
	}
	defer func() {
		if readErr != nil {
			raw, size, err = nil, 0, readErr
		}
	}()
	magic := binary.LittleEndian.Uint32(head)
	if magic&0xfffffff0 == 0x184d2a50 { // skippable: its size, then as many bytes
		if !take(8) {
			return raw, 0, errNotCut
		}
		if !take(int(binary.LittleEndian.Uint32(raw[4:]))) {
			return raw, 0, errNotCut
		}
		return raw, skip, nil
	}
	if magic != 0xfd2fb528 || !take(5) {
		return raw, 0, errNotCut
	}
	fhd := raw[4]
	single := fhd&0x20 != 0
	fcsBytes := [4]int{0, 2, 4, 8}[fhd>>6]
	if fcsBytes == 0 && single {
		fcsBytes = 1
	}
	headLen := 5 + [4]int{0, 1, 2, 4}[fhd&3] + fcsBytes
	if !single {
		headLen++
	}
	if fhd&0x08 != 0 || !take(headLen-5) {
		return raw, 0, errNotCut // a reserved bit set, or the header cut
	}
	fcs := raw[headLen-fcsBytes : headLen]
	var n uint64
	for i := len(fcs) - 1; i >= 0; i-- {
		n = n<<8 | uint64(fcs[i])
	}
	if fcsBytes == 2 {
		n += 256
	}
	if n > uint64(maxFrame) {
		return raw, 0, errNotCut // a big frame (zstd's whole output): the rest is streamed, as it comes
	}
	size = int(n)
	if fcsBytes == 0 {
		// pzstd's frames are 4 windows of text: one whose 4 windows are over the bound is streamed.
		wd := raw[5] // the window descriptor: no single segment without the decoded size
		if window := (1 << (10 + wd>>3)) * (8 + int(wd&7)) / 8; 4*window > maxFrame {
			return raw, 0, errNotCut
		}
		size = unsized
	}
	for last := false; !last; {
		if !take(3) {
			return raw, 0, errNotCut
		}
		h := raw[len(raw)-3:]
		bh := uint32(h[0]) | uint32(h[1])<<8 | uint32(h[2])<<16
		last = bh&1 != 0
		blockSize := int(bh >> 3)
		switch (bh >> 1) & 3 {
		case 1: // RLE: one byte
			blockSize = 1
		case 3:
			return raw, 0, errNotCut
		}
		if !take(blockSize) {
			return raw, 0, errNotCut
		}
	}
	if fhd&0x04 != 0 && !take(4) {
		return raw, 0, errNotCut
	}
	return raw, size, nil
}

// Sizes nextFrame returns for frames not decoded whole.
const (
	skip    = -1
	unsized = -2
)

// pzstdMark is the magic of the skippable frame pzstd writes before each
// frame, with the frame's length in 4 bytes.
const pzstdMark = 0x184d2a50

// Read reads decoded bytes, in input order.
func (z *Reader) Read(p []byte) (int, error) {
	for len(z.cur) == 0 {
		if z.err != nil {
			return 0, z.err
		}
		if z.stream != nil {
			n, err := z.stream.Read(p)
			if err == io.EOF && z.more {
				z.stream.Close()
				z.stream = nil
				err = nil
			}
			if err != nil {
				z.err = err
			}
			return n, err
		}
		f, ok := <-z.futures
		if !ok {
			z.err = io.EOF
			continue
		}
		fr := <-f
		switch {
		case fr.err != nil:
			z.err = fr.err
		case fr.raw != nil || fr.rest != nil:
			src := io.Reader(bytes.NewReader(fr.raw))
			z.more = fr.rest == nil
			if !z.more {
				src = io.MultiReader(src, fr.rest)
			}
			dec, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(z.decoders))
			if err != nil {
				z.err = err
				continue
			}
			z.stream = dec
		default:
			z.cur, z.curBuf = fr.data, fr.data
		}
	}
	n := copy(p, z.cur)
	if z.cur = z.cur[n:]; len(z.cur) == 0 && z.curBuf != nil {
		select {
		case z.spare <- z.curBuf:
		default:
		}
		z.curBuf = nil
	}
	return n, nil
}

// Close stops the goroutines and waits for them; the Reader must not be
// used after it.
func (z *Reader) Close() error {
	z.cancel()
	for f := range z.futures { // let cut return; its frames' goroutines end on their own
		_ = f
	}
	z.wg.Wait()
	z.whole.Close()
	if z.stream != nil {
		z.stream.Close()
	}
	return nil
}
