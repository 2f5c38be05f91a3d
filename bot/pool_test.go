package bot_test

import (
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// One engine process per game, started with the bot and reused by the
// next game; the CPU and hash budgets are shared out between max_games
// engines.
func TestEnginesAreStartedOnceAndReused(t *testing.T) {
	h := newHarness(t, harnessOpt{engine: fakeEngine(t, "cp=0", "avoid"), cfg: func(c *bot.Config) {
		c.Challenge.MaxGames = 2
		c.Engine.CPUBudget = 6
		c.Engine.HashBudget = 100
	}})
	if err := h.logs.WaitFor(h.ctx, "engines warm"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		id := h.newGame(fakelichess.GameSpec{ID: "reuse" + string(rune('a'+i)), ClockInitial: 60000,
			Script: []fakelichess.Step{{Move: "e7e5"}, {Resign: true}}}, rules.White)
		if st, _ := h.waitGameOver(id); st.Status != lichess.StatusResign {
			t.Fatalf("game %d: %s", i, st.Status)
		}
	}
	logs := h.logs.String()
	if n := strings.Count(logs, "line=uci\n"); n != 2 {
		t.Errorf("%d engines started for 3 games one after another with max_games 2, want 2", n)
	}
	if !strings.Contains(logs, `line="setoption name Threads value 3"`) {
		t.Error("a CPU budget of 6 threads for 2 games did not give each engine 3 threads")
	}
	if !strings.Contains(logs, `line="setoption name Hash value 50"`) {
		t.Error("a hash budget of 100 MB for 2 games did not give each engine 50 MB")
	}
}
