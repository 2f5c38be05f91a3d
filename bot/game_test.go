package bot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// memAPI is an in-memory gameAPI that records what the bot sends. Unlike
// Lichess it never ends a game by itself, so a threefold can stay on the
// board and the claim path can be seen.
type memAPI struct {
	mu        sync.Mutex
	moves     []string // "e2e4" or "e2e4 offer"
	draws     []bool
	chats     []string
	takebacks []bool
	resign    int
}

func (m *memAPI) StreamBotGame(ctx context.Context, _ string, _ func(lichess.GameEvent) error) error {
	<-ctx.Done()
	return ctx.Err()
}

func (m *memAPI) Move(_ context.Context, _, uci string, offeringDraw bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if offeringDraw {
		uci += " offer"
	}
	m.moves = append(m.moves, uci)
	return nil
}

func (m *memAPI) Chat(_ context.Context, _, room, text string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.chats = append(m.chats, room+": "+text)
	return nil
}

func (m *memAPI) Draw(_ context.Context, _ string, accept bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.draws = append(m.draws, accept)
	return nil
}

func (m *memAPI) Resign(context.Context, string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.resign++
	return nil
}

func (m *memAPI) ClaimVictory(context.Context, string) error { return nil }

func (m *memAPI) ClaimDraw(context.Context, string) error { return nil }

func (m *memAPI) Takeback(_ context.Context, _ string, accept bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.takebacks = append(m.takebacks, accept)
	return nil
}

func newMemGame(api *memAPI, mover Mover, botColor rules.Color) *game {
	cfg := DefaultConfig()
	cfg.Chat.MinInterval = 0
	g := &game{id: "mem", me: "bot", api: api, cfg: &cfg, clock: clock.Real, log: discardLogger(),
		mover: mover, stop: make(chan struct{})}
	g.init()
	return g
}

func fullEvent(botColor rules.Color, moves string) lichess.GameEvent {
	white, black := lichess.GamePlayer{ID: "bot", Name: "Bot"}, lichess.GamePlayer{ID: "opp", Name: "Opp"}
	if botColor == rules.Black {
		white, black = black, white
	}
	return lichess.GameEvent{Type: lichess.GameEventFull, Full: &lichess.GameFull{ID: "mem", White: white, Black: black,
		InitialFEN: "startpos", Variant: lichess.Variant{Key: "standard"}, Clock: &lichess.GameClock{Initial: 300000},
		State: lichess.GameState{Moves: moves, WTime: 300000, BTime: 300000, Status: "started"}}}
}

// TestDrawYesExactlyWhenTheRuleAllows drives one game goroutine's logic
// with states in which a threefold is (or is not) on the board, against an
// API that never ends the game itself.
func TestDrawYesExactlyWhenTheRuleAllows(t *testing.T) {
	tests := []struct {
		name      string
		moves     string
		bot       rules.Color
		score     int
		wantDraw  bool
		wantMove  string // the move sent ("" none yet)
		wantClaim bool
	}{
		{"threefold on the board, bot to move and behind", shuffle + " " + shuffle, rules.White, -400, true, "", true},
		{"threefold on the board, bot ahead", shuffle + " " + shuffle, rules.White, 400, false, "*", false},
		{"threefold on the board, even", shuffle + " " + shuffle, rules.White, 0, false, "*", false},
		{"threefold, but the opponent to move", shuffle + " " + shuffle + " g1f3", rules.White, -400, false, "", false},
		{"threefold with black to move, bot black", shuffle + " " + shuffle + " g1f3", rules.Black, -400, true, "", true},
		{"a move makes the third occurrence", shuffle + " g1f3 g8f6 f3g1", rules.Black, -400, false, "f6g8 offer", true},
		{"second occurrence only", shuffle, rules.White, -400, false, "*", false},
		{"nothing repeated", "e2e4 e7e5", rules.White, -400, false, "*", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			api := &memAPI{}
			mover := &scriptedMover{score: tc.score, prefer: []string{"e2e4", "b1c3", "e7e5"}}
			g := newMemGame(api, mover, tc.bot)
			ctx := context.Background()
			g.handle(ctx, fullEvent(tc.bot, tc.moves))
			if got := len(api.draws) > 0; got != tc.wantDraw {
				t.Fatalf("draw/yes sent: %v, want %v", got, tc.wantDraw)
			}
			for _, d := range api.draws {
				if !d {
					t.Fatal("draw/no sent")
				}
			}
			switch {
			case tc.wantMove == "" && len(api.moves) != 0:
				t.Fatalf("moves sent %v, want none yet", api.moves)
			case tc.wantMove == "*" && (len(api.moves) != 1 || strings.HasSuffix(api.moves[0], "offer")):
				t.Fatalf("moves sent %v, want one without a draw offer", api.moves)
			case tc.wantMove != "" && tc.wantMove != "*" && (len(api.moves) != 1 || api.moves[0] != tc.wantMove):
				t.Fatalf("moves sent %v, want %s", api.moves, tc.wantMove)
			}
			if got := len(g.claims) > 0; got != tc.wantClaim {
				t.Fatalf("claims %+v, want a claim: %v", g.claims, tc.wantClaim)
			}
			if tc.wantDraw {
				// The claim did not end the game: after the wait the bot
				// plays on, offering a draw with its move, and claims no more.
				g.onTimer(ctx)
				if len(api.moves) != 1 || !strings.HasSuffix(api.moves[0], "offer") {
					t.Fatalf("after the claim wait: moves %v", api.moves)
				}
				g.handle(ctx, lichess.GameEvent{Type: lichess.GameEventState, State: &lichess.GameState{
					Moves: tc.moves + " " + strings.Fields(api.moves[0])[0], WTime: 300000, BTime: 300000, Status: "started"}})
				if len(api.draws) != 1 {
					t.Fatalf("draw/yes sent %d times", len(api.draws))
				}
			}
		})
	}
}

