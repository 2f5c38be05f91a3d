package rules

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Move errors. Errors from ParseUCI and ParseSAN wrap one of these and
// name the move and the reason.
var (
	ErrSyntax    = errors.New("unreadable move")
	ErrIllegal   = errors.New("illegal move")
	ErrAmbiguous = errors.New("ambiguous move")
)

// ParseUCI reads a move in UCI notation (e2e4, e7e8q) and checks that it is
// legal. Castling is the king moving onto its own rook (e1h1, the form of
// Chess960 and the one Lichess sends since 2025) or, from e1 or e8, the
// king's two-square move (e1g1, e1c1) as standard chess writes it. A pawn
// reaching the last rank without a promotion letter promotes to a queen,
// as Lichess assumes.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) < 4 || len(s) > 5 {
		return NoMove, fmt.Errorf("%w: %s: want 4 or 5 characters like e2e4 or e7e8q", ErrSyntax, excerpt(s))
	}
	from, to := squareAt(s, 0), squareAt(s, 2)
	if from == NoSquare || to == NoSquare {
		return NoMove, fmt.Errorf("%w: %q: not two squares", ErrSyntax, s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		promo = PieceType(strings.IndexByte(pieceLetters, s[4]|0x20))
		if promo < Knight || promo > Queen {
			return NoMove, fmt.Errorf("%w: %q: promotion must be q, r, b or n", ErrSyntax, s)
		}
	}
	pc := p.board[from]
	if pc == NewPiece(p.turn, King) && promo == NoPieceType && from.Rank() == to.Rank() {
		rook := NoSquare
		switch d := int(to) - int(from); {
		case p.board[to] == NewPiece(p.turn, Rook):
			rook = to
		case from.File() == 4 && (d == 2 || d == -2):
			rook = to&^7 + 7
			if d < 0 {
				rook = to &^ 7
			}
		}
		if rook != NoSquare {
			if m := newCastling(from, rook); p.IsLegal(m) {
				return m, nil
			}
			return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegal, s, p.FEN())
		}
	}
	if pc.Type() == Pawn && promo == NoPieceType && (to.Rank() == 7 || to.Rank() == 0) {
		promo = Queen
	}
	m := NewMove(from, to, promo)
	if !p.IsLegal(m) {
		return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegal, s, p.FEN())
	}
	return m, nil
}

// maxSAN is the longest text ParseSAN reads: the longest move a PGN writes
// ("Qa1xb2=Q+!?", "exd6e.p.+") has a dozen bytes; spaces around are allowed.
const maxSAN = 32

// ParseSAN reads a move in Standard Algebraic Notation and checks that it
// is legal. It accepts what real PGN files contain: O-O and 0-0, check and
// mate signs, annotation glyphs (!, ?, !?), promotions as e8=Q, e8Q or
// e8(Q) (the letter in either case), captures with or without x, long forms
// such as Ng1f3 or Ng1-f3, and "e.p." after an en passant capture. A pawn
// reaching the last rank must name its promotion piece, as the standard
// requires.
func (p *Position) ParseSAN(s string) (Move, error) {
	if m, ok := p.parseSANFast(s); ok {
		return m, nil
	}
	return p.parseSAN(s)
}

