package lichess_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

func TestSpectatorStreamResumesExactly(t *testing.T) {
	tests := []struct {
		name  string
		fault fakelichess.Fault
	}{
		{"no fault", fakelichess.Fault{}},
		// description + 3 positions, then the cut
		{"cut mid-stream", fakelichess.Fault{Path: "/api/stream/game/*", Disconnect: true, AfterLines: 4}},
		{"5xx burst on connect", fakelichess.ServerErrors("/api/stream/game/*", 3)},
		{"truncated line", fakelichess.Fault{Path: "/api/stream/game/*", Truncate: true, AfterLines: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			if tc.fault.Path != "" {
				e.fake.Inject(tc.fault)
			}
			g := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "spect001", White: "Carlsen", Black: "Nepo", Moves: []string{"e2e4", "e7e5"}, Clock: true})
			col := newCollector[lichess.SpectatorEvent]()
			done := run(t, func() error { return e.c.StreamGame(e.ctx, g.ID(), col.add) })
			col.waitLen(t, 4)
			for _, m := range []string{"g1f3", "b8c6", "f3g1", "c6b8"} {
				if err := g.Move(m); err != nil {
					t.Fatal(err)
				}
			}
			// Six plies played: Lichess shows plies 1 to 4 at once and
			// holds the later ones DelayPlies back (5 and 6 until the end).
			col.waitLen(t, 6)
			g.Finish(lichess.StatusDraw, "")
			if err := wait(t, done); err != nil {
				t.Fatalf("stream: %v", err)
			}
			var got []string
			for _, ev := range col.all() {
				if ev.Game != nil {
					got = append(got, "game:"+ev.Game.Status.Name)
				} else {
					got = append(got, fmt.Sprintf("%d:%s", ev.Position.Ply, ev.Position.LastMove))
				}
			}
			want := "game:started 0: 1:e2e4 2:e7e5 3:g1f3 4:b8c6 5:f3g1 6:c6b8 game:draw"
			if strings.Join(got, " ") != want {
				t.Errorf("events\n got %s\nwant %s", strings.Join(got, " "), want)
			}
			first := col.all()[0].Game
			if first.ID != "spect001" || first.Players.White.User.Name != "Carlsen" || first.Speed != "blitz" {
				t.Errorf("description %+v", first)
			}
			if p := col.all()[1].Position; p.WC == nil || *p.WC != 180 {
				t.Errorf("clock not parsed: %+v", p)
			}
		})
	}
}

// Lichess delays an ongoing game by 3 moves: the stream holds the last
// positions back and releases them when the game ends, one line each or
// not at all (the final description jumps to the final position). Either
// way the client delivers every position once, at its true ply, before
// the final description, saying how far behind each one came; a jump is
// filled in from the export, and a decisive end whose winner the
// description lacks takes the export's.
func TestSpectatorDelayReleasedAtTheEnd(t *testing.T) {
	opening := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}
	later := []string{"b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3"}
	for _, row := range []struct {
		name          string
		jump          bool   // the final description without the held positions
		status        string // the end
		winner        string
		exportOnly    bool // the winner is in the export, not in the final description
		wantExport    bool
		wantLastDelay []int // Behind of plies 10 to 13
	}{
		{name: "one line per released position", status: lichess.StatusResign, winner: "black",
			wantLastDelay: []int{3, 3, 3, 3}},
		{name: "a jump to the final position", jump: true, status: lichess.StatusResign, winner: "black",
			wantExport: true, wantLastDelay: []int{3, 2, 1, 0}},
		{name: "a decisive end whose winner only the export names", status: lichess.StatusResign, winner: "white", exportOnly: true,
			wantExport: true, wantLastDelay: []int{3, 3, 3, 3}},
		{name: "a decisive end without a winner anywhere", jump: true, status: lichess.StatusResign,
			wantExport: true, wantLastDelay: []int{3, 2, 1, 0}},
	} {
		t.Run(row.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			g := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "delay001", White: "A", Black: "B", Moves: opening,
				ReleaseJump: row.jump, WinnerOnlyInExport: row.exportOnly})
			col := newCollector[lichess.SpectatorEvent]()
			done := run(t, func() error { return e.c.StreamGame(e.ctx, g.ID(), col.add) })
			// Six plies played: the stream shows the start and plies 1 to 4.
			col.waitLen(t, 6)
			for i, m := range later {
				if err := g.Move(m); err != nil {
					t.Fatal(err)
				}
				// ply 6+i+1 on the board releases ply 6+i+1-3 (from ply 5 on)
				col.waitLen(t, 1+(6+i+1-lichess.DelayPlies)+1)
			}
			if got := col.all(); got[len(got)-1].Position.Ply != 13-lichess.DelayPlies {
				t.Fatalf("the stream shows ply %d of 13, want %d", got[len(got)-1].Position.Ply, 13-lichess.DelayPlies)
			}
			g.Finish(row.status, row.winner)
			if err := wait(t, done); err != nil {
				t.Fatalf("stream: %v", err)
			}
			var plies []int
			var behind []int
			var final *lichess.SpectatorGame
			for _, ev := range col.all() {
				switch {
				case ev.Position != nil:
					if final != nil {
						t.Errorf("ply %d after the final description", ev.Position.Ply)
					}
					plies = append(plies, ev.Position.Ply)
					if ev.Position.Ply >= 10 {
						behind = append(behind, ev.Position.Behind)
					}
				case ev.Game != nil && lichess.Finished(ev.Game.Status.Name):
					final = ev.Game
				}
			}
			for i, p := range plies {
				if p != i {
					t.Fatalf("plies delivered %v, want 0 to 13 once each", plies)
				}
			}
			if len(plies) != 14 {
				t.Fatalf("plies delivered %v, want 0 to 13", plies)
			}
			if fmt.Sprint(behind) != fmt.Sprint(row.wantLastDelay) {
				t.Errorf("plies 10-13 came %v plies behind, want %v", behind, row.wantLastDelay)
			}
			if final == nil || final.Status.Name != row.status || final.Winner != row.winner {
				t.Fatalf("final description %+v, want status %s, winner %q", final, row.status, row.winner)
			}
			if n := len(e.fake.RequestsTo(http.MethodGet, "/game/export/delay001")); (n > 0) != row.wantExport {
				t.Errorf("%d export requests, want some: %v", n, row.wantExport)
			}
		})
	}
}

