package rules

import "math/bits"

func popcount(b uint64) int { return bits.OnesCount64(b) }

// LegalMoves appends every legal move of the side to move to buf and
// returns it. Promotions come as four moves (queen, rook, bishop, knight).
func (p *Position) LegalMoves(buf []Move) []Move {
	start := len(buf)
	buf = p.pseudoMoves(buf)
	n := start
	for _, m := range buf[start:] {
		if p.legal(m) {
			buf[n] = m
			n++
		}
	}
	return buf[:n]
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	// The king's steps first: one of them is legal in most positions, and
	// the moves of the other pieces are then not generated at all.
	k := p.kingSquare(p.turn)
	for t := kingAttacks[k] &^ p.byColor[p.turn]; t != 0; t &= t - 1 {
		if p.legal(NewMove(k, lsb(t), NoPieceType)) {
			return true
		}
	}
	if c := p.checkers; c&(c-1) != 0 {
		return false // double check: only the king could move
	}
	var arr [256]Move
	for _, m := range p.pseudoMoves(arr[:0]) {
		if p.legal(m) {
			return true
		}
	}
	return false
}

// pseudoMoves appends the pseudo-legal moves (castling fully checked).
func (p *Position) pseudoMoves(buf []Move) []Move {
	us := p.turn
	own := p.byColor[us]
	enemy := p.byColor[us.Other()]
	occ := own | enemy
	empty := ^occ

	// Pawns.
	pawns := p.pieces(us, Pawn)
	var push1, push2, capL, capR uint64
	var fwd Square
	var promoRank, thirdRank uint64
	if us == White {
		fwd = 8
		push1 = pawns << 8 & empty
		thirdRank = rank1 << 16
		push2 = (push1 & thirdRank) << 8 & empty
		capL = pawns &^ fileA << 7
		capR = pawns &^ fileH << 9
		promoRank = rank8
	} else {
		fwd = -8
		push1 = pawns >> 8 & empty
		thirdRank = rank1 << 40
		push2 = (push1 & thirdRank) >> 8 & empty
		capL = pawns &^ fileA >> 9
		capR = pawns &^ fileH >> 7
		promoRank = rank1
	}
	targets := enemy
	if p.ep != NoSquare {
		targets |= p.ep.bb()
	}
	capL &= targets
	capR &= targets
	addPawn := func(buf []Move, from, to Square) []Move {
		if to.bb()&promoRank != 0 {
			return append(buf, NewMove(from, to, Queen), NewMove(from, to, Rook), NewMove(from, to, Bishop), NewMove(from, to, Knight))
		}
		return append(buf, NewMove(from, to, NoPieceType))
	}
	for b := push1; b != 0; b &= b - 1 {
		to := lsb(b)
		buf = addPawn(buf, to-fwd, to)
	}
	for b := push2; b != 0; b &= b - 1 {
		to := lsb(b)
		buf = append(buf, NewMove(to-2*fwd, to, NoPieceType))
	}
	for b := capL; b != 0; b &= b - 1 {
		to := lsb(b)
		buf = addPawn(buf, to-fwd+1, to)
	}
	for b := capR; b != 0; b &= b - 1 {
		to := lsb(b)
		buf = addPawn(buf, to-fwd-1, to)
	}

	// Pieces.
	for b := p.pieces(us, Knight); b != 0; b &= b - 1 {
		from := lsb(b)
		buf = appendMoves(buf, from, knightAttacks[from]&^own)
	}
	for b := p.pieces(us, Bishop) | p.pieces(us, Queen); b != 0; b &= b - 1 {
		from := lsb(b)
		buf = appendMoves(buf, from, bishopAttacks(from, occ)&^own)
	}
	for b := p.pieces(us, Rook) | p.pieces(us, Queen); b != 0; b &= b - 1 {
		from := lsb(b)
		buf = appendMoves(buf, from, rookAttacks(from, occ)&^own)
	}
	k := p.kingSquare(us)
	buf = appendMoves(buf, k, kingAttacks[k]&^own)
	if p.castle != 0 {
		base := k &^ 7
		for rights := castlingRights(us, p.castle); rights != 0; rights &= rights - 1 {
			rook := base + Square(bits.TrailingZeros8(rights))
			if p.castlingLegal(k, rook) {
				buf = append(buf, newCastling(k, rook))
			}
		}
	}
	return buf
}

func appendMoves(buf []Move, from Square, targets uint64) []Move {
	for ; targets != 0; targets &= targets - 1 {
		buf = append(buf, NewMove(from, lsb(targets), NoPieceType))
	}
	return buf
}

// Status is whether the side to move can move, and if not, why.
type Status uint8

const (
	Ongoing Status = iota
	Checkmate
	Stalemate
)

func (s Status) String() string {
	return [...]string{"ongoing", "checkmate", "stalemate"}[s%3]
}

// Status returns Checkmate or Stalemate when the side to move has no legal
// move, otherwise Ongoing.
func (p *Position) Status() Status {
	if p.HasLegalMove() {
		return Ongoing
	}
	if p.InCheck() {
		return Checkmate
	}
	return Stalemate
}

// InsufficientMaterial reports whether neither side can possibly mate: only
// kings, plus at most one minor piece, or bishops all on squares of one
// colour. (These are the dead positions every site ends automatically.)
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	minors := p.byType[Knight] | p.byType[Bishop]
	if popcount(minors) <= 1 {
		return true
	}
	if p.byType[Knight] != 0 {
		return false
	}
	const dark uint64 = 0xAA55AA55AA55AA55
	b := p.byType[Bishop]
	return b&dark == 0 || b&^dark == 0
}

// CanMate reports whether side c has the material to mate at all: a pawn,
// a rook, a queen or two minor pieces. With a lone king, or a king and one
// minor piece, no series of legal moves mates the other king; a side that
// runs out of time then is not lost, the game is drawn (FIDE 6.9).
func (p *Position) CanMate(c Color) bool {
	own := p.byColor[c]
	if own&(p.byType[Pawn]|p.byType[Rook]|p.byType[Queen]) != 0 {
		return true
	}
	return popcount(own&(p.byType[Knight]|p.byType[Bishop])) >= 2
}
