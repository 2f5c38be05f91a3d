package rules

import "fmt"

// Key is the identity of a position in the sense of FIDE 9.2.3: two
// positions are the same position iff their keys are equal. It holds the
// placement of every piece (kind and colour), the side to move, the
// castling rights still held (only rights the position can have), and the
// en passant file only when an en passant capture is legal. Clocks and move
// numbers are not part of it. It is exact, not a hash: compare keys with ==
// or use them as map keys.
type Key struct {
	// planes encode the piece on every square in four bitboards: bits 0-2 of
	// the piece type in planes 0-2, and White in plane 3.
	planes [4]uint64
	// meta is the side to move (bit 0), castling rights (bits 1-4) and the
	// en passant file plus one (bits 5-8; 0 when there is none).
	meta uint16
}

// Key returns the identity of the position.
func (p *Position) Key() Key {
	var k Key
	k.planes[0] = p.byType[Pawn] | p.byType[Bishop] | p.byType[Queen]
	k.planes[1] = p.byType[Knight] | p.byType[Bishop] | p.byType[King]
	k.planes[2] = p.byType[Rook] | p.byType[Queen] | p.byType[King]
	k.planes[3] = p.byColor[White]
	k.meta = uint16(p.turn) | uint16(p.castle)<<1
	if p.ep != NoSquare {
		k.meta |= uint16(p.ep.File()+1) << 5
	}
	return k
}

// Turn returns the side to move of the keyed position.
func (k Key) Turn() Color { return Color(k.meta & 1) }

// String returns a readable form of the key: the FEN fields that make up
// the identity (placement, side, castling, e.p.), without the clocks.
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
		p.board[s] = NewPiece(c, t)
	}
	p.turn = k.Turn()
	p.castle = uint8(k.meta>>1) & 15
	p.ep = NoSquare
	if f := int(k.meta>>5) & 15; f != 0 {
		r := 5
		if p.turn == Black {
			r = 2
		}
		p.ep = NewSquare(f-1, r)
	}
	return fmt.Sprintf("%s %s %s %s", p.placementFEN(), p.turnFEN(), p.castlingFEN(), p.ep)
}

// Zobrist numbers. The hash of a position is a function of its Key only,
// so equal keys have equal hashes; the tracker compares hashes first and
// keys to confirm.
var (
	zobPiece  [16][64]uint64
	zobCastle [16]uint64
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
	var single [4]uint64
	for i := range single {
		single[i] = rng.next()
	}
	for mask := range zobCastle {
		for i := range single {
			if mask&(1<<i) != 0 {
				zobCastle[mask] ^= single[i]
			}
		}
	}
	for i := range zobEP {
		zobEP[i] = rng.next()
	}
	zobTurn = rng.next()
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
	h ^= zobCastle[p.castle]
	if p.ep != NoSquare {
		h ^= zobEP[p.ep.File()]
	}
	if p.turn == Black {
		h ^= zobTurn
	}
	return h
}
