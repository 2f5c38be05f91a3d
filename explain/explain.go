// Package explain says in sentences and diagrams what the rules package found.
//
// Claims checks an arbiter's claim of a draw (FIDE 9.2, 9.3) at a ply of a
// game, with or without a declared move: correct or not, the rule, the
// proof, or why not (ClaimReport, the JSON of threefold claim).
//
// Compare and ComparePlies explain whether two moments of a game (or two
// positions given alone) are the same position in the sense of FIDE 9.2.3,
// and every reason why not; the Report they return is written as text with
// the two boards side by side, as the JSON of threefold explain, or as an
// SVG drawing that marks the differences. Every sentence comes from the
// answer of package rules (rules.Compare), never from text written for a
// case, and every sentence is in one catalogue (messages.go), translated
// whole into each language threefold speaks (messages_ru.go, _tr, _fa): the
// language is given to Compare, ComparePlies and NewClaims.
package explain

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// Game is a game whose plies can be named: its start, its moves and the
// SAN of each, as a score sheet writes them.
type Game struct {
	Start rules.Position
	Moves []rules.Move
	SAN   []string
}

// NewGame replays moves from start and keeps the SAN of each. A move that
// is not legal is an error naming its ply.
func NewGame(start rules.Position, moves []rules.Move) (*Game, error) {
	g := &Game{Start: start, Moves: moves, SAN: make([]string, len(moves))}
	p := start
	for i, m := range moves {
		if !p.IsLegal(m) {
			return nil, fmt.Errorf("explain: ply %d: %w: %s in %s", i+1, rules.ErrIllegal, m.UCI(), p.FEN())
		}
		g.SAN[i] = p.SAN(m)
		p.Play(m)
	}
	return g, nil
}

// Plies returns the number of moves of the game.
func (g *Game) Plies() int { return len(g.Moves) }

// Position returns the position at ply (0 to Plies()).
func (g *Game) Position(ply int) rules.Position {
	p := g.Start
	for _, m := range g.Moves[:ply] {
		p.Play(m)
	}
	return p
}

// MoveLabel names the move that made ply (1 or more) as a score sheet
// does: "31.Nh6" or "31...Nh6".
func (g *Game) MoveLabel(ply int) string {
	return pgn.MoveNumber(&g.Start, ply) + g.SAN[ply-1]
}

// name is how the sentences name one of the two positions compared: as a
// noun ("ply 6 (after 3...Ng8)") and, shorter, with its preposition ("at
// ply 6").
type name struct{ noun, at string }

func (g *Game) plyName(t *Messages, ply int) name {
	if ply == 0 {
		return name{t.say(msgStartNoun), t.say(msgStartAt)}
	}
	l := g.MoveLabel(ply)
	return name{t.say(msgPlyNoun, ply, l), t.say(msgPlyAt, ply)}
}

// Report is the explanation of one comparison. Its JSON form is the output
// of threefold explain --json; the kind of each difference is one of
// "side_to_move", "placement", "castling", "en_passant".
type Report struct {
	Same bool `json:"same"`
	// Plies are the two plies compared, or null for positions given alone.
	Plies []int `json:"plies"`
	// FENs are the two positions.
	FENs [2]string `json:"fens"`
	// Differences is every reason the positions are not the same, in the
	// order side to move, placement, castling, en passant; [] when same.
	Differences  []Difference `json:"differences"`
	ClocksDiffer bool         `json:"clocks_differ"`
	// Verdict is the sentence that says same or not; Notes are sentences
	// that help (clocks, castling rights held while castling is not
	// possible).
	Verdict string   `json:"verdict"`
	Notes   []string `json:"notes,omitempty"`

	cmp   rules.Comparison
	names [2]name
	game  *Game     // nil for positions given alone
	text  *Messages // the language of the sentences and captions
}

