package inflate

// A decoding table maps the next bits of the input (least significant bit first, as DEFLATE packs its
// codes) to an entry that says everything needed to decode one symbol with one lookup:
//
//	bits  0–7   the code's length in bits (for a link to a subtable: the primary table's index bits)
//	bits  8–12  for a base, the code's length plus its extra bits (all a length or distance takes from the
//	            input); for a link, the subtable's index bits
//	bits 13–16  the kind: literal, base (a length or a distance), end of block, link; 0 is an invalid code
//	bits 17–31  the value: the literal byte, the length or distance base, the subtable's offset
//
// Codes longer than the primary table's index are looked up in a subtable, found through the link entry
// at their first bits, indexed by the bits after those (a code is still consumed whole: its entry
// in the subtable holds its full length).
const (
	kindLiteral = 1 << 13
	kindBase    = 2 << 13
	kindEnd     = 4 << 13
	kindLink    = 8 << 13
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

// litEntry is the entry of literal/length symbol sym without its code length; 0 for 286 and 287,
// which only the fixed code has and no stream may use.
func litEntry(sym int) uint32 {
	switch {
	case sym < 256:
		return kindLiteral | uint32(sym)<<valueShift
	case sym == 256:
		return kindEnd
	case sym < 286:
		i := sym - 257
		return kindBase | uint32(lengthExtra[i])<<8 | uint32(lengthBase[i])<<valueShift
	}
	return 0
}

// distEntry is the entry of distance symbol sym without its code length; 0 for 30 and 31.
func distEntry(sym int) uint32 {
	if sym >= 30 {
		return 0
	}
	extra := 0
	if sym >= 4 {
		extra = sym/2 - 1
	}
	return kindBase | uint32(extra)<<8 | uint32(distBase[sym])<<valueShift
}

// clenEntry is the entry of code-length symbol sym (0–18): the symbol as a value.
func clenEntry(sym int) uint32 { return kindLiteral | uint32(sym)<<valueShift }

// build fills table with the canonical Huffman code whose code lengths are lengths (0: the symbol is
// not used), pbits index bits in the primary table. It reports false for a code that is over-subscribed,
// or incomplete other than the two cases DEFLATE decoders accept: no code at all (a block of literals
// only has no distance code) and a single code of one bit. Entries no code reaches are left 0, invalid.
func build(table []uint32, pbits uint, lengths []uint8, entry func(sym int) uint32) bool {
	var count [maxLength + 1]int
	for _, l := range lengths {
		count[l]++
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
	clear(table[:1<<pbits])
	if maxLen == 0 {
		return true
	}
	if left != 0 && !(maxLen == 1 && count[1] == 1) {
		return false // incomplete: left codes of 15 bits are unused
	}
	var next [maxLength + 1]int
	code := 0
	for l := 1; l <= maxLength; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	subBits := uint(0)
	if uint(maxLen) > pbits {
		subBits = uint(maxLen) - pbits
	}
	free := 1 << pbits // where the next subtable goes
	for l := 1; l <= maxLen; l++ {
		if count[l] == 0 {
			continue
		}
		for sym, sl := range lengths {
			if int(sl) != l {
				continue
			}
			rev := reverse(next[l], l)
			next[l]++
			e := entry(sym)
			if e != 0 {
				e |= uint32(l)
			}
			if e&kindBase != 0 {
				e += uint32(l) << 8 // the extra bits' count becomes the bits taken in all
			}
			if uint(l) <= pbits {
				for i := rev; i < 1<<pbits; i += 1 << l {
					table[i] = e
				}
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
			for i := rev >> pbits; i < 1<<subBits; i += 1 << (uint(l) - pbits) {
				table[off+i] = e
			}
		}
	}
	return true
}

// reverse reverses the n low bits of code: DEFLATE sends a Huffman code's most significant bit first
// into a stream read from the least significant bit.
func reverse(code, n int) int {
	r := 0
	for range n {
		r = r<<1 | code&1
		code >>= 1
	}
	return r
}

// The fixed codes of RFC 1951, 3.2.6, built once.
var fixedLit, fixedDist = buildFixed()

func buildFixed() (*[litTableSize]uint32, *[distTableSize]uint32) {
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
	lit, dist := new([litTableSize]uint32), new([distTableSize]uint32)
	var dlens [32]uint8
	for i := range dlens {
		dlens[i] = 5
	}
	if !build(lit[:], litBits, lens[:], litEntry) || !build(dist[:], distBits, dlens[:], distEntry) {
		panic("inflate: the fixed codes do not build")
	}
	return lit, dist
}
