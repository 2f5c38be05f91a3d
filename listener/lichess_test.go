package listener

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

func newLichess(t *testing.T) (*fakelichess.Server, *lichess.Client) {
	t.Helper()
	srv := fakelichess.New(fakelichess.Options{})
	t.Cleanup(srv.Close)
	c := lichess.NewClient(lichess.Options{BaseURL: srv.URL, Logger: slog.New(slog.DiscardHandler),
		Backoff: lichess.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}})
	t.Cleanup(func() { c.Close() })
	return srv, c
}

// toUCI converts SAN moves from the start position to UCI.
func toUCI(t testing.TB, sans []string) []string {
	t.Helper()
	g := rules.NewGame(rules.StartPosition())
	out := make([]string, len(sans))
	for i, s := range sans {
		m, err := g.PlaySAN(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m.UCI()
	}
	return out
}

func TestLichessGameSourceReconnectNoDuplicates(t *testing.T) {
	srv, client := newLichess(t)
	uci := toUCI(t, anandMoves)
	sg := srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "abcdefgh", White: "Anand", Black: "Martin", Moves: uci[:40], Clock: true})
	// The first connection is cut after 20 lines: the client reconnects and
	// Lichess sends every position again.
	srv.Inject(fakelichess.Fault{Path: "/api/stream/game/abcdefgh", AfterLines: 20, Disconnect: true})
	c := newCollector()
	src := &LichessGameSource{Client: client, GameID: "abcdefgh", Base: "https://lichess.org"}
	done := make(chan error, 1)
	go func() { done <- src.Run(context.Background(), c.emit) }()
	c.waitFor(t, "the first snapshot", func(c *collector) bool { return len(c.snaps) > 0 })
	c.mu.Lock()
	first := c.snaps[0]
	c.mu.Unlock()
	if len(first.Moves) != 40-lichess.DelayPlies || first.Notation != rules.UCI || first.Game.White != "Anand" || first.DelayPlies != lichess.DelayPlies {
		t.Errorf("first snapshot: %d moves, notation %v, white %q, %d plies behind; want the game as Lichess shows it, 3 plies behind (37 UCI moves)",
			len(first.Moves), first.Notation, first.Game.White, first.DelayPlies)
	}
	if n := len(srv.RequestsTo("GET", "/api/stream/game/abcdefgh")); n < 2 {
		t.Errorf("%d stream requests, want a reconnect", n)
	}
	for _, m := range uci[40:] {
		if err := sg.Move(m); err != nil {
			t.Fatal(err)
		}
	}
	// 52 plies on the board, 49 on the stream: the last three come when
	// the game ends.
	c.waitFor(t, "ply 49", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 52-lichess.DelayPlies })
	sg.Finish("draw", "")
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	k := c.kinds("abcdefgh")
	if !slices.Equal(k[threefold.KindClaimByMove], []int{51}) || !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Errorf("alerts %v", k)
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicate alerts %v", d)
	}
	for _, a := range c.alerts {
		if a.Game.URL != "https://lichess.org/abcdefgh#"+fmt.Sprint(a.Ply) || a.DelayS != 0 || a.DelayPlies != lichess.DelayPlies || a.Audience != "" {
			t.Errorf("alert link %q delay %v s, %d plies, audience %q", a.Game.URL, a.DelayS, a.DelayPlies, a.Audience)
		}
	}
	last := c.snaps[len(c.snaps)-1]
	if !last.Finished || last.Result != "1/2-1/2" || last.DelayPlies != 0 {
		t.Errorf("last snapshot finished=%v result=%q, %d plies behind", last.Finished, last.Result, last.DelayPlies)
	}
	// The same game followed again (a restart): the same alert ids.
	c2 := newCollector()
	if err := (&LichessGameSource{Client: client, GameID: "abcdefgh", Base: "https://lichess.org"}).Run(context.Background(), c2.emit); err != nil {
		t.Fatal(err)
	}
	var ids1, ids2 []string
	for _, a := range c.alerts {
		ids1 = append(ids1, a.ID)
	}
	for _, a := range c2.alerts {
		ids2 = append(ids2, a.ID)
	}
	if !slices.Equal(ids1, ids2) {
		t.Errorf("alert ids after a restart %v, before %v", ids2, ids1)
	}
}

