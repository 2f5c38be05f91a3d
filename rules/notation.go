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
	if m := p.sanFast(s); m != NoMove {
		return m, nil
	}
	return p.parseSAN(s)
}

// sanFast reads the forms a PGN file almost always holds (Nf3, Nbd7, R1e2,
// Qh4xe1, exd5, e4, O-O, each with at most one + or #) in one pass over
// the bytes, and resolves the move from the pieces of the named kind that
// reach the destination, without the generic checks of a pseudo-legal
// move (the candidates already move that way). It answers only when that
// form names exactly one legal move, else NoMove; everything else
// (promotions, other spellings, illegal and ambiguous moves) is left to
// parseSAN, which reads the same forms to the same move, so the errors
// stay its own.
//
// The kind of move (pawn or piece, which piece, capture or not) is what a
// branch cannot predict from one ply to the next, so past the one split
// between pawns and pieces it decides few branches: the bytes are looked
// up in tables, the squares a piece comes from are one lookup for every
// kind but the queen (see sanReach), and a pawn's are found with
// shifts; the other branches are taken by rare moves only.
func (p *Position) sanFast(s string) Move {
	if len(s) < 2 {
		return NoMove
	}
	// n: the index of the destination's rank, before any + or #.
	n := len(s) - 1 - int(sanCheckMark[s[len(s)-1]])
	if n < 1 {
		return NoMove
	}
	to := uint(sanSquare[uint(s[n-1])|uint(s[n])<<8]) - 1
	if to > 63 {
		return p.castleSANFast(s[:n+1]) // or a promotion, left to parseSAN
	}
	us := uint(p.turn & 1)
	occ := p.byColor[White] | p.byColor[Black]
	var cands uint64
	pt := sanPieceType[s[0]]
	if pt == NoPieceType {
		// A pawn. One that reaches the last rank promotes: e8=Q is
		// parseSAN's, e8 an error.
		if promotionRanks>>to&1 != 0 {
			return NoMove
		}
		pawns := p.byColor[us] & p.byType[Pawn]
		switch n {
		case 1: // a push: e4
			if occ>>to&1 != 0 {
				return NoMove
			}
			// From one square behind, or two behind on the pawns' first
			// rank with the square between empty.
			one := to - 8 + 16*us
			free := uint64(0) - (^occ >> (one & 63) & 1)
			cands = (1<<one | 1<<(one-8+16*us)&pawnStartRank[us]&free) & pawns
		case 3: // a capture: exd5, en passant too
			if s[1] != 'x' || (p.byColor[us^1]|p.ep.bb())>>to&1 == 0 {
				return NoMove
			}
			cands = pawnAttacks[us^1][to] & sanFileMask[s[0]] & pawns
			if Square(to) == p.ep && cands != 0 {
				// En passant: the pawn taken may have shielded the king.
				if m := Move(uint(bits.TrailingZeros64(cands))&63 | to<<6); p.legal(m) {
					return m
				}
				return NoMove
			}
		default:
			return NoMove
		}
	} else {
		own := p.byColor[us]
		if own>>to&1 != 0 {
			return NoMove
		}
		own &= p.byType[pt&7]
		// Between the piece letter and the destination: a file, a rank or
		// both, then x, each optional. (For n == 1 the file read above
		// was the piece letter.)
		if mid := n - 2 - int(sanCapture[s[n-2]]); mid != 0 {
			switch mid {
			case 1:
				own &= sanFileMask[s[1]] | sanRankMask[s[1]]
			case 2:
				own &= sanFileMask[s[1]] & sanRankMask[s[2]]
			default:
				return NoMove
			}
		}
		mg := &sanReach[pt&7][to]
		reach := mg.attacks[((occ&mg.mask)*mg.number)>>(mg.shift&63)&(maxMagicPart-1)]
		if pt == Queen {
			reach |= rookAttacks(Square(to), occ)
		}
		cands = reach & own
		if cands&(cands-1) != 0 {
			return p.sanAmong(cands, Square(to))
		}
	}
	if cands == 0 {
		return NoMove
	}
	// One piece can go there, as almost always.
	from := uint(bits.TrailingZeros64(cands)) & 63
	m := Move(from | to<<6)
	if pt == King {
		// The king does not shield the squares behind it on a line.
		if p.attacked(Square(to), Color(us^1), occ&^cands) {
			return NoMove
		}
		return m
	}
	// Legal at once when the side to move is not in check and no enemy
	// slider stands on the line through its king and from (if there is
	// one), so that the piece is not pinned.
	if p.checkers == 0 &&
		line[uint(p.kings[us&1])&63][from]&p.byColor[us^1]&(p.byType[Bishop]|p.byType[Rook]|p.byType[Queen]) == 0 ||
		p.legal(m) {
		return m
	}
	return NoMove
}

