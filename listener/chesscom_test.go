package listener

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
	"github.com/threefold-chess/threefold/clock"
)

func TestChessComSource(t *testing.T) {
	srv := chesscomtest.New("/chesscom")
	defer srv.Close()
	const game = "https://www.chess.com/game/daily/900000001"
	const games = "/pub/player/" + chesscomtest.Player + "/games"
	c := newCollector()
	var snapsAtStep []int
	mark := func() {
		c.mu.Lock()
		snapsAtStep = append(snapsAtStep, len(c.snaps))
		c.mu.Unlock()
	}
	// The client waits on clk; at each poll interval the test runs its next
	// step.
	clk := clock.NewFake(chesscomtest.Epoch)
	steps := []func(){
		func() { // a move pair: the claim by declared move becomes possible at ply 51
			mark()
			if _, err := srv.AppendMoves(game, "25. Be4 Qh5 26. Bf3", ""); err != nil {
				t.Error(err)
			}
		},
		func() { mark() }, // nothing changes: a 304, no snapshot
		func() { // 429 with Retry-After, then the third occurrence
			mark()
			srv.Fail(games, chesscomtest.Fault{Status: 429, RetryAfter: "30"})
			if _, err := srv.AppendMoves(game, "26... Qf5", ""); err != nil {
				t.Error(err)
			}
		},
		func() { // the player's games are gone for good
			mark()
			srv.Fail(games, chesscomtest.Fault{Status: 410})
		},
	}
	// chess.com stamps a change 10 minutes before the step that makes it.
	srv.SetClock(func() time.Time { return clk.Now().Add(-10 * time.Minute) })
	client, err := chesscom.New(chesscom.Options{BaseURL: srv.URL(), HTTPClient: srv.Client(), Contact: "test@example.org",
		Clock: clk, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	target, err := chesscom.ParseTarget("https://www.chess.com/member/"+chesscomtest.Player, "")
	if err != nil {
		t.Fatal(err)
	}
	src := &ChessComSource{Client: client, Target: target, Interval: time.Hour}
	err = runWithSteps(src, clk, c.emit, steps)
	if err == nil || !errors.Is(err, chesscom.ErrGone) {
		t.Fatalf("Run: %v, want the 410 to end the source", err)
	}
	// Steps: first pass (2 games), +1 (ply 51), +0 (304), +1 (ply 52).
	if !slices.Equal(snapsAtStep, []int{2, 3, 3, 4}) {
		t.Errorf("snapshots before each step %v, want [2 3 3 4]", snapsAtStep)
	}
	if !slices.Contains(clk.Waits(), 30*time.Second) {
		t.Errorf("sleeps %v: the 429's Retry-After was not honoured", clk.Waits())
	}
	var saw304 bool
	for _, r := range srv.RequestsTo(games) {
		saw304 = saw304 || r.Status == 304
	}
	if !saw304 {
		t.Error("no 304 answered")
	}
	k := c.kinds(game)
	if !slices.Equal(k[threefold.KindClaimByMove], []int{51}) || !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Errorf("alerts %v, want claim_by_move 51 and threefold 52", k)
	}
	// The delay is how old the data is (its Last-Modified), not the poll
	// interval: the change was stamped 10 minutes before the step, and read
	// an interval (an hour) after it; for the second, 30 s later (the 429).
	wantDelay := map[int]float64{51: 4200, 52: 4230}
	for _, a := range c.alerts {
		if a.Game.Site != "chess.com" || a.DelayS != wantDelay[a.Ply] || a.Audience != "" || !strings.Contains(a.Game.URL, "900000001") {
			t.Errorf("alert game %+v delay %v audience %q; want delay %v", a.Game, a.DelayS, a.Audience, wantDelay[a.Ply])
		}
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicates %v", d)
	}
}

// TestChessComSourceAfterTheGame: a live game the player finished is
// followed from the archive once it ended, labelled "after the game", its
// delay the time since it ended; the repetition in it is reported at its
// true ply.
func TestChessComSourceAfterTheGame(t *testing.T) {
	srv := chesscomtest.New("")
	defer srv.Close()
	const archive = "/pub/player/" + chesscomtest.Player + "/games/2026/11"
	const live = "https://www.chess.com/game/live/140000000888"
	c := newCollector()
	clk := clock.NewFake(chesscomtest.Epoch.Add(13 * time.Hour))
	endedAt := clk.Now().Add(-2 * time.Hour)
	steps := []func(){func() {
		// The recorded archive's live game, ended two hours ago.
		var doc map[string]any
		if err := json.Unmarshal(srv.Body(archive), &doc); err != nil {
			t.Error(err)
			return
		}
		games := doc["games"].([]any)
		g := map[string]any{}
		b, _ := json.Marshal(games[1])
		json.Unmarshal(b, &g)
		g["url"], g["end_time"] = live, float64(endedAt.Unix())
		g["pgn"] = pgnOf(anandPGNHead+"[Termination \"Game drawn by repetition\"]\n", anandMoves, "1/2-1/2")
		doc["games"] = append(games, g)
		b, _ = json.Marshal(doc)
		srv.Set(archive, b)
	}, func() { srv.Fail("/pub/player/"+chesscomtest.Player+"/games", chesscomtest.Fault{Status: 410}) }}
	client, err := chesscom.New(chesscom.Options{BaseURL: srv.URL(), HTTPClient: srv.Client(), Contact: "test@example.org",
		Clock: clk, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	src := &ChessComSource{Client: client, Target: chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player},
		Interval: time.Hour, AfterTheGame: true}
	if err := runWithSteps(src, clk, c.emit, steps); !errors.Is(err, chesscom.ErrGone) {
		t.Fatalf("Run: %v", err)
	}
	k := c.kinds(live)
	if !slices.Equal(k[threefold.KindThreefold], []int{52}) || !slices.Equal(k[threefold.KindClaimByMove], []int{51}) {
		t.Fatalf("alerts of the live game %v, want claim_by_move 51 and threefold 52", k)
	}
	// chess.com's own account of the end, beside threefold's.
	if last, _ := c.lastOf(); !last[live].Finished || last[live].SiteResult != "Game drawn by repetition" {
		t.Errorf("the live game's last state %+v, want finished and chess.com's \"Game drawn by repetition\"", last[live])
	}
	for _, a := range c.alerts {
		if a.Game.ID != live {
			continue
		}
		if a.Source != src.Name()+AfterTheGameLabel || a.DelayS != 3*3600 {
			t.Errorf("alert source %q delay %v; want %q and 3 h (ended 2 h before the pass an hour later)", a.Source, a.DelayS, src.Name()+AfterTheGameLabel)
		}
	}
}

// runWithSteps runs src until it returns, moving clk on through every wait;
// before each wait of the source's poll interval it runs the next step.
func runWithSteps(src *ChessComSource, clk *clock.Fake, emit Emit, steps []func()) error {
	ran, ended := context.WithCancel(context.Background())
	var err error
	go func() {
		defer ended()
		err = src.Run(context.Background(), emit)
	}()
	for {
		d, werr := clk.NextWait(ran)
		if werr != nil {
			return err // Run returned
		}
		if d == src.Interval && len(steps) > 0 {
			steps[0]()
			steps = steps[1:]
		}
		clk.Advance(d)
	}
}

// TestChessComChess960: a daily game with rules chess960 is followed as
// Chess960 even when its PGN has no [Variant] tag (chess960SAN); a game
// with other rules (crazyhouse) is not followed.
func TestChessComChess960(t *testing.T) {
	srv := chesscomtest.New("")
	defer srv.Close()
	const free = "https://www.chess.com/game/daily/900000001"
	const zh = "https://www.chess.com/game/daily/900000002"
	head := "[Event \"Let's Play!\"]\n[White \"a\"]\n[Black \"b\"]\n[SetUp \"1\"]\n[FEN \"" + chess960Start + "\"]\n"
	for url, edit := range map[string]func(map[string]any){
		free: func(g map[string]any) { g["rules"], g["pgn"] = "chess960", pgnOf(head, chess960SAN, "*") },
		zh:   func(g map[string]any) { g["rules"] = "crazyhouse" },
	} {
		if _, err := srv.UpdateGame(url, edit); err != nil {
			t.Fatal(err)
		}
	}
	clk := clock.NewFake(chesscomtest.Epoch)
	client, err := chesscom.New(chesscom.Options{BaseURL: srv.URL(), HTTPClient: srv.Client(), Contact: "test@example.org",
		Clock: clk, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector()
	src := &ChessComSource{Client: client, Target: chesscom.Target{Kind: chesscom.KindPlayer, ID: chesscomtest.Player}, Interval: time.Hour}
	steps := []func(){func() { srv.Fail("/pub/player/"+chesscomtest.Player+"/games", chesscomtest.Fault{Status: 410}) }}
	if err := runWithSteps(src, clk, c.emit, steps); !errors.Is(err, chesscom.ErrGone) {
		t.Fatalf("Run: %v", err)
	}
	checkChess960Alerts(t, c, free)
	last, _ := c.lastOf()
	if _, ok := last[zh]; ok {
		t.Errorf("the crazyhouse game was followed")
	}
}