func TestTakebackRebuildsAndMovesAgain(t *testing.T) {
	api := &memAPI{}
	g := newMemGame(api, &Builtin{Seed: 1}, rules.White)
	ctx := context.Background()
	g.handle(ctx, fullEvent(rules.White, "e2e4 e7e5"))
	if len(api.moves) != 1 {
		t.Fatalf("moves %v", api.moves)
	}
	first := api.moves[0]
	// The opponent took back: the list is shorter and does not extend ours.
	g.handle(ctx, lichess.GameEvent{Type: lichess.GameEventState, State: &lichess.GameState{Moves: "e2e4 d7d5", WTime: 1, BTime: 1, Status: "started"}})
	if len(api.moves) != 2 || g.t.ply() != 2 {
		t.Fatalf("after the takeback: moves %v ply %d (first %s)", api.moves, g.t.ply(), first)
	}
}

// instantMover answers at once with the next move of a known game and a
// fixed score: what is left of a move's time is the bot's own work.
type instantMover struct {
	moves []rules.Move
	score int
}

func (m *instantMover) Name() string { return "instant" }
func (m *instantMover) Close() error { return nil }
func (m *instantMover) Search(_ context.Context, req SearchRequest) (SearchResult, error) {
	ply := req.Game.Ply()
	if ply >= len(m.moves) {
		pos := req.Game.Position()
		return SearchResult{Move: pos.LegalMoves(nil)[0], Score: m.score, By: "instant"}, nil
	}
	mv := m.moves[ply]
	if len(req.Restrict) > 0 && !containsMove(req.Restrict, mv) {
		mv = req.Restrict[0]
	}
	return SearchResult{Move: mv, Score: m.score, By: "instant"}, nil
}

// BenchmarkBotMoveOverhead measures the bot's own work per ply over a
// 200-ply game, without the engine's thinking: reading each state,
// extending the tracker, the notices, the repetition policy with its
// look-ahead (the bot is "ahead", the costly case) and sending the move.
func BenchmarkBotMoveOverhead(b *testing.B) {
	b.Run("log discarded", func(b *testing.B) { benchOverhead(b, discardLogger()) })
	b.Run("text log", func(b *testing.B) { benchOverhead(b, slog.New(slog.NewTextHandler(io.Discard, nil))) })
}

func benchOverhead(b *testing.B, log *slog.Logger) {
	game := longGame(b, 200)
	moves := game.Moves()
	ucis := make([]string, len(moves))
	for i, m := range moves {
		ucis[i] = m.UCI()
	}
	lists := make([]string, len(ucis)+1)
	for i := range lists {
		lists[i] = strings.Join(ucis[:i], " ")
	}
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		api := &memAPI{}
		g := newMemGame(api, &instantMover{moves: moves, score: 500}, rules.White)
		g.log = log
		g.cfg.Chat.Second.Room = "none" // the chat queue is not drained here
		g.cfg.Chat.Third.Room, g.cfg.Chat.Fifth.Room, g.cfg.Chat.Greeting.Room = "none", "none", "none"
		g.handle(ctx, fullEvent(rules.White, ""))
		for ply := 1; ply <= len(ucis); ply++ {
			g.handle(ctx, lichess.GameEvent{Type: lichess.GameEventState, State: &lichess.GameState{
				Moves: lists[ply], WTime: 300000, BTime: 300000, Status: "started"}})
		}
		if len(api.moves) != len(ucis)/2+1 {
			b.Fatalf("bot sent %d moves, want %d", len(api.moves), len(ucis)/2+1)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ucis)), "ns/ply")
}

