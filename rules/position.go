package rules

// Castling rights are held per rook: bit 8*colour+file of a uint16 is the
// right of the rook of that colour on that file of its back rank. While a
// right is held, that rook stands there and its king stands on the same
// rank; a move from or onto the rook's square, or any king move, ends it.

// castlingRightOf returns the right a move loses when it leaves or arrives
// on s: the right of the rook whose home s would be.
var castlingRightOf = func() (t [64]uint16) {
	for f := 0; f < 8; f++ {
		t[f] = 1 << f
		t[56+f] = 1 << (8 + f)
	}
	return t
}()

// castlingRights returns the rights of colour c, by file.
func castlingRights(c Color, rights uint16) uint8 { return uint8(rights >> (8 * c)) }

// castlingLoss returns the rights that a move from from to to by a piece
// of type t (of the side to move us) ends.
func castlingLoss(us Color, t PieceType, from, to Square) uint16 {
	loss := castlingRightOf[from] | castlingRightOf[to]
	if t == King {
		loss |= 0xff << (8 * us)
	}
	return loss
}

// Position is a chess position: placement, side to move, castling rights
// (by rook), the variant it is played under (standard or Chess960),
// the en passant square (kept only while an en passant capture is legal),
// and the two clocks. It is a value: copy it freely. The zero value is not
// a valid position; use StartPosition or ParseFEN.
type Position struct {
	byType   [8]uint64 // by PieceType; [0] and [7] are unused (8 so that an index &7 needs no bounds check)
	byColor  [2]uint64
	board    [64]Piece
	hash     uint64 // Zobrist hash of the Key
	checkers uint64 // the pieces that give check to the side to move
	turn     Color
	variant  Variant
	castle   uint16 // castling rights by rook, see castlingRightOf
	ep       Square
	kings    [2]Square // by colour: where the king stands, kept by put and play
	meta     uint32    // the meta word of the Key: turn, castle and ep as computeMeta packs them, kept by play
	halfmove int32
	fullmove int32
}

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

var startPosition Position

// init builds the tables in the order they depend on each other: attacks,
// then hash numbers, then the start position, which needs both.
func init() {
	initAttackTables()
	initZobrist()
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err)
	}
	startPosition = p
}

// StartPosition returns the standard starting position.
func StartPosition() Position { return startPosition }

// Variant returns the rules the position is played under (Standard unless
// it was read or built as Chess960).
func (p *Position) Variant() Variant { return p.variant }

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece {
	if s < 0 || s > 63 {
		return NoPiece
	}
	return p.board[s]
}

// HalfmoveClock returns the number of half-moves since the last capture or
// pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the move number (1 at the start, incremented after
// Black's move).
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// EnPassant returns the en passant target square if an en passant capture
// is legal now, otherwise NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

func (p *Position) occupied() uint64 { return p.byColor[White] | p.byColor[Black] }

func (p *Position) pieces(c Color, t PieceType) uint64 { return p.byColor[c] & p.byType[t] }

func (p *Position) kingSquare(c Color) Square { return p.kings[c&1] }

func (p *Position) put(s Square, pc Piece) {
	b := s.bb()
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.board[s] = pc
	p.hash ^= zobPiece[pc][s]
	if pc.Type() == King {
		p.kings[pc.Color()&1] = s
	}
}

func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := s.bb()
	p.byType[pc.Type()] &^= b
	p.byColor[pc.Color()] &^= b
	p.board[s] = NoPiece
	p.hash ^= zobPiece[pc][s]
}

// attackers returns the pieces of both colours that attack s, with occ as
// the occupancy.
func (p *Position) attackers(s Square, occ uint64) uint64 {
	return pawnAttacks[Black][s]&p.pieces(White, Pawn) |
		pawnAttacks[White][s]&p.pieces(Black, Pawn) |
		knightAttacks[s]&p.byType[Knight] |
		kingAttacks[s]&p.byType[King] |
		bishopAttacks(s, occ)&(p.byType[Bishop]|p.byType[Queen]) |
		rookAttacks(s, occ)&(p.byType[Rook]|p.byType[Queen])
}