// parseSANFast reads the forms a PGN file almost always holds (Nf3, Nbd7,
// R1e2, Qh4xe1, exd5, e4, e8=Q, O-O, each with at most one + or #) in one
// pass over the bytes, and resolves the move from the pieces of the named
// kind that reach the destination, without the generic checks of a
// pseudo-legal move (the candidates already move that way). It answers
// only when that form names exactly one legal move; everything else (other
// spellings, illegal and ambiguous moves) is left to parseSAN, which reads
// the same forms to the same move, so the errors stay its own.
func (p *Position) parseSANFast(s string) (Move, bool) {
	n := len(s)
	if n > 0 && (s[n-1] == '+' || s[n-1] == '#') {
		n--
	}
	if n < 2 {
		return NoMove, false
	}
	s = s[:n]
	us := p.turn & 1
	pt := sanPieceType[s[0]]
	if pt == NoPieceType {
		if s[0] == 'O' {
			return p.parseCastleFast(s)
		}
		return p.parsePawnSANFast(s, us)
	}
	f, r := s[n-2]-'a', s[n-1]-'1'
	if f > 7 || r > 7 {
		return NoMove, false
	}
	to := Square(r<<3 | f)
	if t := p.board[to]; t != NoPiece && t.Color() == us {
		return NoMove, false
	}
	own := p.byColor[us] & p.byType[pt&7]
	// Between the piece letter and the destination: a file, a rank or
	// both, then x, each optional.
	mid := n - 3 // the bytes s[1:n-2], without a last x
	if mid > 0 && s[n-3] == 'x' {
		mid--
	}
	switch mid {
	case 0:
	case 1:
		if c := s[1]; c-'a' < 8 {
			own &= fileA << (c - 'a')
		} else if c-'1' < 8 {
			own &= rank1 << (8 * (c - '1'))
		} else {
			return NoMove, false
		}
	case 2:
		ff, fr := s[1]-'a', s[2]-'1'
		if ff > 7 || fr > 7 {
			return NoMove, false
		}
		own &= 1 << (fr<<3 | ff)
	default:
		return NoMove, false
	}
	var cands uint64
	switch pt {
	case Knight:
		cands = knightAttacks[to] & own
	case King:
		cands = kingAttacks[to] & own
	default:
		occ := p.byColor[White] | p.byColor[Black]
		if pt != Rook {
			cands = bishopAttacks(to, occ)
		}
		if pt != Bishop {
			cands |= rookAttacks(to, occ)
		}
		cands &= own
	}
	if cands == 0 {
		return NoMove, false
	}
	m := NewMove(lsb(cands), to, NoPieceType)
	if cands&(cands-1) == 0 {
		// One piece can go there, as almost always: it is legal at once
		// when the king is not in check and the piece is no king and
		// cannot be pinned.
		if pt == King {
			// The king does not shield the squares behind it on a line.
			return m, !p.attacked(to, us^1, (p.byColor[White]|p.byColor[Black])&^m.From().bb())
		}
		if p.notPinnedNorInCheck(m.From()) {
			return m, true
		}
		return m, p.legal(m)
	}
	found := NoMove
	for ; cands != 0; cands &= cands - 1 {
		if m := NewMove(lsb(cands), to, NoPieceType); p.legal(m) {
			if found != NoMove {
				return NoMove, false // ambiguous: parseSAN says so
			}
			found = m
		}
	}
	return found, found != NoMove
}

// sanPieceType is the piece type of a SAN piece letter, by byte: N, B,
// R, Q or K; NoPieceType for every other byte.
var sanPieceType = [256]PieceType{'N': Knight, 'B': Bishop, 'R': Rook, 'Q': Queen, 'K': King}

// parseCastleFast is parseSANFast for s (no + or #) that starts with O.
func (p *Position) parseCastleFast(s string) (Move, bool) {
	var dir int
	switch s {
	case "O-O":
		dir = 2
	case "O-O-O":
		dir = -2
	default:
		return NoMove, false
	}
	m, err := p.parseCastle(s, dir)
	return m, err == nil
}

// parsePawnSANFast is parseSANFast for s (no + or #, at least two bytes)
// that starts with no piece letter: a pawn move, e4, exd5, e8=Q, exd8=Q.
func (p *Position) parsePawnSANFast(s string, us Color) (Move, bool) {
	n := len(s)
	// The destination, and the promotion piece after it.
	promo := NoPieceType
	if n >= 4 && s[n-2] == '=' {
		if promo = sanPieceType[s[n-1]]; promo == NoPieceType || promo == King {
			return NoMove, false
		}
		n -= 2
	}
	f, r := s[n-2]-'a', s[n-1]-'1'
	if f > 7 || r > 7 {
		return NoMove, false
	}
	to := Square(r<<3 | f)
	if t := p.board[to]; t != NoPiece && t.Color() == us {
		return NoMove, false
	}
	if last := r == 7 || r == 0; last != (promo != NoPieceType) {
		return NoMove, false
	}
	fwd := Square(8)
	if us == Black {
		fwd = -8
	}
	var from Square
	switch n {
	case 2: // a push: e4
		one := to - fwd
		if p.board[to] != NoPiece || one < 0 || one > 63 {
			return NoMove, false
		}
		from = one
		if p.board[one] == NoPiece && (us == White && r == 3 || us == Black && r == 4) {
			from = one - fwd
		}
	case 4: // a capture: exd5
		ff := s[0] - 'a'
		if s[1] != 'x' || ff > 7 || (ff != f+1 && ff+1 != f) || (p.board[to] == NoPiece && to != p.ep) {
			return NoMove, false
		}
		from = to - fwd + Square(ff) - Square(f)
		if from < 0 || from > 63 {
			return NoMove, false
		}
	default:
		return NoMove, false
	}
	m := NewMove(from, to, promo)
	if p.board[from] != NewPiece(us, Pawn) {
		return NoMove, false
	}
	if to != p.ep && p.notPinnedNorInCheck(from) {
		return m, true
	}
	return m, p.legal(m)
}

