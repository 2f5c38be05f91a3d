package chesscom_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
	"github.com/threefold-chess/threefold/clock"
)

const interval = 17 * time.Minute // distinct from every 429 pause and backoff

// pollRun drives one Poll pass by pass through the fake clock: Poll
// delivers a pass's update before it sleeps for the interval, so when the
// interval sleep arrives, the pass is complete.
type pollRun struct {
	t       *testing.T
	clock   *clock.Fake
	updates chan chesscom.Update
	done    chan error
	cancel  context.CancelFunc
	pending *sleeper // the interval sleep the next pass waits behind
	err     error
	ended   bool
}

func startPoll(t *testing.T, c *chesscom.Client, clock *clock.Fake, target chesscom.Target, fn func(chesscom.Update) error) *pollRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &pollRun{t: t, clock: clock, updates: make(chan chesscom.Update, 64), done: make(chan error, 1), cancel: cancel}
	go func() {
		r.done <- c.Poll(ctx, target, interval, func(u chesscom.Update) error {
			r.updates <- u
			if fn != nil {
				return fn(u)
			}
			return nil
		})
	}()
	t.Cleanup(func() { r.stop() })
	return r
}

// stop cancels the Poll and waits for it.
func (r *pollRun) stop() error {
	if !r.ended {
		r.cancel()
		r.err = <-r.done
		r.ended = true
	}
	return r.err
}

// pass releases the previous interval sleep, runs one pass (releasing
// the other sleeps it makes, which it returns) and returns the updates it
// delivered.
func (r *pollRun) pass() (ups []chesscom.Update, other []time.Duration) {
	r.t.Helper()
	if r.pending != nil {
		r.pending.release()
		r.pending = nil
	}
	for {
		s, ended, err := nextSleep(r.clock, r.done)
		if ended {
			r.ended, r.err = true, err
			r.t.Fatalf("Poll returned: %v", err)
		}
		if s.d != interval {
			other = append(other, s.d)
			s.release()
			continue
		}
		r.pending = s
		break
	}
	for {
		select {
		case u := <-r.updates:
			ups = append(ups, u)
		default:
			return ups, other
		}
	}
}

// end waits for Poll to return by itself.
func (r *pollRun) end() error {
	r.t.Helper()
	if r.pending != nil {
		r.pending.release()
		r.pending = nil
	}
	for {
		s, ended, err := nextSleep(r.clock, r.done)
		if ended {
			r.ended, r.err = true, err
			return err
		}
		s.release()
	}
}

func gameURLs(u chesscom.Update) []string {
	var out []string
	for _, g := range u.Games {
		out = append(out, g.URL)
	}
	return out
}

func one(t *testing.T, ups []chesscom.Update) chesscom.Update {
	t.Helper()
	if len(ups) != 1 {
		t.Fatalf("%d updates, want 1: %+v", len(ups), ups)
	}
	return ups[0]
}

func none(t *testing.T, ups []chesscom.Update) {
	t.Helper()
	if len(ups) != 0 {
		t.Fatalf("%d updates, want none: games %v", len(ups), gameURLs(ups[0]))
	}
}

const (
	g0URL = "https://www.chess.com/game/daily/900000001"
	g1URL = "https://www.chess.com/game/daily/900000002"
)

// editJSON rewrites the fake's payload at p.
func editJSON(t *testing.T, s *chesscomtest.Server, p string, edit func(doc map[string]any)) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(s.Body(p), &doc); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	edit(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s.Set(p, b)
}

// takeGame removes the game with url from the payload's games and returns it.
func takeGame(t *testing.T, s *chesscomtest.Server, p, url string) map[string]any {
	t.Helper()
	var taken map[string]any
	editJSON(t, s, p, func(doc map[string]any) {
		var kept []any
		for _, g := range doc["games"].([]any) {
			if g.(map[string]any)["url"] == url {
				taken = g.(map[string]any)
				continue
			}
			kept = append(kept, g)
		}
		doc["games"] = kept
	})
	if taken == nil {
		t.Fatalf("%s has no game %s", p, url)
	}
	return taken
}

