package fakelichess_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// The clocks run as on Lichess: the first move of each side is free, then
// each move costs the time since the last one (plus the lag) and earns the
// increment; a clock that runs out ends the game at once, a draw when the
// other side cannot mate; a player who never moves has the game aborted.
func TestRunningClocks(t *testing.T) {
	type move struct {
		wait time.Duration // before the move
		bot  bool
		uci  string
	}
	tests := []struct {
		name         string
		spec         fakelichess.GameSpec
		lag          time.Duration
		moves        []move
		idle         time.Duration // after the moves
		status       string
		winner       string
		wtime, btime int64
	}{
		{name: "first moves are free, then time is spent and the increment earned",
			spec: fakelichess.GameSpec{ClockInitial: 60000, ClockIncrement: 2000},
			moves: []move{{10 * time.Second, true, "e2e4"}, {10 * time.Second, false, "e7e5"},
				{3 * time.Second, true, "g1f3"}, {5 * time.Second, false, "b8c6"}},
			status: "started", wtime: 59000, btime: 57000},
		{name: "lag is charged to the bot",
			spec: fakelichess.GameSpec{ClockInitial: 60000}, lag: 500 * time.Millisecond,
			moves:  []move{{0, true, "e2e4"}, {0, false, "e7e5"}, {time.Second, true, "g1f3"}},
			status: "started", wtime: 58500, btime: 60000},
		{name: "the bot's clock runs out while it thinks",
			spec:  fakelichess.GameSpec{ClockInitial: 15000},
			moves: []move{{0, true, "e2e4"}, {0, false, "e7e5"}}, idle: 16 * time.Second,
			status: "outoftime", winner: "black", wtime: 0, btime: 15000},
		{name: "out of time against a lone king is a draw",
			spec:  fakelichess.GameSpec{ClockInitial: 15000, InitialFEN: "8/3p4/3k4/8/8/3K4/8/8 w - - 0 1"},
			moves: []move{{0, true, "d3e3"}, {0, false, "d6e6"}, {0, true, "e3d3"}}, idle: 16 * time.Second,
			status: "outoftime", winner: "", wtime: 15000, btime: 0},
		{name: "no first move: aborted",
			spec:   fakelichess.GameSpec{ClockInitial: 60000, FirstMoveTime: 20 * time.Second},
			idle:   21 * time.Second,
			status: "noStart", wtime: 60000, btime: 60000},
		{name: "correspondence: a move later than the days per turn loses",
			spec:  fakelichess.GameSpec{DaysPerTurn: 1},
			moves: []move{{0, true, "e2e4"}, {0, false, "e7e5"}}, idle: 25 * time.Hour,
			status: "outoftime", winner: "black", wtime: 2147483647, btime: 2147483647},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := clock.NewFake(time.Unix(1_800_000_000, 0))
			fake, c, ctx := setup(t, fakelichess.Options{Clock: clk, RunningClocks: true, Lag: tc.lag})
			g := fake.MustNewGame(tc.spec)
			for _, m := range tc.moves {
				clk.Advance(m.wait)
				var err error
				if m.bot {
					err = c.Move(ctx, g.ID(), m.uci, false)
				} else {
					err = g.OpponentMove(m.uci)
				}
				if err != nil {
					t.Fatalf("move %s: %v", m.uci, err)
				}
			}
			if tc.idle > 0 {
				clk.Advance(tc.idle)
				if err := fake.WaitFor(ctx, func() bool { return lichess.Finished(g.State().Status) }); err != nil {
					t.Fatal(err)
				}
			}
			st := g.State()
			if st.Status != tc.status || st.Winner != tc.winner || st.WTime != tc.wtime || st.BTime != tc.btime {
				t.Errorf("status %s winner %q clocks %d/%d, want %s %q %d/%d", st.Status, st.Winner, st.WTime, st.BTime,
					tc.status, tc.winner, tc.wtime, tc.btime)
			}
		})
	}
}

