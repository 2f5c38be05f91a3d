package rules

// Key is the identity of a position in the sense of FIDE 9.2.3: two
// positions are the same position iff their keys are equal. It holds the
// placement of every piece (kind and colour), the side to move, the
// castling rights still held, by rook (only rights the position can have:
// losing the right of one rook of two changes the identity), and the
// en passant file only when an en passant capture is legal. Clocks and move
// numbers are not part of it. It is exact, not a hash: compare keys with ==
// or use them as map keys.
type Key struct {
	// planes encode the piece on every square in four bitboards: bits 0-2 of
	// the piece type in planes 0-2, and White in plane 3.
	planes [4]uint64
	// meta is the side to move (bit 0), the castling rights by rook (bits
	// 1-16, see castlingRightOf) and the en passant file plus one (bits
	// 17-20; 0 when there is none).
	meta uint32
}

const (
	keyCastleShift = 1
	keyEPShift     = 17
	keyEPMask      = 15 << keyEPShift
)

// Key returns the identity of the position.
func (p *Position) Key() Key {
	var k Key
	p.fillKey(&k)
	return k
}

// fillKey writes the Key of the position to k.
func (p *Position) fillKey(k *Key) {
	t := &p.byType
	k.planes = [4]uint64{t[Pawn] | t[Bishop] | t[Queen], t[Knight] | t[Bishop] | t[King], t[Rook] | t[Queen] | t[King], p.byColor[White]}
	k.meta = p.meta
}

// computeMeta returns the meta word of the Key from the side to move, the
// castling rights and the e.p. square: what Position keeps in meta.
func (p *Position) computeMeta() uint32 {
	return uint32(p.turn) | uint32(p.castle)<<keyCastleShift | keyEPBits[uint8(p.ep+1)]
}

// keyEPBits is the e.p. part of a Key's meta by e.p. square plus one: the
// file plus one, or 0 for NoSquare.
var keyEPBits = func() (t [256]uint32) {
	for s := 0; s < 64; s++ {
		t[s+1] = uint32(s&7+1) << keyEPShift
	}
	return t
}()

// Turn returns the side to move of the keyed position.
func (k Key) Turn() Color { return Color(k.meta & 1) }

// String returns a readable form of the key: the FEN fields that make up
// the identity (placement, side, castling in X-FEN, e.p.), without the
// clocks.
func (k Key) String() string {
	var p Position
	for s := Square(0); s < 64; s++ {
		b := s.bb()
		t := PieceType(0)
		for i := 0; i < 3; i++ {
			if k.planes[i]&b != 0 {
				t |= 1 << i
			}
		}
		if t == NoPieceType {
			continue
		}
		c := Black
		if k.planes[3]&b != 0 {
			c = White
		}
		p.put(s, NewPiece(c, t))
	}
	p.turn = k.Turn()
	p.castle = uint16(k.meta >> keyCastleShift)
	p.ep = NoSquare
	if f := int(k.meta>>keyEPShift) & 15; f != 0 {
		r := 5
		if p.turn == Black {
			r = 2
		}
		p.ep = NewSquare(f-1, r)
	}
	p.meta = k.meta
	return string(p.appendFEN(make([]byte, 0, 96), false, false))
}

// Zobrist numbers. The hash of a position is a function of its Key only,
// so equal keys have equal hashes; the tracker compares hashes first and
// keys to confirm.
var (
	zobPiece  [16][64]uint64
	zobCastle [2][256]uint64 // by colour, the hash of that colour's rights by file
	zobEP     [8]uint64
	zobTurn   uint64
)

func initZobrist() {
	rng := xorshift(0x2545f4914f6cdd1d)
	for pc := range zobPiece {
		for s := range zobPiece[pc] {
			zobPiece[pc][s] = rng.next()
		}
	}
	for c := range zobCastle {
		var single [8]uint64
		for i := range single {
			single[i] = rng.next()
		}
		for mask := range zobCastle[c] {
			for i := range single {
				if mask&(1<<i) != 0 {
					zobCastle[c][mask] ^= single[i]
				}
			}
		}
	}
	for i := range zobEP {
		zobEP[i] = rng.next()
	}
	zobTurn = rng.next()
}

// castlingHash returns the hash of the castling rights; it is the XOR of
// the hashes of the single rights, so the hash of the rights lost turns
// the old hash into the new one.
func castlingHash(rights uint16) uint64 {
	return zobCastle[White][uint8(rights)] ^ zobCastle[Black][rights>>8]
}

// Hash returns a 64-bit Zobrist hash of the position's Key. Different
// positions may share a hash; equal positions always do.
func (p *Position) Hash() uint64 { return p.hash }

func (p *Position) computeHash() uint64 {
	var h uint64
	for s := Square(0); s < 64; s++ {
		if pc := p.board[s]; pc != NoPiece {
			h ^= zobPiece[pc][s]
		}
	}
	h ^= castlingHash(p.castle)
	if p.ep != NoSquare {
		h ^= zobEP[p.ep.File()]
	}
	if p.turn == Black {
		h ^= zobTurn
	}
	return h
}