func TestPollPlayer(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	target, err := chesscom.ParseTarget(s.URL()+"/member/ivan_daily", s.URL())
	if err != nil {
		t.Fatal(err)
	}
	s.SetClock(clock.Now) // changes are stamped with the test's time
	r := startPoll(t, c, clock, target, nil)

	// First pass: every current game. The recordings were last modified
	// 12 h ago: the data may be that old.
	u := one(t, r.next())
	if !u.First || u.Seq != 1 || len(u.Games) != 2 || u.Target != target {
		t.Fatalf("first update = %+v", u)
	}
	if u.Delay != chesscom.RefreshBound {
		t.Errorf("delay = %s, want %s (Last-Modified 12 h before)", u.Delay, chesscom.RefreshBound)
	}
	if u.ObservedAt.IsZero() {
		t.Error("ObservedAt is zero")
	}

	// Nothing changed: a 304, no decoding, no update.
	decodes := c.Decodes()
	none(t, r.next())
	if c.Decodes() != decodes {
		t.Error("a pass of 304s decoded something")
	}
	reqs := s.RequestsTo("/pub/player/ivan_daily/games")
	if len(reqs) != 2 || reqs[1].Status != 304 {
		t.Fatalf("requests = %+v", reqs)
	}

	// The game goes on: only it is delivered, as a full snapshot.
	cont, err := chesscomtest.Continuations()
	if err != nil {
		t.Fatal(err)
	}
	if cont[g0URL].PliesNow != 48 || len(cont[g0URL].RestSANs) != 4 {
		t.Fatalf("continuation = %+v", cont[g0URL])
	}
	if _, err := s.AppendMoves(g0URL, "25. Be4 Qh5 26. Bf3", ""); err != nil {
		t.Fatal(err)
	}
	u = one(t, r.next())
	if u.First || u.Seq != 2 || len(u.Games) != 1 || u.Games[0].URL != g0URL {
		t.Fatalf("update = %+v", u)
	}
	if pgn := u.Games[0].PGN; !strings.HasPrefix(pgn, "[Event") || !strings.Contains(pgn, "1. e4 c5") || !strings.HasSuffix(pgn, "26. Bf3 *\n") {
		t.Errorf("not a full snapshot: %q", pgn)
	}
	// Changed one interval before it was read: that old, no older.
	if u.Delay != interval {
		t.Errorf("delay = %s, want %s (changed at the start of the interval)", u.Delay, interval)
	}

	// Activity without a move (a draw offer): last_activity moves, PGN
	// does not: no update.
	if _, err := s.UpdateGame(g0URL, func(g map[string]any) {
		g["last_activity"] = g["last_activity"].(float64) + 60
		g["draw_offer"] = "white"
	}); err != nil {
		t.Fatal(err)
	}
	none(t, r.next())

	// The game ends with the repeating move: it leaves the current list
	// and its final PGN is found in the month's archive.
	g := takeGame(t, s, "/pub/player/ivan_daily/games", g0URL)
	pgn := strings.Replace(g["pgn"].(string), `[Result "*"]`, `[Result "1/2-1/2"]`, 1)
	g["pgn"] = strings.Replace(pgn, "26. Bf3 *", "26. Bf3 Qf5 1/2-1/2", 1)
	g["white"] = map[string]any{"username": "ivan_daily", "result": "repetition", "@id": "https://api.chess.com/pub/player/ivan_daily"}
	g["black"] = map[string]any{"username": "Martin_dC", "result": "repetition", "@id": "https://api.chess.com/pub/player/martin_dc"}
	g["end_time"] = 1795900000
	editJSON(t, s, "/pub/player/ivan_daily/games/2026/11", func(doc map[string]any) {
		doc["games"] = append(doc["games"].([]any), g)
	})
	u = one(t, r.next())
	if len(u.Games) != 1 || !u.Games[0].Finished || !strings.HasSuffix(strings.TrimSpace(u.Games[0].PGN), "26. Bf3 Qf5 1/2-1/2") || u.Games[0].WhiteResult != "repetition" {
		t.Fatalf("final update = %+v", u)
	}
	if len(u.Gone) != 0 {
		t.Errorf("gone = %v", u.Gone)
	}
	if n := len(s.RequestsTo("/pub/player/ivan_daily/games/2026/11")); n != 1 {
		t.Errorf("%d archive reads, want 1", n)
	}
	none(t, r.next())
	if s.MaxInFlight() != 1 {
		t.Errorf("max in flight %d", s.MaxInFlight())
	}
	if err := r.stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Poll returned %v, want context.Canceled", err)
	}
}

