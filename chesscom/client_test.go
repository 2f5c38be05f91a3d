package chesscom_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
	"github.com/threefold-chess/threefold/clock"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const contact = "arbiter@example.org"

func newFake(t *testing.T) *chesscomtest.Server {
	t.Helper()
	s := chesscomtest.New("/chesscom")
	t.Cleanup(s.Close)
	return s
}

func newClient(t *testing.T, s *chesscomtest.Server, clock clock.Clock) *chesscom.Client {
	t.Helper()
	hc := s.Client()
	t.Cleanup(hc.CloseIdleConnections)
	c, err := chesscom.New(chesscom.Options{
		BaseURL:    s.URL(),
		HTTPClient: hc,
		UserAgent:  "threefold/1.0",
		Contact:    contact,
		Clock:      clock,
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    chesscom.Options
		wantUA  string
		wantErr bool
	}{
		{name: "contact appended", opts: chesscom.Options{UserAgent: "threefold/1.0", Contact: "x@y"}, wantUA: "threefold/1.0 (contact: x@y)"},
		{name: "contact only", opts: chesscom.Options{Contact: "x@y"}, wantUA: "threefold (contact: x@y)"},
		{name: "contact already in UA", opts: chesscom.Options{UserAgent: "bot (contact: x@y)", Contact: "x@y"}, wantUA: "bot (contact: x@y)"},
		{name: "UA names a contact", opts: chesscom.Options{UserAgent: "bot; contact https://example.org"}, wantUA: "bot; contact https://example.org"},
		{name: "no contact", opts: chesscom.Options{UserAgent: "threefold/1.0"}, wantErr: true},
		{name: "relative base", opts: chesscom.Options{BaseURL: "api.chess.com", Contact: "x@y"}, wantErr: true},
		{name: "ftp base", opts: chesscom.Options{BaseURL: "ftp://api.chess.com", Contact: "x@y"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := chesscom.New(tt.opts)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("New: want an error, got a client with UA %q", c.UserAgent())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.UserAgent() != tt.wantUA {
				t.Errorf("UserAgent = %q, want %q", c.UserAgent(), tt.wantUA)
			}
			if c.BaseURL() != chesscom.DefaultBaseURL {
				t.Errorf("BaseURL = %q", c.BaseURL())
			}
		})
	}
}

func TestURLRewritesPayloadLinksOntoBase(t *testing.T) {
	c, err := chesscom.New(chesscom.Options{BaseURL: "http://127.0.0.1:9/mirror/", Contact: "x@y"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, in, want string }{
		{"api url", "https://api.chess.com/pub/match/12/3", "http://127.0.0.1:9/mirror/pub/match/12/3"},
		{"path", "/pub/player/x", "http://127.0.0.1:9/mirror/pub/player/x"},
		{"other host untouched", "https://example.org/pub/x", "https://example.org/pub/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.URL(tt.in); got != tt.want {
				t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEndpoints(t *testing.T) {
	s := newFake(t)
	c := newClient(t, s, newFakeClock(true))
	ctx := context.Background()
	const matchURL = "https://api.chess.com/pub/match/" + chesscomtest.MatchID
	const liveURL = "https://api.chess.com/pub/match/live/" + chesscomtest.LiveMatchID
	const tourURL = "https://api.chess.com/pub/tournament/" + chesscomtest.Tournament

	tests := []struct {
		name string
		path string // the request the fake must have seen
		call func(t *testing.T)
	}{
		{"player games", "/pub/player/ivan_daily/games", func(t *testing.T) {
			games, _, err := c.PlayerGames(ctx, "Ivan_Daily")
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 2 {
				t.Fatalf("%d games, want 2", len(games))
			}
			g := games[0]
			if g.White != "ivan_daily" || g.Black != "martin_dc" {
				t.Errorf("players %q-%q, want usernames from profile URLs", g.White, g.Black)
			}
			if g.URL != "https://www.chess.com/game/daily/900000001" || g.Finished || g.TimeClass != "daily" || g.Rules != "chess" {
				t.Errorf("game = %+v", g)
			}
			if !strings.Contains(g.PGN, "24. Bf3 Qf5 *") || g.FEN == "" || g.LastActivity.IsZero() || g.Turn != "white" {
				t.Errorf("pgn/fen/last activity/turn missing: %+v", g)
			}
		}},
		{"archives", "/pub/player/ivan_daily/games/archives", func(t *testing.T) {
			a, _, err := c.PlayerArchives(ctx, chesscomtest.Player)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) != 2 || !strings.HasSuffix(a[1], "/games/2026/11") {
				t.Errorf("archives = %v", a)
			}
		}},
		{"month games", "/pub/player/ivan_daily/games/2026/11", func(t *testing.T) {
			games, _, err := c.MonthGames(ctx, chesscomtest.Player, 2026, 11)
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 2 {
				t.Fatalf("%d games, want 2", len(games))
			}
			for _, g := range games {
				if !g.Finished || g.EndTime.IsZero() || g.WhiteResult == "" || g.PGN == "" {
					t.Errorf("archived game not final: %+v", g)
				}
			}
			if games[1].WhiteResult != "repetition" || games[1].TimeClass != "blitz" || games[1].Black != "ivan_daily" {
				t.Errorf("live game = %+v", games[1])
			}
		}},
		{"archive by url", "/pub/player/ivan_daily/games/2026/10", func(t *testing.T) {
			games, _, err := c.Games(ctx, "https://api.chess.com/pub/player/ivan_daily/games/2026/10")
			if err != nil || len(games) != 1 {
				t.Fatalf("games %d, err %v", len(games), err)
			}
		}},
		{"club matches", "/pub/club/threefold-club/matches", func(t *testing.T) {
			cm, _, err := c.ClubMatches(ctx, chesscomtest.Club)
			if err != nil {
				t.Fatal(err)
			}
			if len(cm.InProgress) != 1 || cm.InProgress[0].URL != matchURL || len(cm.Finished) != 1 || cm.Finished[0].Result != "win" || len(cm.Registered) != 1 {
				t.Errorf("club matches = %+v", cm)
			}
		}},
		{"match", "/pub/match/1700001", func(t *testing.T) {
			m, _, err := c.Match(ctx, c.MatchURL(chesscomtest.MatchID, false))
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != "in_progress" || m.Boards != 2 || m.Team1.Name != "Threefold Club" || len(m.Team2.Players) != 2 || m.TimeClass != "daily" {
				t.Errorf("match = %+v", m)
			}
			if b := m.BoardURLs(); len(b) != 2 || b[0] != matchURL+"/1" || b[1] != matchURL+"/2" {
				t.Errorf("boards = %v", b)
			}
		}},
		{"match board", "/pub/match/1700001/2", func(t *testing.T) {
			b, _, err := c.MatchBoard(ctx, matchURL+"/2")
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Games) != 2 || b.Scores["ben_threefold"] != 0.5 {
				t.Fatalf("board = %+v", b)
			}
			if !b.Games[0].Finished || b.Games[0].WhiteResult != "repetition" || b.Games[0].White != "ben_threefold" || b.Games[0].Match != matchURL {
				t.Errorf("board game 1 = %+v", b.Games[0])
			}
			if b.Games[1].Finished || b.Games[1].PGN != "" {
				t.Errorf("board game 2 should be in progress without PGN: %+v", b.Games[1])
			}
		}},
		{"live match", "/pub/match/live/1800001", func(t *testing.T) {
			m, _, err := c.Match(ctx, liveURL)
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != "finished" || m.EndTime.IsZero() || len(m.BoardURLs()) != 1 {
				t.Errorf("live match = %+v", m)
			}
		}},
		{"live match board", "/pub/match/live/1800001/1", func(t *testing.T) {
			b, _, err := c.MatchBoard(ctx, liveURL+"/1")
			if err != nil || len(b.Games) != 2 || !b.Games[0].Finished {
				t.Fatalf("board %+v, err %v", b, err)
			}
		}},
		{"tournament", "/pub/tournament/threefold-daily-open", func(t *testing.T) {
			tr, _, err := c.Tournament(ctx, chesscomtest.Tournament)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Status != "in_progress" || len(tr.Rounds) != 1 || tr.TotalRounds != 1 || len(tr.Players) != 3 || tr.Type != "round_robin" {
				t.Errorf("tournament = %+v", tr)
			}
		}},
		{"tournament round", "/pub/tournament/threefold-daily-open/1", func(t *testing.T) {
			r, _, err := c.TournamentRound(ctx, tourURL+"/1")
			if err != nil || len(r.Groups) != 1 || r.Groups[0] != tourURL+"/1/1" {
				t.Fatalf("round %+v, err %v", r, err)
			}
		}},
		{"tournament group", "/pub/tournament/threefold-daily-open/1/1", func(t *testing.T) {
			g, _, err := c.TournamentGroup(ctx, tourURL+"/1/1")
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Games) != 3 || !g.Games[0].Finished || g.Games[1].Finished || g.Games[1].Tournament != tourURL || g.Players[0].Points != 1 {
				t.Errorf("group = %+v", g)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(s.RequestsTo(tt.path))
			tt.call(t)
			reqs := s.RequestsTo(tt.path)
			if len(reqs) != before+1 {
				t.Fatalf("requests to %s: %d, want %d", tt.path, len(reqs), before+1)
			}
			r := reqs[len(reqs)-1]
			if !strings.Contains(r.UserAgent, contact) || !strings.HasPrefix(r.UserAgent, "threefold/1.0") {
				t.Errorf("User-Agent %q lacks the contact", r.UserAgent)
			}
			if r.Status != 200 {
				t.Errorf("status %d", r.Status)
			}
		})
	}
}

func TestNotModifiedReturnsCachedValueWithoutDecoding(t *testing.T) {
	tests := []struct {
		name           string
		etag, lastMod  bool
		wantINM, wantI bool
	}{
		{name: "etag", etag: true, lastMod: true, wantINM: true, wantI: true},
		{name: "last-modified only", etag: false, lastMod: true, wantI: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake(t)
			s.SetValidators(tt.etag, tt.lastMod)
			ctx := context.Background()
			clock := newFakeClock(true)
			c := newClient(t, s, clock)
			g1, m1, err := c.PlayerGames(ctx, chesscomtest.Player)
			if err != nil || m1.NotModified {
				t.Fatalf("first: %v %+v", err, m1)
			}
			decodes := c.Decodes()
			clock.Advance(5 * time.Second) // the max-age chess.com gives current games
			g2, m2, err := c.PlayerGames(ctx, chesscomtest.Player)
			if err != nil {
				t.Fatal(err)
			}
			if !m2.NotModified {
				t.Fatal("second read: want NotModified")
			}
			if c.Decodes() != decodes {
				t.Errorf("a 304 decoded the body again")
			}
			if len(g2) != len(g1) || g2[0].PGN != g1[0].PGN {
				t.Errorf("304 value differs from the cached one")
			}
			reqs := s.RequestsTo("/pub/player/ivan_daily/games")
			last := reqs[len(reqs)-1]
			if last.Status != 304 || (last.IfNoneMatch != "") != tt.wantINM || (last.IfModifiedSince != "") != tt.wantI {
				t.Errorf("conditional request = %+v", last)
			}
			// The Last-Modified of the recordings is 12 h before the clock:
			// chess.com's own format, read.
			if m2.MaxAge != 5*time.Second || !m2.LastModified.Equal(chesscomtest.Epoch) || m2.Delay() != chesscom.RefreshBound || m2.Fresh {
				t.Errorf("meta = %+v", m2)
			}
			// A change on the server is read and decoded again.
			if _, err := s.AppendMoves("https://www.chess.com/game/daily/900000001", "25. Be4", ""); err != nil {
				t.Fatal(err)
			}
			clock.Advance(5 * time.Second)
			g3, m3, err := c.PlayerGames(ctx, chesscomtest.Player)
			if err != nil || m3.NotModified || !strings.Contains(g3[0].PGN, "25. Be4 *") {
				t.Fatalf("after change: err %v, meta %+v, pgn %q", err, m3, g3[0].PGN)
			}
		})
	}
}

// waitSleep receives the next Sleep of clock or fails.
func waitSleep(t *testing.T, clock *clock.Fake, done <-chan error) *sleeper {
	t.Helper()
	s, ended, err := nextSleep(clock, done)
	if ended {
		t.Fatalf("returned before sleeping: %v", err)
	}
	return s
}

func TestRateLimitWaitsThroughClock(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		wantWait   time.Duration
	}{
		{name: "retry-after seconds", retryAfter: "7", wantWait: 7 * time.Second},
		{name: "retry-after date", retryAfter: time.Date(2026, 11, 29, 12, 0, 30, 0, time.UTC).Format("Mon, 02 Jan 2006 15:04:05 GMT"), wantWait: 30 * time.Second},
		{name: "no retry-after: default pause", wantWait: chesscom.DefaultRateLimitPause},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake(t)
			clock := newFakeClock(false)
			c := newClient(t, s, clock)
			s.Fail("/pub/tournament/threefold-daily-open", chesscomtest.Fault{Status: 429, RetryAfter: tt.retryAfter})
			done := make(chan error, 1)
			go func() {
				_, _, err := c.Tournament(context.Background(), chesscomtest.Tournament)
				done <- err
			}()
			sl := waitSleep(t, clock, done)
			if sl.d != tt.wantWait {
				t.Errorf("waited %s, want %s", sl.d, tt.wantWait)
			}
			// While the client waits, it sends nothing (also not for
			// other callers: the wait holds the client's turn).
			other := make(chan error, 1)
			go func() {
				_, _, err := c.PlayerGames(context.Background(), chesscomtest.Player)
				other <- err
			}()
			for i := 0; c.Waiting() != 1; i++ {
				if i > 1_000_000 {
					t.Fatalf("the other call did not queue behind the wait; %d requests", len(s.Requests()))
				}
				runtime.Gosched()
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests during the wait, want 1 (the 429)", n)
			}
			sl.release()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if err := <-other; err != nil {
				t.Fatal(err)
			}
			reqs := s.Requests()
			if len(reqs) != 3 || reqs[0].Status != 429 || reqs[1].Status != 200 || reqs[1].Path != "/pub/tournament/threefold-daily-open" {
				t.Errorf("requests = %+v", reqs)
			}
		})
	}
}

