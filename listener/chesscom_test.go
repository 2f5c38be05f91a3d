package listener

import (
	"context"
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
	ran, ended := context.WithCancel(context.Background())
	go func() {
		defer ended()
		err = src.Run(context.Background(), c.emit)
	}()
	for {
		d, werr := clk.NextWait(ran)
		if werr != nil {
			break // Run returned
		}
		if d == src.Interval && len(steps) > 0 {
			steps[0]()
			steps = steps[1:]
		}
		clk.Advance(d)
	}
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
	for _, a := range c.alerts {
		if a.Game.Site != "chess.com" || a.DelayS < 3600 || a.Audience != "" || !strings.Contains(a.Game.URL, "900000001") {
			t.Errorf("alert game %+v delay %v audience %q", a.Game, a.DelayS, a.Audience)
		}
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicates %v", d)
	}
}