// attacked reports whether a piece of colour by attacks s, with occ as the
// occupancy: the pieces of each kind in turn, a slider's line looked up
// only when by has a slider that moves along it.
func (p *Position) attacked(s Square, by Color, occ uint64) bool {
	s &= 63 // in range for the tables, without a check at each
	them := p.byColor[by&1]
	if (knightAttacks[s]&p.byType[Knight]|kingAttacks[s]&p.byType[King]|pawnAttacks[by&1^1][s]&p.byType[Pawn])&them != 0 {
		return true
	}
	if diag := (p.byType[Bishop] | p.byType[Queen]) & them; diag != 0 && bishopAttacks(s, occ)&diag != 0 {
		return true
	}
	orth := (p.byType[Rook] | p.byType[Queen]) & them
	return orth != 0 && rookAttacks(s, occ)&orth != 0
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.checkers != 0 }

// computeCheckers returns the pieces that give check to the side to move,
// from the whole board: what Play keeps in checkers.
func (p *Position) computeCheckers() uint64 {
	return p.attackers(p.kingSquare(p.turn), p.occupied()) & p.byColor[p.turn.Other()]
}

// IsCapture reports whether the (legal) move m captures, en passant
// included. Castling, the king onto its own rook, is not a capture.
func (p *Position) IsCapture(m Move) bool {
	return !m.IsCastling() && (p.board[m.To()] != NoPiece || (m.To() == p.ep && p.board[m.From()].Type() == Pawn))
}

// Play makes the move m, which must be legal in p (from LegalMoves,
// ParseUCI, ParseSAN, or checked with IsLegal).
func (p *Position) Play(m Move) { p.play(m) }

// What a move changed that decides which earlier positions can recur:
// the bits of play's answer.
const (
	// newPlacement: a pawn moved or a piece was taken: no earlier
	// position can recur (castling, which takes nothing, is not such a
	// move).
	newPlacement uint8 = 1 << iota
	// rightsLost: castling rights were lost (by castling too): no earlier
	// position can recur, but an earlier placement can.
	rightsLost
)

// play is Play; it reports what m changed (newPlacement, rightsLost; 0
// for a reversible move).
func (p *Position) play(m Move) (changed uint8) {
	from, to := m.From()&63, m.To()&63
	pc := p.board[from]
	us := p.turn & 1
	h := p.hash ^ zobTurn
	oldEP := p.ep
	if oldEP != NoSquare {
		h ^= zobEP[oldEP&7]
		p.ep = NoSquare
		p.meta &^= keyEPMask
	}
	p.fullmove += int32(us)
	p.turn = us ^ 1
	p.meta ^= 1
	if m>>12 != 0 { // castling or a promotion
		p.hash = h
		return p.playSpecial(m, pc, us)
	}
	// The common move: one piece from from to to, perhaps taking.
	if captured := p.board[to]; captured != NoPiece {
		p.byType[captured&7] ^= to.bb()
		p.byColor[us^1] ^= to.bb()
		h ^= zobPiece[captured&15][to]
		changed = newPlacement
	}
	t := PieceType(pc & 7)
	moved := from.bb() | to.bb()
	p.byType[t] ^= moved
	p.byColor[us] ^= moved
	p.board[from] = NoPiece
	p.board[to] = pc
	h ^= zobPiece[pc&15][from] ^ zobPiece[pc&15][to]
	if p.castle != 0 {
		if lost := p.castle & castlingLoss(us, t, from, to); lost != 0 {
			h ^= castlingHash(lost)
			p.castle &^= lost
			p.meta &^= uint32(lost) << keyCastleShift
			changed |= rightsLost
		}
	}
	// The checkers of the side now to move: only the piece that moved can
	// give check directly, and only a slider on a line through from can
	// give it by discovery (or through to, for a slider that moved; or
	// through the square of a pawn taken en passant).
	ksq := p.kingSquare(us^1) & 63
	lines := line[ksq][from]
	var c uint64
	switch t {
	case Pawn:
		changed = newPlacement
		c = pawnAttacks[us^1][ksq] & to.bb()
		if to == oldEP {
			// En passant: the pawn taken stands beside, on the from rank.
			taken := (to ^ 8) & 63
			p.byType[Pawn] ^= taken.bb()
			p.byColor[us^1] ^= taken.bb()
			p.board[taken] = NoPiece
			h ^= zobPiece[(pc^8)&15][taken]
			lines |= line[ksq][taken]
		}
	case Knight:
		c = knightAttacks[ksq] & to.bb()
	case Bishop, Rook, Queen:
		lines |= line[ksq][to]
	case King:
		p.kings[us] = to
	}
	if lines != 0 {
		own := p.byColor[us]
		occ := p.byColor[White] | p.byColor[Black]
		if diag := (p.byType[Bishop] | p.byType[Queen]) & own; lines&diag != 0 {
			c |= bishopAttacks(ksq, occ) & diag
		}
		if orth := (p.byType[Rook] | p.byType[Queen]) & own; lines&orth != 0 {
			c |= rookAttacks(ksq, occ) & orth
		}
	}
	p.checkers = c
	p.hash = h
	if changed&newPlacement != 0 {
		p.halfmove = 0
		if t == Pawn && (to-from == 16 || from-to == 16) {
			// A double push: the e.p. square is kept only if a capture
			// there is legal. Last, so that nothing is held across the call.
			p.setEnPassant((from+to)/2, to)
			if p.ep != NoSquare {
				p.hash ^= zobEP[p.ep&7]
			}
		}
		return changed
	}
	p.halfmove++
	return changed
}

