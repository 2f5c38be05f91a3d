package rules

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// FENError says which field of a FEN is wrong and why.
type FENError struct {
	FEN    string
	Field  string // "placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number", or "position"
	Reason string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("rules: bad FEN %s: %s: %s", excerpt(e.FEN), e.Field, e.Reason)
}

// maxFEN bounds the text ParseFEN reads: a FEN has at most about 90 bytes.
const maxFEN = 256

// ParseFEN reads a position of standard chess in Forsyth-Edwards
// Notation. The two clocks may be missing (they default to 0 and 1). The
// castling field may be written KQkq or with the files of the rooks
// (Shredder-FEN, HAha); a file letter naming an inner file (b to g) can
// only be Chess960, and makes the position a Chess960 one as
// ParseFENVariant reads it. Castling rights the position cannot have (the
// king is not on e1/e8 or no rook is in that corner) are void and dropped,
// as FIDE 9.2.3 requires for the identity; ParseFENNotes says which. An en
// passant square is kept only if an en passant capture is legal. A
// malformed field, a missing or extra king, a pawn on the first or last
// rank, or the side not to move in check is a *FENError.
func ParseFEN(fen string) (Position, error) {
	p, _, err := ParseFENNotes(fen)
	return p, err
}

// ParseFENNotes is ParseFEN that also returns notes on what the FEN claimed
// but the position cannot have (void castling rights, an en passant square
// with no capture possible), for tools that report such records.
func ParseFENNotes(fen string) (Position, []string, error) {
	return parseFEN(fen, Standard, true)
}

// ParseFENVariant reads a position of the variant v, as ParseFENNotes does,
// but never changes the variant. In Chess960 the castling field may be
// X-FEN (K and Q name the outermost rook on the king's side, a file letter
// a rook that is not the outermost) or Shredder-FEN (HAha); a right is
// void unless the king stands on its back rank with that rook on the same
// rank, and of two rights on one side of the king only the outer one
// counts. In Standard a file letter other than a or h names a void right.
func ParseFENVariant(fen string, v Variant) (Position, []string, error) {
	return parseFEN(fen, v, false)
}

// parseFEN reads fen in the variant v; with auto, a castling letter that
// only Chess960 can have makes it Chess960.
func parseFEN(fen string, v Variant, auto bool) (Position, []string, error) {
	var p Position
	var notes []string
	bad := func(field, format string, args ...any) (Position, []string, error) {
		return Position{}, nil, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if len(fen) > maxFEN {
		return bad("position", "longer than %d bytes", maxFEN)
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return bad("position", "want 4 to 6 space-separated fields, have %d", len(fields))
	}
	// Placement, rank 8 first.
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return bad("placement", "want 8 ranks separated by '/', have %d", len(ranks))
	}
	for i, rk := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(rk); j++ {
			c := rk[j]
			if c >= '1' && c <= '8' {
				f += int(c - '0')
				continue
			}
			t := PieceType(strings.IndexByte(pieceLetters, c|0x20))
			if c == ' ' || t <= NoPieceType || t > King {
				return bad("placement", "rank %d: %q is not a piece letter or a digit", r+1, c)
			}
			if f > 7 {
				return bad("placement", "rank %d has more than 8 squares", r+1)
			}
			col := White
			if c >= 'a' {
				col = Black
			}
			if t == Pawn && (r == 0 || r == 7) {
				return bad("placement", "pawn on rank %d", r+1)
			}
			p.put(NewSquare(f, r), NewPiece(col, t))
			f++
		}
		if f != 8 {
			return bad("placement", "rank %d has %d squares, want 8", r+1, f)
		}
	}
	for _, c := range []Color{White, Black} {
		if n := popcount(p.pieces(c, King)); n != 1 {
			return bad("placement", "%s has %d kings, want 1", c, n)
		}
	}
	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
	default:
		return bad("side to move", "%q is neither w nor b", fields[1])
	}
	if p.attacked(p.kingSquare(p.turn.Other()), p.turn, p.occupied()) {
		return bad("position", "the side not to move (%s) is in check", p.turn.Other())
	}
	// Castling: KQkq (X-FEN) or rook files (Shredder-FEN).
	if fields[2] != "-" {
		letters := fields[2]
		for j := 0; j < len(letters); j++ {
			c := letters[j]
			switch l := c | 0x20; {
			case l == 'k' || l == 'q':
			case l >= 'a' && l <= 'h':
				if auto && l != 'a' && l != 'h' {
					v = Chess960
				}
			default:
				return bad("castling", "%q is not a castling letter (KQkq, or the file of a rook, a to h)", c)
			}
		}
		p.variant = v
		for j := 0; j < len(letters); j++ {
			p.castle |= p.castlingLetter(letters[j])
		}
		kept := p.cleanCastling()
		for j := 0; j < len(letters); j++ {
			if right := p.castlingLetter(letters[j]); right&kept == 0 {
				notes = append(notes, p.voidCastlingNote(letters[j], right))
			}
		}
		p.castle = kept
	}
	p.variant = v
	p.ep = NoSquare
	if fields[3] != "-" {
		s, err := ParseSquare(fields[3])
		if err != nil {
			return bad("en passant", "%q is not a square or -", fields[3])
		}
		wantRank, pawnSq, fromSq := 5, s-8, s+8
		if p.turn == Black {
			wantRank, pawnSq, fromSq = 2, s+8, s-8
		}
		mover := p.turn.Other()
		if s.Rank() != wantRank {
			return bad("en passant", "%s is not on rank %d, where a pawn that just moved two squares passed", s, wantRank+1)
		}
		if p.board[pawnSq] != NewPiece(mover, Pawn) || p.board[s] != NoPiece || p.board[fromSq] != NoPiece {
			notes = append(notes, fmt.Sprintf("en passant square %s ignored: no %s pawn can just have moved two squares past it", s, mover))
		} else {
			p.setEnPassant(s, pawnSq)
			if p.ep == NoSquare {
				notes = append(notes, fmt.Sprintf("en passant square %s ignored: no legal en passant capture", s))
			}
		}
	}
	p.fullmove = 1
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > 1<<20 {
			return bad("halfmove clock", "%q is not a number of half-moves", fields[4])
		}
		p.halfmove = int32(n)
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 0 || n > 1<<20 {
			return bad("fullmove number", "%q is not a move number", fields[5])
		}
		if n == 0 {
			n = 1
		}
		p.fullmove = int32(n)
	}
	p.hash = p.computeHash()
	p.meta = p.computeMeta()
	p.checkers = p.computeCheckers()
	return p, notes, nil
}