// TestLichessChess960Game follows a Chess960 game as Lichess describes it
// (variant chess960, the start in X-FEN; chess960SAN in UCI). The claim by
// declared move comes a ply before the first threefold.
func TestLichessChess960Game(t *testing.T) {
	srv, client := newLichess(t)
	moves := strings.Fields("h1g3 h8g6 g1h1 g8h8 h1g1 h8g8 g3h1 g6h8 h1g3 h8g6 g3h1 g6h8 h1g3 h8g6 g3h1 g6h8")
	srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "chess960", White: "A", Black: "B", Variant: "chess960",
		InitialFEN: chess960Start, Moves: moves}).Finish("draw", "")
	c := newCollector()
	if err := (&LichessGameSource{Client: client, GameID: "chess960"}).Run(context.Background(), c.emit); err != nil {
		t.Fatal(err)
	}
	if got := c.snaps[0].StartFEN; got != chess960StartShredder {
		t.Errorf("start %q, want the Chess960 start in Shredder-FEN", got)
	}
	checkChess960Alerts(t, c, "chess960")
	if k := c.kinds("chess960")[threefold.KindClaimByMove]; len(k) == 0 || k[0] != 13 {
		t.Errorf("claims by move at plies %v, want the first at 13", k)
	}
}

// TestLichessOtherVariantNotFollowed: a crazyhouse game is not followed,
// and the error says why.
func TestLichessOtherVariantNotFollowed(t *testing.T) {
	srv, client := newLichess(t)
	srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "zhgame01", White: "A", Black: "B", Variant: "crazyhouse", Moves: []string{"e2e4"}})
	c := newCollector()
	err := (&LichessGameSource{Client: client, GameID: "zhgame01"}).Run(context.Background(), c.emit)
	if err == nil || !strings.Contains(err.Error(), `"crazyhouse" is not supported: its repetition rule differs`) {
		t.Errorf("err = %v, want variant not supported", err)
	}
	if len(c.snaps) != 0 {
		t.Errorf("%d snapshots of a crazyhouse game", len(c.snaps))
	}
}

// A game under Lichess's 3-move delay that ends right after the third
// occurrence: the plies held back arrive when it ends, one line each or
// as a jump to the final position the client fills in from the export.
// Every alert is raised once, at its true ply, saying how far behind the
// source was; the final state is the whole game with its result (a
// decisive end whose winner Lichess does not name is "*", not a draw).
func TestLichessGameSourceUnderTheDelay(t *testing.T) {
	uci := toUCI(t, anandMoves)
	for _, row := range []struct {
		name           string
		jump           bool
		status, winner string
		wantResult     string
		wantBehind     []int // delay_plies of the alerts at 51 and 52
	}{
		{"released one line each", false, lichess.StatusDraw, "", "1/2-1/2", []int{3, 3}},
		{"a jump to the final position", true, lichess.StatusDraw, "", "1/2-1/2", []int{1, 0}},
		{"resigned, winner named", true, lichess.StatusResign, "white", "1-0", []int{1, 0}},
		{"resigned, no winner named", false, lichess.StatusResign, "", "*", []int{3, 3}},
	} {
		t.Run(row.name, func(t *testing.T) {
			srv, client := newLichess(t)
			sg := srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "delayed1", White: "Anand", Black: "Martin", Moves: uci[:30], ReleaseJump: row.jump})
			c := newCollector()
			done := make(chan error, 1)
			go func() {
				done <- (&LichessGameSource{Client: client, GameID: "delayed1"}).Run(context.Background(), c.emit)
			}()
			c.waitFor(t, "the first snapshot", func(c *collector) bool { return len(c.snaps) > 0 })
			for _, m := range uci[30:] {
				if err := sg.Move(m); err != nil {
					t.Fatal(err)
				}
			}
			c.waitFor(t, "ply 49", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 52-lichess.DelayPlies })
			if n := c.alertCount(); n != 0 {
				t.Fatalf("%d alerts before the game showed ply 51", n)
			}
			sg.Finish(row.status, row.winner)
			if err := <-done; err != nil {
				t.Fatalf("Run: %v", err)
			}
			k := c.kinds("delayed1")
			if !slices.Equal(k[threefold.KindClaimByMove], []int{51}) || !slices.Equal(k[threefold.KindThreefold], []int{52}) || len(c.alerts) != 2 {
				t.Fatalf("alerts %v, want claim by move at 51 and threefold at 52, once each", k)
			}
			if got := []int{c.alerts[0].DelayPlies, c.alerts[1].DelayPlies}; !slices.Equal(got, row.wantBehind) {
				t.Errorf("alerts %d and %d plies behind, want %v", got[0], got[1], row.wantBehind)
			}
			last := c.snaps[len(c.snaps)-1]
			if !last.Finished || len(last.Moves) != 52 || last.Result != row.wantResult || last.DelayPlies != 0 {
				t.Errorf("final snapshot: finished %v, %d moves, result %q, %d plies behind; want 52 moves, %q",
					last.Finished, len(last.Moves), last.Result, last.DelayPlies, row.wantResult)
			}
			for _, s := range c.snaps {
				if s.Delay != 0 {
					t.Fatalf("a snapshot with a delay of %s: Lichess's delay is in moves", s.Delay)
				}
			}
		})
	}
}