func TestRateLimitGivesUp(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(true)
	c := newClient(t, s, clock)
	for range chesscom.DefaultMaxAttempts {
		s.Fail("/pub/club/threefold-club/matches", chesscomtest.Fault{Status: 429, RetryAfter: "1"})
	}
	_, _, err := c.ClubMatches(context.Background(), chesscomtest.Club)
	var rl *chesscom.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("err = %v, want *RateLimitError", err)
	}
	if got := len(clock.Waits()); got != chesscom.DefaultMaxAttempts-1 {
		t.Errorf("%d waits, want %d", got, chesscom.DefaultMaxAttempts-1)
	}
}

func TestGoneIsNeverRequestedAgain(t *testing.T) {
	s := newFake(t)
	c := newClient(t, s, newFakeClock(true))
	const p = "/pub/match/1700001/1"
	s.Fail(p, chesscomtest.Fault{Status: 410})
	ctx := context.Background()
	for i := range 3 {
		_, _, err := c.MatchBoard(ctx, "https://api.chess.com"+p)
		var ge *chesscom.GoneError
		if !errors.Is(err, chesscom.ErrGone) || !errors.As(err, &ge) {
			t.Fatalf("call %d: err = %v, want ErrGone", i, err)
		}
	}
	if n := len(s.RequestsTo(p)); n != 1 {
		t.Errorf("%d requests to a gone URL, want 1", n)
	}
	if !c.Gone(p) {
		t.Error("Gone(p) = false")
	}
}