// FEN returns the position in Forsyth-Edwards Notation, with only the
// castling rights the position has and the en passant square only when an
// en passant capture is legal.
func (p *Position) FEN() string { return string(p.appendFEN(make([]byte, 0, 96), false, true)) }

// fenLetter is the FEN letter of a piece, by Piece.
var fenLetter = [16]byte{1: 'P', 'N', 'B', 'R', 'Q', 'K', 9: 'p', 'n', 'b', 'r', 'q', 'k'}

// appendFEN appends the position in FEN to b: X-FEN castling rights, or
// Shredder-FEN's files; with the two counters or without (an EPD).
func (p *Position) appendFEN(b []byte, shredder, counters bool) []byte {
	occ := p.byColor[White] | p.byColor[Black]
	for r := 7; r >= 0; r-- {
		// The occupied squares of the rank, one after the other, with the
		// count of the empty ones before each.
		f := 0
		for row := uint8(occ >> (8 * r)); row != 0; row &= row - 1 {
			next := bits.TrailingZeros8(row)
			if next > f {
				b = append(b, byte('0'+next-f))
			}
			b = append(b, fenLetter[p.board[(r<<3|next)&63]&15])
			f = next + 1
		}
		if f < 8 {
			b = append(b, byte('0'+8-f))
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	if p.turn == White {
		b = append(b, " w "...)
	} else {
		b = append(b, " b "...)
	}
	b = p.appendCastling(b, shredder)
	if p.ep < 0 || p.ep > 63 {
		b = append(b, " -"...)
	} else {
		b = append(b, ' ', byte('a'+p.ep.File()), byte('1'+p.ep.Rank()))
	}
	if counters {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(p.halfmove), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(p.fullmove), 10)
	}
	return b
}

// castlingFEN writes the castling rights in X-FEN, as python-chess and
// Lichess do: K or Q for a right of the outermost rook on that side of the
// king, the rook's file for any other; white first, h-side first. Standard
// positions come out as KQkq.
func (p *Position) castlingFEN() string {
	return string(p.appendCastling(nil, false))
}

// ShredderFEN returns the position in FEN with the castling rights written
// as the files of their rooks (Shredder-FEN: HAha), which says which rook
// without looking at the board.
func (p *Position) ShredderFEN() string {
	return string(p.appendFEN(make([]byte, 0, 96), true, true))
}

func (p *Position) writeCastling(shredder bool) string {
	return string(p.appendCastling(nil, shredder))
}

// appendCastling appends the castling rights to b as writeCastling says
// them.
func (p *Position) appendCastling(b []byte, shredder bool) []byte {
	if p.castle == 0 {
		return append(b, '-')
	}
	for _, c := range []Color{White, Black} {
		rights := castlingRights(c, p.castle)
		kingFile := p.kingSquare(c).File()
		rooks := backRankRooks(p, c)
		for f := 7; f >= 0; f-- {
			if rights&(1<<f) == 0 {
				continue
			}
			letter := byte('a' + f)
			if !shredder {
				beyond := rooks &^ (1<<(f+1) - 1) // own rooks further out on the h-side
				letter = 'k'
				if f < kingFile {
					beyond = rooks & (1<<f - 1)
					letter = 'q'
				}
				if beyond != 0 {
					letter = byte('a' + f)
				}
			}
			if c == White {
				letter -= 'a' - 'A'
			}
			b = append(b, letter)
		}
	}
	return b
}

// backRankRooks returns the files of the rooks of colour c on c's back
// rank, one bit each.
func backRankRooks(p *Position, c Color) uint8 {
	return uint8(p.pieces(c, Rook) >> (56 * uint(c)))
}

// castlingLetter returns the right a castling letter of a FEN asks for:
// the rook of that file, or for K and Q the outermost rook on the king's
// side (the h- or a-file square when there is none, a right that will be
// void). In standard chess K and Q are the corners.
func (p *Position) castlingLetter(c byte) uint16 {
	col := White
	if c >= 'a' {
		col = Black
	}
	l := c | 0x20
	base := 56 * Square(col)
	file := int(l - 'a')
	if l == 'k' || l == 'q' {
		file = 7
		if l == 'q' {
			file = 0
		}
		k := p.kingSquare(col)
		rooks := backRankRooks(p, col)
		if p.variant == Chess960 && k&^7 == base {
			if l == 'k' && rooks>>uint(k.File()+1) != 0 {
				file = 7 - bits.LeadingZeros8(rooks)
			}
			if l == 'q' && rooks&(1<<uint(k.File())-1) != 0 {
				file = bits.TrailingZeros8(rooks)
			}
		}
	}
	return castlingRightOf[base+Square(file)]
}

// cleanCastling returns the rights of p.castle that the position can have:
// a rook of that colour on that square and its king on the same back rank,
// the king between the rooks (in standard chess: on e1/e8, the rooks in
// the corners); of several rights on one side of the king only the
// outermost counts (there is one way to castle to each side).
func (p *Position) cleanCastling() uint16 {
	var kept uint16
	for _, c := range []Color{White, Black} {
		k := p.kingSquare(c)
		if k&^7 != 56*Square(c) {
			continue
		}
		rights := castlingRights(c, p.castle) & backRankRooks(p, c)
		if p.variant == Standard {
			if k.File() != 4 {
				continue
			}
			rights &= 1<<0 | 1<<7
		}
		if rights == 0 {
			continue
		}
		var out uint8
		if a := bits.TrailingZeros8(rights); a < k.File() {
			out |= 1 << a
		}
		if h := 7 - bits.LeadingZeros8(rights); h > k.File() {
			out |= 1 << h
		}
		kept |= uint16(out) << (8 * uint(c))
	}
	return kept
}

// voidCastlingNote says why the right asked for by the castling letter c
// (right, one bit) is void.
func (p *Position) voidCastlingNote(c byte, right uint16) string {
	col := White
	if c >= 'a' {
		col = Black
	}
	rook := NewSquare(bits.TrailingZeros16(right)&7, 7*int(col))
	k := p.kingSquare(col)
	switch {
	case p.variant == Standard:
		return fmt.Sprintf("castling right %c is void: the %s king is not on %s or no %s rook is on %s", c, col, NewSquare(4, rook.Rank()), col, rook)
	case k.Rank() != rook.Rank():
		return fmt.Sprintf("castling right %c is void: the %s king is not on its back rank", c, col)
	case p.board[rook] != NewPiece(col, Rook):
		return fmt.Sprintf("castling right %c is void: no %s rook is on %s", c, col, rook)
	default:
		return fmt.Sprintf("castling right %c is void: the %s king on %s castles with one rook on each side, the outermost with a right", c, col, k)
	}
}
