package lichess_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// collector gathers what a stream delivers.
type collector[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{}
}

func newCollector[T any]() *collector[T] { return &collector[T]{changed: make(chan struct{})} }

func (c *collector[T]) add(v T) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items = append(c.items, v)
	close(c.changed)
	c.changed = make(chan struct{})
	return nil
}

func (c *collector[T]) all() []T {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]T(nil), c.items...)
}

func (c *collector[T]) waitLen(t *testing.T, n int) []T {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		ch, got := c.changed, len(c.items)
		c.mu.Unlock()
		if got >= n {
			return c.all()
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("got %d items, want %d", got, n)
		}
	}
}

func eventKey(ev lichess.Event) string {
	switch {
	case ev.Game != nil:
		return ev.Type + " " + ev.Game.GameID
	case ev.Challenge != nil:
		return ev.Type + " " + ev.Challenge.ID
	}
	return ev.Type
}

func TestEventStreamParsesRecordedLines(t *testing.T) {
	e := newEnv(t, envOpts{})
	col := newCollector[lichess.Event]()
	done := run(t, func() error { return e.c.StreamEvents(e.ctx, col.add) })
	e.waitFor("the event stream", func() bool { return e.fake.Streams("event") == 1 })
	for _, l := range recorded("event-stream.ndjson") {
		e.fake.SendEvent(fakelichess.BotUser, l)
	}
	evs := col.waitLen(t, 5)
	checks := []struct {
		name string
		ok   bool
	}{
		{"gameStart", evs[0].Type == lichess.EventGameStart && evs[0].Game.GameID == "0FgNPGRz" && evs[0].Game.FullID == "0FgNPGRzhDaW" &&
			evs[0].Game.Opponent.Username == "Aaron" && evs[0].Game.IsMyTurn && evs[0].Game.SecondsLeft == 300 && evs[0].Game.Compat.Board &&
			evs[0].Game.Status.ID == 20},
		{"gameFinish", evs[1].Type == lichess.EventGameFinish && evs[1].Game.Winner == "black" && evs[1].Game.Opponent.RatingDiff == 5 &&
			evs[1].Game.Status.Name == lichess.StatusResign && evs[1].Game.LastMove == "e7e5"},
		{"challenge", evs[2].Type == lichess.EventChallenge && evs[2].Challenge.ID == "jWAgu6ga" && evs[2].Challenge.Challenger.Name == "Adriana" &&
			evs[2].Challenge.DestUser.Provisional && evs[2].Challenge.TimeControl.Type == "unlimited" && evs[2].Compat != nil &&
			evs[2].Challenge.FinalColor == "black" && evs[2].Challenge.Speed == "correspondence"},
		{"challengeCanceled", evs[3].Type == lichess.EventChallengeCanceled && evs[3].Challenge.Challenger.Title == "WNM"},
		{"challengeDeclined", evs[4].Type == lichess.EventChallengeDeclined && evs[4].Challenge.DeclineReasonKey == "generic" &&
			strings.HasPrefix(evs[4].Challenge.DeclineReason, "I'm not")},
		{"raw kept", strings.Contains(string(evs[0].Raw), `"fullId":"0FgNPGRzhDaW"`)},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: parsed wrong: %+v", c.name, evs)
		}
	}
	e.c.Close()
	if err := wait(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("stream after Close: %v", err)
	}
}