// The recorded spectator lines (with "board side" FENs) parse.
func TestSpectatorRecordedLines(t *testing.T) {
	e := newEnv(t, envOpts{})
	lines := recorded("spectator-stream.ndjson")
	e.fake.SetRawGame("LuGQwhBb", lines)
	col := newCollector[lichess.SpectatorEvent]()
	done := run(t, func() error { return e.c.StreamGame(e.ctx, "LuGQwhBb", col.add) })
	evs := col.waitLen(t, 4)
	e.c.Close()
	wait(t, done)
	if evs[0].Game == nil || evs[0].Game.Players.White.User.Title != "GM" || evs[0].Game.Turns != 6 {
		t.Errorf("description %+v", evs[0].Game)
	}
	if p := evs[2].Position; p == nil || p.LastMove != "e2e3" || p.FEN != "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b" || p.Ply != 1 {
		t.Errorf("position %+v", evs[2].Position)
	}
}

// Spectator streams wait for a slot of the budget: the fake (limited like
// Lichess, here to 2) never sees a third and never answers 429.
func TestSpectatorStreamsStayWithinBudget(t *testing.T) {
	e := newEnv(t, envOpts{fake: fakelichess.Options{GameStreams: 2}, client: lichess.Options{Streams: lichess.NewStreamBudget(2, 1)}})
	var games []*fakelichess.Spectated
	var dones []<-chan error
	for i := 0; i < 4; i++ {
		g := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: fmt.Sprintf("budget%02d", i), White: "A", Black: "B"})
		games = append(games, g)
		dones = append(dones, run(t, func() error { return e.c.StreamGame(e.ctx, g.ID(), func(lichess.SpectatorEvent) error { return nil }) }))
	}
	e.waitFor("two streams", func() bool { return e.fake.Streams("game") == 2 })
	for i := 0; i < 4; i++ {
		// finish a game that is being streamed
		var next *fakelichess.Spectated
		e.waitFor("a stream", func() bool {
			for _, g := range games {
				if !g.Finished() && len(e.fake.RequestsTo(http.MethodGet, "/api/stream/game/"+g.ID())) > 0 {
					next = g
					return true
				}
			}
			return false
		})
		if n := e.fake.Streams("game"); n > 2 {
			t.Fatalf("%d streams open", n)
		}
		next.Finish(lichess.StatusResign, "white")
	}
	for _, d := range dones {
		if err := wait(t, d); err != nil {
			t.Errorf("stream: %v", err)
		}
	}
	for _, r := range e.fake.Requests() {
		if r.Status == http.StatusTooManyRequests {
			t.Errorf("the fake refused a stream: %+v", r)
		}
	}
	if n := len(e.fake.RequestsTo(http.MethodGet, "/api/stream/game/*")); n != 4 {
		t.Errorf("%d stream requests, want 4", n)
	}
}