// notPinnedNorInCheck reports whether the side to move is not in check
// and no enemy slider stands on the line through its king and from (if
// there is one): then the piece on from (not the king) is not pinned, and
// every move of it but en passant is legal.
func (p *Position) notPinnedNorInCheck(from Square) bool {
	if p.checkers != 0 {
		return false
	}
	l := line[p.kingSquare(p.turn)&63][from&63]
	return l == 0 || l&p.byColor[p.turn&1^1]&(p.byType[Bishop]|p.byType[Rook]|p.byType[Queen]) == 0
}

// parseSAN is ParseSAN for every form it accepts, with the errors.
func (p *Position) parseSAN(s string) (Move, error) {
	orig := s
	if len(s) > maxSAN {
		return NoMove, fmt.Errorf("%w: %s: longer than any move", ErrSyntax, excerpt(s))
	}
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "e.p.")
	for len(s) > 0 && isSANSuffix(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if s == "" {
		return NoMove, fmt.Errorf("%w: %q", ErrSyntax, orig)
	}
	syntax := func(why string) (Move, error) {
		return NoMove, fmt.Errorf("%w: %q: %s", ErrSyntax, orig, why)
	}
	switch s {
	case "O-O", "0-0", "o-o":
		return p.parseCastle(orig, 2)
	case "O-O-O", "0-0-0", "o-o-o":
		return p.parseCastle(orig, -2)
	}
	// Promotion.
	promo := NoPieceType
	if i := strings.IndexByte(s, '='); i >= 0 {
		if i != len(s)-2 {
			return syntax("promotion must be one letter after =")
		}
		promo = pieceTypeOfLetter(s[i+1])
		s = s[:i]
	} else if n := len(s); n >= 4 && s[n-1] == ')' && s[n-3] == '(' {
		promo = pieceTypeOfLetter(s[n-2])
		s = s[:n-3]
	} else if n >= 3 && s[n-2] >= '1' && s[n-2] <= '8' && strings.IndexByte("QRBNqrbn", s[n-1]) >= 0 && (s[0] < 'A' || s[0] > 'Z') {
		promo = pieceTypeOfLetter(s[n-1])
		s = s[:n-1]
	}
	if promo == King || promo == Pawn {
		return syntax("a pawn promotes to Q, R, B or N")
	}
	if len(s) < 2 {
		return syntax("no destination square")
	}
	to, err := ParseSquare(s[len(s)-2:])
	if err != nil {
		return syntax("no destination square")
	}
	s = s[:len(s)-2]
	pt := Pawn
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		pt = pieceTypeOfLetter(s[0])
		if pt == NoPieceType {
			return syntax("unknown piece letter")
		}
		s = s[1:]
	}
	// Disambiguation: file and/or rank, then optional capture or dash.
	fromFile, fromRank := -1, -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'h' && fromFile < 0 && fromRank < 0:
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && fromRank < 0:
			fromRank = int(c - '1')
		case (c == 'x' || c == ':' || c == '-') && i == len(s)-1:
		default:
			return syntax("cannot read the squares")
		}
	}
	if pt != Pawn && promo != NoPieceType {
		return syntax("only a pawn promotes")
	}
	if pt == Pawn && (to.Rank() == 7 || to.Rank() == 0) && promo == NoPieceType {
		return syntax("a promotion must name its piece (=Q, =R, =B or =N)")
	}
	var cands uint64
	occ := p.occupied()
	switch pt {
	case Pawn:
		if fromFile >= 0 && fromFile != to.File() {
			cands = pawnAttacks[p.turn.Other()][to] // pawns that could capture onto to
		} else {
			one, two := to-8, to-16
			if p.turn == Black {
				one, two = to+8, to+16
			}
			if one >= 0 && one < 64 {
				cands = one.bb()
				if p.board[one] == NoPiece && two >= 0 && two < 64 {
					cands |= two.bb()
				}
			}
		}
	default:
		cands = pieceAttacks(pt, to, occ)
	}
	cands &= p.pieces(p.turn, pt)
	var found Move
	n := 0
	for ; cands != 0; cands &= cands - 1 {
		from := lsb(cands)
		if (fromFile >= 0 && from.File() != fromFile) || (fromRank >= 0 && from.Rank() != fromRank) {
			continue
		}
		m := NewMove(from, to, promo)
		if p.pseudoLegal(m) && p.legal(m) {
			found = m
			n++
		}
	}
	switch n {
	case 1:
		return found, nil
	case 0:
		return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegal, orig, p.FEN())
	default:
		return NoMove, fmt.Errorf("%w: %s in %s: %d pieces can make it", ErrAmbiguous, orig, p.FEN(), n)
	}
}

