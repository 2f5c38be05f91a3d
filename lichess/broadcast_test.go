package lichess_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// Every broadcast endpoint needs study:read: a bot's token (bot:play) is
// refused with Lichess's 403, the stream stops at once (no retry), and the
// error names the scope and how to get it.
func TestBroadcastWithABotTokenIsRefused(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.fake.Broadcast("rndScope").SetPGN(recordedText("broadcast-round.pgn"))
	err := e.c.StreamBroadcastRound(e.ctx, "rndScope", func(string) error { return nil })
	var ae *lichess.AuthError
	if !errors.As(err, &ae) || ae.Status != http.StatusForbidden || ae.Scope != lichess.ScopeStudyRead {
		t.Fatalf("err = %v, want a 403 AuthError naming study:read", err)
	}
	for _, want := range []string{"study:read", "threefold login --for watch"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n := len(e.fake.RequestsTo("", "/api/stream/broadcast/round/*")); n != 1 {
		t.Errorf("%d requests, want 1: a refusal is not retried", n)
	}
	// Anonymous calls are served (heavily rate-limited on Lichess).
	anon := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Logger: e.logger()})
	defer anon.Close()
	if _, err := anon.BroadcastRound(e.ctx, "rndScope"); err != nil {
		t.Errorf("anonymous round lookup: %v", err)
	}
}

// A finished round whose stream Lichess keeps open, and whose info has no
// "finished" flag (deprecated) but finishedAt: the stream ends at the next
// check instead of following a round that is over forever.
func TestFinishedRoundWhoseStreamStaysOpen(t *testing.T) {
	e := newEnv(t, envOpts{clock: true, client: lichess.Options{Token: fakelichess.WatchToken},
		fake: fakelichess.Options{FinishedRoundsStayOpen: true}})
	b := e.fake.Broadcast("rndOpen1")
	b.SetPGN(recordedText("broadcast-round.pgn"))
	col := newCollector[string]()
	done := run(t, func() error { return e.c.StreamBroadcastRound(e.ctx, "rndOpen1", col.add) })
	col.waitLen(t, 1)
	// A check while the round goes on changes nothing.
	e.nextBroadcastCheck()
	e.waitFor("the first check", func() bool { return len(e.fake.RequestsTo(http.MethodGet, "/api/broadcast/-/-/rndOpen1")) == 1 })
	// The check has taken its answer in once it re-arms its timer; a round
	// finished before that would end the stream at this first check.
	if err := e.clk.WaitTimer(e.ctx, lichess.BroadcastCheckInterval); err != nil {
		t.Fatal(err)
	}
	b.Finish()
	if e.fake.Streams("broadcast") != 1 {
		t.Fatal("the finished round's stream was closed; this test needs it open")
	}
	e.nextBroadcastCheck()
	if err := wait(t, done); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if n := e.streamsOpened("/api/stream/broadcast/round/*"); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	body := e.fake.RequestsTo(http.MethodGet, "/api/broadcast/-/-/rndOpen1")
	if len(body) != 2 {
		t.Errorf("%d round lookups, want 2", len(body))
	}
}

// The same round info without "finished": when Lichess closes the stream
// of a finished round, finishedAt alone ends it (no reconnect).
func TestFinishedRoundWithoutFinishedFlag(t *testing.T) {
	e := newEnv(t, envOpts{client: lichess.Options{Token: fakelichess.WatchToken}})
	b := e.fake.Broadcast("rndFlag1")
	b.SetPGN(recordedText("broadcast-round.pgn"))
	col := newCollector[string]()
	done := run(t, func() error { return e.c.StreamBroadcastRound(e.ctx, "rndFlag1", col.add) })
	col.waitLen(t, 1)
	b.Finish()
	if err := wait(t, done); err != nil {
		t.Fatalf("stream: %v", err)
	}
	r, err := e.c.BroadcastRound(e.ctx, "rndFlag1")
	if err != nil || r.Round.Finished || r.Round.FinishedAt == 0 || !r.Round.Over() {
		t.Errorf("round info %+v, %v: want finishedAt and no finished flag", r.Round, err)
	}
	if n := e.streamsOpened("/api/stream/broadcast/round/*"); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}

