package bot_test

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// timedGames plays n games at once against the fake with running clocks
// (the fake charges each move the time since the last one, plus lag, on a
// clock that runs scale times faster than real time; the engine is told
// its time divided by the same scale), the bot with the default time
// management, and reports how each ended and the least time the bot had
// left.
type timedGames struct {
	name       string
	engine     func(t *testing.T) string
	scale      float64
	lag        time.Duration
	clock, inc int64 // ms
	days       int
	games      int
	opponent   func(i int) func(*rules.Game) string
}

func (tg timedGames) run(t *testing.T) {
	h := newHarness(t, harnessOpt{engine: tg.engine(t), scale: tg.scale, lag: tg.lag, timeout: 10 * time.Minute, cfg: func(c *bot.Config) {
		d := bot.DefaultConfig().Engine
		c.Engine.MinMoveTime, c.Engine.MaxMoveTime, c.Engine.MoveOverhead, c.Engine.Slack = d.MinMoveTime, d.MaxMoveTime, d.MoveOverhead, 0
		c.Chat.MinInterval = bot.DefaultConfig().Chat.MinInterval
		c.Challenge.MaxGames = tg.games
	}})
	if tg.engine != nil && h.cfg.Engine.Path != "" {
		// One engine per game, started before the games (as threefold bot
		// does at start): a start costs real time, which the fast clock
		// would multiply.
		if err := h.logs.WaitFor(h.ctx, "engines warm"); err != nil {
			t.Fatalf("engines not started: %v", err)
		}
	}
	ids := make([]string, tg.games)
	for i := range ids {
		color := rules.White
		if i%2 == 1 {
			color = rules.Black
		}
		ids[i] = h.newGame(fakelichess.GameSpec{ID: fmt.Sprintf("tc%s%02d", tg.name, i), ClockInitial: tg.clock, ClockIncrement: tg.inc,
			DaysPerTurn: tg.days, Rated: true}, color)
		h.opponent(ids[i], tg.opponent(i))
	}
	var mu sync.Mutex
	var lines []string
	least := time.Duration(1<<62 - 1)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, rec := h.waitGameOver(id)
			left := st.WTime
			if rec.BotColor == "black" {
				left = st.BTime
			}
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, fmt.Sprintf("%s: %s %s after %d plies (%s), bot %s with %.1fs left", id, st.Status, rec.Result, st.Ply, rec.Termination, rec.BotColor, float64(left)/1000))
			lost := st.Status == lichess.StatusOutOfTime && st.Winner != rec.BotColor
			if lost || st.Status == lichess.StatusNoStart {
				t.Errorf("game %d: the bot lost on time: %s %s at ply %d (bot %s, %d ms left)", i, st.Status, st.Winner, st.Ply, rec.BotColor, left)
			}
			if tg.clock > 0 && st.Ply >= 6 && left >= tg.clock+int64(st.Ply/2)*tg.inc {
				t.Errorf("game %d: the bot's clock never ran (%d ms left after %d plies)", i, left, st.Ply)
			}
			if d := time.Duration(left) * time.Millisecond; d < least && tg.clock > 0 {
				least = d
			}
		}()
	}
	wg.Wait()
	sort.Strings(lines)
	if tg.clock > 0 {
		t.Logf("%d games, least time left to the bot: %v", len(ids), least)
	}
	t.Logf("%s", strings.Join(lines, "\n"))
}

// The acceptance of the running clocks: bullet (1+0, 20 games at once),
// blitz (3+2) and correspondence, with Stockfish (one engine per game)
// and with the built-in mover, with 50 ms of network lag charged to every
// move of the bot, never lost on time. The clock runs faster than real
// time, and the engine is told its time divided by the same factor.
func TestNoLossOnTime(t *testing.T) {
	builtin := func(t *testing.T) string { return "" }
	stockfish := func(t *testing.T) string { return testenv.Stockfish(t) }
	opponent := func(resignPly int) func(i int) func(*rules.Game) string {
		return func(i int) func(*rules.Game) string { return builtinOpponent(int64(100+i), resignPly) }
	}
	runs := []timedGames{
		// The built-in mover answers at once: its clock pays for the bot's
		// own work and the requests of 20 games sharing one account's
		// request slot, which -race slows down; a slower fast clock.
		{name: "bullet-builtin", engine: builtin, scale: 2, lag: 50 * time.Millisecond, clock: 60000, games: 20, opponent: opponent(160)},
		{name: "bullet-stockfish", engine: stockfish, scale: 4, lag: 50 * time.Millisecond, clock: 60000, games: 20, opponent: opponent(160)},
		{name: "blitz-stockfish", engine: stockfish, scale: 8, lag: 50 * time.Millisecond, clock: 180000, inc: 2000, games: 2, opponent: opponent(80)},
		{name: "correspondence-stockfish", engine: stockfish, scale: 2000, days: 1, games: 2, opponent: opponent(40)},
	}
	for _, r := range runs {
		t.Run(r.name, r.run)
	}
}