func TestLichessGameNotFound(t *testing.T) {
	_, client := newLichess(t)
	err := (&LichessGameSource{Client: client, GameID: "zzzzzzzz"}).Run(context.Background(), func(threefold.GameState) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v, want does not exist", err)
	}
}

func TestLichessUsersAndTV(t *testing.T) {
	srv, client := newLichess(t)
	uci := toUCI(t, anandMoves)
	ug := srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "usergame", White: "Alice", Black: "Bob", Moves: uci})
	srv.PublishGame(fakelichess.Summary{ID: "usergame", White: "alice", Black: "bob"})
	srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "tvgame01", White: "C", Black: "D", Moves: uci[:10]})
	srv.TV("blitz").Feature(`{"t":"featured","d":{"id":"tvgame01","orientation":"white","players":[],"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}}`)

	c := newCollector()
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		errs <- c.w.Run(ctx, &LichessUsersSource{Client: client, Users: []string{"alice", "bob"}},
			&LichessTVSource{Client: client, Channel: "blitz"})
	}()
	waitStatus := func(what string, cond func([]GameStatus) bool) {
		t.Helper()
		for i := 0; ; i++ {
			if cond(c.w.Status()) {
				return
			}
			if i > 3000 {
				t.Fatalf("gave up waiting for %s: %+v", what, c.w.Status())
			}
			time.Sleep(10 * time.Millisecond) // polling a condition, not a timed assertion
		}
	}
	// Each as far as Lichess shows it (3 plies short of the board), then
	// the user game to its end once it is over.
	waitStatus("both games", func(st []GameStatus) bool {
		return len(st) == 2 && st[0].Ply+st[1].Ply == 62-2*lichess.DelayPlies
	})
	ug.Finish(lichess.StatusDraw, "")
	waitStatus("the user game's end", func(st []GameStatus) bool {
		return len(st) == 2 && st[0].Ply+st[1].Ply == 62-lichess.DelayPlies
	})
	cancel()
	if err := <-errs; err != nil {
		t.Errorf("Run: %v", err)
	}
	if k := c.kinds("usergame"); !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Errorf("user game alerts %v", k)
	}
}

// corpusBroadcast turns the reference corpus into a broadcast round's PGN:
// every game gets a [GameURL]; the moves are numbered again.
func corpusBroadcast(t testing.TB, games []*pgn.Game, round string) (string, []string) {
	var b strings.Builder
	urls := make([]string, len(games))
	for i, g := range games {
		urls[i] = fmt.Sprintf("https://lichess.org/broadcast/corpus/round-1/%s/g%07d", round, i)
		fmt.Fprintf(&b, "[Event \"corpus\"]\n[White \"w%d\"]\n[Black \"b%d\"]\n[Result \"*\"]\n", i, i)
		blackFirst := false
		if fen, ok := g.StartFEN(); ok {
			fmt.Fprintf(&b, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen)
			blackFirst = strings.Fields(fen)[1] == "b"
		}
		fmt.Fprintf(&b, "[GameURL \"%s\"]\n\n", urls[i])
		b.WriteString(movetext(g.Moves, blackFirst))
		b.WriteString(" *\n\n")
	}
	return b.String(), urls
}

func movetext(moves []string, blackFirst bool) string {
	var b strings.Builder
	n := 1
	for i, m := range moves {
		white := (i%2 == 0) != blackFirst
		switch {
		case white:
			fmt.Fprintf(&b, "%d. ", n)
		case i == 0:
			fmt.Fprintf(&b, "%d... ", n)
		}
		b.WriteString(m + " ")
		if !white {
			n++
		}
	}
	return strings.TrimSpace(b.String())
}

