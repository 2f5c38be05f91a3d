package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

// scriptedMover is a Mover whose evaluation is fixed and whose choice
// follows a preference list of UCI moves (the first one allowed wins, else
// the first legal move). It records every request.
type scriptedMover struct {
	score    int
	scores   map[string]int // score by chosen move, overriding score
	prefer   []string
	requests []SearchRequest
}

func (m *scriptedMover) Name() string { return "scripted" }
func (m *scriptedMover) Close() error { return nil }

func (m *scriptedMover) Search(_ context.Context, req SearchRequest) (SearchResult, error) {
	m.requests = append(m.requests, req)
	pos := req.Game.Position()
	allowed := req.Restrict
	if len(allowed) == 0 {
		allowed = pos.LegalMoves(nil)
	}
	pick := allowed[0]
	for _, p := range m.prefer {
		mv, err := pos.ParseUCI(p)
		if err == nil && containsMove(allowed, mv) {
			pick = mv
			break
		}
	}
	score := m.score
	if s, ok := m.scores[pick.UCI()]; ok {
		score = s
	}
	return SearchResult{Move: pick, Score: score, By: "scripted"}, nil
}

func trackerAt(t *testing.T, fen, moves string) *tracker {
	t.Helper()
	tr, err := newTracker(fen, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.sync(moves, false); err != nil {
		t.Fatal(err)
	}
	return tr
}

const shuffle = "g1f3 g8f6 f3g1 f6g8"

func TestPolicy(t *testing.T) {
	cfg := DefaultConfig().Policy
	tests := []struct {
		name      string
		fen       string
		moves     string
		mover     *scriptedMover
		wantRule  string
		wantMove  string // "" means: not checked
		notMove   string
		offer     bool
		claim     bool
		restrict  bool // a second, restricted search was made
		wantMoves []string
	}{
		{
			name: "ahead: our move would make the third occurrence", moves: shuffle + " g1f3 g8f6 f3g1",
			mover:    &scriptedMover{score: 400, prefer: []string{"f6g8", "b8c6"}},
			wantRule: RuleAvoidRepetition, wantMove: "b8c6", restrict: true,
		},
		{
			name: "ahead: the opponent could make the third occurrence with one reply", moves: shuffle + " g1f3 g8f6",
			mover:    &scriptedMover{score: 400, prefer: []string{"f3g1", "e2e4"}},
			wantRule: RuleAvoidRepetition, wantMove: "e2e4", restrict: true,
		},
		{
			name: "ahead: a first repetition is harmless", moves: "g1f3 g8f6 f3g1",
			mover:    &scriptedMover{score: 400, prefer: []string{"f6g8"}},
			wantRule: RuleEngine, wantMove: "f6g8",
		},
		{
			name: "ahead: 50-move draw avoided", fen: "8/8/8/4k3/8/8/3QKP2/8 w - - 99 80",
			mover:     &scriptedMover{score: 900, prefer: []string{"d2d4"}},
			wantRule:  RuleAvoidRepetition,
			wantMoves: []string{"f2f3", "f2f4"}, restrict: true,
		},
		{
			name: "behind: the position is a threefold, claim it", moves: shuffle + " " + shuffle,
			mover:    &scriptedMover{score: -400, prefer: []string{"e2e4"}},
			wantRule: RuleClaimThreefold, claim: true, offer: true,
		},
		{
			name: "behind: a move makes the third occurrence, play it offering a draw", moves: shuffle + " g1f3 g8f6 f3g1",
			mover:    &scriptedMover{score: -400, prefer: []string{"e7e5"}},
			wantRule: RuleMakeThreefold, wantMove: "f6g8", offer: true,
		},
		{
			name: "behind: repeat a position when it costs little", moves: "g1f3 g8f6 f3g1",
			mover:    &scriptedMover{score: -300, prefer: []string{"e7e5", "f6g8"}, scores: map[string]int{"f6g8": -320}},
			wantRule: RuleSeekRepetition, wantMove: "f6g8", restrict: true,
		},
		{
			name: "behind: a repetition that costs too much is not sought", moves: "g1f3 g8f6 f3g1",
			mover:    &scriptedMover{score: -300, prefer: []string{"e7e5", "f6g8"}, scores: map[string]int{"f6g8": -900}},
			wantRule: RuleEngine, wantMove: "e7e5", restrict: true,
		},
		{
			name: "even: follow the engine into a repetition", moves: shuffle + " g1f3 g8f6 f3g1",
			mover:    &scriptedMover{score: 20, prefer: []string{"f6g8"}},
			wantRule: RuleEngine, wantMove: "f6g8",
		},
		{
			name: "even: the claim is not made", moves: shuffle + " " + shuffle,
			mover:    &scriptedMover{score: -100, prefer: []string{"g1f3"}},
			wantRule: RuleEngine, wantMove: "g1f3",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := trackerAt(t, tc.fen, tc.moves)
			p := &policy{cfg: cfg, mover: tc.mover}
			d, err := p.decide(context.Background(), tr, SearchLimit{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Rule != tc.wantRule {
				t.Errorf("rule %s, want %s", d.Rule, tc.wantRule)
			}
			if tc.wantMove != "" && d.Move.UCI() != tc.wantMove {
				t.Errorf("move %s, want %s", d.Move.UCI(), tc.wantMove)
			}
			if len(tc.wantMoves) > 0 && !strings.Contains(" "+strings.Join(tc.wantMoves, " ")+" ", " "+d.Move.UCI()+" ") {
				t.Errorf("move %s, want one of %v", d.Move.UCI(), tc.wantMoves)
			}
			if d.OfferDraw != tc.offer || d.Claim != tc.claim {
				t.Errorf("offer %v claim %v, want %v %v", d.OfferDraw, d.Claim, tc.offer, tc.claim)
			}
			if restricted := len(tc.mover.requests) > 1 && len(tc.mover.requests[1].Restrict) > 0; restricted != tc.restrict {
				t.Errorf("restricted search made: %v, want %v", restricted, tc.restrict)
			}
			if d.Mode == "ahead" {
				// Whatever was chosen, it must not give the opponent the draw.
				if p.givesDraw(tr, d.Move) && d.Rule != RuleForcedRepetition {
					t.Errorf("ahead, but %s gives a draw", d.Move.UCI())
				}
			}
		})
	}
}

func TestGivesDrawMatchesBruteForce(t *testing.T) {
	// Compare the look-ahead with a brute force over a fresh rules.Game for
	// every move and reply, in positions with many repetitions.
	for _, moves := range []string{
		shuffle + " g1f3 g8f6",
		shuffle + " g1f3 g8f6 f3g1",
		shuffle + " b1c3 b8c6 c3b1 c6b8 g1f3",
		"e2e4 e7e5 " + shuffle + " g1f3 g8f6 f3g1 f6g8 b1c3",
	} {
		tr := trackerAt(t, "", moves)
		p := &policy{cfg: DefaultConfig().Policy}
		pos := tr.game.Position()
		for _, m := range pos.LegalMoves(nil) {
			want := bruteGivesDraw(t, moves, m)
			if got := p.givesDraw(tr, m); got != want {
				t.Errorf("%s + %s: givesDraw %v, brute force %v", moves, m.UCI(), got, want)
			}
		}
	}
}

func bruteGivesDraw(t *testing.T, moves string, m rules.Move) bool {
	replay := func(extra ...string) *rules.Game {
		g := rules.NewGame(rules.StartPosition())
		for _, mv := range append(strings.Fields(moves), extra...) {
			if _, err := g.PlayUCI(mv); err != nil {
				t.Fatal(err)
			}
		}
		return g
	}
	g1 := replay(m.UCI())
	p1 := g1.Position()
	if g1.Count() >= 3 || p1.HalfmoveClock() >= 100 || p1.InsufficientMaterial() {
		return true
	}
	for _, r := range p1.LegalMoves(nil) {
		g2 := replay(m.UCI(), r.UCI())
		p2 := g2.Position()
		if g2.Count() >= 3 || p2.HalfmoveClock() >= 100 {
			return true
		}
	}
	return false
}

func TestAnswerDrawOffer(t *testing.T) {
	cfg := DrawOfferConfig{AcceptBehind: 200, AcceptEven: 20, MinMove: 40}
	tests := []struct {
		name   string
		eval   int
		move   int
		accept bool
		why    string
	}{
		{"far behind", -350, 12, true, "behind"},
		{"just at the threshold", -200, 12, true, "behind"},
		{"a little behind", -120, 50, false, "not far enough behind"},
		{"dead even, late", 10, 45, true, "dead even"},
		{"dead even, too early", -5, 20, false, "before move 40"},
		{"ahead", 300, 60, false, "ahead"},
		{"a little ahead, late", 21, 60, false, "ahead"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := cfg.AnswerDrawOffer(tc.eval, tc.move)
			if a.Accept != tc.accept || !strings.Contains(a.Why, tc.why) {
				t.Errorf("%+v, want accept %v because %q", a, tc.accept, tc.why)
			}
		})
	}
	if a := (DrawOfferConfig{AcceptBehind: 200}).AnswerDrawOffer(0, 100); a.Accept {
		t.Errorf("accept_even 0 accepted an even game: %+v", a)
	}
}