func summaryKeys(gs []lichess.GameSummary) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID+":"+g.StatusName)
	}
	return out
}

func TestGamesByUsersResumesExactly(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/games-by-users", Disconnect: true, AfterLines: 1})
	e.fake.PublishGame(fakelichess.Summary{ID: "gameA001", White: "alice", Black: "bob"})
	e.fake.PublishGame(fakelichess.Summary{ID: "other001", White: "alice", Black: "zed"})
	col := newCollector[lichess.GameSummary]()
	done := run(t, func() error { return e.c.StreamGamesByUsers(e.ctx, []string{"alice", "bob"}, col.add) })
	col.waitLen(t, 1)
	e.fake.PublishGame(fakelichess.Summary{ID: "gameB001", White: "bob", Black: "alice"}) // cut before this line
	col.waitLen(t, 2)
	e.fake.PublishGame(fakelichess.Summary{ID: "gameA001", White: "alice", Black: "bob", Status: "resign", Winner: "white"})
	e.fake.PublishGame(fakelichess.Summary{ID: "gameB001", White: "bob", Black: "alice", Status: "draw"})
	got := col.waitLen(t, 4)
	e.c.Close()
	wait(t, done)
	if s := strings.Join(summaryKeys(got), " "); s != "gameA001:started gameB001:started gameA001:resign gameB001:draw" {
		t.Errorf("got %s", s)
	}
	if got[2].Winner != "white" || got[0].Players.White.UserID != "alice" || got[0].Clock == nil || got[0].Clock.Initial != 60 {
		t.Errorf("fields: %+v", got[2])
	}
	reqs := e.fake.RequestsTo(http.MethodPost, "/api/stream/games-by-users")
	if len(reqs) < 2 || reqs[1].Body != "alice,bob" || reqs[1].Query.Get("withCurrentGames") != "true" {
		t.Errorf("requests %+v", reqs)
	}
}

func TestGamesByIDsResumesWithAddedIDs(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.fake.PublishGame(fakelichess.Summary{ID: "id000001", White: "a", Black: "b"})
	e.fake.PublishGame(fakelichess.Summary{ID: "id000002", White: "c", Black: "d"})
	col := newCollector[lichess.GameSummary]()
	done := run(t, func() error { return e.c.StreamGamesByIDs(e.ctx, "mystream", []string{"id000001"}, col.add) })
	col.waitLen(t, 1)
	if err := e.c.AddGameIDs(e.ctx, "mystream", []string{"id000002"}); err != nil {
		t.Fatal(err)
	}
	col.waitLen(t, 2)
	// Cut the stream: the reconnect asks for both ids and delivers nothing twice.
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/games/mystream", Disconnect: true})
	e.fake.KillStreams("games-by-ids")
	e.waitFor("the reconnect", func() bool {
		return e.streamsOpened("/api/stream/games/mystream") >= 2 && e.fake.Streams("games-by-ids") == 1
	})
	e.fake.PublishGame(fakelichess.Summary{ID: "id000002", White: "c", Black: "d", Status: "mate", Winner: "black"})
	got := col.waitLen(t, 3)
	e.c.Close()
	wait(t, done)
	if s := strings.Join(summaryKeys(got), " "); s != "id000001:started id000002:started id000002:mate" {
		t.Errorf("got %s", s)
	}
	reqs := e.fake.RequestsTo(http.MethodPost, "/api/stream/games/mystream")
	if last := reqs[len(reqs)-1]; last.Body != "id000001,id000002" {
		t.Errorf("reconnect body %q", last.Body)
	}
}

