package bot_test

import (
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// The bot's status, for the dashboard: its account at start, the games it
// plays, its record game by game (an aborted game does not count) and its
// rating after a rated game.
func TestStatusCountsTheGames(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	if s, err := h.waitStatus(func(s threefold.BotStatus) bool { return s.Account != "" }); err != nil || s.Account != "ThreefoldBot" {
		t.Fatalf("status at start %+v: %v", s, err)
	}
	wait := []fakelichess.Step{{Wait: 24 * time.Hour}}
	games := []struct {
		name           string
		color          rules.Color
		status, winner string
	}{
		{"won", rules.White, lichess.StatusResign, "white"},
		{"lost", rules.Black, lichess.StatusMate, "white"},
		{"drawn", rules.White, lichess.StatusDraw, ""},
		{"aborted", rules.Black, lichess.StatusAborted, ""},
	}
	for i, g := range games {
		id := h.newGame(fakelichess.GameSpec{ID: "status0" + string(rune('a'+i)), ClockInitial: 180000, Rated: true, Script: wait}, g.color)
		if _, err := h.waitStatus(func(s threefold.BotStatus) bool { return s.Playing == 1 }); err != nil {
			t.Fatalf("%s: the game is not counted as playing: %v", g.name, err)
		}
		h.fake.Game(id).Finish(g.status, g.winner)
		h.waitGameOver(id)
		if _, err := h.waitStatus(func(s threefold.BotStatus) bool { return s.Playing == 0 }); err != nil {
			t.Fatalf("%s: still playing: %v", g.name, err)
		}
	}
	s, err := h.waitStatus(func(s threefold.BotStatus) bool { return s.Ratings["blitz"] > 0 })
	if err != nil || s.Wins != 1 || s.Draws != 1 || s.Losses != 1 || s.Ratings["blitz"] != 1500 {
		t.Errorf("status %+v (%v), want +1 =1 -1 and a blitz rating of 1500", s, err)
	}
}