// next runs a pass that must make no sleep but the interval.
func (r *pollRun) next() []chesscom.Update {
	r.t.Helper()
	ups, other := r.pass()
	if len(other) > 0 {
		r.t.Fatalf("unexpected waits in a pass: %v", other)
	}
	return ups
}

func TestPollPlayerGameGoneWithoutFinalPGN(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player}, nil)
	if u := one(t, r.next()); len(u.Games) != 2 {
		t.Fatalf("first = %+v", u)
	}
	takeGame(t, s, "/pub/player/ivan_daily/games", g1URL)
	var gone []string
	goneAt := 0
	for pass := 2; pass < 60; pass++ {
		for _, u := range r.next() {
			if len(u.Games) != 0 {
				t.Errorf("games %v", gameURLs(u))
			}
			if len(u.Gone) > 0 && goneAt == 0 {
				goneAt = pass
			}
			gone = append(gone, u.Gone...)
		}
	}
	if len(gone) != 1 || gone[0] != g1URL {
		t.Fatalf("gone = %v, want [%s] once", gone, g1URL)
	}
	// Looked for during ArchiveWait of fake time (the clock moves one
	// interval a pass), then given up.
	wantPasses := int((chesscom.ArchiveWait+interval-1)/interval) + 1
	if goneAt-1 != wantPasses {
		t.Errorf("gone after %d passes of looking, want %d", goneAt-1, wantPasses)
	}
	// Both archive months were looked at once per pass until then, but
	// read only when the copy held was older than its max-age (an hour):
	// revalidated with 304 after the first read, and never after.
	wantReads, last := 0, time.Duration(-1)
	for p := 0; p < wantPasses; p++ {
		if at := time.Duration(p) * interval; last < 0 || at-last >= time.Hour {
			wantReads, last = wantReads+1, at
		}
	}
	for _, m := range []string{"11", "10"} {
		reqs := s.RequestsTo("/pub/player/ivan_daily/games/2026/" + m)
		if len(reqs) != wantReads || reqs[len(reqs)-1].Status != 304 {
			t.Errorf("%d reads of archive %s, want %d (last %+v)", len(reqs), m, wantReads, reqs[len(reqs)-1])
		}
	}
}