// TestOracleBroadcastStream is the key correctness test: every game of the
// reference corpus goes through the fake broadcast PGN stream and the
// Lichess client, and every alert is compared with the reference.
func TestOracleBroadcastStream(t *testing.T) {
	onReferenceSets(t, func(t *testing.T, set refgames.Set) {
		oracle := set.Annotations(t)
		games := parseSet(t, set)
		srv, client := newLichess(t)
		round, urls := corpusBroadcast(t, games, "corpus01")
		b := srv.Broadcast("corpus01")
		b.SetPGN(round)
		b.Finish()
		log := newAlertLog()
		w := NewWatcher(WatcherOptions{Alert: log.add})
		src := &LichessBroadcastSource{Client: client, RoundID: "corpus01"}
		if err := w.Run(context.Background(), src); err != nil {
			t.Fatal(err)
		}
		log.check(t, oracle, func(i int) string { return BroadcastGameID(urls[i]) })
		for _, a := range log.all() {
			if a.Audience != threefold.AudienceArbiters || a.DelayS != LichessBroadcastDelay.Seconds() || a.Game.Site != "lichess" {
				t.Fatalf("broadcast alert %+v: want audience arbiters, delay 1h, site lichess", a)
			}
		}
	})
}

// TestBroadcastLiveMoveByMove follows games of the corpus as Lichess relays
// them: every move resends the game's whole PGN. Then a correction.
func TestBroadcastLiveMoveByMoveAndCorrection(t *testing.T) {
	srv, client := newLichess(t)
	b := srv.Broadcast("live0001")
	url := "https://lichess.org/broadcast/t/r/live0001/anand001"
	head := anandPGNHead + "[GameURL \"" + url + "\"]\n"
	b.SetPGN(pgnOf(head, anandMoves[:30], "*"))
	var logs bytes.Buffer
	c := newCollector()
	c.w.log = slog.New(slog.NewTextHandler(&logs, nil))
	src := &LichessBroadcastSource{Client: client, RoundID: "live0001"}
	stop := runSource(src, c.emit)
	c.waitFor(t, "the round", func(c *collector) bool { return len(c.snaps) == 1 })
	for _, m := range anandMoves[30:] {
		if err := b.AppendMove("anand001", m); err != nil {
			t.Fatal(err)
		}
	}
	c.waitFor(t, "ply 52", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 52 })
	if k := c.kinds("anand001"); !slices.Equal(k[threefold.KindThreefold], []int{52}) || !slices.Equal(k[threefold.KindClaimByMove], []int{51}) {
		t.Errorf("alerts %v: want them on game anand001, the chapter", k)
	}
	c.mu.Lock()
	if g := c.snaps[0].Game; g.ID != "anand001" || g.URL != url {
		t.Errorf("game %+v: want the chapter as id and the game's URL", g)
	}
	c.mu.Unlock()
	c.mu.Lock()
	perMove := len(c.snaps) - 1
	c.mu.Unlock()
	if perMove != 22 {
		t.Errorf("%d snapshots for 22 moves resent one by one", perMove)
	}
	// The relay operator corrects ply 44 (…Qf5 was …Qe7) and on: the
	// repetition is gone from the record; the watcher rebuilds and says so.
	corrected := append(append([]string(nil), anandMoves[:43]...), "Qe7", "Be4")
	b.SetPGN(pgnOf(head, corrected, "*"))
	c.waitFor(t, "the correction", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 45 })
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v", err)
	}
	st := c.w.Status()
	if len(st) != 1 || st[0].Rebuilds != 1 || st[0].Ply != 45 {
		t.Errorf("status %+v, want 1 rebuild at ply 45", st)
	}
	if !strings.Contains(logs.String(), "rebuilding") {
		t.Errorf("no rebuild log line")
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicates %v", d)
	}
}

func TestBroadcastNotFound(t *testing.T) {
	_, client := newLichess(t)
	for _, src := range []*LichessBroadcastSource{{Client: client, RoundID: "nosuch01"}, {Client: client, TourID: "nosuch02"}} {
		err := src.Run(context.Background(), func(threefold.GameState) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("%s: err = %v, want does not exist", src.Name(), err)
		}
	}
}

func TestBroadcastGameID(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{name: "a broadcast game", url: "https://lichess.org/broadcast/tata-steel-2026/round-5/AbCdEfGh/IjKlMnOp", want: "IjKlMnOp"},
		{name: "a mirror under a path", url: "http://127.0.0.1:8080/lichess/broadcast/t/r/live0001/anand001", want: "anand001"},
		{name: "a trailing slash", url: "https://lichess.org/broadcast/t/r/AbCdEfGh/IjKlMnOp/", want: "IjKlMnOp"},
		{name: "a game, not a broadcast", url: "https://lichess.org/abcdEFGH", want: "https://lichess.org/abcdEFGH"},
		{name: "a round, not a game", url: "https://lichess.org/broadcast/t/r/AbCdEfGh", want: "https://lichess.org/broadcast/t/r/AbCdEfGh"},
		{name: "not a URL", url: "%zz", want: "%zz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BroadcastGameID(tt.url); got != tt.want {
				t.Errorf("BroadcastGameID(%q) = %q, want %q", tt.url, got, tt.want)
			}
		})
	}
}

