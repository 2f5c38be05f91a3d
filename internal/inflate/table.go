package inflate

import "math/bits"

// A decoding table maps the next bits of the input (least significant bit first, as DEFLATE packs its
// codes) to an entry that says everything needed to decode one symbol with one lookup:
//
//	bits  0–7   the bits the symbol takes from the input: its code's length, plus for a base its extra
//	            bits (for a link: the primary table's index bits)
//	bits  8–12  for a base, the code's length (where its extra bits start); for a link, the subtable's
//	            index bits
//	bits 13–16  the kind: length, literal, base (a length or a distance), link; an entry with none of
//	            them is the end of the block, or an invalid code when it is 0
//	bits 17–31  the value: the literal byte, the length, the length or distance base, the subtable's
//	            offset
//
// The fast loop consumes an entry's bits with the entry itself: it shifts by it (masked with 63) and
// subtracts it whole from its bit count, of which only the low 6 bits count.
//
// A length entry is a length decoded whole, its extra bits with it: the primary literal/length table
// has one for each value of the extra bits when the code and they fit its index bits (the corpus's
// lengths do 98% of the time), so that a match's length is the entry's value, with no arithmetic. A
// length whose code and extra bits are longer than that is a base, as a distance is. (Bits 8–13 of a
// length entry read 32, "extra bits after 32 bits": the base's formula gives it no extra bits too.)
//
// Codes longer than the primary table's index are looked up in a subtable, found through the link entry
// at their first bits, indexed by the bits after those (a code is still consumed whole: its entry
// in the subtable holds its full length).
const (
	kindLength  = 1 << 13
	kindLiteral = 1 << 14
	kindBase    = 2 << 14
	kindLink    = 4 << 14
	valueShift  = 17

	litBits   = 11 // the primary literal/length table's index bits
	distBits  = 8  // the primary distance table's index bits
	clenBits  = 7  // the code-length code's longest code: no subtables
	maxLength = 15 // the longest code DEFLATE allows

	// Table sizes, powers of two so that an index masked with size-1 needs no bounds check. The
	// literal/length table holds 2^11 primary entries and at most 286 subtables of 2^(15-11); the
	// distance table 2^8 and at most 30 of 2^(15-8).
	litTableSize  = 1 << 13
	distTableSize = 1 << 12
)

// The bases and extra bits of the length symbols 257–285 and of the distance symbols 0–29 (RFC 1951, 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
)

// litEntry is the entry of literal/length symbol sym without its code length (a base's low byte holds
// its extra bits); false for 286 and 287, which only the fixed code has and no stream may use. A
// length is a base marked kindLength too: build makes it length entries where it fits the primary
// table, a base elsewhere.
func litEntry(sym int) (uint32, bool) {
	switch {
	case sym < 256:
		return kindLiteral | uint32(sym)<<valueShift, true
	case sym == 256:
		return 0, true // the end of the block
	case sym < 286:
		i := sym - 257
		return kindLength | kindBase | uint32(lengthExtra[i]) | uint32(lengthBase[i])<<valueShift, true
	}
	return 0, false
}

// distEntry is the entry of distance symbol sym without its code length; false for 30 and 31.
func distEntry(sym int) (uint32, bool) {
	if sym >= 30 {
		return 0, false
	}
	extra := 0
	if sym >= 4 {
		extra = sym/2 - 1
	}
	return kindBase | uint32(extra) | uint32(distBase[sym])<<valueShift, true
}

// clenEntry is the entry of code-length symbol sym (0–18): the symbol as a value.
func clenEntry(sym int) (uint32, bool) { return kindLiteral | uint32(sym)<<valueShift, true }