func TestPollClub(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	target, err := chesscom.ParseTarget("https://www.chess.com/club/threefold-club", "")
	if err != nil {
		t.Fatal(err)
	}
	r := startPoll(t, c, clock, target, nil)
	u := one(t, r.next())
	if len(u.Games) != 4 {
		t.Fatalf("first update has %d games, want the 4 of the match's 2 boards: %v", len(u.Games), gameURLs(u))
	}
	var filled *chesscom.Game
	for i, g := range u.Games {
		if g.Match != "https://api.chess.com/pub/match/1700001" || g.PGN == "" {
			t.Errorf("game %s: match %q, pgn %d bytes", g.URL, g.Match, len(g.PGN))
		}
		if g.URL == "https://www.chess.com/game/daily/901000022" {
			filled = &u.Games[i]
		}
	}
	if filled == nil || !strings.Contains(filled.PGN, "[Link \"https://www.chess.com/game/daily/901000022\"]") {
		t.Fatalf("the board game without a PGN was not filled from the player's games")
	}
	if n := len(s.RequestsTo("/pub/player/rob_ranger/games")); n != 1 {
		t.Errorf("%d reads of rob_ranger's games, want 1", n)
	}
	none(t, r.next())

	// A move on board 1.
	const b1 = "https://www.chess.com/game/daily/901000011"
	cont, _ := chesscomtest.Continuations()
	first := cont[b1].RestSANs[0]
	if _, err := s.AppendMoves(b1, "46. "+first, ""); err != nil {
		t.Fatal(err)
	}
	u = one(t, r.next())
	if len(u.Games) != 1 || u.Games[0].URL != b1 || !strings.Contains(u.Games[0].PGN, "46. "+first+" *") {
		t.Fatalf("update = %v", gameURLs(u))
	}

	// The match finishes: it leaves in_progress; one last read of its
	// boards, then nothing more is read for it.
	editJSON(t, s, "/pub/club/threefold-club/matches", func(doc map[string]any) {
		doc["finished"] = append(doc["finished"].([]any), doc["in_progress"].([]any)[0])
		doc["in_progress"] = []any{}
	})
	// The list is read again once its copy is older than its max-age
	// (an hour: up to four passes of 17 min).
	const list = "/pub/club/threefold-club/matches"
	for reads := len(s.RequestsTo(list)); len(s.RequestsTo(list)) == reads; {
		none(t, r.next())
	}
	none(t, r.next())
	before := len(s.RequestsTo("/pub/match/1700001"))
	none(t, r.next())
	none(t, r.next())
	if after := len(s.RequestsTo("/pub/match/1700001")); after != before {
		t.Errorf("a finished match was read again (%d -> %d)", before, after)
	}
	if s.MaxInFlight() != 1 {
		t.Errorf("max in flight %d", s.MaxInFlight())
	}
}

func TestPollFinishedLiveMatchReadsBoardsOnce(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	target, err := chesscom.ParseTarget("https://www.chess.com/club/matches/live/1800001", "")
	if err != nil {
		t.Fatal(err)
	}
	r := startPoll(t, c, clock, target, nil)
	u := one(t, r.next())
	if len(u.Games) != 2 || !u.Games[0].Finished || !u.Games[1].Finished {
		t.Fatalf("first = %+v", u)
	}
	none(t, r.next())
	none(t, r.next())
	if n := len(s.RequestsTo("/pub/match/live/1800001/1")); n != 1 {
		t.Errorf("board of a finished match read %d times, want 1", n)
	}
	if n := len(s.RequestsTo("/pub/match/live/1800001")); n != 3 {
		t.Errorf("match read %d times, want 3", n)
	}
}

func TestPollTournament(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindTournament, ID: chesscomtest.Tournament}, nil)
	u := one(t, r.next())
	if len(u.Games) != 3 || !u.Games[0].Finished || u.Games[1].Finished {
		t.Fatalf("first = %+v", gameURLs(u))
	}
	for _, g := range u.Games {
		if !strings.Contains(g.PGN, "{[%clk") || g.Tournament != "https://api.chess.com/pub/tournament/threefold-daily-open" {
			t.Errorf("game %s: tournament %q", g.URL, g.Tournament)
		}
	}
	none(t, r.next())
	const t2 = "https://www.chess.com/game/daily/902000002"
	cont, _ := chesscomtest.Continuations()
	if _, err := s.AppendMoves(t2, "25. "+cont[t2].RestSANs[0], ""); err != nil {
		t.Fatal(err)
	}
	u = one(t, r.next())
	if len(u.Games) != 1 || u.Games[0].URL != t2 {
		t.Fatalf("update = %v", gameURLs(u))
	}
}

