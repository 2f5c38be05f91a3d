package rules

import (
	"fmt"
	"strings"
)

// Diff is a set of the components of a position's identity (its Key) in
// which two positions differ, in the terms of FIDE 9.2.3: the side to
// move, the placement of the pieces, the castling rights still held and the
// en passant capture possible. The empty set means the same position.
type Diff uint8

// The components of the identity of a position.
const (
	DiffSideToMove Diff = 1 << iota // the other player has the move
	DiffPlacement                   // some square holds another piece, or none
	DiffCastling                    // a castling right is held in one and not the other
	DiffEnPassant                   // an en passant capture is possible in one and not the other
)

// diffNames are the names of the components, in the order of the bits:
// the kind values of threefold's JSON contracts.
var diffNames = [...]string{"side_to_move", "placement", "castling", "en_passant"}

// Has reports whether d holds every component of c.
func (d Diff) Has(c Diff) bool { return d&c == c }

// Names returns the names of the components in d ("side_to_move",
// "placement", "castling", "en_passant"), in that order.
func (d Diff) Names() []string {
	var out []string
	for i, n := range diffNames {
		if d&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// String returns the names of the components joined by commas, or "same".
func (d Diff) String() string {
	if d == 0 {
		return "same"
	}
	return strings.Join(d.Names(), ",")
}

// Diff returns the components in which the positions keyed k and o differ;
// it is empty exactly when k == o.
func (k Key) Diff(o Key) Diff {
	var d Diff
	if k.planes != o.planes {
		d |= DiffPlacement
	}
	x := k.meta ^ o.meta
	if x&1 != 0 {
		d |= DiffSideToMove
	}
	if x>>keyCastleShift&0xffff != 0 {
		d |= DiffCastling
	}
	if x&keyEPMask != 0 {
		d |= DiffEnPassant
	}
	return d
}

// Comparison says whether two positions are the same position (FIDE 9.2.3)
// and, when they are not, every reason why: the components of Diff, each
// with its details. Positions[0] is the first position compared, [1] the
// second; the fields that say "which" use 0 and 1 in the same way.
type Comparison struct {
	Positions [2]Position
	// Diff holds the components that differ; empty: the same position.
	Diff Diff
	// Squares lists the squares whose occupant differs (a1 to h8), with the
	// piece on each in the two positions (NoPiece for an empty square).
	Squares []SquareChange
	// Castling lists every castling right held in one position and not in
	// the other.
	Castling []CastlingRight
	// EnPassant lists every legal en passant capture of one position whose
	// en passant square the other does not have.
	EnPassant []EnPassantCapture
	// ClocksDiffer: the halfmove clocks or the move numbers differ. They
	// are never part of the comparison; a caller says so when they are all
	// that differs.
	ClocksDiffer bool
}

// Same reports whether the two positions are the same position.
func (c *Comparison) Same() bool { return c.Diff == 0 }

// SquareChange is a square whose occupant differs between two positions.
type SquareChange struct {
	Square Square
	Pieces [2]Piece // the piece in each position, NoPiece for none
}

// CastlingRight is a castling right held in one position and not in the
// other: the right of the king of Color to castle with the rook on Rook.
type CastlingRight struct {
	Color Color
	Rook  Square // the rook's home square, which it has not left while the right is held
	// Short is castling towards the h-file (O-O); otherwise towards the
	// a-file (O-O-O). In standard chess: kingside and queenside.
	Short bool
	// HeldIn is the position (0 or 1) that holds the right.
	HeldIn int
	// LostPly is, when the two positions are plies of one game, the ply
	// of the move that ended the right (LostMove, which the king or the
	// rook made, or which captured the rook at home); 0 when unknown.
	LostPly  int
	LostMove Move
}

// EnPassantCapture is an en passant capture legal in position In (0 or 1)
// and not in the other: the pawn on Move.From() takes on Move.To(), the
// en passant square.
type EnPassantCapture struct {
	In   int
	Move Move
}

// Compare compares the positions a and b in the sense of FIDE 9.2.3. The
// result's Diff is a.Key().Diff(b.Key()), and it names every component
// that differs with its details.
func Compare(a, b *Position) Comparison {
	c := Comparison{Positions: [2]Position{*a, *b}, Diff: a.Key().Diff(b.Key())}
	c.ClocksDiffer = a.halfmove != b.halfmove || a.fullmove != b.fullmove
	if c.Diff.Has(DiffPlacement) {
		for s := Square(0); s < 64; s++ {
			if a.board[s] != b.board[s] {
				c.Squares = append(c.Squares, SquareChange{Square: s, Pieces: [2]Piece{a.board[s], b.board[s]}})
			}
		}
	}
	if x := a.castle ^ b.castle; x != 0 {
		for bit := 0; bit < 16; bit++ {
			if x&(1<<bit) == 0 {
				continue
			}
			held, holder := 0, a
			if b.castle&(1<<bit) != 0 {
				held, holder = 1, b
			}
			r := holder.castlingRight(bit)
			r.HeldIn = held
			c.Castling = append(c.Castling, r)
		}
	}
	if c.Diff.Has(DiffEnPassant) {
		for i, p := range []*Position{a, b} {
			for _, m := range p.EnPassantCaptures() {
				c.EnPassant = append(c.EnPassant, EnPassantCapture{In: i, Move: m})
			}
		}
	}
	return c
}

// CompareInGame compares the positions at plies a and b of the game that
// starts at start and goes on with moves (ply 0 is start, ply n the
// position after moves[n-1]), as Compare does, and for each castling right
// held at one ply and not the other says at which ply and by which move it
// was lost. A ply out of range or a move that is not legal is an error.
func CompareInGame(start Position, moves []Move, a, b int) (Comparison, error) {
	for _, ply := range []int{a, b} {
		if ply < 0 || ply > len(moves) {
			return Comparison{}, fmt.Errorf("rules: ply %d is not in the game (plies 0 to %d)", ply, len(moves))
		}
	}
	lo, hi := min(a, b), max(a, b)
	at := [2]Position{}
	// lost[bit] is the ply at which the right of that bit was lost, between lo and hi.
	var lost [16]int
	p := start
	for ply := 0; ; ply++ {
		if ply == a {
			at[0] = p
		}
		if ply == b {
			at[1] = p
		}
		if ply == hi {
			break
		}
		m := moves[ply]
		if !p.IsLegal(m) {
			return Comparison{}, fmt.Errorf("rules: ply %d: %w: %s in %s", ply+1, ErrIllegal, m.UCI(), p.FEN())
		}
		before := p.castle
		p.Play(m)
		if ply >= lo {
			for x := before &^ p.castle; x != 0; x &= x - 1 {
				lost[lsb(uint64(x))] = ply + 1
			}
		}
	}
	c := Compare(&at[0], &at[1])
	for i := range c.Castling {
		r := &c.Castling[i]
		bit := int(r.Color)*8 + r.Rook.File()
		if ply := lost[bit]; ply > 0 {
			r.LostPly, r.LostMove = ply, moves[ply-1]
		}
	}
	return c, nil
}

// CastlingRights returns the castling rights the position holds, White's
// first, each from the a-file to the h-file (HeldIn 0, no loss). A right
// held says nothing about whether castling is possible now: a piece
// between, a check or an attacked square may prevent it.
func (p *Position) CastlingRights() []CastlingRight {
	var out []CastlingRight
	for x := p.castle; x != 0; x &= x - 1 {
		out = append(out, p.castlingRight(int(lsb(uint64(x)))))
	}
	return out
}

// castlingRight describes the right of bit (see castlingRightOf), which
// p holds.
func (p *Position) castlingRight(bit int) CastlingRight {
	col := Color(bit / 8)
	rook := NewSquare(bit%8, 7*int(col))
	return CastlingRight{Color: col, Rook: rook, Short: rook.File() > p.kingSquare(col).File()}
}

// EnPassantCaptures returns the legal en passant captures of the side to
// move (none, one or two), in the order of LegalMoves.
func (p *Position) EnPassantCaptures() []Move {
	if p.ep == NoSquare {
		return nil
	}
	var buf [256]Move
	var out []Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if m.To() == p.ep && p.board[m.From()].Type() == Pawn {
			out = append(out, m)
		}
	}
	return out
}