const laterRoundGame = `[Event "Knight Invitational"]
[Site "https://lichess.org/broadcast/knight-invitational-2/round-3/rndLate2/Gm3AAAAA"]
[White "Player 5"]
[Black "Player 6"]
[Result "*"]
[BroadcastURL "https://lichess.org/broadcast/knight-invitational-2/round-3/rndLate2"]
[GameURL "https://lichess.org/broadcast/knight-invitational-2/round-3/rndLate2/Gm3AAAAA"]

1. c4 *
`

// A tournament stream covers the rounds under way when it opened; a round
// that starts later is picked up by opening the stream again.
func TestTourPicksUpARoundThatStartsLater(t *testing.T) {
	e := newEnv(t, envOpts{clock: true, client: lichess.Options{Token: fakelichess.WatchToken}})
	first := e.fake.Broadcast("rndLate1").SetTour("tourLate")
	first.SetPGN(recordedText("broadcast-round.pgn"))
	later := e.fake.Broadcast("rndLate2").SetTour("tourLate")
	col := newCollector[string]()
	done := run(t, func() error { return e.c.StreamBroadcastTour(e.ctx, "tourLate", col.add) })
	col.waitLen(t, 1)
	later.SetPGN(laterRoundGame) // not sent to the open stream, as on Lichess
	e.nextBroadcastCheck()
	got := col.waitLen(t, 2)
	if !strings.Contains(got[1], "1. c4 *") {
		t.Errorf("second PGN %q, want the later round's game", got[1])
	}
	if n := e.streamsOpened("/api/stream/broadcast/tour/*"); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
	first.Finish()
	later.Finish()
	if err := wait(t, done); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if n := len(col.all()); n != 2 {
		t.Errorf("%d PGNs, want 2 (nothing twice)", n)
	}
}

// A broadcast group's address looks like a tournament's: an id that is no
// tournament is followed as a group, every round of its tournaments, until
// none is active.
func TestGroupAddressIsFollowedAsAGroup(t *testing.T) {
	e := newEnv(t, envOpts{client: lichess.Options{Token: fakelichess.WatchToken}})
	a := e.fake.Broadcast("rndGrpA1").SetTour("tourGrpA")
	a.SetPGN(recordedText("broadcast-round.pgn"))
	b := e.fake.Broadcast("rndLate2").SetTour("tourGrpB")
	b.SetPGN(laterRoundGame)
	e.fake.Group("grpAbCd1", "Cadets Cup", "tourGrpA", "tourGrpB")
	col := newCollector[string]()
	done := run(t, func() error { return e.c.StreamBroadcastTour(e.ctx, "grpAbCd1", col.add) })
	col.waitLen(t, 2)
	a.Finish()
	b.Finish()
	if err := wait(t, done); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if n := e.streamsOpened("/api/stream/broadcast/group/*"); n != 1 {
		t.Errorf("%d group connections, want 1", n)
	}
}

// nextBroadcastCheck waits for the client's next broadcast check to be
// armed and moves the clock to it, keeping the stream alive on the way.
func (e *env) nextBroadcastCheck() {
	e.t.Helper()
	if err := e.clk.WaitTimer(e.ctx, lichess.BroadcastCheckInterval); err != nil {
		e.t.Fatal(err)
	}
	e.advanceKeptAlive(lichess.BroadcastCheckInterval)
}

// advanceKeptAlive moves the clock by d in steps of the broadcast
// keep-alive, each once the client's watchdog has taken the last one in:
// an open broadcast stream lives through it without a reconnect.
func (e *env) advanceKeptAlive(d time.Duration) {
	e.t.Helper()
	watchdog := lichess.SilenceBroadcast
	for step := time.Duration(0); step < d; step += fakelichess.KeepAliveBroadcast {
		if err := e.clk.WaitFor(e.ctx, func() bool {
			return hasTimerLeft(e.clk, watchdog) && hasTimerLeft(e.clk, fakelichess.KeepAliveBroadcast)
		}); err != nil {
			e.t.Fatal(err)
		}
		e.clk.Advance(fakelichess.KeepAliveBroadcast)
	}
}