func TestPollDropsGoneBoard(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	s.Fail("/pub/match/1700001/1", chesscomtest.Fault{Status: 410})
	r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindMatch, ID: chesscomtest.MatchID}, nil)
	u := one(t, r.next())
	if len(u.Games) != 2 {
		t.Fatalf("first update: %v, want board 2's games", gameURLs(u))
	}
	none(t, r.next())
	none(t, r.next())
	if n := len(s.RequestsTo("/pub/match/1700001/1")); n != 1 {
		t.Errorf("gone board requested %d times, want 1", n)
	}
	if n := len(s.RequestsTo("/pub/match/1700001/2")); n != 3 {
		t.Errorf("board 2 requested %d times, want 3", n)
	}
}

func TestPollRootErrors(t *testing.T) {
	t.Run("first pass 404", func(t *testing.T) {
		s := newFake(t)
		clock := newFakeClock(false)
		c := newClient(t, s, clock)
		called := false
		err := c.Poll(context.Background(), chesscom.Target{Kind: chesscom.KindPlayer, ID: "nobody_here"}, interval, func(chesscom.Update) error {
			called = true
			return nil
		})
		if !errors.Is(err, chesscom.ErrNotFound) || called {
			t.Fatalf("err = %v (fn called: %v), want ErrNotFound", err, called)
		}
	})
	t.Run("later 410 ends the poll", func(t *testing.T) {
		s := newFake(t)
		clock := newFakeClock(false)
		c := newClient(t, s, clock)
		r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindTournament, ID: chesscomtest.Tournament}, nil)
		one(t, r.next())
		s.Fail("/pub/tournament/threefold-daily-open", chesscomtest.Fault{Status: 410})
		if err := r.end(); !errors.Is(err, chesscom.ErrGone) {
			t.Fatalf("err = %v, want ErrGone", err)
		}
	})
	t.Run("later 5xx outage is survived", func(t *testing.T) {
		s := newFake(t)
		clock := newFakeClock(false)
		c := newClient(t, s, clock)
		r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player}, nil)
		one(t, r.next())
		for range chesscom.DefaultMaxAttempts {
			s.Fail("/pub/player/ivan_daily/games", chesscomtest.Fault{Status: 503})
		}
		ups, backoffs := r.pass()
		none(t, ups)
		if len(backoffs) != chesscom.DefaultMaxAttempts-1 {
			t.Errorf("backoffs = %v", backoffs)
		}
		cont, _ := chesscomtest.Continuations()
		if _, err := s.AppendMoves(g1URL, "60. "+cont[g1URL].RestSANs[0], ""); err != nil {
			t.Fatal(err)
		}
		u := one(t, r.next())
		if len(u.Games) != 1 || u.Games[0].URL != g1URL {
			t.Fatalf("after the outage: %v", gameURLs(u))
		}
	})
	t.Run("consumer error ends the poll", func(t *testing.T) {
		s := newFake(t)
		clock := newFakeClock(false)
		c := newClient(t, s, clock)
		stop := errors.New("consumer says stop")
		err := c.Poll(context.Background(), chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player}, interval, func(chesscom.Update) error { return stop })
		if err != stop {
			t.Fatalf("err = %v, want the consumer's error unchanged", err)
		}
	})
}

