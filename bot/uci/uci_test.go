package uci_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/bot/uci"
	"github.com/threefold-chess/threefold/bot/uci/ucitest"
	"github.com/threefold-chess/threefold/internal/testenv"
)

func TestMain(m *testing.M) {
	ucitest.RunIfRequested(nil)
	os.Exit(m.Run())
}

// fake starts this test binary as a scripted engine.
func fake(t *testing.T, behavior string) uci.Config {
	t.Helper()
	path, err := ucitest.Script(t.TempDir(), behavior)
	if err != nil {
		t.Fatal(err)
	}
	return uci.Config{Path: path, Timeout: 5 * time.Second}
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		ok    bool
		want  uci.Line
		nodes int64
	}{
		{"cp with pv", "info depth 12 seldepth 15 multipv 2 score cp -35 nodes 12345 nps 1 pv e2e4 e7e5", true,
			uci.Line{MultiPV: 2, Depth: 12, Score: uci.Score{CP: -35}, PV: []string{"e2e4", "e7e5"}}, 12345},
		{"mate", "info depth 5 score mate 3 pv d1h5", true,
			uci.Line{MultiPV: 1, Depth: 5, Score: uci.Score{Mate: 3}, PV: []string{"d1h5"}}, 0},
		{"mated now", "info depth 0 score mate 0", true,
			uci.Line{MultiPV: 1, Depth: 0, Score: uci.Score{Mate: -1}}, 0},
		{"bound", "info depth 9 score cp 20 lowerbound nodes 5 pv g1f3", true,
			uci.Line{MultiPV: 1, Depth: 9, Score: uci.Score{CP: 20, Lower: true}, PV: []string{"g1f3"}}, 5},
		{"currmove", "info depth 9 currmove e2e4 currmovenumber 1", false, uci.Line{}, 0},
		{"string", "info string NNUE evaluation using nn.nnue score cp 3", false, uci.Line{}, 0},
		{"bad number", "info depth 3 score cp x", false, uci.Line{}, 0},
		{"not info", "bestmove e2e4", false, uci.Line{}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, nodes, ok := uci.ParseInfo(tc.line)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if got.MultiPV != tc.want.MultiPV || got.Depth != tc.want.Depth || got.Score != tc.want.Score ||
				strings.Join(got.PV, " ") != strings.Join(tc.want.PV, " ") || nodes != tc.nodes {
				t.Errorf("got %+v nodes %d, want %+v nodes %d", got, nodes, tc.want, tc.nodes)
			}
		})
	}
}

func TestFakeEngineSearch(t *testing.T) {
	ctx := context.Background()
	e, err := uci.Start(ctx, fake(t, "cp=250,name=Fakefish"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Name() != "Fakefish" {
		t.Errorf("name %q", e.Name())
	}
	if err := e.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(ctx, uci.Search{Moves: []string{"e2e4"}, MoveTime: 10 * time.Millisecond, SearchMoves: []string{"g8f6", "e7e5"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove != "g8f6" {
		t.Errorf("bestmove %q, want the first searchmove g8f6", res.BestMove)
	}
	if len(res.Lines) != 1 || res.Lines[0].Score.CP != 250 {
		t.Errorf("lines %+v", res.Lines)
	}
}

func TestCrashedEngineReportsExited(t *testing.T) {
	ctx := context.Background()
	e, err := uci.Start(ctx, fake(t, "crash=2"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Search(ctx, uci.Search{MoveTime: time.Millisecond}); err != nil {
		t.Fatalf("first search: %v", err)
	}
	_, err = e.Search(ctx, uci.Search{MoveTime: time.Millisecond})
	if !errors.Is(err, uci.ErrExited) {
		t.Fatalf("second search: err = %v, want ErrExited", err)
	}
	if !e.Exited() {
		t.Error("Exited() = false after the crash")
	}
	if _, err := e.Search(ctx, uci.Search{MoveTime: time.Millisecond}); !errors.Is(err, uci.ErrExited) {
		t.Errorf("search after crash: %v", err)
	}
}

func TestSilentEngineFailsHandshake(t *testing.T) {
	cfg := fake(t, "silent")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := uci.Start(ctx, cfg)
	if err == nil || !strings.Contains(err.Error(), "uciok") {
		t.Fatalf("err = %v, want a handshake error naming uciok", err)
	}
}

func TestCancelledSearchStopsEngine(t *testing.T) {
	e, err := uci.Start(context.Background(), fake(t, "hang,cp=7"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := e.Search(ctx, uci.Search{MoveTime: time.Hour})
	if err != nil {
		t.Fatalf("cancelled search: %v", err)
	}
	if res.BestMove != "e2e4" {
		t.Errorf("bestmove after stop %q", res.BestMove)
	}
	// The engine is still usable afterwards.
	if err := e.NewGame(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestMissingBinary(t *testing.T) {
	_, err := uci.Start(context.Background(), uci.Config{Path: filepath.Join(t.TempDir(), "no-such-engine")})
	if err == nil || !strings.Contains(err.Error(), "no-such-engine") {
		t.Fatalf("err = %v", err)
	}
}

func TestStockfishMultiPVAndSearchMoves(t *testing.T) {
	path := testenv.Stockfish(t)
	ctx := context.Background()
	e, err := uci.Start(ctx, uci.Config{Path: path, Options: map[string]string{"Threads": "1", "Hash": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// White to move mates in one with Qxf7#.
	fen := "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
	res, err := e.Search(ctx, uci.Search{FEN: fen, Depth: 6, MultiPV: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove != "h5f7" {
		t.Errorf("bestmove %q, want h5f7", res.BestMove)
	}
	if len(res.Lines) != 3 || res.Lines[0].Score.Mate != 1 {
		t.Errorf("lines %+v", res.Lines)
	}
	// Restricted to two quiet moves, the engine must pick one of them.
	res, err = e.Search(ctx, uci.Search{FEN: fen, Depth: 4, SearchMoves: []string{"a2a3", "h2h3"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove != "a2a3" && res.BestMove != "h2h3" {
		t.Errorf("searchmoves ignored: bestmove %q", res.BestMove)
	}
	if res.Lines[0].Score.Mate > 0 {
		t.Errorf("restricted search still claims mate: %+v", res.Lines[0])
	}
}

// TestStockfishChess960: a Chess960 search sets UCI_Chess960, so the
// engine reads castling as the king onto its rook (b1f1: the king jumps
// past the rook already on f1) and answers so; a standard search after it
// turns the option off again (e1g1).
func TestStockfishChess960(t *testing.T) {
	path := testenv.Stockfish(t)
	ctx := context.Background()
	e, err := uci.Start(ctx, uci.Config{Path: path, Options: map[string]string{"Threads": "1", "Hash": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, tc := range []struct {
		name     string
		chess960 bool
		fen      string
		castling string
	}{
		{"chess960", true, "r3k3/8/8/8/8/8/8/1K3R2 w F - 0 1", "b1f1"},
		{"standard again", false, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"},
		{"chess960 again", true, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1", "e1h1"},
	} {
		res, err := e.Search(ctx, uci.Search{FEN: tc.fen, Chess960: tc.chess960, Depth: 2, SearchMoves: []string{tc.castling}})
		if err != nil {
			t.Fatal(err)
		}
		if res.BestMove != tc.castling {
			t.Errorf("%s: bestmove %q, want %s", tc.name, res.BestMove, tc.castling)
		}
	}
}
