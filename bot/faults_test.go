package bot_test

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

func TestFaultsDoNotStopAGame(t *testing.T) {
	tests := []struct {
		name  string
		fault fakelichess.Fault
		// check looks at the requests after the game.
		check func(t *testing.T, h *harness, id string)
	}{
		{"game stream dropped mid-game", fakelichess.Fault{Path: "/api/bot/game/stream/*", Disconnect: true, AfterLines: 6},
			func(t *testing.T, h *harness, id string) { wantStreams(t, h, id, 2) }},
		{"game stream goes silent", fakelichess.Fault{Path: "/api/bot/game/stream/*", Silent: true, AfterLines: 5},
			func(t *testing.T, h *harness, id string) { wantStreams(t, h, id, 2) }},
		{"truncated line on the game stream", fakelichess.Fault{Path: "/api/bot/game/stream/*", Truncate: true, AfterLines: 4}, nil},
		{"429 on a move", fakelichess.RateLimited("/api/bot/game/*/move/*", 0),
			func(t *testing.T, h *harness, id string) {
				var limited, after bool
				for _, r := range h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/move/*") {
					if r.Status == 429 {
						limited = true
					} else if limited && r.Status == 200 {
						after = true
					}
				}
				if !limited || !after {
					t.Errorf("429 seen %v, a move accepted after it %v", limited, after)
				}
			}},
		{"5xx burst on moves", fakelichess.ServerErrors("/api/bot/game/*/move/*", 3), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{noAutoStart: true})
			h.fake.Inject(tc.fault)
			h.start()
			id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000, ClockIncrement: 2000}, rules.White)
			h.opponent(id, builtinOpponent(11, 40))
			st, rec := h.waitGameOver(id)
			if st.Status != lichess.StatusResign && st.Status != lichess.StatusMate && st.Status != lichess.StatusDraw {
				t.Fatalf("game ended %s at ply %d", st.Status, st.Ply)
			}
			checkRecord(t, st, rec)
			if tc.check != nil {
				tc.check(t, h, id)
			}
		})
	}
}

func wantStreams(t *testing.T, h *harness, id string, n int) {
	t.Helper()
	if got := len(h.fake.RequestsTo("GET", "/api/bot/game/stream/"+id)); got < n {
		t.Errorf("%d game stream connections, want at least %d", got, n)
	}
}

func TestEventStreamKilledThenNewGame(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	if err := h.fake.WaitFor(h.ctx, func() bool { return h.fake.Streams("event") == 1 }); err != nil {
		t.Fatal(err)
	}
	h.fake.KillEventStreams(fakelichess.BotUser)
	// A game that starts while the stream is down or reopening is still played.
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000}, rules.White)
	h.opponent(id, builtinOpponent(2, 30))
	st, rec := h.waitGameOver(id)
	checkRecord(t, st, rec)
	if err := h.fake.WaitFor(h.ctx, func() bool { return len(h.fake.RequestsTo("GET", "/api/stream/event")) >= 2 }); err != nil {
		t.Errorf("event stream not opened again: %v", err)
	}
	// And a challenge after the reconnect is answered.
	cid := h.fake.Challenge(fakelichess.ChallengeSpec{Variant: "crazyhouse", ClockLimit: 300})
	if err := h.fake.WaitFor(h.ctx, func() bool { s, _ := h.fake.ChallengeStatus(cid); return s == "declined" }); err != nil {
		t.Fatal(err)
	}
}

func TestResumesGamesInProgressAtStart(t *testing.T) {
	h := newHarness(t, harnessOpt{noAutoStart: true})
	// Two games already running, the bot to move in both.
	id1 := h.newGame(fakelichess.GameSpec{ID: "resume01", Moves: strings.Fields("e2e4 e7e5"), ClockInitial: 180000}, rules.White)
	id2 := h.newGame(fakelichess.GameSpec{ID: "resume02", Moves: strings.Fields("d2d4 d7d5 c2c4"), ClockInitial: 180000}, rules.Black)
	h.opponent(id1, builtinOpponent(1, 20))
	h.opponent(id2, builtinOpponent(1, 21))
	h.start()
	for _, id := range []string{id1, id2} {
		st, rec := h.waitGameOver(id)
		checkRecord(t, st, rec)
		// No greeting in a resumed game, but a goodbye.
		chat := botChat(h, id)
		if len(chat) > 0 && strings.HasPrefix(chat[0], "player: Hi") {
			t.Errorf("%s: greeted in a resumed game: %q", id, chat)
		}
	}
	if len(h.fake.RequestsTo("GET", "/api/account/playing")) == 0 {
		t.Error("account/playing not asked at start")
	}
}

func TestChallenges(t *testing.T) {
	h := newHarness(t, harnessOpt{noAutoStart: true, cfg: func(c *bot.Config) {
		c.Challenge.MaxGames = 1
		c.Challenge.Bots = false
		c.Challenge.Block = []string{"troll"}
		c.OnStop = "resign"
	}})
	h.fake.AddUser("otherbot", "OtherBot", "BOT")
	h.fake.AddUser("troll", "Troll", "")
	h.start()
	if err := h.fake.WaitFor(h.ctx, func() bool { return h.fake.Streams("event") == 1 }); err != nil {
		t.Fatal(err)
	}
	declined := []struct {
		spec   fakelichess.ChallengeSpec
		reason string
	}{
		{fakelichess.ChallengeSpec{ID: "chvariant", Variant: "crazyhouse", ClockLimit: 300}, "variant"},
		{fakelichess.ChallengeSpec{ID: "chatomic", Variant: "atomic", ClockLimit: 300}, "variant"},
		{fakelichess.ChallengeSpec{ID: "chfast", ClockLimit: 15}, "tooFast"},
		{fakelichess.ChallengeSpec{ID: "chslow", ClockLimit: 5 * 3600}, "tooSlow"},
		{fakelichess.ChallengeSpec{ID: "chbot", From: "otherbot", ClockLimit: 300}, "noBot"},
		{fakelichess.ChallengeSpec{ID: "chtroll", From: "troll", ClockLimit: 300}, "generic"},
	}
	for _, d := range declined {
		h.fake.Challenge(d.spec)
	}
	for _, d := range declined {
		var status, reason string
		err := h.fake.WaitFor(h.ctx, func() bool { status, reason = h.fake.ChallengeStatus(d.spec.ID); return status != "created" })
		if err != nil || status != "declined" || !strings.EqualFold(reason, d.reason) {
			t.Errorf("%s: status %s reason %q, want declined with %q (%v)", d.spec.ID, status, reason, d.reason, err)
		}
	}
	// Accepted: the bot plays white (the challenger gets black) and moves.
	id := h.fake.Challenge(fakelichess.ChallengeSpec{ID: "chok", ClockLimit: 300, ClockIncrement: 3, Color: "black"})
	if err := h.fake.WaitFor(h.ctx, func() bool {
		g := h.fake.Game(id)
		return g != nil && g.State().Ply >= 1
	}); err != nil {
		t.Fatalf("accepted game not played: %v", err)
	}
	// A second one while playing the maximum: later.
	h.fake.Challenge(fakelichess.ChallengeSpec{ID: "chlater", ClockLimit: 300})
	if err := h.fake.WaitFor(h.ctx, func() bool { s, _ := h.fake.ChallengeStatus("chlater"); return s == "declined" }); err != nil {
		t.Fatal(err)
	}
	if _, r := h.fake.ChallengeStatus("chlater"); !strings.EqualFold(r, "later") {
		t.Errorf("reason %q, want later", r)
	}
	// Stopping with on_stop=resign ends the running game at once.
	h.stopBot()
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-h.ctx.Done():
		t.Fatal("bot did not stop")
	}
	h.stopBot = nil
	st := h.fake.Game(id).State()
	if st.Status != lichess.StatusResign && st.Status != lichess.StatusAborted {
		t.Errorf("game %s after stop, want resigned or aborted", st.Status)
	}
	noBotGoroutines(t)
}

func TestGracefulStopFinishesGames(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000}, rules.White)
	if err := h.fake.WaitFor(h.ctx, func() bool { return h.fake.Game(id).State().Ply >= 1 }); err != nil {
		t.Fatal(err)
	}
	h.stopBot() // SIGTERM: finish the game, then return
	h.opponent(id, builtinOpponent(4, 24))
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-h.ctx.Done():
		t.Fatal("bot did not stop")
	}
	h.stopBot = nil
	st := h.fake.Game(id).State()
	if st.Status != lichess.StatusResign || st.Ply < 24 {
		t.Fatalf("game %s at ply %d when Run returned; want it played to the opponent's resignation at 24", st.Status, st.Ply)
	}
	recs, err := bot.ReadRecords(h.records)
	if err != nil || len(recs) != 1 || recs[0].GameID != id {
		t.Fatalf("records %+v %v", recs, err)
	}
	noBotGoroutines(t)
}

// noBotGoroutines fails if a goroutine of package bot (or its engine
// driver) is still running once Run has returned.
func noBotGoroutines(t *testing.T) {
	t.Helper()
	var stacks string
	for i := 0; i < 100; i++ {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "threefold/bot.(*") && !strings.Contains(stacks, "threefold/bot/uci.(*") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("goroutines of the bot still running after Run returned:\n%s", stacks)
}

func TestBadStart(t *testing.T) {
	tests := []struct {
		name  string
		setup func(h *harness)
		opt   harnessOpt
		want  string
	}{
		{"token without bot:play", func(h *harness) {
			h.fake.AddToken("lip_noBotScope", fakelichess.BotUser, "challenge:read", "board:play")
		}, harnessOpt{token: "lip_noBotScope"}, "bot:play"},
		{"token without challenge:read", func(h *harness) {
			h.fake.AddToken("lip_noChallengeRead", fakelichess.BotUser, "bot:play")
		}, harnessOpt{token: "lip_noChallengeRead"}, "threefold login --for bot"},
		{"unknown token", nil, harnessOpt{token: "lip_nosuchtoken"}, "token"},
		{"not a BOT account", func(h *harness) {
			h.fake.AddUser("human", "Human", "")
			h.fake.AddToken("lip_humanToken", "human", "bot:play", "challenge:read")
		}, harnessOpt{token: "lip_humanToken"}, "not a BOT account"},
		{"missing engine binary", nil, harnessOpt{engine: filepath.Join("/nonexistent", "stockfish")}, "/nonexistent/stockfish"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.noAutoStart = true
			h := newHarness(t, tc.opt)
			if tc.setup != nil {
				tc.setup(h)
			}
			h.start()
			var err error
			select {
			case err = <-h.done:
			case <-h.ctx.Done():
				t.Fatal("Run did not fail")
			}
			h.stopBot = nil
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
			if strings.Contains(err.Error(), fakelichess.BotToken) || (tc.opt.token != "" && strings.Contains(err.Error(), tc.opt.token)) {
				t.Fatalf("error shows the token: %v", err)
			}
			if n := len(h.fake.RequestsTo("GET", "/api/stream/event")); n != 0 {
				t.Errorf("event stream opened %d times before the check failed", n)
			}
		})
	}
}

func TestCrashingEngineFallsBackToBuiltin(t *testing.T) {
	crashFile := filepath.Join(t.TempDir(), "gos")
	// The engine answers the start-up check, then crashes on its third
	// search and on every search after its restart.
	engine := fakeEngine(t, "cp=0,crash=3,crashfile="+crashFile, "avoid")
	h := newHarness(t, harnessOpt{engine: engine, cfg: func(c *bot.Config) { c.Engine.Restarts = 1 }})
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000}, rules.White)
	h.opponent(id, builtinOpponent(8, 30))
	st, rec := h.waitGameOver(id)
	checkRecord(t, st, rec)
	if st.Status != lichess.StatusResign && st.Status != lichess.StatusMate && st.Status != lichess.StatusDraw {
		t.Fatalf("game ended %s", st.Status)
	}
	if rec.Engine != "built-in" {
		t.Errorf("engine at the end %q, want the built-in mover", rec.Engine)
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "engine exited") || !strings.Contains(logs, "playing on with the built-in mover") {
		t.Errorf("log does not tell about the crash and the fallback")
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	if err := h.fake.WaitFor(h.ctx, func() bool { return h.fake.Streams("event") == 1 }); err != nil {
		t.Fatal(err)
	}
	h.stopBot()
	select {
	case err := <-h.done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
	}
	h.stopBot = nil
}

func TestEngineThatNeverAnswersIsStopped(t *testing.T) {
	// The engine answers "go" only when told to stop: the bot stops it at
	// its deadline and plays the move it then gives.
	h := newHarness(t, harnessOpt{engine: fakeEngine(t, "hang", "avoid"), cfg: func(c *bot.Config) { c.Engine.Slack = 300 * time.Millisecond }})
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000}, rules.White)
	h.opponent(id, builtinOpponent(3, 4))
	st, rec := h.waitGameOver(id)
	checkRecord(t, st, rec)
	if st.Status != lichess.StatusResign || st.Ply != 5 {
		t.Fatalf("game %s at ply %d", st.Status, st.Ply)
	}
	if rec.Engine == "built-in" {
		t.Error("the hanging engine was replaced, not stopped")
	}
}

// A bot stopped while it asks Lichess for the games in progress stops
// quietly: the call it gave up is no warning ("cannot list the games in
// progress"), which a short demo run on a busy machine printed.
func TestStoppedDuringResumeWarnsOfNothing(t *testing.T) {
	h := newHarness(t, harnessOpt{noAutoStart: true})
	hold := make(chan struct{})
	defer close(hold)
	h.fake.Inject(fakelichess.Fault{Method: "GET", Path: "/api/account/playing", Hold: hold})
	h.start()
	if err := h.fake.WaitFor(h.ctx, func() bool { return len(h.fake.RequestsTo("GET", "/api/account/playing")) == 1 }); err != nil {
		t.Fatal(err)
	}
	h.stopBot()
	if err := <-h.done; err != nil {
		t.Errorf("bot: %v", err)
	}
	h.stopBot = nil
	if strings.Contains(h.logs.String(), "level=WARN") {
		t.Errorf("warnings when stopped:\n%s", h.logs.String())
	}
}