// The chat transcript of a scripted game with two repetition cycles: one
// notice per cycle (not one per repeating ply), at most one line per room
// per interval, none after the end of the game but the goodbye, which says
// how it ended; a notice still waiting for its room when the game ends is
// dropped, one still true is sent late.
func TestChatTranscriptOfARepeatingGame(t *testing.T) {
	// Cycle A: the knights go out and back (ply 4 repeats the start, plies
	// 5 and 6 repeat too: one cycle). e4 e5 makes every earlier position
	// unreachable. Cycle B: the queens shuffle (ply 12 repeats ply 8, ply
	// 14 ply 10), and ply 16 is the third occurrence of ply 8: drawn.
	moves := strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 e2e4 e7e5 d1e2 d8e7 e2d1 e7d8 d1e2 d8e7 e2d1 e7d8")
	greeting := "player: Hi Opp! I am Bot and I watch every repetition (FIDE 9.2). Good luck!"
	cycleA := "spectator: After 2... Ng8 this position occurred the second time (plies 0, 4)."
	cycleB := "spectator: After 6... Qd8 this position occurred the second time (plies 8, 12)."
	goodbye := "player: Good game, Opp. Drawn by threefold repetition (plies 8, 12, 16)."
	tests := []struct {
		name        string
		waitAtPly12 bool // let the interval pass after ply 12
		want        []string
	}{
		// The clock moved on 2 s at ply 12: the player room is free for
		// the goodbye at once.
		{"a notice waiting for its room is sent while it holds", true, []string{greeting, cycleA, cycleB, goodbye}},
		// No time passed since the greeting: the goodbye waits 2 s.
		{"a notice still waiting at the end is dropped", false, []string{greeting, cycleA, goodbye}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			clk := clock.NewFake(time.Time{})
			api := &chatLog{memAPI: &memAPI{}, lines: make(chan string, 32)}
			var ms []rules.Move
			g0 := rules.NewGame(rules.StartPosition())
			for _, u := range moves {
				m, err := g0.PlayUCI(u)
				if err != nil {
					t.Fatal(err)
				}
				ms = append(ms, m)
			}
			cfg := DefaultConfig()
			cfg.Chat.MinInterval = 2 * time.Second
			g := &game{id: "mem", me: "bot", api: api, cfg: &cfg, clock: clk, log: discardLogger(),
				mover: &instantMover{moves: ms}, stop: make(chan struct{})}
			g.init()
			done := make(chan struct{})
			go func() { g.chat.run(ctx); close(done) }()
			var got []string
			expect := func(line string) {
				t.Helper()
				select {
				case l := <-api.lines:
					got = append(got, l)
					if l != line {
						t.Fatalf("chat line %q, want %q (so far %q)", l, line, got)
					}
				case <-ctx.Done():
					t.Fatalf("no chat line; want %q (so far %q)", line, got)
				}
			}
			state := func(n int, status string) {
				st := lichess.GameState{Moves: strings.Join(moves[:n], " "), WTime: 300000, BTime: 300000, Status: status}
				if n == 0 {
					ev := fullEvent(rules.White, "")
					ev.Full.White.Name, ev.Full.Black.Name = "Bot", "Opp"
					g.handle(ctx, ev)
					return
				}
				g.handle(ctx, lichess.GameEvent{Type: lichess.GameEventState, State: &st})
			}
			state(0, "started")
			expect(greeting)
			for n := 2; n < 16; n += 2 {
				state(n, "started")
				if n == 4 {
					expect(cycleA) // the spectator room was free
				}
				if n == 12 && tc.waitAtPly12 {
					if err := clk.WaitTimer(ctx, 2*time.Second); err != nil {
						t.Fatal(err)
					}
					clk.Advance(2 * time.Second)
					expect(cycleB)
				}
			}
			state(16, lichess.StatusDraw)
			if !tc.waitAtPly12 { // the goodbye waits for the player room's interval
				if err := clk.WaitTimer(ctx, 2*time.Second); err != nil {
					t.Fatal(err)
				}
				clk.Advance(2 * time.Second)
			}
			expect(goodbye)
			g.chat.close()
			<-done
			close(api.lines)
			for l := range api.lines {
				t.Errorf("more: %q", l)
			}
			for _, l := range got {
				if n := len([]rune(l)); n > ChatMaxLen+len("spectator: ") {
					t.Errorf("%d characters: %q", n, l)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("transcript %q, want %q", got, tc.want)
			}
		})
	}
}

// chatLog is a memAPI whose chat lines go to a channel.
type chatLog struct {
	*memAPI
	lines chan string
}

func (c *chatLog) Chat(_ context.Context, _, room, text string) error {
	c.lines <- room + ": " + text
	return nil
}

// resigningAPI refuses a resignation as Lichess does for a game that just
// ended.
type resigningAPI struct {
	*memAPI
}

