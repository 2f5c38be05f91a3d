package rules

import "math/bits"

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
	rookTable    []uint64
	bishopTable  []uint64
)

type magic struct {
	mask    uint64
	number  uint64
	attacks []uint64 // this square's part of the table, by index
	shift   uint8
	offset  uint32 // of attacks in the table
}

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
	rookTable = initMagics(&rookMagics, rookDirs, &rookMagicNumbers, &rng)
	bishopTable = initMagics(&bishopMagics, bishopDirs, &bishopMagicNumbers, &rng)
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

// rayAttacks is slowSliderAttacks from the rays of sliderRays: each ray
// cut behind its first occupied square. It fills the magic tables.
func rayAttacks(s int, occ uint64, rays *[4][64]uint64, up [4]bool) uint64 {
	var att uint64
	for d := range rays {
		r := rays[d][s&63]
		if b := r & occ; b != 0 {
			first := bits.TrailingZeros64(b)
			if !up[d] {
				first = 63 - bits.LeadingZeros64(b)
			}
			r &^= rays[d][first&63]
		}
		att |= r
	}
	return att
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

func initMagics(ms *[64]magic, dirs [4][2]int, known *[64]uint64, rng *xorshift) []uint64 {
	var table []uint64
	occs := make([]uint64, 4096)
	refs := make([]uint64, 4096)
	used := make([]int, 4096)
	rays, up := sliderRays(dirs)
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		edges := ((rank1 | rank8) &^ (rank1 << uint(8*r))) | ((fileA | fileH) &^ (fileA << uint(f)))
		m := &ms[s]
		m.mask = slowSliderAttacks(s, 0, dirs) &^ edges
		n := bits.OnesCount64(m.mask)
		m.shift = uint8(64 - n)
		size := 1 << uint(n)
		// Enumerate every subset of the mask (Carry-Rippler).
		var sub uint64
		for i := 0; i < size; i++ {
			occs[i] = sub
			refs[i] = rayAttacks(s, sub, &rays, up)
			sub = (sub - m.mask) & m.mask
		}
		m.offset = uint32(len(table))
		table = append(table, make([]uint64, size)...)
		attempt := 0
		for {
			attempt++
			num := known[s]
			if attempt > 1 || num == 0 {
				num = rng.sparse()
				if bits.OnesCount64((m.mask*num)>>56) < 6 {
					continue
				}
			}
			ok := true
			for i := 0; i < size; i++ {
				idx := (occs[i] * num) >> m.shift
				if used[idx] == attempt && table[int(m.offset)+int(idx)] != refs[i] {
					ok = false
					break
				}
				used[idx] = attempt
				table[int(m.offset)+int(idx)] = refs[i]
			}
			if ok {
				m.number = num
				break
			}
		}
		for i := range used[:size] {
			used[i] = 0
		}
	}
	// Each square's part of the table, now that the table has stopped
	// growing: a lookup then needs no offset.
	for s := range ms {
		m := &ms[s]
		m.attacks = table[m.offset : int(m.offset)+1<<(64-m.shift)]
	}
	return table
}

func rookAttacks(s Square, occ uint64) uint64 {
	m := &rookMagics[s]
	return m.attacks[((occ&m.mask)*m.number)>>(m.shift&63)]
}

func bishopAttacks(s Square, occ uint64) uint64 {
	m := &bishopMagics[s]
	return m.attacks[((occ&m.mask)*m.number)>>(m.shift&63)]
}

func lsb(b uint64) Square { return Square(bits.TrailingZeros64(b)) }