// Difference is one reason two positions are not the same. Kind says which
// of the fields beside it are set; Explanation says it in sentences.
type Difference struct {
	Kind        string `json:"kind"`
	Explanation string `json:"explanation"`
	// side_to_move: the side to move in each position ("white", "black").
	ToMove []string `json:"to_move,omitempty"`
	// placement: every square whose occupant differs.
	Squares []SquareDifference `json:"squares,omitempty"`
	// castling: the right of Color's king to castle (Castle: "O-O" or
	// "O-O-O") with the rook on Rook, held in position HeldIn (0 or 1)
	// and not in the other; in a game, lost at LostPly by LostMove, with
	// LostBy one of "king_moved", "rook_moved", "rook_captured".
	Color    string `json:"color,omitempty"`
	Rook     string `json:"rook,omitempty"`
	Castle   string `json:"castle,omitempty"`
	HeldIn   *int   `json:"held_in,omitempty"`
	LostPly  *int   `json:"lost_ply,omitempty"`
	LostMove string `json:"lost_move,omitempty"`
	LostBy   string `json:"lost_by,omitempty"`
	// en_passant: the capture (SAN) that the pawn on Pawn can make on
	// Target in position PossibleIn (0 or 1) and not in the other.
	PossibleIn *int   `json:"possible_in,omitempty"`
	Capture    string `json:"capture,omitempty"`
	Pawn       string `json:"pawn,omitempty"`
	Target     string `json:"target,omitempty"`
}

// SquareDifference is a square and its occupant in each position, as a
// FEN letter (upper case White), or null when empty.
type SquareDifference struct {
	Square string     `json:"square"`
	Pieces [2]*string `json:"pieces"`
}

// Compare explains two positions given alone (two FENs), in language l:
// there is no game, so nothing can be said about where a castling right
// was lost.
func Compare(a, b rules.Position, l i18n.Lang) *Report {
	c := rules.Compare(&a, &b)
	t := For(l)
	return build(t, c, [2]name{{t.say(msgFirstNoun), t.say(msgFirstAt)}, {t.say(msgSecondNoun), t.say(msgSecondAt)}}, nil, nil)
}

// ComparePlies explains the positions at plies a and b of g, in
// language l.
func ComparePlies(g *Game, a, b int, l i18n.Lang) (*Report, error) {
	return comparePlies(For(l), g, a, b)
}

func comparePlies(t *Messages, g *Game, a, b int) (*Report, error) {
	c, err := rules.CompareInGame(g.Start, g.Moves, a, b)
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	return build(t, c, [2]name{g.plyName(t, a), g.plyName(t, b)}, []int{a, b}, g), nil
}

func build(t *Messages, c rules.Comparison, names [2]name, plies []int, g *Game) *Report {
	r := &Report{Same: c.Same(), Plies: plies, Differences: []Difference{}, ClocksDiffer: c.ClocksDiffer, cmp: c, names: names, game: g, text: t}
	for i := range r.FENs {
		r.FENs[i] = c.Positions[i].FEN()
	}
	if r.Same {
		r.Verdict = t.say(msgSame, names[0].noun, names[1].noun)
		if c.ClocksDiffer {
			r.Notes = append(r.Notes, t.say(msgClocksOnly))
		}
	} else {
		r.Verdict = t.say(msgNotSame, names[0].noun, names[1].noun)
	}
	ps := &c.Positions
	if c.Diff.Has(rules.DiffSideToMove) {
		t0, t1 := ps[0].Turn(), ps[1].Turn()
		r.Differences = append(r.Differences, Difference{
			Kind:        "side_to_move",
			ToMove:      []string{t0.String(), t1.String()},
			Explanation: t.say(msgSideToMove, colorName(t, t0), names[0].at, colorName(t, t1), names[1].at),
		})
	}
	if c.Diff.Has(rules.DiffPlacement) {
		r.Differences = append(r.Differences, r.placement())
	}
	for _, cr := range c.Castling {
		r.Differences = append(r.Differences, r.castling(cr))
	}
	for _, e := range c.EnPassant {
		p := &ps[e.In]
		in := e.In
		r.Differences = append(r.Differences, Difference{
			Kind: "en_passant", PossibleIn: &in, Capture: p.SAN(e.Move),
			Pawn: e.Move.From().String(), Target: e.Move.To().String(),
			Explanation: t.say(msgEnPassant, colorName(t, p.Turn()), names[e.In].at, p.SAN(e.Move),
				e.Move.From(), e.Move.To(), names[1-e.In].at),
		})
	}
	r.Notes = append(r.Notes, r.blockedCastling()...)
	return r
}