// Across every kind of break, the event stream delivers each event exactly
// once: the games and challenges Lichess resends on reconnect are not
// delivered again, and what happened while the stream was down (a game
// finished, a challenge canceled) is reconciled and delivered.
func TestEventStreamResumesExactly(t *testing.T) {
	cut := fakelichess.Fault{Path: "/api/stream/event", Disconnect: true, AfterLines: 2}
	tests := []struct {
		name   string
		faults []fakelichess.Fault
		kill   bool // a second event stream kills the first
		down   bool // the game ends and challenge 1 is canceled while the stream is down
		opens  int  // streams opened (status 200) once the client is back
		logs   []string
	}{
		{name: "cut mid-stream", faults: []fakelichess.Fault{cut}, opens: 2},
		{name: "cut, then a 5xx burst", faults: []fakelichess.Fault{cut, fakelichess.ServerErrors("/api/stream/event", 3)}, opens: 2},
		{name: "a second event stream kills the first", kill: true, opens: 3},
		{name: "events while down are reconciled", faults: []fakelichess.Fault{cut}, down: true, opens: 2},
		{name: "truncated line", opens: 1, logs: []string{"malformed stream line skipped", "stream=event", "line=3"},
			faults: []fakelichess.Fault{{Path: "/api/stream/event", Truncate: true, AfterLines: 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			game := e.fake.MustNewGame(fakelichess.GameSpec{ID: "gameAAAA"})
			c1 := e.fake.Challenge(fakelichess.ChallengeSpec{ID: "chal0001"})
			for _, f := range tc.faults {
				e.fake.Inject(f)
			}
			col := newCollector[lichess.Event]()
			done := run(t, func() error { return e.c.StreamEvents(e.ctx, col.add) })
			col.waitLen(t, 2)
			if tc.kill {
				secondEventStream(e)
			}
			if tc.down {
				// Keep the client out until the changes are made.
				e.fake.Inject(fakelichess.Fault{Path: "/api/stream/event", Status: 503, Times: -1})
			}
			e.fake.Challenge(fakelichess.ChallengeSpec{ID: "chal0002"})
			if tc.down {
				e.waitFor("a failed reconnect", func() bool {
					return len(e.fake.RequestsTo(http.MethodGet, "/api/stream/event")) >= 3
				})
				e.fake.CancelChallenge(c1)
				game.OpponentResign()
				e.fake.ClearFaults()
			}
			e.waitFor("the client back on its stream", func() bool {
				return e.streamsOpened("/api/stream/event") >= tc.opens && e.fake.Streams("event") == 1
			})
			if !tc.down {
				e.fake.CancelChallenge(c1)
				game.OpponentResign()
			}
			col.waitLen(t, 5)
			// Let any duplicate arrive: one more event closes the list.
			e.fake.Challenge(fakelichess.ChallengeSpec{ID: "chal0003"})
			evs := col.waitLen(t, 6)
			count := map[string]int{}
			for _, ev := range evs {
				count[eventKey(ev)]++
			}
			for _, k := range []string{"gameStart gameAAAA", "challenge chal0001", "challenge chal0002", "challengeCanceled chal0001",
				"gameFinish gameAAAA", "challenge chal0003"} {
				if count[k] != 1 {
					t.Errorf("%s delivered %d times", k, count[k])
				}
			}
			if len(evs) != 6 {
				t.Errorf("%d events, want 6", len(evs))
			}
			for _, ev := range evs {
				if ev.Type == lichess.EventGameFinish && (ev.Game.Status.Name != lichess.StatusResign || ev.Game.Winner != "white") {
					t.Errorf("gameFinish %+v", *ev.Game)
				}
			}
			for _, l := range tc.logs {
				if !strings.Contains(e.logs.String(), l) {
					t.Errorf("logs lack %q:\n%s", l, e.logs.String())
				}
			}
			e.c.Close()
			wait(t, done)
		})
	}
}

// secondEventStream opens another event stream with the same token, as a
// second bot process would; Lichess (and the fake) close the first one.
func secondEventStream(e *env) {
	ctx, cancel := context.WithCancel(e.ctx)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.fake.URL+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+fakelichess.BotToken)
	hc := &http.Client{Transport: &http.Transport{}}
	resp, err := hc.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		hc.CloseIdleConnections()
	})
}

// botPlayer plays a list of moves for the bot whenever it is its turn.
type botPlayer struct {
	e      *env
	game   string
	white  bool
	moves  []string
	events *collector[lichess.GameEvent]
}

func (b *botPlayer) handle(ev lichess.GameEvent) error {
	b.events.add(ev)
	var st *lichess.GameState
	switch {
	case ev.Full != nil:
		st = &ev.Full.State
	case ev.State != nil:
		st = ev.State
	default:
		return nil
	}
	if lichess.Finished(st.Status) {
		return nil
	}
	n := len(st.MoveList())
	if (n%2 == 0) != b.white {
		return nil
	}
	i := n / 2
	if i >= len(b.moves) {
		return nil
	}
	if err := b.e.c.Move(b.e.ctx, b.game, b.moves[i], false); err != nil {
		return fmt.Errorf("move %s: %w", b.moves[i], err)
	}
	return nil
}

