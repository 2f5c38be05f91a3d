package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// Matchmaking against the fake's online bots: it challenges within the
// rating range, never itself, starts games up to max_games and then
// stops, backs off from an account that declined, and challenges again
// when a game ends.
func TestMatchmaking(t *testing.T) {
	h := newHarness(t, harnessOpt{noAutoStart: true, cfg: func(c *bot.Config) {
		c.Challenge.MaxGames = 2
		c.Matchmaking = bot.MatchmakingConfig{Enabled: true, Idle: 5 * time.Second, TimeControls: []string{"3+2"}, Variant: "standard",
			Rated: true, RatingDifference: 300, DailyChallenges: 100, ChallengeTimeout: 30 * time.Second, DeclineBackoff: time.Hour}
	}})
	wait := []fakelichess.Step{{Wait: 24 * time.Hour}}
	h.fake.AddOnlineBot(fakelichess.OnlineBot{ID: "aaa-decliner", Decline: lichess.DeclineLater})
	h.fake.AddOnlineBot(fakelichess.OnlineBot{ID: "acceptor1", Script: wait})
	h.fake.AddOnlineBot(fakelichess.OnlineBot{ID: "acceptor2", Script: wait})
	h.fake.AddOnlineBot(fakelichess.OnlineBot{ID: "strongbot", Ratings: map[string]int{"blitz": 2900}, Script: wait})
	h.fake.AddOnlineBot(fakelichess.OnlineBot{ID: fakelichess.BotUser}) // itself, as Lichess lists it
	h.start()
	to := func() map[string]int {
		n := map[string]int{}
		for _, id := range h.fake.ChallengesFrom(fakelichess.BotUser) {
			spec, _ := h.fake.ChallengeInfo(id)
			n[spec.To]++
		}
		return n
	}
	accepted := func() []string {
		var ids []string
		for _, id := range h.fake.ChallengesFrom(fakelichess.BotUser) {
			if st, _ := h.fake.ChallengeStatus(id); st == "accepted" {
				ids = append(ids, id)
			}
		}
		return ids
	}
	if err := h.fake.WaitFor(h.ctx, func() bool { return len(accepted()) == 2 }); err != nil {
		t.Fatalf("two games never started: %v (challenges %v)", err, to())
	}
	for _, id := range accepted() {
		spec, _ := h.fake.ChallengeInfo(id)
		if spec.ClockLimit != 180 || spec.ClockIncrement != 2 || !spec.Rated {
			t.Errorf("challenge %s: %+v, want rated 3+2", id, spec)
		}
	}
	// At max_games: a minute of the bot's clock (a dozen idle periods)
	// passes without a challenge.
	if err := clock.Sleep(h.ctx, h.clk, time.Minute); err != nil {
		t.Fatal(err)
	}
	got := to()
	if got["aaa-decliner"] != 1 || got["acceptor1"] != 1 || got["acceptor2"] != 1 || got["strongbot"] != 0 || got[fakelichess.BotUser] != 0 || len(got) != 3 {
		t.Fatalf("challenges by account %v: want the decliner once, each acceptor once, nobody else", got)
	}
	if !strings.Contains(h.logs.String(), `msg="matchmaking: challenge declined; backing off" user=aaa-decliner reason=later`) {
		t.Error("no log line for the back-off")
	}
	// A game ends: room for one more, and the decliner is still left alone.
	first := accepted()[0]
	h.fake.Game(first).Finish(lichess.StatusResign, "white")
	if err := h.fake.WaitFor(h.ctx, func() bool { return len(h.fake.ChallengesFrom(fakelichess.BotUser)) == 4 }); err != nil {
		t.Fatalf("no challenge after a game ended: %v", err)
	}
	if got := to(); got["aaa-decliner"] != 1 || got["strongbot"] != 0 {
		t.Errorf("challenges by account %v after a game ended", got)
	}
}

// The daily limit stops the challenges, whoever declines them.
func TestMatchmakingDailyLimit(t *testing.T) {
	h := newHarness(t, harnessOpt{noAutoStart: true, cfg: func(c *bot.Config) {
		c.Matchmaking = bot.MatchmakingConfig{Enabled: true, Idle: 5 * time.Second, TimeControls: []string{"1+0"}, Variant: "standard",
			DailyChallenges: 3, ChallengeTimeout: 30 * time.Second, DeclineBackoff: time.Minute}
	}})
	for _, id := range []string{"d1", "d2", "d3", "d4", "d5"} {
		h.fake.AddOnlineBot(fakelichess.OnlineBot{ID: id, Decline: lichess.DeclineGeneric})
	}
	h.start()
	if err := h.logs.WaitFor(h.ctx, "matchmaking: daily challenge limit reached"); err != nil {
		t.Fatal(err)
	}
	if err := clock.Sleep(h.ctx, h.clk, time.Minute); err != nil {
		t.Fatal(err)
	}
	if n := len(h.fake.ChallengesFrom(fakelichess.BotUser)); n != 3 {
		t.Errorf("%d challenges, want the daily limit of 3", n)
	}
}
