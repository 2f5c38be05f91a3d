package explain

import (
	"fmt"
	"html"
	"strings"

	"github.com/threefold-chess/threefold/rules"
)

// The geometry of the SVG drawing: two boards side by side, each with its
// name and side to move above and its rights below.
const (
	svgSquare  = 40
	svgBoard   = 8 * svgSquare
	svgMargin  = 24 // for the coordinates
	svgTop     = 56 // for the name and the side to move
	svgBottom  = 64 // for the rights and the legend
	svgGap     = 48
	svgPanel   = svgMargin + svgBoard + 16
	svgWidth   = 2*svgPanel + svgGap
	svgHeight  = svgTop + svgBoard + svgMargin + svgBottom
	svgLight   = "#f0d9b5"
	svgDark    = "#b58863"
	svgPlace   = "#d62728" // a square whose occupant differs
	svgRight   = "#1f77b4" // a castling right held in one and not the other
	svgCapture = "#2ca02c" // an en passant capture possible in one and not the other
	svgTurn    = "#ff7f0e" // the side to move differs
)

// SVG draws the two positions side by side as the same-position page does:
// each board with its name, the side to move and its rights, the squares
// whose occupant differs outlined in red, the rook of a castling right
// held in one and not the other circled in blue (dashed where the right is
// gone), the en passant capture possible in one and not the other as a
// green arrow, and the side-to-move marker ringed in orange when it
// differs.
func (r *Report) SVG() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">`+"\n", svgWidth, svgHeight, svgWidth, svgHeight)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="` + svgCapture + `"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	for i := range r.cmp.Positions {
		r.svgBoard(&b, i, i*(svgPanel+svgGap))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// svgBoard draws position i with its left edge at x0.
func (r *Report) svgBoard(b *strings.Builder, i, x0 int) {
	p := &r.cmp.Positions[i]
	bx, by := x0+svgMargin, svgTop
	text := func(x, y, size int, anchor, fill, s string) {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d" text-anchor="%s" fill="%s">%s</text>`+"\n", x, y, size, anchor, fill, html.EscapeString(s))
	}
	text(bx, 20, 15, "start", "black", upperFirst(r.names[i].noun))
	// The side to move: a disc of its colour and the words.
	turnFill := "white"
	if p.Turn() == rules.Black {
		turnFill = "black"
	}
	ring := "black"
	ringWidth := 1
	if r.cmp.Diff.Has(rules.DiffSideToMove) {
		ring, ringWidth = svgTurn, 4
	}
	fmt.Fprintf(b, `<circle cx="%d" cy="40" r="8" fill="%s" stroke="%s" stroke-width="%d"/>`+"\n", bx+8, turnFill, ring, ringWidth)
	text(bx+24, 45, 14, "start", "black", r.text.say(msgCaptionToMove, colorName(r.text, p.Turn())))
	// Squares, coordinates, pieces.
	at := func(s rules.Square) (int, int) {
		return bx + s.File()*svgSquare, by + (7-s.Rank())*svgSquare
	}
	for s := rules.Square(0); s < 64; s++ {
		x, y := at(s)
		fill := svgLight
		if (s.File()+s.Rank())%2 == 0 {
			fill = svgDark
		}
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", x, y, svgSquare, svgSquare, fill)
	}
	for f := 0; f < 8; f++ {
		text(bx+f*svgSquare+svgSquare/2, by+svgBoard+16, 12, "middle", "#555", string(rune('a'+f)))
		text(bx-12, by+(7-f)*svgSquare+svgSquare/2+4, 12, "middle", "#555", string(rune('1'+f)))
	}
	for s := rules.Square(0); s < 64; s++ {
		pc := p.PieceAt(s)
		if pc == rules.NoPiece {
			continue
		}
		x, y := at(s)
		fill, stroke := "black", "black"
		if pc.Color() == rules.White {
			fill = "white"
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="34" text-anchor="middle" fill="%s" stroke="%s" stroke-width="1">%s</text>`+"\n",
			x+svgSquare/2, y+svgSquare-8, fill, stroke, glyphs[rules.Black][pc.Type()])
	}
	// The differences.
	for _, sq := range r.cmp.Squares {
		x, y := at(sq.Square)
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s" stroke-width="4"/>`+"\n", x+2, y+2, svgSquare-4, svgSquare-4, svgPlace)
	}
	for _, cr := range r.cmp.Castling {
		x, y := at(cr.Rook)
		dash := ""
		if cr.HeldIn != i {
			dash = ` stroke-dasharray="5,4"`
		}
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="none" stroke="%s" stroke-width="3"%s/>`+"\n", x+svgSquare/2, y+svgSquare/2, svgSquare/2-2, svgRight, dash)
	}
	for _, e := range r.cmp.EnPassant {
		if e.In != i {
			continue
		}
		x1, y1 := at(e.Move.From())
		x2, y2 := at(e.Move.To())
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="5" marker-end="url(#arrow)" opacity="0.85"/>`+"\n",
			x1+svgSquare/2, y1+svgSquare/2, x2+svgSquare/2, y2+svgSquare/2, svgCapture)
	}
	// The rights below the board.
	capY := by + svgBoard + 38
	castleColor := "black"
	if r.cmp.Diff.Has(rules.DiffCastling) {
		castleColor = svgRight
	}
	text(bx, capY, 13, "start", castleColor, castlingCaption(r.text, p))
	if ep := enPassantCaption(r.text, p); ep != "" {
		text(bx, capY+20, 13, "start", svgCapture, ep)
	}
}
