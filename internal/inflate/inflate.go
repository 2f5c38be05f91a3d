// Package inflate reads gzip files: RFC 1952 members, one after the other, each an RFC 1951 DEFLATE
// stream checked against its CRC-32 and length. It does one job, fast, for the PGN archives scan reads:
// a 64-bit bit buffer refilled a word at a time, tables whose entries carry a length decoded whole
// (its extra bits too, where they fit) or a distance's base and extra bits (one lookup decodes a
// symbol), literals decoded in runs, and match copies 8 bytes at a time. Memory is bounded (some 240 KB a Reader, whatever the input) and corrupt or truncated input
// gives an error naming its byte offset, never a panic.
package inflate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// ErrCorrupt is wrapped by the errors of input that is not a valid gzip file; ErrChecksum by those of a
// member whose CRC-32 or length does not match what was decoded. Truncated input gives
// io.ErrUnexpectedEOF, wrapped.
var (
	ErrCorrupt  = errors.New("corrupt input")
	ErrChecksum = errors.New("checksum mismatch")
)

const (
	windowSize = 1 << 15 // the farthest a DEFLATE match reaches back
	// The output buffer holds the window then what a step decodes. Its size is a power of two, and
	// the fast loop masks every index into it with outMask: the array has outPad bytes more, so that
	// a 16-byte access at a masked index is always inside it and the compiler emits no bounds checks.
	// The masks change no index (the loop stops at fastLimit, and outSlop leaves room for what it
	// writes past that), they only make that evident to the compiler. The input buffer is the same.
	outBits = 17
	outSize = 1 << outBits
	outMask = outSize - 1
	outPad  = 16
	// outSlop is the room past where the fast loop stops: three literals, or a 258-byte match copied
	// 8 bytes at a time (up to 15 bytes past its end).
	outSlop   = 320
	fastLimit = outSize - outSlop      // the fast loop runs while the output is before it
	outChunk  = fastLimit - windowSize // what a step decodes at most, after the window
	inSize    = 1 << 16
	inMask    = inSize - 1
	// Each byte the fast loop decodes takes at most 15 bits of input (a literal's longest code; a
	// match takes at most 43 bits for 3 bytes or more), and the loop stops when it has decoded n bytes
	// or more: its last iteration starts before that and takes at most 78 bits (two literals and a
	// match). Its refills read 8 bytes at a time, after at most 63 bits not yet consumed. So it reads
	// less than inMargin + 15*n/8 bytes ahead: huffman lets it decode n = fastBudget(input left)
	// bytes, and fetches more input when less than inRefetch is left.
	inMargin  = 32
	inRefetch = 4 << 10
	// maxString is the longest file name or comment in a header, as compress/gzip reads them.
	maxString = 512
)

// state says what the Reader reads next.
type state uint8

const (
	stateHeader  state = iota // a member's header (or the end of the input)
	stateBlock                // a block's header, or the member's trailer after its last block
	stateStored               // the bytes of a stored block (stored counts what is left)
	stateHuffman              // the symbols of a block with Huffman codes
)

// A Reader decompresses a gzip stream. It is not safe for concurrent use.
//
// Its buffers and tables are arrays inside it, after every pointer (the garbage collector scans a
// Reader only up to its last pointer): the fast loop reaches all of them from the one pointer d.
type Reader struct {
	src    io.Reader
	in     []byte // input read from src and not yet consumed, from ip on (inBuf[:n:inSize])
	srcErr error  // src's error after the bytes in in (io.EOF at its end)
	err    error  // sticky: io.EOF at the end, or the first error
	ip     int
	inBase int64 // the input offset of in[0]

	bits uint64 // input bits, the next one lowest; above nb they are the next bytes of in or 0
	nb   uint   // valid bits in bits
	pad  int    // zero bytes put in bits after the end of the input (an error if any is decoded)

	op int // where the next byte is decoded in out
	rp int // the next byte Read hands out (rp <= op)

	state  state
	final  bool // the block being read is the member's last
	fixed  bool // lit and dist hold the fixed codes
	stored int  // bytes left in a stored block
	crc    uint32
	size   uint32 // the member's decoded length, modulo 2^32

	lit   [litTableSize]uint32 // the block's codes
	dist  [distTableSize]uint32
	lens  [286 + 30]uint8
	inBuf [inSize + 8]byte       // 8 bytes more: room for a refill's 8 bytes at a masked index
	out   [outSize + outPad]byte // the window then what was decoded
}