func (resigningAPI) Resign(context.Context, string) error {
	return &lichess.APIError{Op: "resign mem", Status: 400, Message: "This game cannot be resigned"}
}

// A game that ends while the bot stops is not an error: the refusal of the
// resignation is logged as information.
func TestResignRefusedForAGameAlreadyOver(t *testing.T) {
	var logs strings.Builder
	g := newMemGame(&memAPI{}, &Builtin{Seed: 1}, rules.White)
	g.api = resigningAPI{&memAPI{}}
	g.log = slog.New(slog.NewTextHandler(&logs, nil))
	g.doResign(context.Background())
	if !strings.Contains(logs.String(), "level=INFO msg=\"resign refused: the game is already over\"") || strings.Contains(logs.String(), "WARN") {
		t.Errorf("log:\n%s", logs.String())
	}
}

// failingMoveAPI refuses every move, as Lichess does for a move sent too
// late.
type failingMoveAPI struct {
	*memAPI
	heldAtMove []bool
	g          *game
	fail       bool
}

func (a *failingMoveAPI) Move(ctx context.Context, id, uci string, offeringDraw bool) error {
	a.g.chat.mu.Lock()
	a.heldAtMove = append(a.heldAtMove, a.g.chat.held)
	a.g.chat.mu.Unlock()
	if a.fail {
		return &lichess.APIError{Op: "move", Status: 400, Message: "Not your turn, or game already over"}
	}
	return a.memAPI.Move(ctx, id, uci, offeringDraw)
}

// A move after which Lichess may end the game is sent with the chat held,
// so that no notice reaches the game after its end; an ordinary move is
// not; and the hold ends if the move is refused.
func TestMoveThatMayEndTheGameHoldsTheChat(t *testing.T) {
	tests := []struct {
		name     string
		fen      string // "startpos" or a FEN
		moves    string
		move     string
		offer    bool
		oppOffer bool
		want     bool
	}{
		{"an ordinary move", "startpos", "", "e2e4", false, false, false},
		{"an ordinary move offering a draw", "startpos", "e2e4", "e7e5", true, false, false},
		{"checkmate", "startpos", "f2f3 e7e5 g2g4", "d8h4", false, false, true},
		{"stalemate", "k7/8/8/1Q6/8/8/8/7K w - - 0 1", "", "b5b6", false, false, true},
		{"a dead position", "k7/8/8/8/8/8/1r6/K6N w - - 0 1", "", "a1b2", false, false, true},
		{"the hundredth reversible ply", "k7/8/8/8/8/8/8/KR6 w - - 99 80", "", "b1b2", false, false, true},
		{"the third occurrence with a draw offer", "startpos", shuffle + " g1f3 g8f6 f3g1", "f6g8", true, false, true},
		{"the third occurrence without one", "startpos", shuffle + " g1f3 g8f6 f3g1", "f6g8", false, false, false},
		{"the fifth occurrence", "startpos", strings.Repeat(shuffle+" ", 3) + "g1f3 g8f6 f3g1", "f6g8", false, false, true},
		{"offering a draw against the opponent's offer", "startpos", "e2e4", "e7e5", true, true, true},
	}
	for _, tc := range tests {
		for _, fail := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/refused=%v", tc.name, fail), func(t *testing.T) {
				api := &failingMoveAPI{memAPI: &memAPI{}, fail: fail}
				g := newMemGame(api.memAPI, &Builtin{Seed: 1}, rules.White)
				g.api, api.g = api, g
				tr, err := newTracker(tc.fen, "standard")
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := tr.sync(tc.moves, true); err != nil {
					t.Fatal(err)
				}
				g.t, g.oppOffer, g.full = tr, tc.oppOffer, fullEvent(rules.White, "").Full
				pos := tr.game.Position()
				g.color = pos.Turn()
				m, err := pos.ParseUCI(tc.move)
				if err != nil {
					t.Fatal(err)
				}
				d := Decision{Move: m, OfferDraw: tc.offer}
				if got := g.moveMayEnd(d); got != tc.want {
					t.Fatalf("moveMayEnd = %v, want %v", got, tc.want)
				}
				g.sendMove(context.Background(), d)
				if len(api.heldAtMove) != 1 || api.heldAtMove[0] != tc.want {
					t.Fatalf("chat held when the move was sent: %v, want [%v]", api.heldAtMove, tc.want)
				}
				g.chat.mu.Lock()
				heldAfter := g.chat.held
				g.chat.mu.Unlock()
				if want := tc.want && !fail; heldAfter != want {
					t.Fatalf("chat held after the move was %s: %v, want %v", map[bool]string{true: "refused", false: "sent"}[fail], heldAfter, want)
				}
			})
		}
	}
}