// manySquares is how many differing squares get a sentence each; beyond
// it, one sentence lists them.
const manySquares = 6

func (r *Report) placement() Difference {
	t := r.text
	d := Difference{Kind: "placement"}
	var sentences, names []string
	for _, sq := range r.cmp.Squares {
		sd := SquareDifference{Square: sq.Square.String()}
		for i, pc := range sq.Pieces {
			if pc != rules.NoPiece {
				l := pc.String()
				sd.Pieces[i] = &l
			}
		}
		d.Squares = append(d.Squares, sd)
		names = append(names, sd.Square)
		sentences = append(sentences, t.say(msgSquare, sq.Square, pieceName(t, sq.Pieces[0]), r.names[0].at, pieceName(t, sq.Pieces[1]), r.names[1].at))
	}
	if len(sentences) > manySquares {
		sentences = []string{t.say(msgSquaresMany, len(names), strings.Join(names, ", "))}
	}
	d.Explanation = strings.Join(sentences, " ")
	return d
}

func (r *Report) castling(cr rules.CastlingRight) Difference {
	t := r.text
	held := cr.HeldIn
	d := Difference{Kind: "castling", Color: cr.Color.String(), Rook: cr.Rook.String(), Castle: castleNotation(cr.Short), HeldIn: &held}
	holder, other := r.names[held].at, r.names[1-held].at
	args := []any{colorName(t, cr.Color), cr.Rook, d.Castle, holder, other}
	if cr.LostPly == 0 || r.game == nil {
		d.Explanation = t.say(msgCastlingHeld, args...)
		return d
	}
	lost := cr.LostPly
	d.LostPly = &lost
	d.LostMove = r.game.MoveLabel(lost)
	before := r.game.Position(lost - 1)
	m := cr.LostMove
	args = append(args, lost, d.LostMove)
	switch {
	case before.PieceAt(m.From()).Type() == rules.King:
		d.LostBy = "king_moved"
		d.Explanation = t.say(msgCastlingLostKing, args...)
	case m.From() == cr.Rook:
		d.LostBy = "rook_moved"
		d.Explanation = t.say(msgCastlingLostRook, args...)
	default:
		d.LostBy = "rook_captured"
		d.Explanation = t.say(msgCastlingLostCapture, args...)
	}
	return d
}

// blockedCastling says, when the positions are the same, for each right
// the side to move holds while castling with it is not possible now: the
// right is what counts (case 4 of the same-position page). Positions that
// are the same have the same legal moves, so one position says it.
func (r *Report) blockedCastling() []string {
	t := r.text
	if !r.Same {
		return nil
	}
	p := &r.cmp.Positions[0]
	can := map[rules.Square]bool{}
	for _, m := range p.LegalMoves(nil) {
		if m.IsCastling() {
			can[m.To()] = true
		}
	}
	var notes []string
	for _, cr := range p.CastlingRights() {
		if cr.Color == p.Turn() && !can[cr.Rook] {
			notes = append(notes, t.say(msgCastlingBlocked, colorName(t, cr.Color), cr.Rook, castleNotation(cr.Short), r.names[0].at, r.names[1].at))
		}
	}
	return notes
}

func castleNotation(short bool) string {
	if short {
		return "O-O"
	}
	return "O-O-O"
}

func colorName(t *Messages, c rules.Color) string {
	if c == rules.White {
		return t.say(msgWhite)
	}
	return t.say(msgBlack)
}

func pieceName(t *Messages, pc rules.Piece) string {
	if pc == rules.NoPiece {
		return t.say(msgNoPiece)
	}
	m := msgWhitePawn + message(pc.Type()-rules.Pawn)
	if pc.Color() == rules.Black {
		m += msgBlackPawn - msgWhitePawn
	}
	return t.say(m)
}

// upperFirst returns s with its first letter in upper case, for a name
// that heads a line.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