func TestPollRateLimitWaitsWithoutRequests(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	s.Fail("/pub/match/1700001/2", chesscomtest.Fault{Status: 429})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	updates := make(chan chesscom.Update, 4)
	go func() {
		done <- c.Poll(ctx, chesscom.Target{Kind: chesscom.KindMatch, ID: chesscomtest.MatchID}, interval, func(u chesscom.Update) error {
			updates <- u
			return nil
		})
	}()
	sl := waitSleep(t, clock, done)
	if sl.d != chesscom.DefaultRateLimitPause {
		t.Fatalf("slept %s, want the 429 pause", sl.d)
	}
	reqs := s.Requests()
	if last := reqs[len(reqs)-1]; last.Path != "/pub/match/1700001/2" || last.Status != 429 {
		t.Fatalf("last request %+v", last)
	}
	n := len(reqs)
	if len(updates) != 0 {
		t.Error("update delivered before the pass ended")
	}
	if got := len(s.Requests()); got != n {
		t.Errorf("%d requests sent during the 429 wait", got-n)
	}
	sl.release()
	sl = waitSleep(t, clock, done)
	if sl.d != interval {
		t.Fatalf("slept %s, want the interval", sl.d)
	}
	u := <-updates
	if len(u.Games) != 4 {
		t.Errorf("first update %v", gameURLs(u))
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

func TestPollSecondPollOnSameClientStartsWithEverything(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	target := chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player}
	r := startPoll(t, c, clock, target, nil)
	if u := one(t, r.next()); len(u.Games) != 2 {
		t.Fatalf("first poll: %v", gameURLs(u))
	}
	r.stop()
	// A restarted source on the same client: the list is the copy held
	// (still fresh: no request), and the first update still holds every
	// game.
	r = startPoll(t, c, clock, target, nil)
	u := one(t, r.next())
	if !u.First || len(u.Games) != 2 {
		t.Fatalf("second poll first update: %+v", u)
	}
	if reqs := s.RequestsTo("/pub/player/ivan_daily/games"); len(reqs) != 1 {
		t.Errorf("second poll's read sent a request: %+v", reqs)
	}
}

func TestPollMatchBoardsWithoutBoardLinks(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	editJSON(t, s, "/pub/match/1700001", func(doc map[string]any) {
		for _, team := range doc["teams"].(map[string]any) {
			for _, p := range team.(map[string]any)["players"].([]any) {
				delete(p.(map[string]any), "board")
			}
		}
	})
	r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindMatch, ID: chesscomtest.MatchID}, nil)
	if u := one(t, r.next()); len(u.Games) != 4 {
		t.Fatalf("first update %v: boards 1..boards not read", gameURLs(u))
	}
}

func TestPollOneBoard(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	target, err := chesscom.ParseTarget("https://api.chess.com/pub/match/1700001/2", "")
	if err != nil {
		t.Fatal(err)
	}
	r := startPoll(t, c, clock, target, nil)
	if u := one(t, r.next()); len(u.Games) != 2 {
		t.Fatalf("first update %v", gameURLs(u))
	}
	if n := len(s.RequestsTo("/pub/match/1700001/1")); n != 0 {
		t.Errorf("board 1 read %d times", n)
	}
}

func TestPollTournamentFinishedGroupIsNotReadAgain(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	const group = "/pub/tournament/threefold-daily-open/1/1"
	const round = "/pub/tournament/threefold-daily-open/1"
	r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindTournament, ID: chesscomtest.Tournament}, nil)
	one(t, r.next())
	// Both open games end.
	editJSON(t, s, group, func(doc map[string]any) {
		for _, g := range doc["games"].([]any) {
			gm := g.(map[string]any)
			gm["pgn"] = strings.Replace(gm["pgn"].(string), `[Result "*"]`, `[Result "1/2-1/2"]`, 1)
		}
	})
	u := one(t, r.next())
	if len(u.Games) != 2 || !u.Games[0].Finished || !u.Games[1].Finished {
		t.Fatalf("update %+v", u)
	}
	groupReads, roundReads := len(s.RequestsTo(group)), len(s.RequestsTo(round))
	none(t, r.next())
	none(t, r.next())
	if n := len(s.RequestsTo(group)); n != groupReads {
		t.Errorf("finished group read again (%d -> %d)", groupReads, n)
	}
	if n := len(s.RequestsTo(round)); n != roundReads {
		t.Errorf("finished round read again (%d -> %d)", roundReads, n)
	}
}

