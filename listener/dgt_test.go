package listener

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/listener/dgttest"
	"github.com/threefold-chess/threefold/rules"
)

func TestDGTGameUpdate(t *testing.T) {
	italian := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"}
	with := func(extra ...string) []string { return append(append([]string(nil), italian...), extra...) }
	steps := []struct {
		name    string
		raw     []string
		want    []string
		changed bool
	}{
		{"start", italian[:2], italian[:2], true},
		{"the same list twice", italian[:2], italian[:2], false},
		{"several moves in one message", italian, italian, true},
		{"castling reported twice", with("O-O", "O-O"), with("O-O"), true},
		{"then the game goes on", with("O-O", "O-O", "Nf6"), with("O-O", "Nf6"), true},
		{"a takeback on the board", with("O-O"), with("O-O"), true},
		{"and another move instead", with("O-O", "d6"), with("O-O", "d6"), true},
		{"an impossible move is passed on", with("O-O", "d6", "Qxf9"), with("O-O", "d6", "Qxf9"), true},
	}
	g := newDGTGame("g", time.Time{}, "")
	for _, st := range steps {
		changed := g.update(st.raw, nil)
		if changed != st.changed || !slices.Equal(g.moves, st.want) {
			t.Errorf("%s: changed %v moves %v; want %v %v", st.name, changed, g.moves, st.changed, st.want)
		}
	}
}

// TestDGTGameClocks: the clock read with a list is the clock after its
// last ply; a correction keeps the clocks of the plies that stay.
func TestDGTGameClocks(t *testing.T) {
	c := func(w, b float64) *threefold.ClockReading { return &threefold.ClockReading{WhiteS: w, BlackS: b} }
	g := newDGTGame("g", time.Time{}, "")
	g.update([]string{"e4"}, c(5400, 5400))
	g.update([]string{"e4", "e5", "Nf3"}, c(5390, 5380))  // two plies at once: the first's clock is unknown
	g.update([]string{"e4", "e5", "Nc3"}, c(5385, 5380))  // the last corrected
	g.update([]string{"e4", "e5", "Nc3", "Nc3"}, c(1, 1)) // reported twice: nothing new
	want := []*threefold.ClockReading{c(5400, 5400), nil, c(5385, 5380)}
	if len(g.clocks) != len(want) {
		t.Fatalf("clocks %v, want %v", g.clocks, want)
	}
	for i := range want {
		if (g.clocks[i] == nil) != (want[i] == nil) || (want[i] != nil && *g.clocks[i] != *want[i]) {
			t.Errorf("clock after ply %d: %v, want %v", i+1, g.clocks[i], want[i])
		}
	}
}