// sanAmong is sanFast's answer when several pieces of the named kind
// reach to (cands): the move of the one that may legally go there, or
// NoMove when none or more than one may (parseSAN says which).
func (p *Position) sanAmong(cands uint64, to Square) Move {
	found := NoMove
	for ; cands != 0; cands &= cands - 1 {
		if m := NewMove(lsb(cands), to, NoPieceType); p.legal(m) {
			if found != NoMove {
				return NoMove
			}
			found = m
		}
	}
	return found
}

// The tables sanFast reads a SAN's bytes with.
var (
	// sanPieceType is the piece type of a SAN piece letter, by byte: N,
	// B, R, Q or K; NoPieceType for every other byte.
	sanPieceType = [256]PieceType{'N': Knight, 'B': Bishop, 'R': Rook, 'Q': Queen, 'K': King}
	// sanCheckMark is 1 for the bytes that may end a SAN after its
	// destination: + and #.
	sanCheckMark = [256]uint8{'+': 1, '#': 1}
	// sanSquare is, by the two bytes of a square's name (the file's in
	// the low byte), 1 + the square; 0 for every other pair. One load
	// instead of two tests; the pairs of a name are 64 bytes on 8 lines.
	sanSquare = func() (t [1 << 16]uint8) {
		for sq := range 64 {
			t[('a'+sq&7)|('1'+sq>>3)<<8] = uint8(sq + 1)
		}
		return t
	}()
	// sanCapture is 1 for x.
	sanCapture = [256]uint8{'x': 1}
	// sanFileMask is the file a byte a-h names; sanRankMask the rank a
	// byte 1-8 names; 0 for every other byte.
	sanFileMask, sanRankMask = func() (files, ranks [256]uint64) {
		for i := range 8 {
			files['a'+i] = fileA << i
			ranks['1'+i] = rank1 << (8 * i)
		}
		return files, ranks
	}()
)

// sanReach gives, by piece type, the squares from which a piece of that
// type reaches a square, looked up as a slider's attacks are: a bishop's,
// a rook's, or the diagonal part of a queen's lines (her straight lines
// take one more lookup); a knight's or king's steps from a magic whose
// mask and number are 0, so that every lookup reads the first entry of
// its square's part, the steps. One lookup for every kind of piece, no
// branch on it. Pawns and the unused types have none.
var sanReach = [8]*[64]magic{Knight: &sanKnightReach, Bishop: &bishopMagics, Rook: &rookMagics, Queen: &bishopMagics, King: &sanKingReach}

// sanKnightReach and sanKingReach are the magics of sanReach for the
// knight and the king: each square's part of sanLeaperSteps starts with
// its steps.
var sanKnightReach, sanKingReach = leaperMagics(&sanLeaperSteps[0]), leaperMagics(&sanLeaperSteps[1])

// sanLeaperSteps are, by square, the squares a knight ([0]) and a king
// ([1]) step to, each followed by enough zeroes that a part starting at
// any square is as long as a slider table's (the type of magic.attacks).
var sanLeaperSteps = func() (t [2][64 + maxMagicPart]uint64) {
	for a := range 64 {
		for b := range 64 {
			df, dr := a&7-b&7, a>>3-b>>3
			if d := df*df + dr*dr; d == 5 { // a knight's step: 1 and 2
				t[0][a] |= 1 << b
			} else if d == 1 || d == 2 { // a king's: 1 and 0, or 1 and 1
				t[1][a] |= 1 << b
			}
		}
	}
	return t
}()

// leaperMagics returns the magics whose lookups on each square read that
// square's entry of steps, whatever the occupancy.
func leaperMagics(steps *[64 + maxMagicPart]uint64) (ms [64]magic) {
	for sq := range ms {
		ms[sq].attacks = (*[maxMagicPart]uint64)(steps[sq:])
	}
	return ms
}

// castleSANFast is sanFast for s (no + or #) that does not end with a
// square: O-O or O-O-O, or NoMove.
func (p *Position) castleSANFast(s string) Move {
	var dir int
	switch s {
	case "O-O":
		dir = 2
	case "O-O-O":
		dir = -2
	default:
		return NoMove
	}
	m, err := p.parseCastle(s, dir)
	if err != nil {
		return NoMove
	}
	return m
}

// promotionRanks are the ranks a pawn promotes on: the first and the last.
const promotionRanks = rank1 | rank8

// pawnStartRank is, by colour, the rank that colour's pawns start on.
var pawnStartRank = [2]uint64{rank1 << 8, rank8 >> 8}

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