func describe(evs []lichess.GameEvent) []string {
	var out []string
	for _, ev := range evs {
		switch {
		case ev.Full != nil:
			s := "full[" + ev.Full.State.Moves + "]"
			if ev.Resync {
				s = "resync[" + ev.Full.State.Moves + "]"
			}
			out = append(out, s)
		case ev.State != nil:
			s := "state[" + ev.State.Moves + "]"
			if ev.State.Status != lichess.StatusStarted {
				s += ev.State.Status
			}
			if ev.State.WDraw || ev.State.BDraw {
				s += fmt.Sprintf("w%vb%v", ev.State.WDraw, ev.State.BDraw)
			}
			out = append(out, s)
		case ev.Chat != nil:
			out = append(out, "chat["+ev.Chat.Username+":"+ev.Chat.Text+"]")
		case ev.OpponentGone != nil:
			out = append(out, fmt.Sprintf("gone[%v]", ev.OpponentGone.Gone))
		}
	}
	return out
}

// A bot game on the fake: the bot shuffles its knight, the scripted
// opponent too; Lichess draws at the first threefold because a BOT plays,
// and the stream ends with the final state.
func TestBotGameEndsAtFirstThreefold(t *testing.T) {
	e := newEnv(t, envOpts{})
	g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "shuffle1", Script: []fakelichess.Step{
		{Move: "b8c6", Chat: "hello"}, {Move: "c6b8"}, {Move: "b8c6"}, {Move: "c6b8"}, {Move: "b8c6"}}})
	b := &botPlayer{e: e, game: g.ID(), white: true, moves: []string{"g1f3", "f3g1", "g1f3", "f3g1", "g1f3"}, events: newCollector[lichess.GameEvent]()}
	if err := e.c.StreamBotGame(e.ctx, g.ID(), b.handle); err != nil {
		t.Fatalf("stream: %v", err)
	}
	got := strings.Join(describe(b.events.all()), " ")
	want := "full[] state[g1f3] chat[Mary:hello] state[g1f3 b8c6] state[g1f3 b8c6 f3g1] state[g1f3 b8c6 f3g1 c6b8] " +
		"state[g1f3 b8c6 f3g1 c6b8 g1f3] state[g1f3 b8c6 f3g1 c6b8 g1f3 b8c6] state[g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1] " +
		"state[g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8]draw"
	if got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if st := g.State(); st.Status != "draw" || st.Count != 3 || st.Winner != "" {
		t.Errorf("final state %+v", st)
	}
}

// The bot game stream survives a cut: the reconnect delivers gameFull with
// Resync and every move, and no state or chat line twice.
func TestBotGameResumesExactly(t *testing.T) {
	tests := []struct {
		name  string
		fault fakelichess.Fault
		kill  bool
	}{
		{name: "cut after the chat line", fault: fakelichess.Fault{Path: "/api/bot/game/stream/*", Disconnect: true, AfterLines: 3}},
		{name: "cut before the chat line: it comes from the history", fault: fakelichess.Fault{Path: "/api/bot/game/stream/*", Disconnect: true, AfterLines: 2}},
		{name: "second stream with the same User-Agent", kill: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			if tc.fault.Path != "" {
				e.fake.Inject(tc.fault)
			}
			// Lines: gameFull, state e2e4, chat hi, state e2e4 e7e5 ...
			g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "resume01", Script: []fakelichess.Step{
				{Chat: "hi", Move: "e7e5"}, {Move: "b8c6"}, {Resign: true}}})
			b := &botPlayer{e: e, game: g.ID(), white: true, moves: []string{"e2e4", "g1f3", "f1b5"}, events: newCollector[lichess.GameEvent]()}
			var once sync.Once
			handle := b.handle
			if tc.kill {
				handle = func(ev lichess.GameEvent) error {
					if ev.State != nil && ev.State.Moves == "e2e4 e7e5" {
						once.Do(g.KillStreams)
					}
					return b.handle(ev)
				}
			}
			if err := e.c.StreamBotGame(e.ctx, g.ID(), handle); err != nil {
				t.Fatalf("stream: %v", err)
			}
			got := describe(b.events.all())
			seen := map[string]bool{}
			for _, s := range got {
				if seen[s] {
					t.Errorf("%s delivered twice: %v", s, got)
				}
				seen[s] = true
			}
			resync := 0
			for _, ev := range b.events.all() {
				if ev.Resync {
					resync++
				}
			}
			if resync != 1 {
				t.Errorf("%d resyncs: %v", resync, got)
			}
			last := got[len(got)-1]
			if last != "state[e2e4 e7e5 g1f3 b8c6 f1b5]resign" && !strings.HasPrefix(last, "resync[e2e4 e7e5 g1f3 b8c6 f1b5]") {
				t.Errorf("last event %s: %v", last, got)
			}
			if !seen["chat[Mary:hi]"] {
				t.Errorf("chat lost: %v", got)
			}
			fromHistory := slices.Index(got, "chat[Mary:hi]") > slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, "resync") })
			if want := strings.Contains(tc.name, "history"); fromHistory != want {
				t.Errorf("chat line from the history: %v, want %v: %v", fromHistory, want, got)
			}
			if want := strings.Contains(tc.name, "history"); want && len(e.fake.RequestsTo(http.MethodGet, "/api/bot/game/*/chat")) == 0 {
				t.Error("no chat history fetched")
			}
			if st := g.State(); st.Status != "resign" || st.Winner != "white" {
				t.Errorf("final %+v", st)
			}
		})
	}
}