func TestKingsResult(t *testing.T) {
	tests := []struct {
		name, placement, want string
		ok                    bool
	}{
		{"both on light squares", "8/8/8/3k4/4K3/8/8/8", "1-0", true},
		{"both on dark squares", "8/8/8/4K3/3k4/8/8/8", "0-1", true},
		{"one of each", "8/8/8/3kK3/8/8/8/8", "1/2-1/2", true},
		{"one king in the centre", "8/8/8/3k4/8/8/8/4K3", "", false},
		{"the start", startPlacement, "", false},
		{"not a board", "8/8", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := kingsResult(tt.placement); got != tt.want || ok != tt.ok {
				t.Errorf("kingsResult(%q) = %q, %v; want %q, %v", tt.placement, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// memKeeper is a StateKeeper in memory.
type memKeeper struct {
	mu    sync.Mutex
	data  []byte
	saves int
}

func (k *memKeeper) LoadState(context.Context) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.data), nil
}

func (k *memKeeper) SaveState(_ context.Context, b []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.data = slices.Clone(b)
	k.saves++
	return nil
}

// dgtStart is when the tests' LiveChess runs.
var dgtStart = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

// dgtHarness runs a DGT source against a fake LiveChess on a fake clock,
// feeding a collector and recording the boards' health.
type dgtHarness struct {
	t    *testing.T
	srv  *dgttest.Server
	clk  *clock.Fake
	col  *collector
	src  *DGTSource
	stop func() error

	mu       sync.Mutex
	boards   []threefold.BoardStatus
	boardsCh chan struct{}
}

func startDGT(t *testing.T, srv *dgttest.Server, clk *clock.Fake, col *collector, keeper StateKeeper, settle time.Duration) *dgtHarness {
	t.Helper()
	h := &dgtHarness{t: t, srv: srv, clk: clk, col: col, boardsCh: make(chan struct{}, 1)}
	h.src = &DGTSource{URL: srv.URL(), Clock: clk, Settle: settle, BoardsEvery: 30 * time.Second, OnBoards: func(b []threefold.BoardStatus) {
		h.mu.Lock()
		h.boards = b
		h.mu.Unlock()
		select {
		case h.boardsCh <- struct{}{}:
		default:
		}
	}}
	if keeper != nil {
		h.src.State = keeper
	}
	stop := runSource(h.src, col.emit)
	var once sync.Once
	var err error
	h.stop = func() error {
		once.Do(func() { err = stop() })
		return err
	}
	t.Cleanup(func() { h.stop() })
	return h
}

// waitBoards waits until cond holds over the boards' health.
func (h *dgtHarness) waitBoards(what string, cond func(map[string]threefold.BoardStatus) bool) {
	h.t.Helper()
	deadline := time.After(30 * time.Second) // a hang guard, not a timed assertion
	for {
		h.mu.Lock()
		m := map[string]threefold.BoardStatus{}
		for _, b := range h.boards {
			m[b.Serial] = b
		}
		h.mu.Unlock()
		if cond(m) {
			return
		}
		select {
		case <-h.boardsCh:
		case <-deadline:
			h.t.Fatalf("gave up waiting for %s; boards %+v", what, m)
		}
	}
}

// advance moves the fake clock on by d once some timer of exactly d is
// armed (the source has reached that wait).
func (h *dgtHarness) advance(d time.Duration) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard
	defer cancel()
	if err := h.clk.WaitTimer(ctx, d); err != nil {
		h.t.Fatalf("no wait of %s armed: %v", d, err)
	}
	h.clk.Advance(d)
}

// lastOf returns the last snapshot of every game, by id, and the ids in
// the order their first snapshot came.
func (c *collector) lastOf() (map[string]threefold.GameState, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	last := map[string]threefold.GameState{}
	var order []string
	for _, s := range c.snaps {
		if _, ok := last[s.Game.ID]; !ok {
			order = append(order, s.Game.ID)
		}
		last[s.Game.ID] = s
	}
	return last, order
}

func placementAfter(t *testing.T, start string, san ...string) string {
	t.Helper()
	pos, err := rules.ParseStart(start)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range san {
		m, err := pos.ParseSAN(tok)
		if err != nil {
			continue
		}
		pos.Play(m)
	}
	return strings.Fields(pos.FEN())[0]
}

func dgtHost(srv *dgttest.Server) string {
	h := strings.TrimPrefix(srv.URL(), "ws://")
	return h[:strings.Index(h, "/")]
}

// TestDGTFeed: LiveChess's first message after a subscription carries the
// pieces and the clock, no moves: a board set up at the start shows its
// game at once, a board in the middle of a game unknown to the source
// shows its pieces in its health and its game from its next list. Lists
// with moves reported twice or several at once, a LiveChess that goes away
// and comes back: one game, followed to the third occurrence, each alert
// once.
func TestDGTFeed(t *testing.T) {
	srv := dgttest.NewServer("1001", "1002")
	defer srv.Close()
	srv.Push("1001", anandMoves[:10]...)
	clk := clock.NewFake(dgtStart)
	c := newCollector()
	h := startDGT(t, srv, clk, c, nil, 0)
	host := dgtHost(srv)
	idAtStart := host + "/1002/20261129T180000Z"

	<-srv.Subscribed()
	<-srv.Subscribed()
	c.waitFor(t, "board 1002's game, at the start", func(c *collector) bool { return len(c.snaps) == 1 })
	if s := c.snaps[0]; s.Game.ID != idAtStart || len(s.Moves) != 0 || s.StartFEN != "" || s.Finished || s.Audience != threefold.AudienceArbiters {
		t.Fatalf("first snapshot %+v, want board 1002's game %s with no move", s, idAtStart)
	}
	want10 := placementAfter(t, "", anandMoves[:10]...)
	h.waitBoards("board 1001's pieces", func(b map[string]threefold.BoardStatus) bool {
		return b["1001"].Placement == want10 && b["1001"].Followed && b["1001"].Game == "" && b["1002"].Game == idAtStart
	})

	// The same list again (it is news now), moves twice and several at once.
	srv.Push("1001", anandMoves[:10]...)
	withDup := append(append([]string(nil), anandMoves[:20]...), anandMoves[19])
	withDup = append(withDup, anandMoves[20:44]...)
	srv.Push("1001", withDup...)
	id1 := host + "/1001/20261129T180000Z"
	c.waitFor(t, "ply 44", func(c *collector) bool {
		s := c.snaps[len(c.snaps)-1]
		return s.Game.ID == id1 && len(s.Moves) == 44
	})

	// LiveChess goes away and comes back; the game goes on to the
	// repetition.
	srv.DropConnections()
	h.advance(time.Second)
	<-srv.Subscribed()
	<-srv.Subscribed()
	srv.Push("1001", append(append([]string(nil), withDup...), anandMoves[44:]...)...)
	c.waitFor(t, "the threefold", func(c *collector) bool { return len(c.alerts) >= 2 })
	if k := c.kinds(id1); !slices.Equal(k[threefold.KindThreefold], []int{52}) || !slices.Equal(k[threefold.KindClaimByMove], []int{51}) {
		t.Errorf("alerts %v, want claim_by_move 51 and threefold 52", k)
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicate alerts %v", d)
	}
	if _, order := c.lastOf(); !slices.Equal(order, []string{idAtStart, id1}) {
		t.Errorf("games %v, want [%s %s]", order, idAtStart, id1)
	}
	for _, st := range c.w.Status() {
		if st.Attention != nil || st.Rebuilds != 0 {
			t.Errorf("status %+v: want no attention, no rebuild", st)
		}
	}
	if err := h.stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
}

// TestDGTNewGames: which lists are the board's game going on (a corrected
// first move, a takeback) and which are a new game (the board back at the
// start, another first move after a real game, a new start position); the
// game before a new one is reported finished.
func TestDGTNewGames(t *testing.T) {
	setUp := "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	tests := []struct {
		name        string
		start, next string
		first, then []string
		same        bool
	}{
		{"a corrected first move", "", "", []string{"e3"}, []string{"e4"}, true},
		{"a corrected first move after the reply", "", "", []string{"e3", "e5"}, []string{"e4", "e5"}, true},
		{"a takeback", "", "", anandMoves[:20], anandMoves[:18], true},
		{"the board back at the start", "", "", anandMoves[:20], []string{}, false},
		{"another game begun while unseen", "", "", anandMoves[:20], []string{"d4", "d5"}, false},
		{"a set-up position", "", setUp, []string{"e4"}, []string{"Kd2"}, false},
		{"the standard start written without clocks", "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", anandMoves[:4], anandMoves[:6], true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := dgttest.NewServer("7")
			defer srv.Close()
			clk := clock.NewFake(dgtStart)
			c := newCollector()
			h := startDGT(t, srv, clk, c, nil, 0)
			c.waitFor(t, "the game at the start", func(c *collector) bool { return len(c.snaps) == 1 })
			srv.SetStart("7", firstNonEmpty(tt.start, rules.StartFEN), tt.first...)
			c.waitFor(t, "the first list", func(c *collector) bool { return len(c.snaps) == 2 })
			clk.Advance(time.Minute) // a new game would be first seen a minute later
			srv.SetStart("7", firstNonEmpty(tt.next, rules.StartFEN), tt.then...)
			c.waitFor(t, "the next list", func(c *collector) bool { return len(c.snaps) >= 3 })
			h.stop()
			last, order := c.lastOf()
			host := dgtHost(srv)
			first, second := host+"/7/20261129T180000Z", host+"/7/20261129T180100Z"
			if tt.same {
				if !slices.Equal(order, []string{first}) || !slices.Equal(last[first].Moves, tt.then) || last[first].Finished {
					t.Errorf("games %v, last %+v: want one game going on with %v", order, last[first], tt.then)
				}
				return
			}
			if !slices.Equal(order, []string{first, second}) || !last[first].Finished || last[second].Finished ||
				!slices.Equal(last[first].Moves, tt.first) || len(last[second].Moves) != len(tt.then) || last[second].StartFEN != tt.next {
				t.Errorf("games %v: %+v then %+v; want the first finished with %v, the second from %q with %v",
					order, last[first], last[second], tt.first, tt.next, tt.then)
			}
		})
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestDGTSettle: a change is taken once it has stood for the hold; one
// LiveChess corrects within the hold is never seen and raises nothing; a
// correction after the hold withdraws what the corrected move raised.
func TestDGTSettle(t *testing.T) {
	const hold = 2500 * time.Millisecond
	srv := dgttest.NewServer("5")
	defer srv.Close()
	clk := clock.NewFake(dgtStart)
	c := newCollector()
	h := startDGT(t, srv, clk, c, nil, hold)
	id := dgtHost(srv) + "/5/20261129T180000Z"
	c.waitFor(t, "the game at the start", func(c *collector) bool { return len(c.snaps) == 1 })

	pushed := func(san []string) {
		t.Helper()
		srv.Push("5", san...)
		p := placementAfter(t, "", san...)
		h.waitBoards("the list pushed", func(b map[string]threefold.BoardStatus) bool { return b["5"].Placement == p })
	}
	// Up to ply 50, then …Qf5 misread as …Qg5 (ply 52 would repeat) and
	// corrected within the hold: only the correct list is taken.
	pushed(anandMoves[:50])
	h.advance(hold)
	c.waitFor(t, "ply 50", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 50 })
	misread := append(append([]string(nil), anandMoves[:51]...), "Qg5")
	pushed(misread)
	pushed(anandMoves[:51])
	if n := len(c.snaps); n != 2 {
		t.Fatalf("%d snapshots before the hold passed, want 2", n)
	}
	h.advance(hold)
	c.waitFor(t, "ply 51", func(c *collector) bool { return len(c.snaps) == 3 })
	if k := c.kinds(id); len(k) != 1 || !slices.Equal(k[threefold.KindClaimByMove], []int{51}) {
		t.Fatalf("alerts %v, want the claim at 51 only", k)
	}

	// Ply 52 (the third occurrence) taken, then LiveChess corrects it after
	// the hold: the threefold is withdrawn.
	pushed(anandMoves)
	h.advance(hold)
	c.waitFor(t, "the threefold", func(c *collector) bool { return len(c.alerts) == 2 })
	pushed(misread)
	h.advance(hold)
	c.waitFor(t, "the withdrawal", func(c *collector) bool { return len(c.alerts) == 3 })
	a := c.alerts[2]
	if a.Kind != threefold.KindWithdrawn || a.Withdraws != c.alerts[1].ID || a.WithdrawnKind != threefold.KindThreefold || a.Ply != 52 {
		t.Errorf("alert %+v, want the withdrawal of the threefold at 52", a)
	}
}

// TestDGTBoards: the list of boards is read again: a board added later is
// followed, one switched off or never activated is not, one LiveChess
// refuses is shown failing with LiveChess's message and asked again; the
// health says so.
func TestDGTBoards(t *testing.T) {
	srv := dgttest.NewServer("1", "2", "3")
	defer srv.Close()
	srv.SetState("2", "INACTIVE")
	srv.SetState("3", "")
	srv.Refuse("1", "EBoard 1 is in use by another client")
	clk := clock.NewFake(dgtStart)
	c := newCollector()
	h := startDGT(t, srv, clk, c, nil, 0)
	h.waitBoards("the first list", func(b map[string]threefold.BoardStatus) bool {
		return strings.Contains(b["1"].Failing, "EBoard 1 is in use by another client") && !b["1"].Followed &&
			b["2"].Failing == "switched off in LiveChess (INACTIVE)" && !b["2"].Followed &&
			b["3"].Failing == "not activated in LiveChess" && !b["3"].Followed
	})
	// Board 1 is free again, board 4 is added, board 3 is activated.
	srv.Refuse("1", "")
	srv.AddBoard("4")
	srv.SetState("3", "DELAYED")
	h.advance(30 * time.Second)
	h.waitBoards("the second list", func(b map[string]threefold.BoardStatus) bool {
		return b["1"].Healthy() && b["4"].Healthy() && b["3"].Followed && b["3"].State == "DELAYED" && !b["3"].Healthy() &&
			b["1"].Game != "" && b["4"].Game != ""
	})
	// Board 2 leaves the list: forgotten.
	srv.RemoveBoard("2")
	h.advance(30 * time.Second)
	h.waitBoards("the third list", func(b map[string]threefold.BoardStatus) bool { _, ok := b["2"]; return !ok })
}

// TestDGTRestartKeepsGameIDs: a restarted threefold keeps the ids of the
// games on the boards (kept with the source's state): the game in progress
// shows at once from the first message, and goes on under its id; a new
// game on a board is a new id, so nothing it raises is taken for what an
// earlier game raised.
func TestDGTRestartKeepsGameIDs(t *testing.T) {
	srv := dgttest.NewServer("9")
	defer srv.Close()
	clk := clock.NewFake(dgtStart)
	keeper := &memKeeper{}
	stored := map[string]bool{} // the store's alerts: an id stored is not reported again
	var reported []threefold.Alert
	newRun := func() *collector {
		c := newCollector()
		c.w = NewWatcher(WatcherOptions{Alert: func(a threefold.Alert) {
			if !stored[a.ID] {
				stored[a.ID] = true
				reported = append(reported, a)
			}
			c.mu.Lock()
			c.alerts = append(c.alerts, a)
			c.mu.Unlock()
		}})
		return c
	}
	// Run 1: game A to its third occurrence; then the board is set up again
	// and game B begins.
	c := newRun()
	h := startDGT(t, srv, clk, c, keeper, 0)
	c.waitFor(t, "game A at the start", func(c *collector) bool { return len(c.snaps) == 1 })
	srv.Push("9", anandMoves...)
	c.waitFor(t, "game A's threefold", func(c *collector) bool { return len(c.alerts) == 2 })
	clk.Advance(time.Hour)
	srv.Push("9")
	srv.Push("9", anandMoves[:48]...)
	c.waitFor(t, "game B at ply 48", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 48 })
	h.stop()
	_, order := c.lastOf()
	host := dgtHost(srv)
	gameA, gameB := host+"/9/20261129T180000Z", host+"/9/20261129T190000Z"
	if !slices.Equal(order, []string{gameA, gameB}) {
		t.Fatalf("run 1 games %v, want [%s %s]", order, gameA, gameB)
	}

	// Run 2: game B shows at once, under its id, and goes on to the same
	// repetition as game A: its alerts are its own, none suppressed.
	clk.Advance(time.Hour)
	c = newRun()
	h = startDGT(t, srv, clk, c, keeper, 0)
	c.waitFor(t, "game B from the first message", func(c *collector) bool { return len(c.snaps) == 1 })
	if s := c.snaps[0]; s.Game.ID != gameB || len(s.Moves) != 48 {
		t.Fatalf("first snapshot of run 2: %s with %d plies, want %s with 48", s.Game.ID, len(s.Moves), gameB)
	}
	srv.Push("9", anandMoves...)
	c.waitFor(t, "game B's threefold", func(c *collector) bool { return len(c.alerts) == 2 })
	h.stop()
	var got []string
	for _, a := range reported {
		got = append(got, a.Game.ID+" "+string(a.Kind))
	}
	want := []string{gameA + " claim_by_move", gameA + " threefold", gameB + " claim_by_move", gameB + " threefold"}
	if !slices.Equal(got, want) {
		t.Errorf("alerts reported\n%v\nwant\n%v", got, want)
	}
}