// playSpecial is play for castling and promotions, with the turn already
// passed to the other side and p.hash updated for it and the e.p. square
// gone.
func (p *Position) playSpecial(m Move, pc Piece, us Color) (changed uint8) {
	from, to := m.From(), m.To()
	p.halfmove++
	if m.IsCastling() {
		// Lift both, then set both down: the king may land where the rook
		// stood and the other way round.
		kingTo, rookTo := m.CastlingSquares()
		rook := p.board[to]
		p.remove(from)
		p.remove(to)
		p.put(kingTo, pc)
		p.put(rookTo, rook)
	} else { // a promotion
		if p.board[to] != NoPiece {
			p.remove(to)
		}
		p.remove(from)
		p.put(to, NewPiece(us, m.Promotion()))
		p.halfmove = 0
		changed = newPlacement
	}
	if p.castle != 0 {
		if lost := p.castle & castlingLoss(us, pc.Type(), from, to); lost != 0 {
			p.hash ^= castlingHash(lost)
			p.castle &^= lost
			p.meta &^= uint32(lost) << keyCastleShift
			changed |= rightsLost
		}
	}
	p.checkers = p.computeCheckers()
	return changed
}

// setEnPassant records the e.p. square after a double push to pawnSq, but
// only if the side to move next (not yet switched) has a legal capture:
// an adjacent pawn that is not pinned and whose capture does not leave its
// king in check (both pawns leave the rank, a check may stay unanswered).
func (p *Position) setEnPassant(epSq, pawnSq Square) {
	mover := p.board[pawnSq].Color()
	capturer := mover.Other()
	cands := pawnAttacks[mover][epSq] & p.pieces(capturer, Pawn)
	if cands == 0 {
		return
	}
	ksq := p.kingSquare(capturer)
	occ := p.occupied()
	enemies := p.byColor[mover] &^ pawnSq.bb()
	for ; cands != 0; cands &= cands - 1 {
		c := lsb(cands)
		occ2 := (occ &^ c.bb() &^ pawnSq.bb()) | epSq.bb()
		if p.attackers(ksq, occ2)&enemies == 0 {
			p.ep = epSq
			p.meta |= keyEPBits[uint8(epSq+1)]
			return
		}
	}
}

// IsLegal reports whether m is a legal move in p.
func (p *Position) IsLegal(m Move) bool {
	return m != NoMove && p.pseudoLegal(m) && p.legal(m)
}

// pseudoLegal reports whether m moves a piece of the side to move the way
// that piece moves, ignoring whether the own king is left in check (except
// for castling, which it checks fully).
func (p *Position) pseudoLegal(m Move) bool {
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Color() != p.turn || from == to {
		return false
	}
	if t := p.board[to]; t != NoPiece && t.Color() == p.turn {
		// Only castling lands on an own piece: the king on its rook.
		return m == newCastling(from, to) && pc.Type() == King &&
			p.castle&castlingRightOf[to]&(0xff<<(8*p.turn)) != 0 && p.castlingLegal(from, to)
	}
	// From here on m is not castling: m>>12 == 0 says neither castling nor
	// a promotion.
	promo := m.Promotion()
	occ := p.occupied()
	switch pc.Type() {
	case Pawn:
		last := to.Rank() == 7 || to.Rank() == 0
		if last != (promo != NoPieceType) || promo == Pawn || promo == King || m.IsCastling() {
			return false
		}
		fwd, startRank := Square(8), 1
		if p.turn == Black {
			fwd, startRank = -8, 6
		}
		switch {
		case to == from+fwd:
			return p.board[to] == NoPiece
		case to == from+2*fwd:
			return from.Rank() == startRank && p.board[from+fwd] == NoPiece && p.board[to] == NoPiece
		case pawnAttacks[p.turn][from]&to.bb() != 0:
			return p.board[to] != NoPiece || to == p.ep
		}
		return false
	case Knight:
		return m>>12 == 0 && knightAttacks[from]&to.bb() != 0
	case Bishop:
		return m>>12 == 0 && bishopAttacks(from, occ)&to.bb() != 0
	case Rook:
		return m>>12 == 0 && rookAttacks(from, occ)&to.bb() != 0
	case Queen:
		return m>>12 == 0 && (bishopAttacks(from, occ)|rookAttacks(from, occ))&to.bb() != 0
	case King:
		return m>>12 == 0 && kingAttacks[from]&to.bb() != 0
	}
	return false
}