// TestPollLiveMatchBoardsFromTheMatchID: a live team match's boards are
// read at /pub/match/live/{id}/{n}, whatever the players' links say, and a
// live game without a PGN is never looked for in a player's current games
// (they hold daily games only).
func TestPollLiveMatchBoardsFromTheMatchID(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	const match, board = "/pub/match/live/1800001", "/pub/match/live/1800001/1"
	editJSON(t, s, match, func(doc map[string]any) {
		doc["status"] = "in_progress"
		delete(doc, "end_time")
		for _, team := range doc["teams"].(map[string]any) {
			for _, p := range team.(map[string]any)["players"].([]any) {
				p.(map[string]any)["board"] = "https://api.chess.com/pub/match/1800001/1" // not a live board's URL
			}
		}
	})
	editJSON(t, s, board, func(doc map[string]any) {
		g := doc["games"].([]any)[1].(map[string]any) // the second game goes on, without a PGN
		delete(g, "pgn")
		delete(g, "end_time")
		for _, side := range []string{"white", "black"} {
			delete(g[side].(map[string]any), "result")
		}
	})
	r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindMatch, ID: chesscomtest.LiveMatchID, Live: true}, nil)
	u := one(t, r.next())
	if len(u.Games) != 1 || !u.Games[0].Finished {
		t.Fatalf("first update %+v: want the finished game of board 1", gameURLs(u))
	}
	none(t, r.next())
	if n := len(s.RequestsTo(board)); n != 2 {
		t.Errorf("live board read %d times, want once a pass", n)
	}
	for _, req := range s.Requests() {
		if strings.HasPrefix(req.Path, "/pub/player/") || req.Path == "/pub/match/1800001/1" {
			t.Errorf("wasted request %s", req.Path)
		}
	}
}

// TestPollPlayerAfterTheGame: opted in, a player target reports the live
// games the player finishes, from the monthly archive (the PubAPI has no
// live game in progress), once each and marked AfterTheGame; live games
// that ended more than the documented lag before the start are not
// reported, nor are daily games from the archive. Not opted in, the
// archive is not read.
func TestPollPlayerAfterTheGame(t *testing.T) {
	for _, opted := range []bool{true, false} {
		t.Run(map[bool]string{true: "opted in", false: "not opted in"}[opted], func(t *testing.T) {
			s := newFake(t)
			clock := newFakeClock(false)
			c := newClient(t, s, clock)
			const archive = "/pub/player/ivan_daily/games/2026/11"
			r := startPoll(t, c, clock, chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player, AfterTheGame: opted}, nil)
			if u := one(t, r.next()); len(u.Games) != 2 {
				t.Fatalf("first update %v: want the two current daily games (the archive's live game ended two weeks ago)", gameURLs(u))
			}
			// A live blitz game ends now, and a daily one (not from the
			// current list) is archived too.
			const live = "https://www.chess.com/game/live/140000000777"
			editJSON(t, s, archive, func(doc map[string]any) {
				games := doc["games"].([]any)
				var lg, dg map[string]any
				b, _ := json.Marshal(games[1]) // the recorded live game
				json.Unmarshal(b, &lg)
				b, _ = json.Marshal(games[0]) // a recorded daily game
				json.Unmarshal(b, &dg)
				lg["url"], lg["end_time"] = live, float64(clock.Now().Unix())
				dg["url"], dg["end_time"] = "https://www.chess.com/game/daily/899000999", float64(clock.Now().Unix())
				doc["games"] = append(games, lg, dg)
			})
			var got []chesscom.Game
			for pass := 0; pass < 6; pass++ {
				for _, u := range r.next() {
					got = append(got, u.Games...)
				}
			}
			reads := len(s.RequestsTo(archive))
			if !opted {
				if len(got) != 0 || reads != 0 {
					t.Errorf("not opted in: games %v, %d archive reads; want none", got, reads)
				}
				return
			}
			if len(got) != 1 || got[0].URL != live || !got[0].Finished || !got[0].AfterTheGame || got[0].TimeClass != "blitz" {
				t.Fatalf("games %+v, want the live game once, finished, after the game", got)
			}
			// Read once an hour at most (its max-age), not every pass.
			if reads < 2 || reads > 3 {
				t.Errorf("%d archive reads in 7 passes of %s, want 2 or 3", reads, interval)
			}
		})
	}
}