// build fills table with the canonical Huffman code whose code lengths are lengths (0: the symbol is
// not used), pbits index bits in the primary table. It reports false for a code that is over-subscribed,
// or incomplete other than the two cases DEFLATE decoders accept: no code at all (a block of literals
// only has no distance code) and a single code of one bit. Entries no code reaches are left 0, invalid.
func build(table []uint32, pbits uint, lengths []uint8, entry func(sym int) (uint32, bool)) bool {
	var count [maxLength + 1]int
	for _, l := range lengths {
		count[l&maxLength]++ // lengths are 0–15
	}
	count[0] = 0
	maxLen, left := 0, 1
	for l := 1; l <= maxLength; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return false // over-subscribed
		}
		if count[l] > 0 {
			maxLen = l
		}
	}
	if left != 0 {
		if maxLen > 1 || count[1] > 1 {
			return false // incomplete: left codes of 15 bits are unused
		}
		if maxLen == 0 {
			clear(table[:1<<pbits])
			return true
		}
	}
	// The symbols by code length, in symbol order within a length: the order of their canonical codes
	// (RFC 1951, 3.2.2), consecutive numbers within a length.
	var next [maxLength + 1]int
	for l := 2; l <= maxLen; l++ {
		next[l] = next[l-1] + count[l-1]
	}
	var sorted [288]uint16
	for sym, l := range lengths {
		if l != 0 {
			sorted[next[l&maxLength]] = uint16(sym)
			next[l&maxLength]++
		}
	}
	subBits := uint(0)
	if uint(maxLen) > pbits {
		subBits = uint(maxLen) - pbits
	}
	free := 1 << pbits // where the next subtable goes
	// The lengths with extra bits that fit the primary table, at their code's first entry: made
	// length entries, one for each value of the extra bits, once the primary table is filled.
	var whole [29]uint32
	nwhole := 0
	// The primary table is filled by doubling: when the codes up to length l-1 are in its first
	// 2^(l-1) entries, those are copied after themselves (a code of length l-1 recurs every 2^(l-1)
	// entries), then the codes of length l are put in. Every primary entry is written (an invalid one
	// 0), stale links of the last block's code too.
	clear(table[:2])
	code, i, filled := 0, 0, 2
	for l := 1; l <= maxLen; l, code = l+1, code<<1 {
		for filled < 1<<min(uint(l), pbits) {
			copy(table[filled:], table[:filled])
			filled *= 2
		}
		for range count[l] {
			sym := int(sorted[i])
			i++
			rev := int(bits.Reverse16(uint16(code)) >> (16 - l))
			code++
			e, ok := entry(sym)
			if ok {
				e += uint32(l) // a base's extra bits become the bits it takes in all
				switch {
				case e&kindLength != 0 && uint(e&0xff) <= pbits:
					e &^= kindBase
					if e&0xff != uint32(l) {
						whole[nwhole] = uint32(rev) | uint32(l)<<16
						nwhole++
					}
				case e&kindBase != 0:
					e = e&^kindLength | uint32(l)<<8
				}
			}
			if uint(l) <= pbits {
				table[rev] = e
				continue
			}
			prefix := rev & (1<<pbits - 1)
			link := table[prefix]
			if link&kindLink == 0 {
				link = kindLink | uint32(free)<<valueShift | uint32(subBits)<<8 | uint32(pbits)
				table[prefix] = link
				clear(table[free : free+1<<subBits])
				free += 1 << subBits
			}
			off := int(link >> valueShift)
			for j := rev >> pbits; j < 1<<subBits; j += 1 << (uint(l) - pbits) {
				table[off+j] = e
			}
		}
	}
	for filled < 1<<pbits {
		copy(table[filled:], table[:filled])
		filled *= 2
	}
	for _, w := range whole[:nwhole] {
		first, l := w&0xffff, w>>16
		e := table[first]
		base, extra := e>>valueShift, e&0xff-l
		for i := first; i < 1<<pbits; i += 1 << l {
			table[i] = e&0xff | kindLength | (base+i>>l&(1<<extra-1))<<valueShift
		}
	}
	return true
}

// The fixed codes of RFC 1951, 3.2.6, built once: the primary tables only (no fixed code is longer
// than their index bits), which a Reader copies into its own.
var fixedLit, fixedDist = buildFixed()

func buildFixed() (*[1 << litBits]uint32, *[1 << distBits]uint32) {
	var lens [288]uint8
	for i := range lens {
		switch {
		case i < 144:
			lens[i] = 8
		case i < 256:
			lens[i] = 9
		case i < 280:
			lens[i] = 7
		default:
			lens[i] = 8
		}
	}
	lit, dist := new([1 << litBits]uint32), new([1 << distBits]uint32)
	var dlens [32]uint8
	for i := range dlens {
		dlens[i] = 5
	}
	if !build(lit[:], litBits, lens[:], litEntry) || !build(dist[:], distBits, dlens[:], distEntry) {
		panic("inflate: the fixed codes do not build")
	}
	return lit, dist
}