// A Lichess whose keep-alives are slower than lila's today (the description
// promises only the event stream's) does not make the watchdog reconnect a
// live stream: half an hour of a keep-alive every 75 s (the longest a
// stream can stay idle before lila's server closes it) on each stream whose
// interval is not promised, with a fake clock, opens each stream once.
func TestSlowKeepAliveDoesNotChurn(t *testing.T) {
	slow := lichess.MaxPlausibleKeepAlive
	for _, row := range []struct {
		name, path string
		silence    time.Duration
		open       func(e *env) func() error
	}{
		{"bot game", "/api/bot/game/stream/*", lichess.SilenceBotGame, func(e *env) func() error {
			g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "slowka01"})
			return func() error { return e.c.StreamBotGame(e.ctx, g.ID(), func(lichess.GameEvent) error { return nil }) }
		}},
		{"spectator", "/api/stream/game/*", lichess.SilenceMoves, func(e *env) func() error {
			g := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "slowka02", White: "a", Black: "b"})
			return func() error { return e.c.StreamGame(e.ctx, g.ID(), func(lichess.SpectatorEvent) error { return nil }) }
		}},
		{"games by users", "/api/stream/games-by-users", lichess.SilenceMoves, func(e *env) func() error {
			return func() error {
				return e.c.StreamGamesByUsers(e.ctx, []string{"a", "b"}, func(lichess.GameSummary) error { return nil })
			}
		}},
		{"tv", "/api/tv/feed", lichess.SilenceMoves, func(e *env) func() error {
			return func() error { return e.c.StreamTV(e.ctx, "", func(lichess.TVEvent) error { return nil }) }
		}},
		{"broadcast round", "/api/stream/broadcast/round/*", lichess.SilenceBroadcast, func(e *env) func() error {
			e.allScopes()
			e.fake.Broadcast("slowka03").SetPGN(recordedText("broadcast-round.pgn"))
			return func() error { return e.c.StreamBroadcastRound(e.ctx, "slowka03", func(string) error { return nil }) }
		}},
	} {
		t.Run(row.name, func(t *testing.T) {
			if row.silence < 2*slow {
				t.Fatalf("silence limit %s is under twice the slowest plausible keep-alive %s", row.silence, slow)
			}
			e := newEnv(t, envOpts{clock: true, fake: fakelichess.Options{SlowKeepAlive: slow}})
			ctx, cancel := context.WithCancel(e.ctx)
			e.ctx = ctx
			done := run(t, row.open(e))
			e.waitFor("the stream", func() bool { return e.streamsOpened(row.path) == 1 })
			for elapsed := time.Duration(0); elapsed < 30*time.Minute; elapsed += slow {
				// The client's watchdog was reset by the last byte, and the
				// server's keep-alive timer is armed.
				if err := e.clk.WaitFor(e.ctx, func() bool {
					return hasTimerLeft(e.clk, row.silence) && hasTimerLeft(e.clk, slow)
				}); err != nil {
					t.Fatalf("after %s: %v", elapsed, err)
				}
				e.clk.Advance(slow)
			}
			if n := e.streamsOpened(row.path); n != 1 {
				t.Errorf("%d connections in half an hour of keep-alives every %s, want 1", n, slow)
			}
			if strings.Contains(e.logs.String(), "stream silent") {
				t.Errorf("the watchdog fired on a live stream:\n%s", e.logs.String())
			}
			cancel()
			wait(t, done)
		})
	}
}