func TestTVFeed(t *testing.T) {
	e := newEnv(t, envOpts{})
	tv := e.fake.TV("bot")
	tv.Feature(recorded("tv-feed.ndjson")[0]) // the featured line as Lichess sends it
	col := newCollector[lichess.TVEvent]()
	done := run(t, func() error { return e.c.StreamTV(e.ctx, "bot", col.add) })
	col.waitLen(t, 1)
	fens := recorded("tv-feed.ndjson")
	_ = fens
	tv.Move("3r1rk1/pp2p1b1/4P2p/3Nq1p1/5p2/5Q2/PP4K1/3R3R w - - 0 32", "e4e5", 9, 16)
	col.waitLen(t, 2)
	e.fake.KillStreams("tv") // the reconnect sends "featured" with the same game and position
	e.waitFor("the reconnect", func() bool { return e.streamsOpened("/api/tv/bot/feed") >= 2 && e.fake.Streams("tv") == 1 })
	tv.Move("3r1rk1/pp2p1b1/4P2p/3N2p1/5p2/5Q2/PP4K1/3R2qR w - - 0 33", "e5g1", 8, 15)
	got := col.waitLen(t, 3)
	e.c.Close()
	wait(t, done)
	if got[0].Featured == nil || got[0].Featured.ID != "3hkEI6VI" || len(got[0].Featured.Players) != 2 || got[0].Featured.Players[0].Seconds != 30 {
		t.Errorf("featured %+v", got[0].Featured)
	}
	if got[1].FEN == nil || got[1].FEN.LastMove != "e4e5" || got[1].FEN.WC != 9 || got[2].FEN == nil || got[2].FEN.LastMove != "e5g1" {
		t.Errorf("fen lines %+v %+v", got[1].FEN, got[2].FEN)
	}
	if len(col.all()) != 3 {
		t.Errorf("%d events, want 3", len(col.all()))
	}
}

const secondGame = `[Event "Knight Invitational"]
[Site "https://lichess.org/broadcast/knight-invitational-2/final-round-2/4Yuk2i2H/9xyzAbCd"]
[White "Player 3"]
[Black "Player 4"]
[Result "*"]
[GameURL "https://lichess.org/broadcast/knight-invitational-2/final-round-2/4Yuk2i2H/9xyzAbCd"]

1. d4 *
`

