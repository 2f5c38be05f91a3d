package chesscom

import (
	"testing"
	"time"

	"github.com/threefold-chess/threefold/clock"
)

// TestPollerForgetsFinishedGames: the poller remembered every game it had
// reported (a player followed for months grew it by each game played). A
// finished game that no pass has read for forgetFinishedAfter leaves it;
// one still read (a month archive read at every pass) and a game going on
// stay; a forgotten game read again is delivered again.
func TestPollerForgetsFinishedGames(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	c, err := New(Options{Clock: clk, Contact: "test@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	p := &poller{c: c, games: map[string]gameState{}}
	game := func(url, pgn string, finished bool) Game {
		return Game{URL: url, PGN: pgn, Finished: finished, LastActivity: clk.Now()}
	}
	read := func(games ...Game) {
		p.changed = nil
		for _, g := range games {
			p.consider(g, Meta{})
		}
		p.forgetFinished(clk.Now())
	}
	done, kept, live := game("https://x/done", "1. e4 e5 1-0", true), game("https://x/kept", "1. d4 d5 0-1", true), game("https://x/live", "1. c4", false)
	read(done, kept, live)
	for range 3 {
		clk.Advance(forgetFinishedAfter / 2)
		read(kept)
	}
	if _, ok := p.games[done.URL]; ok {
		t.Fatalf("a finished game not read for %s is still remembered", 3*forgetFinishedAfter/2)
	}
	if _, ok := p.games[kept.URL]; !ok {
		t.Fatal("a finished game read at every pass was forgotten")
	}
	if _, ok := p.games[live.URL]; !ok {
		t.Fatal("a game going on was forgotten")
	}
	read(kept, done)
	if len(p.changed) != 1 || p.changed[0].URL != done.URL {
		t.Fatalf("delivered %v, want the forgotten game only", p.changed)
	}
}