// TestDGTSetUpPosition: a board whose game starts from a set-up position
// (LiveChess's start) is replayed from it.
func TestDGTSetUpPosition(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
	srv := dgttest.NewServer("3")
	defer srv.Close()
	clk := clock.NewFake(dgtStart)
	c := newCollector()
	h := startDGT(t, srv, clk, c, nil, 0)
	c.waitFor(t, "the game at the start", func(c *collector) bool { return len(c.snaps) == 1 })
	// The rook and the king go to and fro. Ra2 loses the queenside right
	// for good, so the set-up position never recurs; the position after
	// 1.Ra2 (ply 1) does, at plies 5 and 9.
	moves := []string{"Ra2", "Kd8", "Ra1", "Ke8", "Ra2", "Kd8", "Ra1", "Ke8", "Ra2", "Kd8"}
	srv.SetStart("3", fen, moves...)
	c.waitFor(t, "the set-up game", func(c *collector) bool { return len(c.alerts) > 0 && len(c.snaps) >= 3 })
	h.stop()
	last, order := c.lastOf()
	g := last[order[len(order)-1]]
	if g.StartFEN != fen || len(g.Moves) != len(moves) {
		t.Fatalf("game %+v, want it from %q with %d moves", g, fen, len(moves))
	}
	if k := c.kinds(g.Game.ID); !slices.Equal(k[threefold.KindThreefold], []int{9, 10}) {
		t.Errorf("alerts %v, want third occurrences at plies 9 (after 1.Ra2) and 10 (after 1...Kd8)", k)
	}
}