// TestBroadcastChess960 follows a Freestyle (Chess960) round as Lichess
// relays it: [Variant "Chess960"] and the start in [FEN] (X-FEN), moves
// chess960SAN. A crazyhouse board of the same round is not
// replayed, and the source says why.
func TestBroadcastChess960(t *testing.T) {
	srv, client := newLichess(t)
	b := srv.Broadcast("fs000001")
	head := func(id, variant, fen string) string {
		s := "[Event \"Freestyle\"]\n[White \"A\"]\n[Black \"B\"]\n[Variant \"" + variant + "\"]\n"
		if fen != "" {
			s += "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n"
		}
		return s + "[GameURL \"https://lichess.org/broadcast/t/r/fs000001/" + id + "\"]\n"
	}
	b.SetPGN(pgnOf(head("free0001", "Chess960", chess960Start), chess960SAN, "*") +
		pgnOf(head("zh000001", "Crazyhouse", ""), strings.Fields("e4 e5 Nf3"), "*"))
	c := newCollector()
	stop := runSource(&LichessBroadcastSource{Client: client, RoundID: "fs000001"}, c.emit)
	c.waitFor(t, "the round", func(c *collector) bool { return len(c.snaps) == 2 })
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v", err)
	}
	checkChess960Alerts(t, c, "free0001")
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.snaps {
		if s.Game.ID == "zh000001" && (len(s.Moves) != 0 || !strings.Contains(s.ReadError, `"Crazyhouse" is not supported`)) {
			t.Errorf("crazyhouse board: %d moves, read error %q", len(s.Moves), s.ReadError)
		}
	}
	if st := c.w.Status(); len(st) != 2 {
		t.Errorf("status %+v", st)
	}
}

// A single lichess.org/@/USER is followed whoever the user plays: its
// current game is asked for every CurrentGamePoll, the last (finished)
// game is not followed, an ongoing one is, from its start, under the
// 3-move delay; no games-by-users stream is opened for one user.
func TestLichessUserPlayingAnyone(t *testing.T) {
	srv, client := newLichess(t)
	shuffle := toUCI(t, []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5", "d4", "d5"})
	old := srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "oldgame1", White: "Alice", Black: "Carol", Moves: shuffle[:4]})
	old.Finish(lichess.StatusResign, "white")
	clk := clock.NewFake(time.Time{})
	c := newCollector()
	stop := runSource(&LichessUsersSource{Client: client, Users: []string{"alice"}, Clock: clk}, c.emit)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	// The first poll found the finished game only; the source waits.
	if err := clk.WaitTimer(ctx, CurrentGamePoll); err != nil {
		t.Fatal(err)
	}
	g := srv.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "newgame1", White: "Zed", Black: "Alice", Moves: shuffle})
	clk.Advance(CurrentGamePoll)
	// Twelve plies on the board, nine shown: the third occurrence at ply 8.
	c.waitFor(t, "the threefold alert", func(c *collector) bool { return len(c.alerts) > 0 })
	g.Finish(lichess.StatusDraw, "")
	c.waitFor(t, "the end of the game", func(c *collector) bool {
		n := len(c.snaps)
		return n > 0 && c.snaps[n-1].Finished && len(c.snaps[n-1].Moves) == len(shuffle)
	})
	if err := stop(); err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v", err)
	}
	if k := c.kinds("newgame1"); !slices.Equal(k[threefold.KindThreefold], []int{8}) {
		t.Errorf("alerts %v, want threefold at ply 8", k)
	}
	if a := c.alerts[0]; a.DelayPlies != lichess.DelayPlies {
		t.Errorf("alert %d plies behind, want %d", a.DelayPlies, lichess.DelayPlies)
	}
	if n := len(srv.RequestsTo(http.MethodGet, "/api/stream/game/oldgame1")); n > 0 {
		t.Errorf("the finished last game was followed (%d requests)", n)
	}
	if n := len(srv.RequestsTo(http.MethodPost, "/api/stream/games-by-users")); n > 0 {
		t.Errorf("%d games-by-users streams for a single user", n)
	}
	if n := len(srv.RequestsTo(http.MethodGet, "/api/user/alice/current-game")); n < 2 {
		t.Errorf("%d current-game requests, want at least 2", n)
	}
}
