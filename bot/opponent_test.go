package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// The opponent leaves: the bot claims once Lichess's time for it to come
// back is over, never before, and claims the draw instead of the win when
// it has nothing left to mate with.
func TestClaimsWhenTheOpponentLeaves(t *testing.T) {
	tests := []struct {
		name       string
		fen        string
		wantPath   string
		wantWinner string
		wantResult string
	}{
		{"the bot can mate: the win", "", "claim-victory", "white", "1-0"},
		{"a lone king: the draw", "8/8/3k4/8/8/3K4/8/7r w - - 0 1", "claim-draw", "", "1/2-1/2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{})
			id := h.newGame(fakelichess.GameSpec{InitialFEN: tc.fen, ClockInitial: 180000}, rules.White)
			fg := h.fake.Game(id)
			play := builtinOpponent(6, 0)
			h.opponent(id, func(g *rules.Game) string {
				if g.Ply() >= 6 {
					return "" // walks away
				}
				return play(g)
			})
			if err := h.fake.WaitFor(h.ctx, func() bool { return fg.State().Ply >= 7 }); err != nil {
				t.Fatal(err)
			}
			gone := h.clk.Now()
			fg.OpponentGone(true, 20)
			st, rec := h.waitGameOver(id)
			if st.Status != lichess.StatusTimeout || st.Winner != tc.wantWinner || rec.Termination != threefold.TermOpponentLeft || rec.Result != tc.wantResult {
				t.Fatalf("game %s/%q, record %s %s", st.Status, st.Winner, rec.Termination, rec.Result)
			}
			var claims []fakelichess.Request
			_ = h.fake.WaitFor(h.ctx, func() bool { // the answers recorded
				claims = claims[:0]
				for _, r := range h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/*") {
					if strings.HasPrefix(r.Path[strings.LastIndexByte(r.Path, '/')+1:], "claim-") {
						if r.Status == 0 {
							return false
						}
						claims = append(claims, r)
					}
				}
				return true
			})
			if len(claims) != 1 || !strings.HasSuffix(claims[0].Path, "/"+tc.wantPath) || claims[0].Status != 200 {
				t.Fatalf("claims %+v, want one %s, answered 200", claims, tc.wantPath)
			}
			if at := claims[0].Time.Sub(gone); at < 20*time.Second {
				t.Errorf("claimed %v after the opponent left, before the 20 s Lichess gave it", at)
			}
			if !strings.Contains(h.logs.String(), "opponent left") {
				t.Error("the log does not say why the bot claimed")
			}
		})
	}
}

// A takeback proposal is declined by default and accepted when the policy
// says so; after an accepted takeback the bot plays on from the shorter
// game.
func TestTakebacksByPolicy(t *testing.T) {
	tests := []struct {
		policy string
		rated  bool
		accept bool
	}{
		{bot.TakebacksDecline, false, false},
		{bot.TakebacksAccept, true, true},
		{bot.TakebacksCasual, true, false},
		{bot.TakebacksCasual, false, true},
	}
	for _, tc := range tests {
		name := tc.policy
		if tc.rated {
			name += " rated"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{cfg: func(c *bot.Config) { c.Takebacks = tc.policy }})
			// The opponent (Black) plays e5, regrets it once the bot has
			// answered, asks to take it back, then plays d5 instead.
			id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000, Rated: tc.rated, Script: []fakelichess.Step{
				{Move: "e7e5"}, {Takeback: true}, {Wait: 10 * time.Second}, {Move: "d7d5"}, {Wait: time.Hour}, {Resign: true},
			}}, rules.White)
			fg := h.fake.Game(id)
			if err := h.fake.WaitFor(h.ctx, func() bool {
				rs := h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/takeback/*")
				return len(rs) > 0 && rs[0].Status != 0 // answered
			}); err != nil {
				t.Fatal(err)
			}
			answers := h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/takeback/*")
			want := "/takeback/no"
			if tc.accept {
				want = "/takeback/yes"
			}
			if len(answers) != 1 || !strings.HasSuffix(answers[0].Path, want) || answers[0].Status != 200 {
				t.Fatalf("takeback answers %+v, want one %s", answers, want)
			}
			// Either way the game goes on and the bot keeps moving legally:
			// e5 stays, or d5 replaces it.
			second := "e7e5"
			if tc.accept {
				second = "d7d5"
			}
			if err := h.fake.WaitFor(h.ctx, func() bool {
				st := fg.State()
				return strings.Contains(strings.Join(st.Moves, " "), "d7d5") && botToMove(st, rules.Black) // the bot answered d5
			}); err != nil {
				t.Fatalf("the game stopped at %+v: %v", fg.State(), err)
			}
			if moves := fg.State().Moves; moves[1] != second {
				t.Errorf("moves %q: the second move is not %s (takeback accepted: %v)", moves, second, tc.accept)
			}
			if !strings.Contains(h.logs.String(), "takeback proposed by the opponent") {
				t.Error("no log line for the takeback decision")
			}
			fg.Finish(lichess.StatusResign, "white")
			_, rec := h.waitGameOver(id)
			if strings.Join(rec.Moves, " ") != strings.Join(fg.State().Moves, " ") {
				t.Errorf("record moves %v, fake %v", rec.Moves, fg.State().Moves)
			}
		})
	}
}

// gameState.expiration: an engine that would think past the first-move
// deadline is stopped in time, so Lichess does not abort the game.
func TestFirstMoveBeforeTheAbortDeadline(t *testing.T) {
	h := newHarness(t, harnessOpt{scale: 4, engine: fakeEngine(t, "hang", "avoid"), cfg: func(c *bot.Config) {
		c.Engine.MinMoveTime, c.Engine.MaxMoveTime, c.Engine.Slack = time.Second, 20*time.Second, 3*time.Second
	}})
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 600000, FirstMoveTime: 15 * time.Second,
		Script: []fakelichess.Step{{Move: "e7e5"}, {Resign: true}}}, rules.White)
	st, rec := h.waitGameOver(id)
	if st.Status != lichess.StatusResign || st.Ply != 3 {
		t.Fatalf("game %s at ply %d (record %s): the bot's first move came too late", st.Status, st.Ply, rec.Termination)
	}
	if !strings.Contains(h.logs.String(), "first move due before Lichess aborts the game") {
		t.Error("the log does not say the deadline shortened the search")
	}
}

// The opponent offers a draw: accepted when the bot is behind, declined
// when it is ahead or the game is even but young, each with a log line
// that gives the evaluation and why.
func TestDrawOffersByPolicy(t *testing.T) {
	tests := []struct {
		name   string
		cp     int
		accept bool
		why    string
	}{
		{"behind: accepted", -500, true, "why=\"behind: evaluation -500 cp at or below -200\""},
		{"ahead: declined", 500, false, "why=\"ahead: evaluation +500 cp\""},
		{"even but early: declined", 0, false, "why=\"even, but before move 40\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{engine: fakeEngine(t, "cp="+itoa(tc.cp), "avoid")})
			id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000, Script: []fakelichess.Step{
				{Move: "e7e5"}, {OfferDraw: true, Move: "b8c6"}, {Wait: time.Hour}, {Resign: true},
			}}, rules.White)
			fg := h.fake.Game(id)
			if err := h.fake.WaitFor(h.ctx, func() bool {
				rs := h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/draw/*")
				return len(rs) > 0 && rs[0].Status != 0
			}); err != nil {
				t.Fatal(err)
			}
			answers := h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/draw/*")
			want := "/draw/no"
			if tc.accept {
				want = "/draw/yes"
			}
			if len(answers) != 1 || !strings.HasSuffix(answers[0].Path, want) {
				t.Fatalf("answers %+v, want one %s", answers, want)
			}
			verdict := "declined"
			if tc.accept {
				verdict = "accepted"
			}
			var line string
			for _, l := range strings.Split(h.logs.String(), "\n") {
				if strings.Contains(l, "draw offer from the opponent "+verdict) {
					line = l
				}
			}
			if !strings.Contains(line, "eval_cp="+itoa(tc.cp)) || !strings.Contains(line, tc.why) {
				t.Errorf("log line %q lacks the evaluation %d or %s", line, tc.cp, tc.why)
			}
			if !tc.accept {
				// The game goes on: the bot moves after declining.
				if err := h.fake.WaitFor(h.ctx, func() bool { return fg.State().Ply >= 5 }); err != nil {
					t.Fatal(err)
				}
				fg.Finish(lichess.StatusResign, "white")
			}
			st, rec := h.waitGameOver(id)
			if tc.accept && (st.Status != lichess.StatusDraw || rec.Termination != threefold.TermAgreement || st.Ply != 4) {
				t.Errorf("accepted offer: game %s at ply %d, record %s", st.Status, st.Ply, rec.Termination)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