// TestDGTChess960Start: a board set up for Freestyle (LiveChess's start
// in X-FEN, the king on c1 between its rooks) is a Chess960 game: its
// castling rights hold, so the rooks' steps aside lose them (chess960SAN).
func TestDGTChess960Start(t *testing.T) {
	srv := dgttest.NewServer("3")
	defer srv.Close()
	clk := clock.NewFake(dgtStart)
	c := newCollector()
	h := startDGT(t, srv, clk, c, nil, 0)
	c.waitFor(t, "the game at the start", func(c *collector) bool { return len(c.snaps) == 1 })
	moves := chess960SAN
	srv.SetStart("3", chess960Start, moves...)
	c.waitFor(t, "the Freestyle game", func(c *collector) bool {
		return len(c.snaps) >= 2 && len(c.snaps[len(c.snaps)-1].Moves) == len(moves)
	})
	h.stop()
	last, order := c.lastOf()
	g := last[order[len(order)-1]]
	if g.StartFEN != chess960StartShredder {
		t.Errorf("start %q, want the Chess960 start in Shredder-FEN", g.StartFEN)
	}
	checkChess960Alerts(t, c, g.Game.ID)
}

func TestDGTNormalStart(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"the standard start", rules.StartFEN, ""},
		{"the standard start in Shredder-FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", ""},
		{"a standard position", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"},
		{"a standard position in Shredder-FEN", "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"},
		{"a Chess960 start in X-FEN", chess960Start, chess960StartShredder},
		{"rooks in the corners, the king on b1", "rkbbqnnr/pppppppp/8/8/8/8/PPPPPPPP/RKBBQNNR w KQkq - 0 1", "rkbbqnnr/pppppppp/8/8/8/8/PPPPPPPP/RKBBQNNR w HAha - 0 1"},
		{"a Chess960 position without rights", "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w - - 0 1", "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w - - 0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := normalStart(tc.in); got != tc.want {
				t.Errorf("normalStart(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestDGTArbiterView: what the arbiter sees beside an alert: the board's
// number and players from LiveChess's tournament, the clocks at each
// occurrence; and games that end: kings put in the centre (the king
// LiveChess reads as a move is dropped), a result entered in LiveChess.
func TestDGTArbiterView(t *testing.T) {
	srv := dgttest.NewServer("11", "12")
	defer srv.Close()
	srv.SetTournaments(dgttest.Tournament{UUID: "t-1", Name: "Club championship", Boards: []string{"12", "11"},
		Rounds: []dgttest.Round{
			{Pairings: []dgttest.Pairing{{White: dgttest.Player{Last: "Old"}, Black: dgttest.Player{Last: "Round"}, Result: "DRAW"}}},
			{Pairings: []dgttest.Pairing{
				{White: dgttest.Player{First: "Judit", Last: "Polgar"}, Black: dgttest.Player{First: "Viswanathan", Last: "Anand"}, Live: true},
				{White: dgttest.Player{First: "Viswanathan", Last: "Anand"}, Black: dgttest.Player{First: "Roberto", Middle: "J.", Last: "Martin del Campo"}, Live: true},
			}}}},
		// Last month's event, on the same boards the other way round, over:
		// its numbers do not count.
		dgttest.Tournament{UUID: "t-0", Name: "Autumn open", Boards: []string{"11", "12"},
			Rounds: []dgttest.Round{{Pairings: []dgttest.Pairing{{White: dgttest.Player{Last: "Past"}, Result: "WHITEWIN"}}}}})
	clk := clock.NewFake(dgtStart)
	c := newCollector()
	h := startDGT(t, srv, clk, c, nil, 0)
	h.waitBoards("the boards' numbers", func(b map[string]threefold.BoardStatus) bool {
		return b["12"].Board == 1 && b["11"].Board == 2 && b["11"].Game != ""
	})
	// Board 2 (serial 11): the game to its third occurrence, the clock
	// read with every move.
	for i := 1; i <= len(anandMoves); i++ {
		srv.SetClock("11", dgttest.Clock{White: 5400 - 10*i, Black: 5400 - 10*i})
		srv.Push("11", anandMoves[:i]...)
		c.waitFor(t, "the move", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == i })
	}
	c.waitFor(t, "the threefold", func(c *collector) bool { return len(c.alerts) == 2 })
	for _, a := range c.alerts {
		if a.Game.White != "Anand, Viswanathan" || a.Game.Black != "Martin del Campo, Roberto J." || a.Game.Board != 2 {
			t.Errorf("alert game %+v: want board 2, Anand - Martin del Campo", a.Game)
		}
		if a.Kind != threefold.KindThreefold {
			continue
		}
		if len(a.OccurrenceClocks) != 3 {
			t.Fatalf("clocks %v, want one per occurrence %v", a.OccurrenceClocks, a.Occurrences)
		}
		for i, p := range a.Occurrences {
			if cl := a.OccurrenceClocks[i]; cl == nil || cl.WhiteS != float64(5400-10*p) {
				t.Errorf("clock at ply %d: %+v, want %d s", p, cl, 5400-10*p)
			}
		}
	}
	// The next game on board 2: the kings go to the centre, on light
	// squares: 1-0. LiveChess read the first (a legal king move, Ke4) as a
	// move.
	srv.Push("11")
	walk := []string{"e3", "e6", "Ke2", "Ke7", "Kf3", "Kf6"}
	srv.Push("11", walk...)
	c.waitFor(t, "the next game", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == len(walk) })
	srv.SetPieces("11", "rnbq1bnr/pppp1ppp/4p3/3k4/4K3/4P3/PPPP1PPP/RNBQ1BNR", append(walk, "Ke4")...)
	c.waitFor(t, "the result", func(c *collector) bool { return c.snaps[len(c.snaps)-1].Finished })
	if s := c.snaps[len(c.snaps)-1]; s.Result != "1-0" || !slices.Equal(s.Moves, walk) {
		t.Errorf("final state: result %q, moves %v; want 1-0 and %v", s.Result, s.Moves, walk)
	}
	// Board 1 (serial 12): a result entered in LiveChess ends its game.
	srv.Push("12", "d4", "d5")
	c.waitFor(t, "board 1's moves", func(c *collector) bool { return len(c.snaps[len(c.snaps)-1].Moves) == 2 })
	srv.SetTournaments(dgttest.Tournament{UUID: "t-1", Name: "Club championship", Boards: []string{"12", "11"},
		Rounds: []dgttest.Round{{}, {Pairings: []dgttest.Pairing{
			{White: dgttest.Player{First: "Judit", Last: "Polgar"}, Black: dgttest.Player{First: "Viswanathan", Last: "Anand"}, Live: true, Result: "BLACKWIN"},
			{Live: true, Result: "WHITEWIN"}}}}})
	h.advance(30 * time.Second)
	c.waitFor(t, "board 1's result", func(c *collector) bool {
		s := c.snaps[len(c.snaps)-1]
		return s.Game.Board == 1 && s.Finished
	})
	if s := c.snaps[len(c.snaps)-1]; s.Result != "0-1" || s.Game.White != "Polgar, Judit" {
		t.Errorf("board 1's final state %+v, want 0-1, Polgar - Anand", s)
	}
}
