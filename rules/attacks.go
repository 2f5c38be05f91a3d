package rules

import (
	"math/bits"
	"slices"
	"strconv"
)

// Attack tables. Sliding pieces use "fancy" magic bitboards. The magic
// numbers in magics.go were found by the search in initMagics (run
// `THREEFOLD_GEN_MAGICS=1 go test -run TestGenerateMagics ./rules` to
// write them again); at start-up each is verified while its table is
// filled, and searched again only if it does not fit, so start-up costs
// one pass over the tables.

var (
	knightAttacks [64]uint64
	kingAttacks   [64]uint64
	pawnAttacks   [2][64]uint64 // pawnAttacks[c][s]: squares a pawn of colour c on s attacks
	between       [64][64]uint64
	// line[a][b] is the whole line (rank, file or diagonal, edge to edge)
	// through a and b when they are on one, else 0.
	line [64][64]uint64

	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [rookTableSize + maxMagicPart]uint64
	bishopTable  [bishopTableSize + maxMagicPart]uint64
)

type magic struct {
	mask    uint64
	number  uint64
	attacks *[maxMagicPart]uint64 // this square's part of the table, by index (the rest is the next squares')
	shift   uint8
}

// maxMagicPart bounds the part of a table one square has (a rook's, 12
// squares of occupancy): a lookup's index, masked with maxMagicPart-1,
// needs no bounds check, and the tables have that many spare entries at
// their end so that the last square's part is as long as any.
const maxMagicPart = 1 << 12

const (
	fileA uint64 = 0x0101010101010101
	fileH uint64 = fileA << 7
	rank1 uint64 = 0xff
	rank8 uint64 = rank1 << 56
)

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// initAttackTables fills the attack tables (see init in position.go).
func initAttackTables() {
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			knightAttacks[s] |= squareBB(f+d[0], r+d[1])
		}
		for _, d := range [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}} {
			kingAttacks[s] |= squareBB(f+d[0], r+d[1])
		}
		pawnAttacks[White][s] = squareBB(f-1, r+1) | squareBB(f+1, r+1)
		pawnAttacks[Black][s] = squareBB(f-1, r-1) | squareBB(f+1, r-1)
	}
	for a := 0; a < 64; a++ {
		for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
			for _, d := range dirs {
				var ray uint64
				f, r := a&7+d[0], a>>3+d[1]
				for f >= 0 && f < 8 && r >= 0 && r < 8 {
					b := r*8 + f
					between[a][b] = ray
					ray |= 1 << uint(b)
					f, r = f+d[0], r+d[1]
				}
			}
		}
	}
	for a := 0; a < 64; a++ {
		for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
			fromA := slowSliderAttacks(a, 0, dirs)
			for b := 0; b < 64; b++ {
				if fromA&(1<<uint(b)) != 0 {
					line[a][b] = fromA&slowSliderAttacks(b, 0, dirs) | 1<<uint(a) | 1<<uint(b)
				}
			}
		}
	}
	rng := xorshift(0x9e3779b97f4a7c15)
	initMagics(&rookMagics, rookDirs, &rookMagicNumbers, &rng, rookTable[:])
	initMagics(&bishopMagics, bishopDirs, &bishopMagicNumbers, &rng, bishopTable[:])
}

func squareBB(f, r int) uint64 {
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return 0
	}
	return 1 << uint(r*8+f)
}

