package bot

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

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