func TestBroadcastRoundResumesExactly(t *testing.T) {
	e := newEnv(t, envOpts{client: lichess.Options{Token: fakelichess.WatchToken}})
	b := e.fake.Broadcast("round001")
	b.SetPGN(recordedText("broadcast-round.pgn") + secondGame)
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/broadcast/round/*", Disconnect: true, AfterLines: 3})
	col := newCollector[string]()
	done := run(t, func() error { return e.c.StreamBroadcastRound(e.ctx, "round001", col.add) })
	col.waitLen(t, 2)
	if err := b.AppendMove("5rsW2cRb", "Nf3"); err != nil { // line 3
		t.Fatal(err)
	}
	col.waitLen(t, 3)
	if err := b.AppendMove("9xyzAbCd", "d5"); err != nil { // cut before line 4
		t.Fatal(err)
	}
	col.waitLen(t, 4)
	if err := b.SetResult("9xyzAbCd", "1/2-1/2"); err != nil {
		t.Fatal(err)
	}
	col.waitLen(t, 5)
	b.Finish()
	if err := wait(t, done); err != nil {
		t.Fatalf("stream: %v", err)
	}
	got := col.all()
	wantEnds := []string{"1. e4 e5 *", "1. d4 *", "1. e4 e5 2. Nf3 *", "1. d4 d5 *", "1. d4 d5 1/2-1/2"}
	if len(got) != len(wantEnds) {
		t.Fatalf("%d PGNs delivered, want %d: %q", len(got), len(wantEnds), got)
	}
	for i, w := range wantEnds {
		if !strings.HasPrefix(got[i], "[Event ") || !strings.HasSuffix(strings.TrimSpace(got[i]), w) {
			t.Errorf("pgn %d = %q, want it to end with %q", i, got[i], w)
		}
	}
	if e.streamsOpened("/api/stream/broadcast/round/*") < 2 {
		t.Error("no reconnect happened")
	}
}

// The broadcast keep-alive is a single space, not a line: it must neither
// break the PGN that follows nor count as a game.
func TestBroadcastKeepAliveSpace(t *testing.T) {
	e := newEnv(t, envOpts{clock: true, client: lichess.Options{Token: fakelichess.WatchToken}})
	b := e.fake.Broadcast("round002")
	b.SetPGN(recordedText("broadcast-round.pgn"))
	col := newCollector[string]()
	done := run(t, func() error { return e.c.StreamBroadcastTour(e.ctx, "tour-round002", col.add) })
	col.waitLen(t, 1)
	for i := 0; i < 3; i++ {
		// the client's watchdog (3 min) and the fake's keep-alive (60 s) are armed
		if err := e.clk.WaitFor(e.ctx, func() bool {
			return hasTimerLeft(e.clk, lichess.SilenceBroadcast) && hasTimerLeft(e.clk, fakelichess.KeepAliveBroadcast)
		}); err != nil {
			t.Fatal(err)
		}
		e.clk.Advance(fakelichess.KeepAliveBroadcast)
	}
	if err := e.clk.WaitFor(e.ctx, func() bool { return hasTimerLeft(e.clk, lichess.SilenceBroadcast) }); err != nil {
		t.Fatal(err)
	}
	if err := b.AppendMove("5rsW2cRb", "Nf3"); err != nil {
		t.Fatal(err)
	}
	got := col.waitLen(t, 2)
	e.c.Close()
	if err := wait(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("stream: %v", err)
	}
	if !strings.HasPrefix(got[1], "[Event \"Knight Invitational\"]\n") || !strings.Contains(got[1], "2. Nf3 *") {
		t.Errorf("pgn after keep-alives: %q", got[1])
	}
	if n := e.streamsOpened("/api/stream/broadcast/tour/*"); n != 1 {
		t.Errorf("%d connections; keep-alives should have kept one", n)
	}
	_ = time.Second
}

// When a broadcast stream closes, Lichess is asked whether the round (or
// tournament) is over. A caller that stops while that question is in
// flight (the demo ending, Ctrl-C) has not seen a failure: no warning. The
// question is held by the fake until the caller has stopped.
func TestBroadcastCheckCutByStopIsQuiet(t *testing.T) {
	tests := []struct {
		name, check string
		stream      func(e *env, ctx context.Context, fn func(string) error) error
	}{
		{"round", "/api/broadcast/-/-/round004", func(e *env, ctx context.Context, fn func(string) error) error {
			return e.c.StreamBroadcastRound(ctx, "round004", fn)
		}},
		{"tour", "/api/broadcast/tour004", func(e *env, ctx context.Context, fn func(string) error) error {
			return e.c.StreamBroadcastTour(ctx, "tour004", fn)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{client: lichess.Options{Token: fakelichess.WatchToken}})
			b := e.fake.Broadcast("round004").SetTour("tour004")
			b.SetPGN(recordedText("broadcast-round.pgn"))
			ctx, cancel := context.WithCancel(e.ctx)
			defer cancel()
			col := newCollector[string]()
			done := run(t, func() error { return tc.stream(e, ctx, col.add) })
			col.waitLen(t, 1)
			hold := make(chan struct{})
			defer close(hold)
			e.fake.Inject(fakelichess.Fault{Path: tc.check, Hold: hold})
			checks := len(e.fake.RequestsTo("GET", tc.check))
			e.fake.KillStreams("broadcast")
			e.waitFor("the check", func() bool { return len(e.fake.RequestsTo("GET", tc.check)) > checks })
			cancel()
			if err := wait(t, done); !errors.Is(err, context.Canceled) {
				t.Errorf("stream: %v, want context.Canceled", err)
			}
			if logs := e.logs.String(); strings.Contains(logs, "level=WARN") {
				t.Errorf("a stop during the check is logged as a warning:\n%s", logs)
			}
		})
	}
}

// A broadcast stream Lichess closes while the round goes on is opened
// again (and resends nothing already delivered); once the round is
// finished, the stream ends.
func TestBroadcastStreamClosedWhileOngoing(t *testing.T) {
	tests := []struct {
		name   string
		stream func(e *env, fn func(string) error) error
	}{
		{"round", func(e *env, fn func(string) error) error { return e.c.StreamBroadcastRound(e.ctx, "round003", fn) }},
		{"tour", func(e *env, fn func(string) error) error { return e.c.StreamBroadcastTour(e.ctx, "tour003", fn) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{client: lichess.Options{Token: fakelichess.WatchToken}})
			b := e.fake.Broadcast("round003").SetTour("tour003")
			b.SetPGN(recordedText("broadcast-round.pgn"))
			col := newCollector[string]()
			done := run(t, func() error { return tc.stream(e, col.add) })
			col.waitLen(t, 1)
			e.fake.KillStreams("broadcast")
			e.waitFor("the reconnect", func() bool {
				return e.streamsOpened("/api/stream/broadcast/*/*") >= 2 && e.fake.Streams("broadcast") == 1
			})
			if err := b.AppendMove("5rsW2cRb", "Nf3"); err != nil {
				t.Fatal(err)
			}
			col.waitLen(t, 2)
			b.Finish()
			if err := wait(t, done); err != nil {
				t.Fatalf("stream: %v", err)
			}
			if n := len(col.all()); n != 2 {
				t.Errorf("%d PGNs delivered, want 2", n)
			}
		})
	}
}
