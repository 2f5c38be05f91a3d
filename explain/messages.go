package explain

import (
	"fmt"

	"github.com/threefold-chess/threefold/internal/i18n"
)

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

	msgClaimCorrect
	msgClaimCorrectMove
	msgClaimIncorrect
	msgClaimIncorrectMove
	msgClaimOccurred
	msgClaimByMove
	msgClaimFifty
	msgClaimFiftyByMove
	msgClaimOnce
	msgClaimTwice
	msgClaimMoveNew
	msgClaimMoveSecond
	msgClaimNear
	msgClaimNoFifty
	msgClaimHintByMove
	msgClaimHintFiftyByMove
	msgClaimAfterFivefold
	msgClaimAfterSeventyFive
	msgClaimListItem
	msgClaimListStart
	msgClaimBeforeStart

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

	// threefold claim: the verdict (who, at which ply, the move declared,
	// the rule), then the reasons and notes.
	msgClaimCorrect:          "%[1]s claims a draw at %[2]s: the claim is correct (FIDE %[3]s).",
	msgClaimCorrectMove:      "%[1]s claims a draw at %[2]s, declaring %[3]s: the claim is correct (FIDE %[4]s).",
	msgClaimIncorrect:        "%[1]s claims a draw at %[2]s: the claim is not correct.",
	msgClaimIncorrectMove:    "%[1]s claims a draw at %[2]s, declaring %[3]s: the claim is not correct.",
	msgClaimOccurred:         "The position of %[1]s has occurred %[2]d times, at plies %[3]s, and the claimant has the move (9.2.2).",
	msgClaimByMove:           "The declared move %[1]s makes, at ply %[2]d, a position that has occurred %[3]d times before, at plies %[4]s (9.2.1).",
	msgClaimFifty:            "No pawn has moved and nothing has been captured in the last %[1]d moves of each player, since %[2]s (9.3.2).",
	msgClaimFiftyByMove:      "The declared move %[1]s, neither a pawn move nor a capture, completes 50 moves of each player without a pawn move or a capture, since %[2]s (9.3.1).",
	msgClaimOnce:             "The position of %[1]s has not occurred before.",
	msgClaimTwice:            "The position of %[1]s has occurred twice, at plies %[2]s: a claim under 9.2.2 needs a third occurrence.",
	msgClaimMoveNew:          "The declared move %[1]s makes a position that has not occurred before.",
	msgClaimMoveSecond:       "The declared move %[1]s makes, at ply %[2]d, a position that has occurred once before, at ply %[3]s: a claim under 9.2.1 needs two earlier occurrences.",
	msgClaimNear:             "At %[1]s the pieces stood on the same squares with the same player to move, but it was not the same position: %[2]s",
	msgClaimNoFifty:          "No pawn has moved and nothing has been captured for %[1]d half-moves, since %[2]s: a claim under 9.3 needs 50 moves of each player (100 half-moves).",
	msgClaimHintByMove:       "A claim declaring %[1]s would be correct (9.2.1).",
	msgClaimHintFiftyByMove:  "A claim declaring a move that is neither a pawn move nor a capture would be correct (9.3.1).",
	msgClaimAfterFivefold:    "The game was already drawn at %[1]s, where a position occurred the fifth time (9.6.1): no claim was needed.",
	msgClaimAfterSeventyFive: "75 moves of each player have been made without a pawn move or a capture: the game is drawn (9.6.2), no claim is needed.",
	msgClaimListItem:         "%[1]d (%[2]s)",
	msgClaimListStart:        "0 (the start position)",
	msgClaimBeforeStart:      "before the start position (its FEN counts the half-moves)",
}

// catalogues are the messages of each language threefold speaks.
var catalogues = map[i18n.Lang]*Messages{
	i18n.English: &English, i18n.Russian: &Russian, i18n.Turkish: &Turkish, i18n.Persian: &Persian,
}

// For returns the messages of a language; an unknown one is English.
func For(l i18n.Lang) *Messages {
	if t, ok := catalogues[l]; ok {
		return t
	}
	return &English
}

// say returns the sentence m with its placeholders filled.
func (t *Messages) say(m message, args ...any) string { return fmt.Sprintf(t[m], args...) }
