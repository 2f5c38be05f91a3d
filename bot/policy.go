package bot

import (
	"context"
	"time"

	"github.com/threefold-chess/threefold/rules"
)

// The rules the policy can choose; they go to the log with every move.
const (
	RuleEngine           = "engine"            // the engine's move, nothing to avoid or seek
	RuleBook             = "book"              // a move of the opening book (Score is its weight)
	RuleAvoidRepetition  = "avoid-repetition"  // ahead: the engine's best among moves that give no draw
	RuleForcedRepetition = "forced-repetition" // ahead, but every move gives a draw
	RuleClaimThreefold   = "claim-threefold"   // behind: the position is a threefold, claim it
	RuleMakeThreefold    = "make-threefold"    // behind: a move produces the third occurrence, play it offering a draw
	RuleSeekRepetition   = "seek-repetition"   // behind: a move repeats a position and costs little
)

// Decision is what the policy wants done on the bot's turn.
type Decision struct {
	Move      rules.Move
	OfferDraw bool // send the move with offeringDraw=true
	Claim     bool // send draw/yes before moving: the current position is a threefold
	Rule      string
	Mode      string // "ahead", "behind" or "even"
	Eval      int    // centipawns for the bot, from the first search
	Score     int    // the score of the chosen move, when a second search ran
	By        string
	Depth     int
	Avoided   int // moves ruled out when ahead
}

// DrawAnswer is the answer to the opponent's draw offer and why.
type DrawAnswer struct {
	Accept bool
	Why    string
}

// AnswerDrawOffer applies the draw-offer policy: accept when behind by at
// least AcceptBehind, or when the game is dead even (within ±AcceptEven)
// from move MinMove on; decline otherwise, ahead above all.
func (c DrawOfferConfig) AnswerDrawOffer(eval, move int) DrawAnswer {
	switch {
	case eval <= -c.AcceptBehind:
		return DrawAnswer{true, "behind: evaluation " + itoa(eval) + " cp at or below -" + itoa(c.AcceptBehind)}
	case c.AcceptEven > 0 && eval >= -c.AcceptEven && eval <= c.AcceptEven && move >= c.MinMove:
		return DrawAnswer{true, "dead even: evaluation " + itoa(eval) + " cp within ±" + itoa(c.AcceptEven) + " at move " + itoa(move)}
	case c.AcceptEven > 0 && eval >= -c.AcceptEven && eval <= c.AcceptEven:
		return DrawAnswer{false, "even, but before move " + itoa(c.MinMove)}
	case eval > 0:
		return DrawAnswer{false, "ahead: evaluation +" + itoa(eval) + " cp"}
	}
	return DrawAnswer{false, "not far enough behind: evaluation " + itoa(eval) + " cp above -" + itoa(c.AcceptBehind)}
}

// policy is the repetition-aware move choice.
type policy struct {
	cfg   PolicyConfig
	mover Mover
}

// decide chooses the bot's move in the current position of t.
func (p *policy) decide(ctx context.Context, t *tracker, lim SearchLimit) (Decision, error) {
	res, err := p.mover.Search(ctx, SearchRequest{Game: t.game, Limit: lim})
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Move: res.Move, Rule: RuleEngine, Mode: "even", Eval: res.Score, Score: res.Score, By: res.By, Depth: res.Depth}
	second := lim
	if second.MoveTime > 0 {
		second.MoveTime = max(second.MoveTime/3, time.Millisecond)
	}
	switch {
	case res.Score > p.cfg.AheadMargin:
		d.Mode = "ahead"
		if !p.givesDraw(t, res.Move) {
			return d, nil
		}
		pos := t.game.Position()
		var buf [256]rules.Move
		var safe []rules.Move
		legal := pos.LegalMoves(buf[:0])
		for _, m := range legal {
			if !p.givesDraw(t, m) {
				safe = append(safe, m)
			}
		}
		d.Avoided = len(legal) - len(safe)
		if len(safe) == 0 {
			d.Rule = RuleForcedRepetition
			return d, nil
		}
		r2, err := p.mover.Search(ctx, SearchRequest{Game: t.game, Restrict: safe, Limit: second})
		if err != nil || !containsMove(safe, r2.Move) {
			// Keep to the safe set even if the second search failed.
			r2 = SearchResult{Move: safe[0], Score: res.Score, By: res.By}
		}
		d.Move, d.Score, d.Rule = r2.Move, r2.Score, RuleAvoidRepetition
		return d, nil

	case res.Score < -p.cfg.BehindMargin:
		d.Mode = "behind"
		if t.game.Count() >= 3 {
			d.Claim, d.OfferDraw, d.Rule = true, true, RuleClaimThreefold
			return d, nil
		}
		claims := t.game.ClaimMoves(nil)
		if len(claims) > 0 {
			d.Rule, d.OfferDraw = RuleMakeThreefold, true
			switch {
			case containsMove(claims, res.Move):
			case len(claims) == 1:
				d.Move = claims[0]
			default:
				if r2, err := p.mover.Search(ctx, SearchRequest{Game: t.game, Restrict: claims, Limit: second}); err == nil && containsMove(claims, r2.Move) {
					d.Move, d.Score = r2.Move, r2.Score
				} else {
					d.Move = claims[0]
				}
			}
			return d, nil
		}
		if t.countAfter(res.Move) >= 2 {
			return d, nil // the engine's move repeats already
		}
		pos := t.game.Position()
		var buf [256]rules.Move
		var repeats []rules.Move
		for _, m := range pos.LegalMoves(buf[:0]) {
			if t.countAfter(m) >= 2 {
				repeats = append(repeats, m)
			}
		}
		if len(repeats) == 0 {
			return d, nil
		}
		r2, err := p.mover.Search(ctx, SearchRequest{Game: t.game, Restrict: repeats, Limit: second})
		if err == nil && containsMove(repeats, r2.Move) && r2.Score >= res.Score-p.cfg.SeekTolerance {
			d.Move, d.Score, d.Rule = r2.Move, r2.Score, RuleSeekRepetition
		}
		return d, nil
	}
	return d, nil
}

// givesDraw reports whether playing m lets Lichess end the game as a draw
// before the bot's next move: m produces a position for the third time
// (or the fifth), or completes 50 moves without a pawn move or capture, or
// the opponent has a reply that does one of these. Lichess draws the first
// threefold of any game with a BOT at once, so a reply that repeats is as
// good as a claim for the opponent.
func (p *policy) givesDraw(t *tracker, m rules.Move) bool {
	pos := t.game.Position()
	reversible := pos.PieceAt(m.From()).Type() != rules.Pawn && !pos.IsCapture(m)
	if reversible && t.countAfter(m) >= 3 {
		return true
	}
	if reversible && pos.HalfmoveClock() >= 99 {
		return true
	}
	p1 := pos
	p1.Play(m)
	if p1.InsufficientMaterial() {
		return true
	}
	if !reversible {
		return false // no earlier position can recur, the 50-move count restarts
	}
	us := pos.Turn()
	checkRepeat := t.twice[us] > 0
	checkFifty := p1.HalfmoveClock() >= 99
	if !checkRepeat && !checkFifty {
		return false
	}
	var buf [256]rules.Move
	for _, r := range p1.LegalMoves(buf[:0]) {
		if p1.PieceAt(r.From()).Type() == rules.Pawn || p1.IsCapture(r) {
			continue
		}
		if checkFifty {
			return true
		}
		p2 := p1
		p2.Play(r)
		if t.counts[p2.Key()] >= 2 {
			return true
		}
	}
	return false
}
