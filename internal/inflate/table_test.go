package inflate

import "testing"

// skewed is a complete code over n symbols with lengths 1, 2, ..., n-2, n-1, n-1 (a code that
// reaches maxLength when n is 16).
func skewed(n int) []uint8 {
	lens := make([]uint8, n)
	for i := range n - 1 {
		lens[i] = uint8(i + 1)
	}
	lens[n-1] = uint8(n - 1)
	return lens
}

func TestBuildDecodesEveryCode(t *testing.T) {
	fixedLens := make([]uint8, 288)
	for i := range fixedLens {
		fixedLens[i] = map[bool]uint8{true: 8, false: 9}[i < 144 || i >= 280]
		if i >= 256 && i < 280 {
			fixedLens[i] = 7
		}
	}
	fives := make([]uint8, 32)
	for i := range fives {
		fives[i] = 5
	}
	// A literal/length code with codes of every length up to 15 (subtables), over symbols spread
	// among literals, the end of block and lengths.
	litSkewed := make([]uint8, 286)
	for i, l := range skewed(16) {
		litSkewed[[]int{'e', ' ', '1', 256, 'N', 257, 'x', 270, 285, 'a', 0, 255, 260, 280, 'Q', 284}[i]] = l
	}
	distSkewed := make([]uint8, 30)
	for i, l := range skewed(16) {
		distSkewed[i*29/15] = l
	}
	single := make([]uint8, 30)
	single[3] = 1
	for _, tc := range []struct {
		name  string
		lens  []uint8
		pbits uint
		size  int
		entry func(int) (uint32, bool)
		// invalid is the number of primary entries no code reaches
		invalid int
		// (The literal/length codes are those whose pbits is litBits: their lengths that fit the
		// primary table are length entries.)
	}{
		// 286 and 287, 30 and 31: codes of no valid symbol, 8 and 5 bits.
		{"fixed literal/length code", fixedLens, litBits, litTableSize, litEntry, 2 << (litBits - 8)},
		{"fixed distance code", fives, distBits, distTableSize, distEntry, 2 << (distBits - 5)},
		{"literal/length codes of 1 to 15 bits", litSkewed, litBits, litTableSize, litEntry, 0},
		{"distance codes of 1 to 15 bits", distSkewed, distBits, distTableSize, distEntry, 0},
		{"one distance code of one bit", single, distBits, distTableSize, distEntry, 1 << (distBits - 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := make([]uint32, tc.size)
			for i := range table {
				table[i] = kindLink | 1<<valueShift // what the last block's code left: links
			}
			if !build(table, tc.pbits, tc.lens, tc.entry) {
				t.Fatal("build refused the code")
			}
			// Entries no code reaches are invalid, whatever the table held.
			invalid := 0
			for i := range 1 << tc.pbits {
				switch e := lookup(table, tc.pbits, uint64(i)); {
				case e == 0:
					invalid++
				case e&kindLink != 0:
					t.Fatalf("primary entry %d: a link to a link", i)
				}
			}
			if invalid != tc.invalid {
				t.Errorf("%d primary entries invalid, want %d", invalid, tc.invalid)
			}
			// Canonical codes (RFC 1951, 3.2.2), checked symbol by symbol with random bits after them.
			var count, next [maxLength + 2]int
			for _, l := range tc.lens {
				count[l]++
			}
			count[0] = 0
			code := 0
			for l := 1; l <= maxLength; l++ {
				code = (code + count[l-1]) << 1
				next[l] = code
			}
			for sym, l := range tc.lens {
				if l == 0 {
					continue
				}
				rev := uint64(reverse(next[l], int(l)))
				next[l]++
				for _, after := range []uint64{0, 0x5a5a5a5a, 1<<40 - 1} {
					e := lookup(table, tc.pbits, rev|after<<l)
					want, ok := tc.entry(sym)
					if !ok {
						if e != 0 {
							t.Errorf("symbol %d: entry %#x, want invalid", sym, e)
						}
						continue
					}
					takes := uint32(l) + want&0xff
					if e&0xff != takes {
						t.Errorf("symbol %d: takes %d bits, want %d", sym, e&0xff, takes)
					}
					if tc.pbits == litBits && sym > 256 && uint(takes) <= tc.pbits {
						// A length that fits the primary table, decoded whole with the bits after its code.
						length := want>>valueShift + uint32(after)&(1<<(want&0xff)-1)
						if e != kindLength|length<<valueShift|takes {
							t.Errorf("symbol %d (code length %d) then %#x: entry %#x, want the length entry of %d", sym, l, after, e, length)
						}
						continue
					}
					if e&^0x3fff != want&^(0x3fff|kindLength) || e&kindLength != 0 {
						t.Errorf("symbol %d (code length %d): entry %#x, want kind and value of %#x", sym, l, e, want)
					}
					if e&kindBase != 0 && e>>8&63 != uint32(l) {
						t.Errorf("symbol %d: extra bits after %d bits, want %d", sym, e>>8&63, l)
					}
				}
			}
		})
	}
}

func TestBuildRefusesBadCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		lens []uint8
		ok   bool
	}{
		{"over-subscribed", []uint8{1, 1, 1}, false},
		{"incomplete", []uint8{1, 2}, false},
		{"two codes of one bit", []uint8{1, 1}, true},
		{"one code of one bit", []uint8{0, 1}, true},
		{"one code of two bits", []uint8{2, 0}, false},
		{"no code at all", []uint8{0, 0, 0}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := make([]uint32, distTableSize)
			if got := build(table, distBits, tc.lens, distEntry); got != tc.ok {
				t.Fatalf("build: %v, want %v", got, tc.ok)
			}
		})
	}
}