// squareAt reads the square named at s[i:i+2], or returns NoSquare.
func squareAt(s string, i int) Square {
	f, r := s[i]-'a', s[i+1]-'1'
	if f > 7 || r > 7 {
		return NoSquare
	}
	return NewSquare(int(f), int(r))
}

// parseCastle reads O-O (dir > 0, with the rook on the h-side of the
// king) or O-O-O (dir < 0).
func (p *Position) parseCastle(orig string, dir int) (Move, error) {
	k := p.kingSquare(p.turn)
	for rights := castlingRights(p.turn, p.castle); rights != 0; rights &= rights - 1 {
		rook := k&^7 + Square(bits.TrailingZeros8(rights))
		if (rook > k) == (dir > 0) {
			if m := newCastling(k, rook); p.castlingLegal(k, rook) {
				return m, nil
			}
		}
	}
	return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegal, orig, p.FEN())
}

func isSANSuffix(c byte) bool { return c == '+' || c == '#' || c == '!' || c == '?' || c == ' ' }

func pieceTypeOfLetter(c byte) PieceType {
	switch c | 0x20 {
	case 'n':
		return Knight
	case 'b':
		return Bishop
	case 'r':
		return Rook
	case 'q':
		return Queen
	case 'k':
		return King
	case 'p':
		return Pawn
	}
	return NoPieceType
}

// SAN returns the move in Standard Algebraic Notation, with the shortest
// disambiguation and + or # when it gives check or mate. m must be legal.
func (p *Position) SAN(m Move) string {
	from, to := m.From(), m.To()
	pc := p.board[from]
	var b []byte
	switch {
	case m.IsCastling() && to > from:
		b = append(b, "O-O"...)
	case m.IsCastling():
		b = append(b, "O-O-O"...)
	case pc.Type() == Pawn:
		if from.File() != to.File() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if pr := m.Promotion(); pr != NoPieceType {
			b = append(b, '=', "PNBRQK"[pr-1])
		}
	default:
		b = append(b, "PNBRQK"[pc.Type()-1])
		// Other pieces of the same kind that can legally go to the same square.
		var others uint64
		occ := p.occupied()
		var att uint64
		switch pc.Type() {
		case Knight:
			att = knightAttacks[to]
		case Bishop:
			att = bishopAttacks(to, occ)
		case Rook:
			att = rookAttacks(to, occ)
		case Queen:
			att = bishopAttacks(to, occ) | rookAttacks(to, occ)
		}
		for c := att & p.pieces(p.turn, pc.Type()) &^ from.bb(); c != 0; c &= c - 1 {
			if o := NewMove(lsb(c), to, NoPieceType); p.legal(o) {
				others |= lsb(c).bb()
			}
		}
		if others != 0 {
			switch {
			case others&(fileA<<uint(from.File())) == 0:
				b = append(b, byte('a'+from.File()))
			case others&(rank1<<uint(8*from.Rank())) == 0:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = append(b, from.String()...)
			}
		}
		if p.board[to] != NoPiece {
			b = append(b, 'x')
		}
		b = append(b, to.String()...)
	}
	next := *p
	next.Play(m)
	if next.InCheck() {
		if next.HasLegalMove() {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return string(b)
}

// pieceAttacks is the squares a piece of type pt (not a pawn) on sq
// attacks with occ occupied: for a move to sq, the squares such a piece
// can come from.
func pieceAttacks(pt PieceType, sq Square, occ uint64) uint64 {
	switch pt {
	case Knight:
		return knightAttacks[sq]
	case Bishop:
		return bishopAttacks(sq, occ)
	case Rook:
		return rookAttacks(sq, occ)
	case Queen:
		return bishopAttacks(sq, occ) | rookAttacks(sq, occ)
	case King:
		return kingAttacks[sq]
	}
	return 0
}