// gameState.expiration is sent until both sides have moved, with the time
// since the last move.
func TestExpirationInGameState(t *testing.T) {
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	fake, c, ctx := setup(t, fakelichess.Options{Clock: clk})
	g := fake.MustNewGame(fakelichess.GameSpec{ClockInitial: 60000, FirstMoveTime: 20 * time.Second})
	clk.Advance(3 * time.Second)
	var states []lichess.GameState
	_, err := first(ctx, func(ev lichess.GameEvent) bool {
		if ev.Full != nil {
			states = append(states, ev.Full.State)
			if err := c.Move(ctx, g.ID(), "e2e4", false); err != nil {
				t.Error(err)
			}
		}
		if ev.State != nil {
			states = append(states, *ev.State)
			if len(states) == 2 {
				if err := g.OpponentMove("e7e5"); err != nil {
					t.Error(err)
				}
			}
		}
		return len(states) == 3
	}, func(fn func(lichess.GameEvent) error) error { return c.StreamBotGame(ctx, g.ID(), fn) })
	if err != nil {
		t.Fatal(err)
	}
	want := []lichess.Expiration{{IdleMillis: 3000, MillisToMove: 20000}, {IdleMillis: 0, MillisToMove: 20000}, {}}
	for i, s := range states {
		if s.Expiration != want[i] {
			t.Errorf("state %d (%q): expiration %+v, want %+v", i, s.Moves, s.Expiration, want[i])
		}
	}
}

// Takebacks: a proposal shows in the state; takeback/no withdraws it,
// takeback/yes takes back to the proposer's turn.
func TestTakebacks(t *testing.T) {
	tests := []struct {
		name   string
		answer bool
		moves  string
	}{
		{"declined", false, "e2e4 e7e5 g1f3"},
		{"accepted: back to the proposer's turn", true, "e2e4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake, c, ctx := setup(t, fakelichess.Options{})
			g := fake.MustNewGame(fakelichess.GameSpec{Script: []fakelichess.Step{{Move: "e7e5"}, {Takeback: true}, {Wait: time.Hour}}})
			if err := c.Move(ctx, g.ID(), "e2e4", false); err != nil {
				t.Fatal(err)
			}
			if err := c.Move(ctx, g.ID(), "g1f3", false); err != nil {
				t.Fatal(err)
			}
			if st := g.State(); !st.BTakeback {
				t.Fatalf("no takeback proposal in %+v", st)
			}
			if err := c.Takeback(ctx, g.ID(), tc.answer); err != nil {
				t.Fatal(err)
			}
			st := g.State()
			if got := joinMoves(st.Moves); got != tc.moves || st.BTakeback || st.WTakeback {
				t.Errorf("moves %q takebacks %v/%v, want %q and none pending", got, st.WTakeback, st.BTakeback, tc.moves)
			}
		})
	}
}