// With a fake clock: a stream that goes silent is found dead after three
// keep-alive periods and reconnected; keep-alives keep a quiet stream up.
func TestSilentStreamIsReconnected(t *testing.T) {
	e := newEnv(t, envOpts{clock: true, client: lichess.Options{Backoff: lichess.Backoff{Initial: time.Second, Max: time.Second, Rand: func() float64 { return 1 }}}})
	g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "silent01"})
	col := newCollector[lichess.GameEvent]()
	done := run(t, func() error { return e.c.StreamBotGame(e.ctx, g.ID(), col.add) })
	col.waitLen(t, 1)
	watchdog := lichess.SilenceBotGame
	// A quiet but live stream: the server's keep-alive every 7 s resets the
	// watchdog; a minute passes without a reconnect.
	for i := 0; i < 9; i++ {
		// The client's watchdog and the server's keep-alive timer are armed.
		if err := e.clk.WaitFor(e.ctx, func() bool {
			return hasTimerLeft(e.clk, watchdog) && hasTimerLeft(e.clk, fakelichess.KeepAliveBotGame)
		}); err != nil {
			t.Fatal(err)
		}
		e.clk.Advance(fakelichess.KeepAliveBotGame)
	}
	if n := e.streamsOpened("/api/bot/game/stream/*"); n != 1 {
		t.Fatalf("%d connections while keep-alives flowed", n)
	}
	// Now the next connection goes silent from its first line on.
	e.fake.Inject(fakelichess.Fault{Path: "/api/bot/game/stream/*", Silent: true, AfterLines: 1})
	g.KillStreams()
	if err := e.clk.WaitTimer(e.ctx, time.Second); err != nil { // the backoff
		t.Fatal(err)
	}
	e.clk.Advance(time.Second)
	col.waitLen(t, 2) // the resync gameFull of the silent connection
	silentFrom := e.clk.Now()
	if err := e.clk.WaitTimer(e.ctx, watchdog); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(watchdog - time.Second)
	if n := e.streamsOpened("/api/bot/game/stream/*"); n != 2 {
		t.Fatalf("reconnected before the watchdog: %d", n)
	}
	e.clk.Advance(time.Second)
	if err := e.clk.WaitTimer(e.ctx, time.Second); err != nil { // the backoff
		t.Fatal(err)
	}
	e.clk.Advance(time.Second)
	e.waitFor("the reconnect", func() bool { return e.streamsOpened("/api/bot/game/stream/*") == 3 })
	reqs := e.fake.RequestsTo(http.MethodGet, "/api/bot/game/stream/*")
	if d := reqs[2].Time.Sub(silentFrom); d > lichess.SilenceBotGame+time.Second {
		t.Errorf("silent stream reconnected after %s", d)
	}
	if !strings.Contains(e.logs.String(), "stream silent") {
		t.Errorf("no log of the silence")
	}
	g.OpponentResign()
	if err := wait(t, done); err != nil {
		t.Fatalf("stream: %v", err)
	}
	evs := describe(col.all())
	if strings.Join(evs, " ") != "full[] resync[] resync[] state[]resign" {
		t.Errorf("events %v", evs)
	}
}

func hasTimerLeft(c *clock.Fake, d time.Duration) bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return c.WaitTimer(ctx, d) == nil
}

// The recorded bot-stream lines, including the older form with
// wdraw:false, parse into typed events.
func TestBotGameRecordedLines(t *testing.T) {
	e := newEnv(t, envOpts{})
	g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "recorded"})
	col := newCollector[lichess.GameEvent]()
	done := run(t, func() error { return e.c.StreamBotGame(e.ctx, g.ID(), col.add) })
	col.waitLen(t, 1)
	lines := append(recorded("bot-game-stream.ndjson")[1:], recorded("board-game-states.ndjson")...)
	for _, l := range lines {
		g.SendRaw(l)
	}
	evs := col.waitLen(t, 1+len(lines))
	e.c.Close()
	wait(t, done)
	checks := []struct {
		name string
		ok   bool
	}{
		{"state with castling e1g1", evs[1].State != nil && len(evs[1].State.MoveList()) == 13 && evs[1].State.WTime == 7598040 && !evs[1].State.WDraw},
		{"chat", evs[2].Chat != nil && evs[2].Chat.Username == "thibault" && evs[2].Chat.Room == "player"},
		{"opponent gone", evs[3].OpponentGone != nil && evs[3].OpponentGone.Gone && evs[3].OpponentGone.ClaimWinInSeconds == 8},
		{"opponent back", evs[4].OpponentGone != nil && !evs[4].OpponentGone.Gone},
		{"draw offered", evs[5].State != nil && evs[5].State.BDraw && !evs[5].State.WDraw},
		{"drawn", evs[6].State != nil && evs[6].State.Status == lichess.StatusDraw && !evs[6].State.BDraw},
		{"out of time", evs[7].State != nil && evs[7].State.Status == lichess.StatusOutOfTime && evs[7].State.Winner == "black"},
		{"mate", evs[8].State != nil && evs[8].State.Status == lichess.StatusMate},
		{"promotion", evs[9].State != nil && strings.HasSuffix(evs[9].State.Moves, "d7d8q") && evs[9].State.WTime == 2147483647},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: %v", c.name, describe(evs))
		}
	}
	var full lichess.GameFull
	if err := json.Unmarshal([]byte(recorded("bot-game-stream.ndjson")[0]), &full); err != nil ||
		full.Clock == nil || full.Clock.Initial != 900000 || full.White.Name != "Bobby" || full.InitialFEN != "startpos" || full.State.Moves != "d2d3" || full.Perf.Name != "Rapid" {
		t.Errorf("recorded gameFull: %+v %v", full, err)
	}
}

