package explain

import (
	"strings"
	"unicode/utf8"

	"github.com/threefold-chess/threefold/rules"
)

// glyphs are the Unicode chess pieces by colour and type (index 0 unused).
var glyphs = [2][7]string{
	{"", "♙", "♘", "♗", "♖", "♕", "♔"},
	{"", "♟", "♞", "♝", "♜", "♛", "♚"},
}

func glyph(pc rules.Piece) string {
	if pc == rules.NoPiece {
		return "·"
	}
	return glyphs[pc.Color()][pc.Type()]
}

// boardGap is the space between the two boards of Text.
const boardGap = "      "

// Text writes the report for a terminal: the two boards side by side, with
// a name, the side to move, the castling rights and the en passant
// captures of each, the squares that differ marked [ ]; then the verdict,
// each reason, and the notes.
func (r *Report) Text() string {
	var cols [2][]string
	differs := map[rules.Square]bool{}
	for _, sq := range r.cmp.Squares {
		differs[sq.Square] = true
	}
	for i := range cols {
		cols[i] = boardLines(r.text, &r.cmp.Positions[i], r.names[i].noun, differs)
	}
	width := 0
	for _, l := range cols[0] {
		width = max(width, utf8.RuneCountInString(l))
	}
	var b strings.Builder
	for i := range cols[0] {
		left, right := cols[0][i], cols[1][i]
		if left == "" && right == "" {
			continue // no en passant capture in either
		}
		line := left + strings.Repeat(" ", width-utf8.RuneCountInString(left)) + boardGap + right
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(differs) > 0 {
		b.WriteString(r.text.say(msgLegendSquares) + "\n")
	}
	b.WriteString("\n" + r.Verdict + "\n")
	for _, d := range r.Differences {
		b.WriteString("- " + d.Explanation + "\n")
	}
	for _, n := range r.Notes {
		b.WriteString(n + "\n")
	}
	return b.String()
}

// boardLines draws one position: its name, the side to move, the board
// (White at the bottom) and its rights.
func boardLines(t *Messages, p *rules.Position, title string, differs map[rules.Square]bool) []string {
	lines := []string{upperFirst(title), t.say(msgCaptionToMove, colorName(t, p.Turn())), "   a  b  c  d  e  f  g  h"}
	for rank := 7; rank >= 0; rank-- {
		var b strings.Builder
		b.WriteByte(byte('1' + rank))
		b.WriteByte(' ')
		for file := 0; file < 8; file++ {
			s := rules.NewSquare(file, rank)
			if differs[s] {
				b.WriteString("[" + glyph(p.PieceAt(s)) + "]")
			} else {
				b.WriteString(" " + glyph(p.PieceAt(s)) + " ")
			}
		}
		lines = append(lines, b.String())
	}
	lines = append(lines, castlingCaption(t, p), enPassantCaption(t, p))
	return lines
}

// castlingCaption says which castling rights p holds, in the castling
// field of its FEN (KQkq, or rook files in Chess960).
func castlingCaption(t *Messages, p *rules.Position) string {
	field := strings.Fields(p.FEN())[2]
	if field == "-" {
		return t.say(msgCaptionNoCastling)
	}
	return t.say(msgCaptionCastling, field)
}

// enPassantCaption names the en passant captures possible in p, or is
// empty.
func enPassantCaption(t *Messages, p *rules.Position) string {
	caps := p.EnPassantCaptures()
	if len(caps) == 0 {
		return ""
	}
	san := make([]string, len(caps))
	for i, m := range caps {
		san[i] = p.SAN(m)
	}
	return t.say(msgCaptionEnPassant, strings.Join(san, ", "))
}
