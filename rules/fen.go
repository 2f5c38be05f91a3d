package rules

import (
	"fmt"
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

// ParseFEN reads a position in Forsyth-Edwards Notation. The two clocks may
// be missing (they default to 0 and 1). Castling rights the position cannot
// have (the king or the rook is not on its original square) are void and
// dropped, as FIDE 9.2.3 requires for the identity; ParseFENNotes says
// which. An en passant square is kept only if an en passant capture is
// legal. A malformed field, a missing or extra king, a pawn on the first or
// last rank, or the side not to move in check is a *FENError.
func ParseFEN(fen string) (Position, error) {
	p, _, err := ParseFENNotes(fen)
	return p, err
}

// ParseFENNotes is ParseFEN that also returns notes on what the FEN claimed
// but the position cannot have (void castling rights, an en passant square
// with no capture possible), for tools that report such records.
func ParseFENNotes(fen string) (Position, []string, error) {
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
	// Castling: KQkq, or Shredder-FEN file letters naming the corner rooks.
	if fields[2] != "-" {
		for j := 0; j < len(fields[2]); j++ {
			var right uint8
			switch c := fields[2][j]; c {
			case 'K', 'H':
				right = castleWK
			case 'Q', 'A':
				right = castleWQ
			case 'k', 'h':
				right = castleBK
			case 'q', 'a':
				right = castleBQ
			default:
				return bad("castling", "%q is not one of KQkq (other rook files are Chess960, which threefold does not play)", c)
			}
			p.castle |= right
		}
	}
	for _, r := range []struct {
		right      uint8
		king, rook Square
		c          Color
		name       string
	}{
		{castleWK, E1, H1, White, "K"}, {castleWQ, E1, A1, White, "Q"},
		{castleBK, E8, H8, Black, "k"}, {castleBQ, E8, A8, Black, "q"},
	} {
		if p.castle&r.right == 0 {
			continue
		}
		if p.board[r.king] != NewPiece(r.c, King) || p.board[r.rook] != NewPiece(r.c, Rook) {
			p.castle &^= r.right
			notes = append(notes, fmt.Sprintf("castling right %s is void: the %s king is not on %s or no %s rook is on %s", r.name, r.c, r.king, r.c, r.rook))
		}
	}
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
	return p, notes, nil
}

// FEN returns the position in Forsyth-Edwards Notation, with only the
// castling rights the position has and the en passant square only when an
// en passant capture is legal.
func (p *Position) FEN() string {
	return fmt.Sprintf("%s %s %s %s %d %d", p.placementFEN(), p.turnFEN(), p.castlingFEN(), p.ep, p.halfmove, p.fullmove)
}

func (p *Position) placementFEN() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[NewSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

func (p *Position) turnFEN() string {
	if p.turn == White {
		return "w"
	}
	return "b"
}

func (p *Position) castlingFEN() string {
	if p.castle == 0 {
		return "-"
	}
	var b []byte
	for i, c := range "KQkq" {
		if p.castle&(1<<i) != 0 {
			b = append(b, byte(c))
		}
	}
	return string(b)
}