// A stream whose headers never come is abandoned after the watchdog period
// and opened again; meanwhile it does not block the account for good.
func TestStreamHeadersNeverCome(t *testing.T) {
	e := newEnv(t, envOpts{clock: true, client: lichess.Options{Backoff: lichess.Backoff{Initial: time.Second, Max: time.Second, Rand: func() float64 { return 1 }}}})
	hold := make(chan struct{})
	defer close(hold)
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/event", Hold: hold})
	col := newCollector[lichess.Event]()
	done := run(t, func() error { return e.c.StreamEvents(e.ctx, col.add) })
	e.waitFor("the held request", func() bool { return len(e.fake.RequestsTo(http.MethodGet, "/api/stream/event")) == 1 })
	watchdog := lichess.SilenceEvents
	if err := e.clk.WaitTimer(e.ctx, watchdog); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(watchdog)
	if err := e.clk.WaitTimer(e.ctx, time.Second); err != nil { // backoff
		t.Fatal(err)
	}
	// The account is free again: a call goes through.
	if _, err := e.c.Account(e.ctx); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(time.Second)
	e.waitFor("the second stream", func() bool { return e.streamsOpened("/api/stream/event") == 1 && e.fake.Streams("event") == 1 })
	e.fake.Challenge(fakelichess.ChallengeSpec{})
	col.waitLen(t, 1)
	e.c.Close()
	wait(t, done)
}

// Lines far longer than the reader's buffer are read whole.
func TestLongLines(t *testing.T) {
	e := newEnv(t, envOpts{})
	g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "longline"})
	col := newCollector[lichess.GameEvent]()
	done := run(t, func() error { return e.c.StreamBotGame(e.ctx, g.ID(), col.add) })
	col.waitLen(t, 1)
	long := strings.Repeat("abcdefghij", 30000) // 300 kB
	g.SendRaw(`{"type":"chatLine","username":"spam","text":"` + long + `","room":"spectator"}`)
	g.SendRaw(`{"type":"chatLine","username":"after","text":"ok","room":"spectator"}`)
	evs := col.waitLen(t, 3)
	e.c.Close()
	wait(t, done)
	if evs[1].Chat == nil || evs[1].Chat.Text != long || evs[2].Chat == nil || evs[2].Chat.Username != "after" {
		t.Errorf("long line not read whole: %v", describe(evs[1:]))
	}
}

// The chat history a reconnected bot game stream asks for is read in both
// shapes: NDJSON, as the description says, and a JSON array, as lila has
// answered.
func TestChatHistoryShapes(t *testing.T) {
	for _, row := range []struct {
		name, body string
	}{
		{"ndjson, as described", "{\"text\":\"hi\",\"user\":\"Mary\"}\n{\"text\":\"gg\",\"user\":\"ThreefoldBot\"}\n"},
		{"a json array, as lila", `[{"text":"hi","user":"Mary"},{"text":"gg","user":"ThreefoldBot"}]`},
	} {
		t.Run(row.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "chatHist"})
			e.fake.Inject(fakelichess.Fault{Method: http.MethodGet, Path: "/api/bot/game/" + g.ID() + "/chat", Status: http.StatusOK, Body: row.body})
			n, err := e.c.GameChatLines(e.ctx, g.ID())
			if err != nil || n != 2 {
				t.Errorf("%d lines, %v; want 2", n, err)
			}
		})
	}
}
