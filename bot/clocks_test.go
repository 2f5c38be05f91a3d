package bot_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// timedGames plays n games against the fake with running clocks, the bot
// with the default time management, and reports how each ended and the
// least time left to the bot. The bot's clock runs scale times faster
// than real time, and the engine is told its time divided by the same
// scale. The games are played all at once, or in a row (one after the
// other, each started when the last has ended); with leaks, the bot's
// goroutines and open files are counted after each game of the row, and
// may not grow with the number of games played.
//
// Who pays for what depends on charged:
//   - false: the fake's clocks run on the bot's scaled clock: each move
//     costs the real time since the last one (times scale), plus lag;
//   - true: the fake's clocks run on a clock that only the engine's
//     searches move (chargedMover): each move of the bot costs exactly the
//     time it planned for its searches, plus lag, however long the machine
//     took. The verdict no longer depends on the load; the games must be
//     played in a row (a search would charge every game under way).
type timedGames struct {
	name       string
	engine     func(t *testing.T) string
	scale      float64
	lag        time.Duration
	clock, inc int64 // ms
	days       int
	games      int
	inRow      bool
	leaks      bool
	charged    bool
	opponent   func(i int) func(*rules.Game) string
}

func (tg timedGames) run(t *testing.T) {
	maxGames := tg.games
	if tg.inRow {
		maxGames = 1
	}
	opt := harnessOpt{engine: tg.engine(t), scale: tg.scale, lag: tg.lag, timeout: 10 * time.Minute, cfg: func(c *bot.Config) {
		d := bot.DefaultConfig().Engine
		c.Engine.MinMoveTime, c.Engine.MaxMoveTime, c.Engine.MoveOverhead, c.Engine.Slack = d.MinMoveTime, d.MaxMoveTime, d.MoveOverhead, 0
		c.Chat.MinInterval = bot.DefaultConfig().Chat.MinInterval
		c.Challenge.MaxGames = maxGames
	}}
	if tg.charged {
		if !tg.inRow {
			t.Fatal("charged games must be played in a row")
		}
		lichessClock := clock.NewFake(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
		opt.lichessClock = lichessClock
		ec := testConfig("").Engine
		ec.Path = opt.engine
		opt.newMover = func() bot.Mover {
			return chargedMover{Mover: bot.NewEngineMover(ec, nil), lichessClock: lichessClock, scale: tg.scale}
		}
	}
	h := newHarness(t, opt)
	if tg.engine != nil && h.cfg.Engine.Path != "" && !tg.charged {
		// One engine per game, started before the games (as threefold bot
		// does at start): a start costs real time, which the fast clock
		// would multiply.
		if err := h.logs.WaitFor(h.ctx, "engines warm"); err != nil {
			t.Fatalf("engines not started: %v", err)
		}
	}
	var mu sync.Mutex
	var lines []string
	least := time.Duration(1<<62 - 1)
	start := func(i int) string {
		color := rules.White
		if i%2 == 1 {
			color = rules.Black
		}
		id := h.newGame(fakelichess.GameSpec{ID: fmt.Sprintf("tc%s%02d", tg.name, i), ClockInitial: tg.clock, ClockIncrement: tg.inc,
			DaysPerTurn: tg.days, Rated: true}, color)
		h.opponent(id, tg.opponent(i))
		return id
	}
	check := func(i int, id string) {
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
	}
	if tg.inRow {
		var first, last usage
		for i := range tg.games {
			check(i, start(i))
			u := measureUsage(i + 1)
			if i == 0 {
				first = u
			}
			last = u
		}
		if tg.leaks {
			t.Logf("after game 1: %v; after game %d: %v", first, tg.games, last)
			first.allowGrowth(t, last)
		}
	} else {
		ids := make([]string, tg.games)
		for i := range ids {
			ids[i] = start(i)
		}
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				check(i, id)
			}()
		}
		wg.Wait()
	}
	sort.Strings(lines)
	if tg.clock > 0 {
		t.Logf("%d games, least time left to the bot: %v", tg.games, least)
	}
	t.Logf("%s", strings.Join(lines, "\n"))
	if tg.inRow {
		// Stopped, the bot leaves nothing running: no goroutine, and no
		// engine (its pipes would be open files).
		h.stopBot()
		if err := <-h.done; err != nil {
			t.Errorf("bot: %v", err)
		}
		h.stopBot = nil
		noBotGoroutines(t)
	}
}

// usage is what the test process holds after a number of games: its
// goroutines, those of package bot, and its open files (-1 where the
// system does not list them).
type usage struct {
	games, goroutines, botGoroutines, files int
}