func joinMoves(m []string) string {
	out := ""
	for i, s := range m {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}

// claim-victory and claim-draw are refused until the time Lichess gave the
// opponent to come back is over.
func TestClaimsAfterTheOpponentLeft(t *testing.T) {
	for _, draw := range []bool{false, true} {
		clk := clock.NewFake(time.Unix(1_800_000_000, 0))
		fake, c, ctx := setup(t, fakelichess.Options{Clock: clk})
		g := fake.MustNewGame(fakelichess.GameSpec{Moves: []string{"e2e4", "e7e5"}})
		claim := c.ClaimVictory
		if draw {
			claim = c.ClaimDraw
		}
		if err := claim(ctx, g.ID()); err == nil {
			t.Fatal("claim accepted while the opponent is there")
		}
		g.OpponentGone(true, 10)
		clk.Advance(9 * time.Second)
		if err := claim(ctx, g.ID()); err == nil {
			t.Fatal("claim accepted before the opponent's time ran out")
		}
		clk.Advance(time.Second)
		if err := claim(ctx, g.ID()); err != nil {
			t.Fatalf("claim refused once allowed: %v", err)
		}
		st := g.State()
		want := "white"
		if draw {
			want = ""
		}
		if st.Status != lichess.StatusTimeout || st.Winner != want {
			t.Errorf("draw=%v: %s/%q", draw, st.Status, st.Winner)
		}
	}
}

// Challenges the bot sends: to an online bot that accepts (a game starts
// with the challenge's id and settings), to one that declines (the
// challenger hears it on its event stream), and one cancelled.
func TestOutgoingChallenges(t *testing.T) {
	fake, c, ctx := setup(t, fakelichess.Options{})
	fake.AddOnlineBot(fakelichess.OnlineBot{ID: "acceptor", Ratings: map[string]int{"blitz": 1700}, Script: []fakelichess.Step{{Resign: true}}})
	fake.AddOnlineBot(fakelichess.OnlineBot{ID: "decliner", Decline: lichess.DeclineTooFast})
	fake.AddUser("human", "Human", "")
	bots, err := c.OnlineBots(ctx, 10)
	if err != nil || len(bots) != 2 || bots[0].ID != "acceptor" || bots[0].Perfs["blitz"].Rating != 1700 || bots[0].Title != "BOT" {
		t.Fatalf("online bots %+v, %v", bots, err)
	}
	var events []lichess.Event
	done := make(chan error, 1)
	go func() {
		_, err := first(ctx, func(ev lichess.Event) bool {
			events = append(events, ev)
			return ev.Type == lichess.EventChallengeDeclined
		}, func(fn func(lichess.Event) error) error { return c.StreamEvents(ctx, fn) })
		done <- err
	}()
	if err := fake.WaitFor(ctx, func() bool { return fake.Streams("event") == 1 }); err != nil {
		t.Fatal(err)
	}
	ch, err := c.CreateChallenge(ctx, "acceptor", lichess.ChallengeRequest{Clock: true, Limit: 3 * time.Minute, Increment: 2 * time.Second, Color: "white"})
	if err != nil {
		t.Fatal(err)
	}
	g := fake.Game(ch.ID)
	if g == nil || ch.Direction != "out" || ch.Speed != "blitz" || ch.TimeControl.Limit != 180 {
		t.Fatalf("challenge %+v, game %v", ch, g)
	}
	if err := c.Move(ctx, ch.ID, "e2e4", false); err != nil {
		t.Fatal(err)
	}
	if st := g.State(); st.Status != lichess.StatusResign || st.Winner != "white" {
		t.Errorf("the acceptor's game: %+v", st)
	}
	if _, err := c.CreateChallenge(ctx, "decliner", lichess.ChallengeRequest{Clock: true, Limit: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	if last.Challenge == nil || last.Challenge.DeclineReasonKey != "toofast" || last.Challenge.DestUser.ID != "decliner" {
		t.Errorf("declined event %+v", last.Challenge)
	}
	open, err := c.CreateChallenge(ctx, "human", lichess.ChallengeRequest{Days: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CancelChallenge(ctx, open.ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := fake.ChallengeStatus(open.ID); st != "canceled" {
		t.Errorf("status after cancel: %s", st)
	}
	if err := c.CancelChallenge(ctx, open.ID); err == nil {
		t.Error("a challenge cancelled twice")
	}
	if _, err := c.CreateChallenge(ctx, "human", lichess.ChallengeRequest{Clock: true, Limit: 100 * time.Second}); err == nil {
		t.Error("a 100 s clock, which Lichess refuses, was sent")
	}
}

// first reads a stream until until(item) holds, then ends it.
func first[T any](ctx context.Context, until func(T) bool, stream func(func(T) error) error) (T, error) {
	var last T
	enough := errors.New("enough")
	err := stream(func(v T) error {
		last = v
		if until(v) {
			return enough
		}
		return nil
	})
	if errors.Is(err, enough) {
		return last, nil
	}
	if err == nil {
		err = errors.New("the stream ended first")
	}
	return last, err
}