// NewReader returns a Reader of the gzip stream r; it reads the first member's header and fails as
// compress/gzip does when there is none (io.EOF for empty input).
func NewReader(r io.Reader) (*Reader, error) {
	d := &Reader{src: r}
	d.in = d.inBuf[:0:inSize]
	if err := d.header(); err != nil {
		return nil, err
	}
	return d, nil
}

// Read reads decompressed bytes into p. At the end of the last member it returns io.EOF.
func (d *Reader) Read(p []byte) (int, error) {
	for d.rp == d.op {
		if d.err != nil {
			return 0, d.err
		}
		d.step()
	}
	n := copy(p, d.out[d.rp:d.op])
	d.rp += n
	return n, nil
}

// Close releases nothing (the Reader holds no resources besides memory); it does not close src.
func (d *Reader) Close() error { return nil }

// step decodes some more (when everything decoded was read), or sets d.err.
func (d *Reader) step() {
	if d.op >= windowSize+outChunk/2 {
		// Keep the last window's bytes for the matches to come.
		copy(d.out[:], d.out[d.op-windowSize:d.op])
		d.op, d.rp = windowSize, windowSize
	}
	start := d.op
	var err error
	switch d.state {
	case stateHeader:
		err = d.header()
	case stateBlock:
		err = d.blockHeader()
	case stateStored:
		err = d.storedBytes()
	case stateHuffman:
		err = d.huffman()
	}
	if d.op > start {
		d.crc = crc32.Update(d.crc, crc32.IEEETable, d.out[start:d.op])
		d.size += uint32(d.op - start)
	}
	if err != nil {
		d.err = err
	}
}

// offset is the input offset of the byte that holds the next bit to decode.
func (d *Reader) offset() int64 {
	return d.inBase + int64(d.ip) + int64(d.pad) - int64((d.nb+7)/8)
}

// corrupt is the error for what input at the current offset is.
func (d *Reader) corrupt(what string) error {
	if d.pad > 0 {
		return d.truncated()
	}
	return fmt.Errorf("inflate: %w at input byte %d: %s", ErrCorrupt, d.offset(), what)
}

func (d *Reader) truncated() error {
	if d.srcErr != nil && d.srcErr != io.EOF {
		return fmt.Errorf("inflate: at input byte %d: %w", d.inBase+int64(len(d.in)), d.srcErr)
	}
	return fmt.Errorf("inflate: input ends at byte %d inside a member: %w", d.inBase+int64(len(d.in)), io.ErrUnexpectedEOF)
}