// castlingLegal checks castling of the king on king with the rook on rook,
// whose right the caller has checked. Every square the king and the rook
// cross or land on is empty but for the two of them, and the king is not
// in check, crosses no attacked square and does not land on one (after
// the rook moved: the rook may have shielded the king's destination; the
// king's own square is attacked exactly when checkers is not empty). This
// is the Chess960 rule; standard castling is the case king e1, rook h1/a1.
func (p *Position) castlingLegal(king, rook Square) bool {
	m := newCastling(king, rook)
	kingTo, rookTo := m.CastlingSquares()
	kb, rb := king.bb(), rook.bb()
	occ := p.occupied() ^ kb ^ rb
	if occ&(between[king][kingTo]|kingTo.bb()|between[rook][rookTo]|rookTo.bb()) != 0 {
		return false
	}
	if p.checkers != 0 {
		return false // the king's own square is attacked
	}
	them := p.turn.Other()
	for path := between[king][kingTo]; path != 0; path &= path - 1 {
		if p.attacked(lsb(path), them, occ|rb) {
			return false
		}
	}
	return !p.attacked(kingTo, them, occ|rookTo.bb())
}

// legal reports whether the pseudo-legal move m leaves the own king safe.
// Most moves are decided from the checkers and the lines through the
// king: a move other than the king's or en passant is illegal in double
// check, must take the checker or block its line in single check, and
// otherwise exposes the king only if it leaves a line through the king
// on which an enemy slider of that line's kind stands (the piece may be
// pinned). The rest go to legalByAttacks.
func (p *Position) legal(m Move) bool {
	from, to := m.From(), m.To()
	pt := p.board[from].Type()
	if pt == King || (pt == Pawn && to == p.ep) {
		return p.legalByAttacks(m)
	}
	ksq := p.kingSquare(p.turn) & 63
	if c := p.checkers; c != 0 {
		if c&(c-1) != 0 || (between[ksq][lsb(c)&63]|c)&to.bb() == 0 {
			return false
		}
	}
	l := line[ksq][from&63]
	if l == 0 || l&to.bb() != 0 {
		return true
	}
	// The piece leaves a line through the king: pinned only if an enemy
	// slider of the line's kind stands on it.
	sliders := p.byType[Bishop] | p.byType[Queen]
	if d := from ^ ksq; d&7 == 0 || d < 8 { // same file or same rank
		sliders = p.byType[Rook] | p.byType[Queen]
	}
	if sliders&l&p.byColor[p.turn^1] == 0 {
		return true
	}
	return p.legalByAttacks(m)
}

// legalByAttacks reports whether the pseudo-legal move m leaves the own
// king safe, by looking for attackers of the king after the move: the
// reference legal must agree with.
func (p *Position) legalByAttacks(m Move) bool {
	from, to := m.From(), m.To()
	us := p.turn
	them := p.byColor[us.Other()]
	occ := p.occupied()
	if p.board[from].Type() == King {
		if m.IsCastling() {
			return true // castlingLegal already checked every square
		}
		// The king does not shield the squares behind it on a line.
		return !p.attacked(to, us.Other(), occ&^from.bb())
	}
	occ2 := (occ &^ from.bb()) | to.bb()
	enemies := them &^ to.bb()
	if to == p.ep && p.board[from].Type() == Pawn {
		cap := (to ^ 8).bb()
		occ2 &^= cap
		enemies &^= cap
	}
	return p.attackers(p.kingSquare(us), occ2)&enemies == 0
}
