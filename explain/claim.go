package explain

import (
	"strings"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// ClaimReport is an arbiter's check of a claim of a draw (FIDE 9.2, 9.3):
// the player having the move claims, at a ply, with or without declaring
// the move he is about to make. Its JSON form is the output of threefold
// claim --json.
type ClaimReport struct {
	Valid bool `json:"valid"`
	// Rule is the rule that makes the claim correct: "9.2.2" (the position
	// has just appeared a third time), "9.2.1" (the declared move makes it
	// appear a third time), "9.3.2" or "9.3.1" (50 moves); null when the
	// claim is not correct.
	Rule *string `json:"rule"`
	// Claimant is the side to move, the only one who may claim.
	Claimant string `json:"claimant"`
	// Occurrences are the plies at which the position claimed occurred:
	// the current one, or under 9.2.1 the one the declared move makes (its
	// ply is the last). [] for a claim under 9.3.
	Occurrences []int `json:"occurrences"`
	// Reason says in sentences why the claim is correct or not.
	Reason string `json:"reason"`

	Ply int `json:"ply"`
	// Move is the declared move, numbered ("32.Nf5"), if one was declared.
	Move string `json:"move,omitempty"`
	// OccurrenceMoves are the moves that made each of Occurrences
	// ("31.Nh6"; "" for ply 0, the start position).
	OccurrenceMoves []string `json:"occurrence_moves"`
	// FiftyMovesSince is the ply of the last pawn move or capture, from
	// which the 50 moves of 9.3 are counted (negative: before the start
	// position, as its FEN counts); null for a correct claim by repetition.
	FiftyMovesSince *int `json:"fifty_moves_since"`
	// NearRepetitions are the earlier positions with the placement and
	// side to move of the position claimed, but not the same position,
	// each with every reason why (the differences of threefold explain).
	NearRepetitions []ClaimNear `json:"near_repetitions,omitempty"`
	// Verdict is the first line of the text; Notes say what else the
	// arbiter should know (a correct claim by a declared move, a game that
	// was already drawn).
	Verdict string   `json:"verdict"`
	Notes   []string `json:"notes,omitempty"`

	reasons []string // the sentences of Reason
}

// ClaimNear is a near repetition of the position claimed: the placement
// and side to move of Plies, but not the same position.
type ClaimNear struct {
	Plies       []int        `json:"plies"`
	Differences []Difference `json:"differences"`
}

// Text writes the report for a terminal: the verdict, then the reasons
// and notes, one to a line.
func (c *ClaimReport) Text() string {
	var b strings.Builder
	b.WriteString(c.Verdict + "\n")
	for _, s := range c.reasons {
		b.WriteString(s + "\n")
	}
	for _, n := range c.Notes {
		b.WriteString(n + "\n")
	}
	return b.String()
}

// Claims checks claims in one game. It follows the game with a rules.Game,
// so that checking every ply of a game in order costs one replay.
// A Claims is not safe for concurrent use.
type Claims struct {
	g *Game
	t *rules.Game
	// declared is g up to a ply and a declared move: the game that names
	// the plies of a claim by declared move (its buffers are reused).
	declared Game
	text     *Messages // the language of the reports
}

// NewClaims starts checking claims in g; the reports speak language l.
func NewClaims(g *Game, l i18n.Lang) *Claims {
	return &Claims{g: g, t: rules.NewGame(g.Start), text: For(l)}
}

// at returns the rules' game at ply, replaying as little as it can.
func (c *Claims) at(ply int) *rules.Game {
	if c.t.Ply() > ply {
		c.t = rules.NewGame(c.g.Start)
	}
	for c.t.Ply() < ply {
		c.t.Play(c.g.Moves[c.t.Ply()]) // legal: NewGame checked every move
	}
	return c.t
}

// Check checks the claim of the side to move at ply (0 to Plies()), made
// by declaring the move declared (which must be legal there), or with
// rules.NoMove for none. A claim with a declared move is correct under
// 9.2.1 or 9.3.1 through that move, and also, as any claim, under 9.2.2
// or 9.3.2 when the position at ply already allows it.
func (c *Claims) Check(ply int, declared rules.Move) *ClaimReport {
	tg := c.at(ply)
	v := tg.Verdict()
	p := tg.Position()
	t := c.text
	r := &ClaimReport{Ply: ply, Claimant: p.Turn().String(), Occurrences: []int{}, OccurrenceMoves: []string{}}
	// claimed is the game at the position claimed: the current one, or the
	// one the declared move makes; g names its plies.
	claimed, claimedPly, g := tg, ply, c.g
	if declared != rules.NoMove {
		claimed = tg.Clone()
		claimed.Play(declared)
		claimedPly = ply + 1
		g = c.with(ply, &p, declared)
		r.Move = g.MoveLabel(claimedPly)
	}
	count, occ := claimed.Count(), claimed.Occurrences()
	since := ply - tg.HalfmoveClock()
	reversible := declared != rules.NoMove && p.PieceAt(declared.From()).Type() != rules.Pawn && !p.IsCapture(declared)
	switch {
	case declared != rules.NoMove && count >= 3:
		r.valid("9.2.1")
		r.setOccurrences(g, occ)
		r.reasons = append(r.reasons, t.say(msgClaimByMove, r.Move, claimedPly, count-1, g.plyList(t, occ[:len(occ)-1])))
	case v.Threefold:
		r.valid("9.2.2")
		r.setOccurrences(c.g, v.Occurrences)
		r.reasons = append(r.reasons, t.say(msgClaimOccurred, c.g.plyName(t, ply).noun, v.Count, c.g.plyList(t, v.Occurrences)))
	case reversible && v.FiftyMovesByMove:
		r.valid("9.3.1")
		r.FiftyMovesSince = &since
		r.reasons = append(r.reasons, t.say(msgClaimFiftyByMove, r.Move, c.g.sinceName(t, since)))
	case v.FiftyMoves && !v.FiftyMovesByMove:
		r.valid("9.3.2")
		r.FiftyMovesSince = &since
		r.reasons = append(r.reasons, t.say(msgClaimFifty, tg.HalfmoveClock()/2, c.g.sinceName(t, since)))
	default:
		r.FiftyMovesSince = &since
		r.setOccurrences(g, occ)
		r.invalid(t, g, claimed, claimedPly, count, occ)
		if !v.Checkmate && !v.Stalemate {
			r.reasons = append(r.reasons, t.say(msgClaimNoFifty, tg.HalfmoveClock(), c.g.sinceName(t, since)))
		}
		r.hints(t, c.g, tg, v, declared)
	}
	who := colorName(t, p.Turn())
	switch {
	case r.Valid && r.Move != "":
		r.Verdict = t.say(msgClaimCorrectMove, who, c.g.plyName(t, ply).noun, r.Move, *r.Rule)
	case r.Valid:
		r.Verdict = t.say(msgClaimCorrect, who, c.g.plyName(t, ply).noun, *r.Rule)
	case r.Move != "":
		r.Verdict = t.say(msgClaimIncorrectMove, who, c.g.plyName(t, ply).noun, r.Move)
	default:
		r.Verdict = t.say(msgClaimIncorrect, who, c.g.plyName(t, ply).noun)
	}
	if f := tg.FivefoldPly(); f >= 0 && f <= ply {
		r.Notes = append(r.Notes, t.say(msgClaimAfterFivefold, c.g.plyName(t, f).noun))
	}
	if v.SeventyFiveMoves {
		r.Notes = append(r.Notes, t.say(msgClaimAfterSeventyFive))
	}
	r.Reason = strings.Join(r.reasons, " ")
	return r
}

func (r *ClaimReport) valid(rule string) { r.Valid, r.Rule = true, &rule }

func (r *ClaimReport) setOccurrences(g *Game, plies []int) {
	r.Occurrences = plies
	r.OccurrenceMoves = make([]string, len(plies))
	for i, p := range plies {
		if p > 0 {
			r.OccurrenceMoves[i] = g.MoveLabel(p)
		}
	}
}

// invalid says why the position claimed (at claimedPly of g, counted
// count times) is no third occurrence, and what its near repetitions are.
func (r *ClaimReport) invalid(t *Messages, g *Game, claimed *rules.Game, claimedPly, count int, occ []int) {
	switch {
	case r.Move != "" && count == 1:
		r.reasons = append(r.reasons, t.say(msgClaimMoveNew, r.Move))
	case r.Move != "":
		r.reasons = append(r.reasons, t.say(msgClaimMoveSecond, r.Move, claimedPly, g.plyList(t, occ[:len(occ)-1])))
	case count == 1:
		r.reasons = append(r.reasons, t.say(msgClaimOnce, g.plyName(t, claimedPly).noun))
	default:
		r.reasons = append(r.reasons, t.say(msgClaimTwice, g.plyName(t, claimedPly).noun, g.plyList(t, occ)))
	}
	for _, n := range claimed.NearRepetitions() {
		cmp, err := comparePlies(t, g, n.Plies[0], claimedPly)
		if err != nil {
			continue // cannot happen: both plies are in g
		}
		near := ClaimNear{Plies: n.Plies, Differences: cmp.Differences}
		r.NearRepetitions = append(r.NearRepetitions, near)
		why := make([]string, len(near.Differences))
		for i, d := range near.Differences {
			why[i] = d.Explanation
		}
		r.reasons = append(r.reasons, t.say(msgClaimNear, g.plyName(t, n.Plies[0]).noun, strings.Join(why, " ")))
	}
}

// hints says which claim would have been correct instead: one declaring
// another move (9.2.1, 9.3.1). (A claim the position itself allows, 9.2.2
// or 9.3.2, is correct whatever the move declared: Check says so.)
func (r *ClaimReport) hints(t *Messages, g *Game, tg *rules.Game, v rules.Verdict, declared rules.Move) {
	p := tg.Position()
	var moves []string
	for _, m := range v.ClaimMoves {
		if m != declared {
			moves = append(moves, pgn.MoveNumber(&g.Start, tg.Ply()+1)+p.SAN(m))
		}
	}
	if len(moves) > 0 {
		r.Notes = append(r.Notes, t.say(msgClaimHintByMove, strings.Join(moves, ", ")))
	}
	if v.FiftyMovesByMove && (declared == rules.NoMove || p.PieceAt(declared.From()).Type() == rules.Pawn || p.IsCapture(declared)) {
		r.Notes = append(r.Notes, t.say(msgClaimHintFiftyByMove))
	}
}

// with returns the game as it would be with the declared move m played at
// ply, in the position p there (the moves after ply dropped). It is valid
// until the next call.
func (c *Claims) with(ply int, p *rules.Position, m rules.Move) *Game {
	d := &c.declared
	d.Start = c.g.Start
	d.Moves = append(append(d.Moves[:0], c.g.Moves[:ply]...), m)
	d.SAN = append(append(d.SAN[:0], c.g.SAN[:ply]...), p.SAN(m))
	return d
}

// plyList names plies in a list: "49 (25.Nh6), 53 (27.Nh6)".
func (g *Game) plyList(t *Messages, plies []int) string {
	items := make([]string, len(plies))
	for i, p := range plies {
		if p == 0 {
			items[i] = t.say(msgClaimListStart)
		} else {
			items[i] = t.say(msgClaimListItem, p, g.MoveLabel(p))
		}
	}
	return strings.Join(items, ", ")
}

// sinceName names the ply of the last pawn move or capture.
func (g *Game) sinceName(t *Messages, ply int) string {
	if ply < 0 {
		return t.say(msgClaimBeforeStart)
	}
	return g.plyName(t, ply).noun
}