func TestNotFound(t *testing.T) {
	s := newFake(t)
	c := newClient(t, s, newFakeClock(true))
	_, _, err := c.PlayerGames(context.Background(), "nobody_here")
	if !errors.Is(err, chesscom.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	s.Fail("/pub/tournament/threefold-daily-open", chesscomtest.Fault{Status: 404})
	if _, _, err := c.Tournament(context.Background(), chesscomtest.Tournament); !errors.Is(err, chesscom.ErrNotFound) {
		t.Fatalf("injected 404: err = %v", err)
	}
}

func TestServerErrorsRetriedWithBackoff(t *testing.T) {
	tests := []struct {
		name     string
		faults   int
		wantErr  bool
		wantReqs int
	}{
		{name: "burst of 3", faults: 3, wantReqs: 4},
		{name: "outlasting every attempt", faults: chesscom.DefaultMaxAttempts, wantErr: true, wantReqs: chesscom.DefaultMaxAttempts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake(t)
			clock := newFakeClock(true)
			c := newClient(t, s, clock)
			const p = "/pub/club/threefold-club/matches"
			for i := range tt.faults {
				s.Fail(p, chesscomtest.Fault{Status: 500 + 2*(i%2)})
			}
			_, _, err := c.ClubMatches(context.Background(), chesscomtest.Club)
			if tt.wantErr {
				var se *chesscom.StatusError
				if !errors.As(err, &se) || se.Status < 500 {
					t.Fatalf("err = %v, want a 5xx StatusError", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if n := len(s.RequestsTo(p)); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
			slept := clock.Waits()
			if len(slept) != min(tt.faults, chesscom.DefaultMaxAttempts-1) {
				t.Fatalf("waits = %v", slept)
			}
			for i, d := range slept { // jittered exponential: [base<<i / 2, base<<i]
				hi := chesscom.DefaultBackoffBase << i
				if d < hi/2 || d > hi {
					t.Errorf("wait %d = %s, want within [%s, %s]", i, d, hi/2, hi)
				}
			}
		})
	}
}

func TestNetworkErrorRetried(t *testing.T) {
	s := newFake(t)
	base := s.URL()
	s.Close() // nothing listens there any more
	clock := newFakeClock(true)
	c, err := chesscom.New(chesscom.Options{BaseURL: base, Contact: contact, Clock: clock, MaxAttempts: 3,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.PlayerGames(context.Background(), chesscomtest.Player)
	if err == nil || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Fatalf("err = %v", err)
	}
	if len(clock.Waits()) != 2 {
		t.Errorf("waits = %v, want 2", clock.Waits())
	}
}

func TestMovedPermanentlyIsFollowedAndRemembered(t *testing.T) {
	s := newFake(t)
	c := newClient(t, s, newFakeClock(true))
	const old = "/pub/tournament/old-name"
	s.Fail(old, chesscomtest.Fault{Status: 301, Location: "/pub/tournament/threefold-daily-open"})
	ctx := context.Background()
	tr, m, err := c.Tournament(ctx, "old-name")
	if err != nil || tr.Name != "Threefold Daily Open" {
		t.Fatalf("tournament %+v, err %v", tr, err)
	}
	if !strings.HasSuffix(m.URL, "/pub/tournament/threefold-daily-open") {
		t.Errorf("meta URL %q", m.URL)
	}
	if _, m, err = c.Tournament(ctx, "old-name"); err != nil || !m.NotModified {
		t.Fatalf("second read: %v %+v", err, m)
	}
	if n := len(s.RequestsTo(old)); n != 1 {
		t.Errorf("%d requests to the old URL, want 1", n)
	}
}

func TestRequestsAreSerial(t *testing.T) {
	s := newFake(t)
	c := newClient(t, s, newFakeClock(true))
	hold := make(chan struct{})
	started := make(chan struct{})
	s.Fail("/pub/player/ivan_daily/games", chesscomtest.Fault{Hold: hold, Started: started})
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	wg.Go(func() {
		_, _, err := c.PlayerGames(ctx, chesscomtest.Player)
		errs <- err
	})
	<-started // the slow response is being served
	for _, f := range []func() error{
		func() error { _, _, err := c.Tournament(ctx, chesscomtest.Tournament); return err },
		func() error { _, _, err := c.ClubMatches(ctx, chesscomtest.Club); return err },
		func() error { _, _, err := c.Match(ctx, c.MatchURL(chesscomtest.MatchID, false)); return err },
		func() error { _, _, err := c.PlayerArchives(ctx, chesscomtest.Player); return err },
		func() error { _, _, err := c.MatchBoard(ctx, "/pub/match/1700001/1"); return err },
		func() error { _, _, err := c.MatchBoard(ctx, "/pub/match/1700001/2"); return err },
	} {
		wg.Go(func() { errs <- f() })
	}
	// Every other call queues behind the slow one (and none reaches the
	// server): wait for the six to queue, without timing.
	for i := 0; c.Waiting() != 6; i++ {
		if i > 1_000_000 {
			t.Fatalf("%d calls queued, want 6; %d requests reached the server", c.Waiting(), len(s.Requests()))
		}
		runtime.Gosched()
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests reached the server while one was in flight", n)
	}
	close(hold)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := s.MaxInFlight(); got != 1 {
		t.Errorf("max in flight = %d, want 1", got)
	}
	if n := len(s.Requests()); n != 7 {
		t.Errorf("%d requests, want 7", n)
	}
}

func TestContextCancelsWaits(t *testing.T) {
	s := newFake(t)
	clock := newFakeClock(false)
	c := newClient(t, s, clock)
	s.Fail("", chesscomtest.Fault{Status: 429})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := c.PlayerGames(ctx, chesscomtest.Player)
		done <- err
	}()
	waitSleep(t, clock, done)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestSameURLDecodedAsTwoTypes(t *testing.T) {
	s := newFake(t)
	c := newClient(t, s, newFakeClock(true))
	ctx := context.Background()
	const p = "/pub/match/1700001/1"
	games, _, err := c.Games(ctx, p) // a board is also a {"games":[...]} body
	if err != nil || len(games) != 2 {
		t.Fatalf("games %d, err %v", len(games), err)
	}
	// The cached value is a []Game: a 304 cannot serve a MatchBoard, so
	// the client asks again without validators.
	b, m, err := c.MatchBoard(ctx, p)
	if err != nil || len(b.Games) != 2 || m.NotModified {
		t.Fatalf("board %+v, meta %+v, err %v", b, m, err)
	}
	reqs := s.RequestsTo(p)
	if len(reqs) != 3 || reqs[1].Status != 304 || reqs[2].Status != 200 || reqs[2].IfNoneMatch != "" {
		t.Errorf("requests %+v", reqs)
	}
}

func TestOnRateLimitHook(t *testing.T) {
	tests := []struct {
		name       string
		faults     []chesscomtest.Fault
		wantPauses []time.Duration
	}{
		{name: "one 429 with retry-after", faults: []chesscomtest.Fault{{Status: 429, RetryAfter: "7"}}, wantPauses: []time.Duration{7 * time.Second}},
		{name: "two 429s, default pause", faults: []chesscomtest.Fault{{Status: 429}, {Status: 429}},
			wantPauses: []time.Duration{chesscom.DefaultRateLimitPause, chesscom.DefaultRateLimitPause}},
		{name: "a 500 is no rate limit", faults: []chesscomtest.Fault{{Status: 500}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake(t)
			hc := s.Client()
			t.Cleanup(hc.CloseIdleConnections)
			var pauses []time.Duration // the hook runs on the caller's goroutine
			c, err := chesscom.New(chesscom.Options{BaseURL: s.URL(), HTTPClient: hc, Contact: contact,
				Clock: newFakeClock(true), Logger: slog.New(slog.DiscardHandler),
				OnRateLimit: func(d time.Duration) { pauses = append(pauses, d) }})
			if err != nil {
				t.Fatal(err)
			}
			const p = "/pub/tournament/threefold-daily-open"
			for _, f := range tt.faults {
				s.Fail(p, f)
			}
			if _, _, err := c.Tournament(context.Background(), chesscomtest.Tournament); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pauses, tt.wantPauses) {
				t.Errorf("OnRateLimit got %v, want %v", pauses, tt.wantPauses)
			}
		})
	}
}

// TestFreshCopyIsNotRequestedAgain: within the max-age chess.com gave a
// response, the copy held is the answer and nothing is sent; after it,
// the copy is revalidated.
func TestFreshCopyIsNotRequestedAgain(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		read   func(c *chesscom.Client) (chesscom.Meta, error)
		maxAge time.Duration
	}{
		{"current games, 5 s", "/pub/player/ivan_daily/games", func(c *chesscom.Client) (chesscom.Meta, error) {
			_, m, err := c.PlayerGames(context.Background(), chesscomtest.Player)
			return m, err
		}, 5 * time.Second},
		{"monthly archive, an hour", "/pub/player/ivan_daily/games/2026/11", func(c *chesscom.Client) (chesscom.Meta, error) {
			_, m, err := c.MonthGames(context.Background(), chesscomtest.Player, 2026, 11)
			return m, err
		}, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake(t)
			clock := newFakeClock(true)
			c := newClient(t, s, clock)
			if _, err := tt.read(c); err != nil {
				t.Fatal(err)
			}
			clock.Advance(tt.maxAge - time.Second)
			m, err := tt.read(c)
			if err != nil || !m.Fresh || !m.NotModified {
				t.Fatalf("within max-age: err %v, meta %+v; want the held copy", err, m)
			}
			if n := len(s.RequestsTo(tt.path)); n != 1 {
				t.Errorf("%d requests within max-age, want 1", n)
			}
			clock.Advance(time.Second)
			m, err = tt.read(c)
			if err != nil || m.Fresh || !m.NotModified {
				t.Fatalf("after max-age: err %v, meta %+v; want a 304", err, m)
			}
			if reqs := s.RequestsTo(tt.path); len(reqs) != 2 || reqs[1].Status != 304 {
				t.Errorf("requests %+v, want a second one answered 304", reqs)
			}
		})
	}
}

// TestDelayIsTheStalenessBound: how old the data may be is the time since
// its Last-Modified (chess.com's own format, or an HTTP date), at most the
// documented 12 hours; without a readable Last-Modified, 12 hours.
func TestDelayIsTheStalenessBound(t *testing.T) {
	tests := []struct {
		name    string
		changed time.Duration // before the read; <0: no Last-Modified
		want    time.Duration
	}{
		{"changed a minute ago", time.Minute, time.Minute},
		{"changed 3 h ago", 3 * time.Hour, 3 * time.Hour},
		{"changed two days ago", 48 * time.Hour, chesscom.RefreshBound},
		{"no Last-Modified", -1, chesscom.RefreshBound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake(t)
			clock := newFakeClock(true)
			c := newClient(t, s, clock)
			ctx := context.Background()
			s.SetClock(clock.Now)
			s.Set("/pub/player/x/games", []byte(`{"games":[]}`))
			if tt.changed < 0 {
				s.SetValidators(true, false)
			} else {
				clock.Advance(tt.changed)
			}
			_, m, err := c.PlayerGames(ctx, "x")
			if err != nil {
				t.Fatal(err)
			}
			if m.Delay() != tt.want {
				t.Errorf("Delay() = %s, want %s (meta %+v)", m.Delay(), tt.want, m)
			}
		})
	}
}