// fetch moves the unread input to the start of in and reads more from src; false when src has
// nothing more (d.srcErr says why).
func (d *Reader) fetch() bool {
	if d.srcErr != nil {
		return false
	}
	// Keep the 8 bytes before ip: d.bits may hold them still, and alignToByte gives them back.
	if keep := min(d.ip, 8); d.ip > keep {
		n := copy(d.in[:cap(d.in)], d.in[d.ip-keep:])
		d.inBase += int64(d.ip - keep)
		d.in, d.ip = d.in[:n], keep
	}
	for range 100 { // as bufio.Reader gives up on a reader that returns nothing
		if len(d.in) == cap(d.in) {
			return true
		}
		n, err := d.src.Read(d.in[len(d.in):cap(d.in)])
		d.in = d.in[:len(d.in)+n]
		if err != nil {
			d.srcErr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	d.srcErr = io.ErrNoProgress
	return false
}

// readByte reads one byte of input outside the bit stream (headers and trailers: d.nb is 0).
func (d *Reader) readByte() (byte, error) {
	if d.ip == len(d.in) && !d.fetch() {
		return 0, d.truncated()
	}
	b := d.in[d.ip]
	d.ip++
	return b, nil
}

// readFull reads len(p) bytes of input outside the bit stream.
func (d *Reader) readFull(p []byte) error {
	for i := range p {
		b, err := d.readByte()
		if err != nil {
			return err
		}
		p[i] = b
	}
	return nil
}

// refill puts input bits in d.bits until it holds more than 56, zero bytes past the end of the input
// (counted in d.pad).
func (d *Reader) refill() {
	for d.nb <= 56 {
		if d.ip == len(d.in) && !d.fetch() {
			d.pad++
			d.nb += 8
			continue
		}
		d.bits |= uint64(d.in[d.ip]) << d.nb
		d.ip++
		d.nb += 8
	}
}

// take consumes and returns n bits (n <= 32); it reports truncated input when they are past its end.
func (d *Reader) take(n uint) (uint32, error) {
	if d.nb < n {
		d.refill()
	}
	v := uint32(d.bits & (1<<n - 1))
	d.bits >>= n
	d.nb -= n
	if d.nb < uint(8*d.pad) {
		return 0, d.truncated()
	}
	return v, nil
}

// alignToByte drops the bits up to the next byte boundary and gives the whole bytes left in d.bits back
// to the input, so that bytes can be read directly.
func (d *Reader) alignToByte() error {
	d.nb -= d.nb % 8
	if back := int(d.nb/8) - d.pad; back >= 0 {
		d.ip -= back
	} else {
		return d.truncated()
	}
	d.bits, d.nb, d.pad = 0, 0, 0
	return nil
}

// header reads a member's header, or sets io.EOF when the input ends before one (after a member).
func (d *Reader) header() error {
	if d.ip == len(d.in) && !d.fetch() {
		if d.srcErr == io.EOF {
			return io.EOF
		}
		return d.truncated()
	}
	start := d.inBase + int64(d.ip)
	bad := func(what string) error {
		return fmt.Errorf("inflate: %w: gzip header at input byte %d: %s", ErrCorrupt, start, what)
	}
	var h [10]byte
	if err := d.readFull(h[:]); err != nil {
		return err
	}
	if h[0] != 0x1f || h[1] != 0x8b {
		return bad("not gzip")
	}
	if h[2] != 8 {
		return bad(fmt.Sprintf("compression method %d, not 8 (deflate)", h[2]))
	}
	flags := h[3]
	crc := crc32.ChecksumIEEE(h[:])
	if flags&0x04 != 0 { // FEXTRA
		var l [2]byte
		if err := d.readFull(l[:]); err != nil {
			return err
		}
		crc = crc32.Update(crc, crc32.IEEETable, l[:])
		for range binary.LittleEndian.Uint16(l[:]) {
			b, err := d.readByte()
			if err != nil {
				return err
			}
			crc = crc32.Update(crc, crc32.IEEETable, []byte{b})
		}
	}
	for _, flag := range []byte{0x08, 0x10} { // FNAME, FCOMMENT: zero-terminated
		if flags&flag == 0 {
			continue
		}
		for i := 0; ; i++ {
			if i == maxString {
				return bad("file name or comment longer than 512 bytes")
			}
			b, err := d.readByte()
			if err != nil {
				return err
			}
			crc = crc32.Update(crc, crc32.IEEETable, []byte{b})
			if b == 0 {
				break
			}
		}
	}
	if flags&0x02 != 0 { // FHCRC
		var c [2]byte
		if err := d.readFull(c[:]); err != nil {
			return err
		}
		if binary.LittleEndian.Uint16(c[:]) != uint16(crc) {
			return bad("header CRC mismatch")
		}
	}
	// A member's matches reach only into its own output.
	d.op, d.rp = 0, 0
	d.crc, d.size, d.final = 0, 0, false
	d.state = stateBlock
	return nil
}

// trailer checks the member's CRC-32 and length after its last block.
func (d *Reader) trailer() error {
	if err := d.alignToByte(); err != nil {
		return err
	}
	at := d.inBase + int64(d.ip)
	var t [8]byte
	if err := d.readFull(t[:]); err != nil {
		return err
	}
	if crc, size := binary.LittleEndian.Uint32(t[:4]), binary.LittleEndian.Uint32(t[4:]); crc != d.crc || size != d.size {
		return fmt.Errorf("inflate: %w: gzip trailer at input byte %d: CRC-32 %08x, length %d; decoded %08x, %d",
			ErrChecksum, at, crc, size, d.crc, d.size)
	}
	d.state = stateHeader
	return nil
}

// blockHeader reads a block's header and its codes, or the trailer after the last block.
func (d *Reader) blockHeader() error {
	if d.final {
		return d.trailer()
	}
	h, err := d.take(3)
	if err != nil {
		return err
	}
	d.final = h&1 != 0
	switch h >> 1 {
	case 0:
		if err := d.alignToByte(); err != nil {
			return err
		}
		var l [4]byte
		if err := d.readFull(l[:]); err != nil {
			return err
		}
		n, nn := binary.LittleEndian.Uint16(l[:2]), binary.LittleEndian.Uint16(l[2:])
		if n != ^nn {
			return fmt.Errorf("inflate: %w at input byte %d: stored block length %d, its complement %d",
				ErrCorrupt, d.inBase+int64(d.ip)-4, n, nn)
		}
		d.stored, d.state = int(n), stateStored
	case 1:
		if !d.fixed {
			// The fixed codes are no longer than the primary tables' index: no subtables.
			copy(d.lit[:1<<litBits], fixedLit[:])
			copy(d.dist[:1<<distBits], fixedDist[:])
			d.fixed = true
		}
		d.state = stateHuffman
	case 2:
		if err := d.readCodes(); err != nil {
			return err
		}
		d.state = stateHuffman
	default:
		return d.corrupt("block type 3")
	}
	return nil
}

// clenOrder is the order of the code-length code's lengths in a block header (RFC 1951, 3.2.7).
var clenOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// readCodes reads a dynamic block's code lengths and builds its tables.
func (d *Reader) readCodes() error {
	h, err := d.take(14)
	if err != nil {
		return err
	}
	nlit, ndist, nclen := int(h&31)+257, int(h>>5&31)+1, int(h>>10)+4
	if nlit > 286 || ndist > 30 {
		return d.corrupt(fmt.Sprintf("%d literal/length codes and %d distance codes", nlit, ndist))
	}
	var clens [19]uint8
	for _, sym := range clenOrder[:nclen] {
		v, err := d.take(3)
		if err != nil {
			return err
		}
		clens[sym] = uint8(v)
	}
	var clen [1 << clenBits]uint32
	if !build(clen[:], clenBits, clens[:], clenEntry) {
		return d.corrupt("bad code-length code")
	}
	lens := d.lens[:nlit+ndist]
	for i := 0; i < len(lens); {
		if d.nb < maxLength {
			d.refill()
		}
		e := clen[d.bits&(1<<clenBits-1)]
		if e == 0 {
			return d.corrupt("invalid code-length code")
		}
		if _, err := d.take(uint(e & 0xff)); err != nil {
			return err
		}
		sym := e >> valueShift
		if sym < 16 {
			lens[i] = uint8(sym)
			i++
			continue
		}
		var rep uint32
		var v uint8
		switch sym {
		case 16:
			if i == 0 {
				return d.corrupt("repeat of no code length")
			}
			v = lens[i-1]
			rep, err = d.take(2)
			rep += 3
		case 17:
			rep, err = d.take(3)
			rep += 3
		default:
			rep, err = d.take(7)
			rep += 11
		}
		if err != nil {
			return err
		}
		if i+int(rep) > len(lens) {
			return d.corrupt("code lengths repeated past their count")
		}
		for range rep {
			lens[i] = v
			i++
		}
	}
	d.fixed = false
	if !build(d.lit[:], litBits, lens[:nlit], litEntry) {
		return d.corrupt("bad literal/length code")
	}
	if !build(d.dist[:], distBits, lens[nlit:], distEntry) {
		return d.corrupt("bad distance code")
	}
	return nil
}

// storedBytes copies a stored block's bytes, as many as fit.
func (d *Reader) storedBytes() error {
	for d.stored > 0 && d.op < fastLimit {
		if d.ip == len(d.in) && !d.fetch() {
			return d.truncated()
		}
		n := copy(d.out[d.op:min(fastLimit, d.op+d.stored)], d.in[d.ip:])
		d.op += n
		d.ip += n
		d.stored -= n
	}
	if d.stored == 0 {
		d.state = stateBlock
	}
	return nil
}

// huffman decodes a Huffman block's symbols until its end or until the output is full: a fast loop
// while input and output have room for the longest symbols, and slowSymbol near the input's end.
func (d *Reader) huffman() error {
	for d.op < fastLimit {
		if len(d.in)-d.ip < inRefetch {
			d.fetch()
		}
		// fast wants 8 bytes of the member decoded before it (its distance check)
		if n := fastBudget(len(d.in) - d.ip); n > 0 && d.op >= 8 {
			done, err := d.fast(n)
			if err != nil || done {
				return err
			}
			continue
		}
		done, err := d.slowSymbol()
		if err != nil || done {
			return err
		}
	}
	return nil
}

// fastBudget is how many bytes the fast loop may decode when inLeft bytes of input are left after
// d.ip: at 15 bits a byte, the most a byte can take, all of them but inMargin (see inMargin).
// TestFastBudget holds it to that on the stream of 15-bit literals: the loop reads no byte past the
// input, and leaves no more than inMargin and a refill's 8 bytes unread (a bound of more bits a byte
// would hand more of the input's end to slowSymbol; fewer would read past it).
func fastBudget(inLeft int) int { return (inLeft - inMargin) * 8 / 15 }

// Why the fast loop stopped.
const (
	fastRoom    = iota // the output or the input ran short: decode on with huffman's checks
	fastEnd            // the end of the block
	fastBadLit         // an invalid literal/length code
	fastBadDist        // an invalid distance code
	fastFar            // a distance before the member's start
)

// fast decodes symbols until it has decoded n bytes or more (see inMargin), the output is full
// (fastLimit), or the block ends; done at the block's end.
//
// The bit buffer is refilled without a branch: 8 bytes are read and shifted in above the valid bits,
// and the whole bytes that fit are counted, so that it holds at least 56 valid bits after a refill:
// enough for a length and a distance (48 bits at most) or for three literals. The bits above those
// are the next input bits too, so that after at most 48 bits consumed the next entry is looked up
// before the refill, which then overlaps it. Only the low 6 bits of nb count: an entry is subtracted
// from it whole (its low byte is the bits it consumes), and shift counts are masked with 63, so that
// the compiler emits no check for shifts of 64 or more. Every index into d's arrays is masked (see
// outBits): no bounds checks. The loop uses no pointer but d, and keeps what it decodes in locals, so
// that they all stay in registers.
func (d *Reader) fast(n int) (done bool, err error) {
	ip, op := uint(d.ip), uint(d.op)
	bits, nb := d.bits, uint32(d.nb)
	end := min(op+uint(n), fastLimit) // where the output or the input left runs short
	bits |= binary.LittleEndian.Uint64(d.inBuf[ip&inMask:]) << (nb & 63)
	ip += uint(nb&63^63) >> 3
	nb |= 56
	e := d.lit[bits&(1<<litBits-1)]
	why, far := fastRoom, uint(0)
	for op < end {
		if e&kindLiteral != 0 {
			// Up to three literals on one refill (3 × 15 bits), the third's successor looked up in
			// the 19 bits left of the 64. Written out: the same steps as inlined helpers cost 1–2%
			// more instructions (callgrind).
			bits >>= e & 63
			nb -= e
			d.out[op&outMask] = byte(e >> valueShift)
			op++
			e = d.lit[bits&(1<<litBits-1)]
			if e&kindLiteral != 0 {
				bits >>= e & 63
				nb -= e
				d.out[op&outMask] = byte(e >> valueShift)
				op++
				e = d.lit[bits&(1<<litBits-1)]
				if e&kindLiteral != 0 {
					bits >>= e & 63
					nb -= e
					d.out[op&outMask] = byte(e >> valueShift)
					op++
					e = d.lit[bits&(1<<litBits-1)]
					bits |= binary.LittleEndian.Uint64(d.inBuf[ip&inMask:]) << (nb & 63)
					ip += uint(nb&63^63) >> 3
					nb |= 56
					continue
				}
			}
			bits |= binary.LittleEndian.Uint64(d.inBuf[ip&inMask:]) << (nb & 63)
			ip += uint(nb&63^63) >> 3
			nb |= 56
		}
		if e&kindLength == 0 {
			// Rare: a length whose code and extra bits are longer than litBits, a code longer than
			// litBits, the end of the block, or an invalid code.
			if e&kindLink != 0 {
				e = d.lit[(e>>valueShift+uint32(bits>>litBits)&(1<<(e>>8&63)-1))&(litTableSize-1)]
			}
			if e&kindLiteral != 0 {
				bits >>= e & 63
				nb -= e
				d.out[op&outMask] = byte(e >> valueShift)
				op++
				bits |= binary.LittleEndian.Uint64(d.inBuf[ip&inMask:]) << (nb & 63)
				ip += uint(nb&63^63) >> 3
				nb |= 56
				e = d.lit[bits&(1<<litBits-1)]
				continue
			}
			if e&kindBase == 0 {
				why = fastBadLit
				if e != 0 {
					bits >>= e & 63
					nb -= e
					why = fastEnd
				}
				break
			}
			// A length's base: its extra bits decoded into a length entry's value.
			e = e&0xff | (e>>valueShift+uint32(bits&(1<<(e&63)-1))>>(e>>8&63))<<valueShift
		}
		bits >>= e & 63
		nb -= e
		length := uint(e >> valueShift)
		e = d.dist[bits&(1<<distBits-1)]
		if e&kindBase == 0 {
			if e&kindLink != 0 {
				e = d.dist[(e>>valueShift+uint32(bits>>distBits)&(1<<(e>>8&63)-1))&(distTableSize-1)]
			}
			if e&kindBase == 0 {
				why = fastBadDist
				break
			}
		}
		saved := bits
		bits >>= e & 63
		nb -= e
		// saved's low bits that the entry takes: saved ^ bits<<them, as bits is saved>>them.
		distance := uint(e>>valueShift) + uint(saved^bits<<(e&63))>>(e>>8&63)
		e = d.lit[bits&(1<<litBits-1)] // in the 16 bits or more left of the 64
		bits |= binary.LittleEndian.Uint64(d.inBuf[ip&inMask:]) << (nb & 63)
		ip += uint(nb&63^63) >> 3
		nb |= 56
		src := op - distance
		// One unsigned comparison for 8 <= distance <= op, as op is 8 or more (see huffman): a
		// distance beyond op wraps src around to above op-8. Shorter distances, and those that
		// reach before the member's start, go the rare way.
		if src <= op-8 {
			// 8 bytes at a time, the first 16 always (most matches are short); each 8 bytes read lie
			// before what is written, even when the match overlaps itself. Up to 15 bytes are written
			// past the match: outSlop leaves room for them.
			// (Array assignments rather than binary.LittleEndian: a load and a store, without the
			// no-op instructions the compiler leaves where it inlines a call.)
			to, from := (*[16]byte)(d.out[op&outMask:]), (*[16]byte)(d.out[src&outMask:])
			*(*[8]byte)(to[:]) = *(*[8]byte)(from[:])
			*(*[8]byte)(to[8:]) = *(*[8]byte)(from[8:])
			if length > 16 {
				for k := uint(16); k < length; k += 8 {
					*(*[8]byte)(d.out[(op+k)&outMask:]) = *(*[8]byte)(d.out[(src+k)&outMask:])
				}
			}
		} else {
			if distance > op {
				why, far = fastFar, distance
				break
			}
			copyShort(&d.out, op, src, length)
		}
		op += length
	}
	d.ip, d.op, d.bits, d.nb = int(ip), int(op), bits, uint(nb&63)
	switch why {
	case fastEnd:
		d.state = stateBlock
		return true, nil
	case fastBadLit:
		return false, d.corrupt("invalid literal/length code")
	case fastBadDist:
		return false, d.corrupt("invalid distance code")
	case fastFar:
		return false, d.corrupt(fmt.Sprintf("distance %d reaches before the member's start (%d bytes back)", far, op))
	}
	return false, nil
}

// copyMatch copies length bytes from distance back to out[op:] and returns the new op, as fast does.
func copyMatch(out *[outSize + outPad]byte, op, distance, length int) int {
	src := op - distance
	if distance >= 8 {
		for k := 0; k < length; k += 8 {
			binary.LittleEndian.PutUint64(out[(op+k)&outMask:], binary.LittleEndian.Uint64(out[(src+k)&outMask:]))
		}
		return op + length
	}
	copyShort(out, uint(op), uint(src), uint(length))
	return op + length
}

// copyShort copies a match that overlaps its own first 8 bytes: a run of one byte as 8-byte words,
// others byte by byte.
func copyShort(out *[outSize + outPad]byte, op, src, length uint) {
	if op-src == 1 {
		v := uint64(out[src&outMask]) * 0x0101010101010101
		for k := uint(0); k < length; k += 8 {
			binary.LittleEndian.PutUint64(out[(op+k)&outMask:], v)
		}
		return
	}
	for k := range length {
		out[(op+k)&outMask] = out[(src+k)&outMask]
	}
}

// slowSymbol decodes one symbol with every check, for the end of the input; done at the block's end.
func (d *Reader) slowSymbol() (done bool, err error) {
	d.refill()
	e := lookup(d.lit[:], litBits, d.bits)
	switch {
	case e&kindLiteral != 0:
		if _, err := d.take(uint(e & 0xff)); err != nil {
			return false, err
		}
		d.out[d.op&outMask] = byte(e >> valueShift)
		d.op++
		return false, nil
	case e&(kindLength|kindBase) != 0:
		// a length entry's extra bits start after 32 bits: none
	case e != 0:
		if _, err := d.take(uint(e & 0xff)); err != nil {
			return false, err
		}
		d.state = stateBlock
		return true, nil
	default:
		return false, d.corrupt("invalid literal/length code")
	}
	v, err := d.take(uint(e & 0xff))
	if err != nil {
		return false, err
	}
	length := int(e>>valueShift) + int(v>>(e>>8&63))
	d.refill()
	e = lookup(d.dist[:], distBits, d.bits)
	if e&kindBase == 0 {
		return false, d.corrupt("invalid distance code")
	}
	v, err = d.take(uint(e & 0xff))
	if err != nil {
		return false, err
	}
	distance := int(e>>valueShift) + int(v>>(e>>8&63))
	if distance > d.op {
		return false, d.corrupt(fmt.Sprintf("distance %d reaches before the member's start (%d bytes back)", distance, d.op))
	}
	d.op = copyMatch(&d.out, d.op, distance, length)
	return false, nil
}

// lookup decodes the next symbol of bits with table (a power of two in size), as the fast loop does:
// the primary entry, and the subtable's when the primary entry is a link.
func lookup(table []uint32, pbits uint, bits uint64) uint32 {
	e := table[bits&(1<<pbits-1)]
	if e&kindLink != 0 {
		e = table[(e>>valueShift+uint32(bits>>pbits)&(1<<(e>>8&63)-1))&uint32(len(table)-1)]
	}
	return e
}