func (u usage) String() string {
	return fmt.Sprintf("%d goroutines (%d of the bot), %d open files", u.goroutines, u.botGoroutines, u.files)
}

// measureUsage counts what is running and open once the bot has written
// a game's record. The game's own goroutine may still be ending then, and
// connections kept alive come and go: the counts are compared with a
// slack (allowGrowth), far below what a leak of one per game adds over
// many games.
func measureUsage(games int) usage {
	u := usage{games: games, goroutines: runtime.NumGoroutine(), files: -1}
	buf := make([]byte, 1<<22)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "threefold/bot.") || strings.Contains(g, "threefold/bot/uci.") {
			u.botGoroutines++
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		u.files = len(fds)
	}
	return u
}

// allowGrowth fails if what is running or open grew with the games
// played: a leak of one goroutine or one file per game adds one per game;
// a few are allowed for a game's goroutine still ending and for the
// connections kept alive.
func (u usage) allowGrowth(t *testing.T, later usage) {
	t.Helper()
	const slack = 8
	if n := later.games - u.games; n < 2*slack {
		t.Fatalf("too few games (%d) between the counts to tell a leak", n)
	}
	if later.botGoroutines > u.botGoroutines+slack/2 {
		t.Errorf("goroutines of the bot: %d after game %d, %d after game %d", u.botGoroutines, u.games, later.botGoroutines, later.games)
	}
	if later.goroutines > u.goroutines+slack {
		t.Errorf("goroutines: %d after game %d, %d after game %d", u.goroutines, u.games, later.goroutines, later.games)
		logGoroutineGroups(t)
	}
	if u.files >= 0 && later.files > u.files+slack {
		t.Errorf("open files: %d after game %d, %d after game %d", u.files, u.games, later.files, later.games)
	}
}

// The acceptance of the running clocks: bullet (1+0) with the built-in
// mover (20 games at once) and with Stockfish (20 games in a row, without
// a leak of goroutines or files), blitz (3+2) and correspondence with
// Stockfish (one engine per game), with 50 ms of network lag charged to
// every move of the bot, never lost on time.
//
// The Stockfish games are charged (see timedGames): Stockfish plays every
// move, thinking in real time for the time the bot gives it, but the
// games' clocks count what the bot planned to spend, not what a loaded
// machine made it wait. On the wall clock the bullet games were lost on
// time at load 20 and more, for want of a CPU, not of time management.
// The built-in mover's games stay on the wall clock: they show that the
// requests of 20 games at once, sharing one account's request slot, fit
// in the time the bot keeps for them; their margin is wide (about 50 s of
// 60 left on a quiet machine, still 14 s when the test gets a tenth of
// the wall time).
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
		{name: "bullet-stockfish", engine: stockfish, scale: 4, lag: 50 * time.Millisecond, clock: 60000, games: 20, inRow: true, leaks: true, charged: true, opponent: opponent(160)},
		{name: "blitz-stockfish", engine: stockfish, scale: 8, lag: 50 * time.Millisecond, clock: 180000, inc: 2000, games: 2, inRow: true, charged: true, opponent: opponent(80)},
		{name: "correspondence-stockfish", engine: stockfish, scale: 2000, days: 1, games: 2, inRow: true, charged: true, opponent: opponent(40)},
	}
	for _, r := range runs {
		t.Run(r.name, r.run)
	}
}

// chargedMover is an engine whose searches are paid for on the fake
// Lichess's clock: each search moves that clock on by the time the bot
// planned for it (the engine was told that time divided by the scale of
// the bot's clock, and took at most that in real time, or was stopped).
// A search takes all the time it was given, as a movetime search does.
type chargedMover struct {
	bot.Mover
	lichessClock *clock.Fake
	scale        float64
}

func (m chargedMover) Search(ctx context.Context, req bot.SearchRequest) (bot.SearchResult, error) {
	res, err := m.Mover.Search(ctx, req)
	m.lichessClock.Advance(time.Duration(float64(req.Limit.MoveTime) * m.scale))
	return res, err
}

// logGoroutineGroups logs the goroutines that run the same functions, by
// how many there are (more than 5): where a leak is.
func logGoroutineGroups(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<24)
	counts := map[string]int{}
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		lines := strings.Split(g, "\n")
		key := ""
		for i := 1; i < len(lines) && i < 12; i += 2 {
			f := strings.TrimSpace(lines[i])
			if j := strings.LastIndex(f, "("); j > 0 {
				f = f[:j]
			}
			key += f + " | "
		}
		counts[key]++
	}
	for k, n := range counts {
		if n > 5 {
			t.Logf("%d × %s", n, k)
		}
	}
}