// slowSliderAttacks walks the rays; it is the reference the magic tables
// are built from.
func slowSliderAttacks(s int, occ uint64, dirs [4][2]int) uint64 {
	var att uint64
	for _, d := range dirs {
		f, r := s&7+d[0], s>>3+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			b := uint64(1) << uint(r*8+f)
			att |= b
			if occ&b != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

// sliderRays returns, for each direction of dirs, the squares a slider on
// each square reaches in that direction on an empty board, and whether the
// direction goes up the square numbers.
func sliderRays(dirs [4][2]int) (rays [4][64]uint64, up [4]bool) {
	for d, dir := range dirs {
		up[d] = dir[1]*8+dir[0] > 0
		one := [4][2]int{dir, dir, dir, dir}
		for s := 0; s < 64; s++ {
			rays[d][s] = slowSliderAttacks(s, 0, one)
		}
	}
	return rays, up
}

type xorshift uint64

func (x *xorshift) next() uint64 {
	v := uint64(*x)
	v ^= v >> 12
	v ^= v << 25
	v ^= v >> 27
	*x = xorshift(v)
	return v * 2685821657736338717
}

func (x *xorshift) sparse() uint64 { return x.next() & x.next() & x.next() }

// Sizes of the sliding-piece tables: over the squares, the sum of 2 to the
// number of squares whose occupancy matters (initMagics checks them).
const (
	rookTableSize   = 102400
	bishopTableSize = 5248
)

// initMagics fills the table of the sliders that move along dirs, each
// square's part with the number of known when it fits (no two
// occupancies with different attacks share an index), else with one
// found by a search from rng.
func initMagics(ms *[64]magic, dirs [4][2]int, known *[64]uint64, rng *xorshift, table []uint64) {
	rays, up := sliderRays(dirs)
	var subs sliderSubsets
	offset := 0
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		edges := ((rank1 | rank8) &^ (rank1 << uint(8*r))) | ((fileA | fileH) &^ (fileA << uint(f)))
		m := &ms[s]
		m.mask = slowSliderAttacks(s, 0, dirs) &^ edges
		n := bits.OnesCount64(m.mask)
		m.shift = uint8(64 - n)
		part := table[offset : offset+1<<n : offset+1<<n]
		m.attacks = (*[maxMagicPart]uint64)(table[offset:])
		offset += 1 << n
		subs.init(s, m.mask, &rays, up)
		num := known[s]
		for num == 0 || !subs.fill(part, num, m.shift) {
			clear(part)
			if num = rng.sparse(); bits.OnesCount64((m.mask*num)>>56) < 6 {
				num = 0
			}
		}
		m.number = num
	}
	if offset+maxMagicPart != len(table) {
		panic("rules: the slider table has " + strconv.Itoa(len(table)) + " entries, the squares need " + strconv.Itoa(offset) + " and the spare ones")
	}
}

// sliderSubsets are, for one square and each of its four directions,
// every occupancy of the squares that matter on that ray with the attacks
// along it. A slider's attacks on the board are the union of its attacks
// along each ray, and each of those depends only on the occupancy of that
// ray, so the attacks of an occupancy of the whole mask are four lookups
// ORed, not a walk.
type sliderSubsets [4]raySubsets

// raySubsets are the occupancies of one ray and the attacks along it.
type raySubsets struct {
	n        int
	occ, att [64]uint64 // at most 6 squares matter on a ray
}

// init fills q for a slider on s whose squares that matter are mask.
func (q *sliderSubsets) init(s int, mask uint64, rays *[4][64]uint64, up [4]bool) {
	for d := range q {
		ray := rays[d][s]
		rm := ray & mask
		q[d].n = 0
		for o := uint64(0); ; {
			att := ray
			if o != 0 {
				first := bits.TrailingZeros64(o)
				if !up[d] {
					first = 63 - bits.LeadingZeros64(o)
				}
				att &^= rays[d][first]
			}
			q[d].occ[q[d].n], q[d].att[q[d].n] = o, att
			q[d].n++
			if o = (o - rm) & rm; o == 0 {
				break
			}
		}
	}
	// The longest rays innermost in fill: fewer loops around fewer entries.
	slices.SortFunc(q[:], func(a, b raySubsets) int { return a.n - b.n })
}

// fill writes the attacks of every occupancy of the mask to part, at the
// index the magic number num gives, and reports whether num fits: no
// index is given two different attacks (an entry of 0 is free: a slider
// always attacks some square).
func (q *sliderSubsets) fill(part []uint64, num uint64, shift uint8) bool {
	d0, d1, d2, d3 := &q[0], &q[1], &q[2], &q[3]
	for i0 := range d0.n {
		o0, a0 := d0.occ[i0], d0.att[i0]
		for i1 := range d1.n {
			o1, a1 := o0|d1.occ[i1], a0|d1.att[i1]
			for i2 := range d2.n {
				o2, a2 := o1|d2.occ[i2], a1|d2.att[i2]
				for i3, o3 := range d3.occ[:d3.n] {
					att := a2 | d3.att[i3]
					e := &part[((o2|o3)*num)>>(shift&63)]
					if *e != 0 && *e != att {
						return false
					}
					*e = att
				}
			}
		}
	}
	return true
}

func rookAttacks(s Square, occ uint64) uint64 {
	m := &rookMagics[s]
	return m.attacks[((occ&m.mask)*m.number)>>(m.shift&63)&(maxMagicPart-1)]
}

func bishopAttacks(s Square, occ uint64) uint64 {
	m := &bishopMagics[s]
	return m.attacks[((occ&m.mask)*m.number)>>(m.shift&63)&(maxMagicPart-1)]
}

func lsb(b uint64) Square { return Square(bits.TrailingZeros64(b)) }
