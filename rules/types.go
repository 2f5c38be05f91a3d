package rules

import "fmt"

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
// Castling is the king's move of two squares (e1g1); ParseUCI also accepts
// the king-to-rook form (e1h1). The zero value is NoMove.
type Move uint16

// NoMove is the absence of a move.
const NoMove Move = 0

// NewMove returns the move from, to, promoting to promo (NoPieceType if none).
func NewMove(from, to Square, promo PieceType) Move {
	return Move(uint16(from) | uint16(to)<<6 | uint16(promo)<<12)
}

// From returns the square the piece leaves.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the piece arrives on (for castling, the king's).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the piece a pawn promotes to, or NoPieceType.
func (m Move) Promotion() PieceType { return PieceType(m >> 12 & 7) }

// UCI returns the move in UCI notation with standard castling (e1g1).
func (m Move) UCI() string {
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
