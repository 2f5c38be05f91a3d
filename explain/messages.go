package explain

import "fmt"

// message names one sentence (or one phrase that a sentence takes as a
// placeholder) that the package shows to a person.
type message int

// Every message of the package. The English text of each is in English,
// below; a translation is another Messages with the same entries.
const (
	msgWhite message = iota
	msgBlack
	msgWhiteLower
	msgBlackLower

	msgWhitePawn
	msgWhiteKnight
	msgWhiteBishop
	msgWhiteRook
	msgWhiteQueen
	msgWhiteKing
	msgBlackPawn
	msgBlackKnight
	msgBlackBishop
	msgBlackRook
	msgBlackQueen
	msgBlackKing
	msgNoPiece

	msgPlyNoun
	msgStartNoun
	msgPlyAt
	msgStartAt
	msgFirstNoun
	msgSecondNoun
	msgFirstAt
	msgSecondAt

	msgSame
	msgNotSame
	msgClocksOnly
	msgSideToMove
	msgSquare
	msgSquaresMany
	msgCastlingHeld
	msgCastlingLostKing
	msgCastlingLostRook
	msgCastlingLostCapture
	msgCastlingBlocked
	msgEnPassant

	msgCaptionToMove
	msgCaptionCastling
	msgCaptionNoCastling
	msgCaptionEnPassant
	msgLegendSquares

	msgCount
)

// Messages is the text of every message in one language: whole sentences
// whose placeholders (%[1]s, %[2]d, …) are numbered, so that a
// translation may put them in another order.
type Messages [msgCount]string

// English is the text of every message in English.
var English = Messages{
	msgWhite:      "White",
	msgBlack:      "Black",
	msgWhiteLower: "white",
	msgBlackLower: "black",

	msgWhitePawn:   "a white pawn",
	msgWhiteKnight: "a white knight",
	msgWhiteBishop: "a white bishop",
	msgWhiteRook:   "a white rook",
	msgWhiteQueen:  "a white queen",
	msgWhiteKing:   "the white king",
	msgBlackPawn:   "a black pawn",
	msgBlackKnight: "a black knight",
	msgBlackBishop: "a black bishop",
	msgBlackRook:   "a black rook",
	msgBlackQueen:  "a black queen",
	msgBlackKing:   "the black king",
	msgNoPiece:     "nothing",

	// The names of the two positions compared: as a noun (in the verdict
	// and above the boards), and shorter with the preposition that says
	// "in that position" (in the reasons).
	msgPlyNoun:    "ply %[1]d (after %[2]s)",
	msgStartNoun:  "ply 0 (the start position)",
	msgPlyAt:      "at ply %[1]d",
	msgStartAt:    "at ply 0",
	msgFirstNoun:  "the first position",
	msgSecondNoun: "the second position",
	msgFirstAt:    "in the first position",
	msgSecondAt:   "in the second position",

	msgSame:                "Same position: %[1]s and %[2]s have the same player to move, the same pieces on the same squares, the same castling rights and the same en passant captures (FIDE 9.2.3).",
	msgNotSame:             "Not the same position: %[1]s and %[2]s differ (FIDE 9.2.3).",
	msgClocksOnly:          "The move numbers or the clocks differ, but they are never part of the comparison.",
	msgSideToMove:          "%[1]s has the move %[2]s, %[3]s %[4]s.",
	msgSquare:              "On %[1]s stands %[2]s %[3]s and %[4]s %[5]s.",
	msgSquaresMany:         "The pieces differ on %[1]d squares: %[2]s.",
	msgCastlingHeld:        "%[1]s holds the right to castle with the rook on %[2]s (%[3]s) %[4]s but not %[5]s.",
	msgCastlingLostKing:    "%[1]s holds the right to castle with the rook on %[2]s (%[3]s) %[4]s but not %[5]s: the king moved at ply %[6]d (%[7]s), and a lost right never returns.",
	msgCastlingLostRook:    "%[1]s holds the right to castle with the rook on %[2]s (%[3]s) %[4]s but not %[5]s: the rook left %[2]s at ply %[6]d (%[7]s), and a lost right does not return when the rook comes back.",
	msgCastlingLostCapture: "%[1]s holds the right to castle with the rook on %[2]s (%[3]s) %[4]s but not %[5]s: the rook was captured on %[2]s at ply %[6]d (%[7]s).",
	msgCastlingBlocked:     "%[1]s cannot castle with the rook on %[2]s (%[3]s) %[4]s nor %[5]s, yet holds the right: the right counts, not whether castling is possible at this moment.",
	msgEnPassant:           "%[1]s can capture en passant %[2]s: %[3]s, the pawn on %[4]s takes on %[5]s; %[6]s this capture is not possible.",

	msgCaptionToMove:     "%[1]s to move",
	msgCaptionCastling:   "castling rights: %[1]s",
	msgCaptionNoCastling: "no castling rights",
	msgCaptionEnPassant:  "en passant: %[1]s",
	msgLegendSquares:     "[ ] marks a square whose occupant differs.",
}

// text is the catalogue the package speaks from.
var text = &English

// say returns the sentence m with its placeholders filled.
func say(m message, args ...any) string { return fmt.Sprintf(text[m], args...) }
