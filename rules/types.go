package rules

import (
	"fmt"
	"strings"
	"unicode"
)

// Color is a side: White or Black.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is the kind of a piece, without colour.
type PieceType uint8

const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

const pieceLetters = " pnbrqk"

// Letter returns the lower-case letter of the piece type ("" for none).
func (t PieceType) Letter() string {
	if t == NoPieceType || t > King {
		return ""
	}
	return pieceLetters[t : t+1]
}

func (t PieceType) String() string {
	return [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king"}[t%7]
}

// Piece is a piece of one colour, or NoPiece.
type Piece uint8

// NoPiece is the empty square.
const NoPiece Piece = 0

// NewPiece returns the piece of the given colour and type.
func NewPiece(c Color, t PieceType) Piece { return Piece(uint8(c)<<3 | uint8(t)) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// String returns the FEN letter: upper case for White, "." for NoPiece.
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	l := pieceLetters[p.Type()]
	if p.Color() == White {
		l -= 'a' - 'A'
	}
	return string(rune(l))
}

// Square is a square of the board: 0 is a1, 7 is h1, 63 is h8.
type Square int8

// NoSquare is the absence of a square.
const NoSquare Square = -1

// The squares whose names the package uses.
const (
	A1 Square = 0
	C1 Square = 2
	D1 Square = 3
	E1 Square = 4
	F1 Square = 5
	G1 Square = 6
	H1 Square = 7
	A8 Square = 56
	C8 Square = 58
	D8 Square = 59
	E8 Square = 60
	F8 Square = 61
	G8 Square = 62
	H8 Square = 63
)

// NewSquare returns the square on file (0 = a) and rank (0 = 1).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file … 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank … 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square name such as "e4".
func ParseSquare(name string) (Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, fmt.Errorf("rules: %s is not a square", excerpt(name))
	}
	return NewSquare(int(name[0]-'a'), int(name[1]-'1')), nil
}

func (s Square) bb() uint64 { return 1 << uint(s) }

// Move is a move of the side to move: from, to and the promotion piece.
// Castling is the king taking its own rook (e1h1): from is the king's
// square, to the rook's. That form says which rook castles, the only way
// to say it in Chess960, where the king may start anywhere between its
// rooks and may not move at all. The zero value is NoMove.
type Move uint16

// NoMove is the absence of a move.
const NoMove Move = 0

// castlingFlag marks castling; to is then the rook's square.
const castlingFlag Move = 1 << 15

// NewMove returns the move from, to, promoting to promo (NoPieceType if
// none). It is never castling: ParseUCI, ParseSAN and LegalMoves make
// castling moves.
func NewMove(from, to Square, promo PieceType) Move {
	return Move(uint16(from) | uint16(to)<<6 | uint16(promo)<<12)
}

// newCastling returns castling of the king on king with the rook on rook.
func newCastling(king, rook Square) Move {
	return NewMove(king, rook, NoPieceType) | castlingFlag
}

// From returns the square the piece leaves (for castling, the king's).
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the piece arrives on; for castling, the square of
// the rook the king castles with (see CastlingSquares for where they go).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the piece a pawn promotes to, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 12 & 7) }

// IsCastling reports whether m is castling.
func (m Move) IsCastling() bool { return m&castlingFlag != 0 }

// CastlingSquares returns where the king and the rook of the castling
// move m stand afterwards: g and f (rook beyond the king on the h-side),
// or c and d, on their back rank, in standard chess and Chess960 alike.
func (m Move) CastlingSquares() (king, rook Square) {
	base := m.From() &^ 7
	if m.To() > m.From() {
		return base + 6, base + 5
	}
	return base + 2, base + 3
}

// UCI returns the move in UCI notation as standard chess writes it:
// castling from e1 or e8 with a rook in the corner as the king's
// two-square move (e1g1), every other castling as the king taking its
// rook (b1a1). A Chess960 engine wants UCIChess960.
func (m Move) UCI() string {
	if m.IsCastling() && m.From().File() == 4 && (m.To().File() == 0 || m.To().File() == 7) {
		k, _ := m.CastlingSquares()
		return NewMove(m.From(), k, NoPieceType).UCIChess960()
	}
	return m.UCIChess960()
}

// UCIChess960 returns the move in UCI notation with castling always as
// the king taking its own rook (e1h1): the form of UCI_Chess960 engines,
// and one that Lichess accepts in every game.
func (m Move) UCIChess960() string {
	if m == NoMove {
		return "0000"
	}
	b := make([]byte, 4, 5)
	from, to := m.From(), m.To()
	b[0], b[1] = byte('a'+from.File()), byte('1'+from.Rank())
	b[2], b[3] = byte('a'+to.File()), byte('1'+to.Rank())
	if p := m.Promotion(); p != NoPieceType {
		b = append(b, pieceLetters[p])
	}
	return string(b)
}

func (m Move) String() string { return m.UCI() }

// Variant is the set of rules a position is played under. The repetition
// rule is the same in both; they differ in where the pieces start and so
// in how castling is written and which castling rights a FEN can give.
type Variant uint8

const (
	// Standard is standard chess: castling rights only with the king on e1
	// or e8 and a rook in a corner.
	Standard Variant = iota
	// Chess960 is Fischer random chess (Freestyle): the king between its
	// rooks anywhere on the back rank, castling rights held per rook.
	Chess960
)

// String returns "standard" or "chess960".
func (v Variant) String() string {
	if v == Chess960 {
		return "chess960"
	}
	return "standard"
}

// MarshalText writes v as String does.
func (v Variant) MarshalText() ([]byte, error) {
	if v > Chess960 {
		return nil, fmt.Errorf("rules: unknown variant %d", uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads a variant's name as ParseVariant does.
func (v *Variant) UnmarshalText(b []byte) error {
	var err error
	*v, err = ParseVariant(string(b))
	return err
}

// ParseVariant reads the name of a variant as PGN's [Variant] tag, Lichess
// and chess.com write it, ignoring case, spaces, hyphens and underscores:
// "" and Standard, From Position (fromPosition), normal, chess are standard
// chess; Chess960 (Chess 960), Fischerandom, Fischer Random, Freestyle and
// wild/fr are Chess960. Any other variant (crazyhouse, atomic, three-check,
// king of the hill, horde, racing kings, antichess, a name not known) has
// a repetition rule of its own, which threefold does not follow: a
// *VariantError.
func ParseVariant(name string) (Variant, error) {
	key := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '_', '\t':
			return -1
		}
		return unicode.ToLower(r)
	}, name)
	switch key {
	case "", "standard", "fromposition", "normal", "chess":
		return Standard, nil
	case "chess960", "fischerandom", "fischerrandom", "freestyle", "freestylechess", "wild/fr":
		return Chess960, nil
	}
	return Standard, &VariantError{Name: name}
}

// VariantError is a game in a variant other than standard chess and
// Chess960: its repetition rule differs (crazyhouse counts the pockets,
// three-check the checks given) and threefold does not follow it.
type VariantError struct {
	Name string // as written
}

func (e *VariantError) Error() string {
	return fmt.Sprintf("variant %s is not supported: its repetition rule differs (threefold follows standard chess and Chess960)", excerpt(e.Name))
}
