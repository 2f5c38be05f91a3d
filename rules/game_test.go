package rules

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestShuffleGameStaysSmall: 10,000 plies of knights going back and forth
// keep four positions, not one entry per ply, and no move list once
// DropMoves was called.
func TestShuffleGameStaysSmall(t *testing.T) {
	g := NewGame(StartPosition())
	g.DropMoves()
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	for i := 0; i < 10000; i++ {
		if _, err := g.PlayUCI(cycle[i%4]); err != nil {
			t.Fatalf("ply %d: %v", i+1, err)
		}
	}
	if g.Ply() != 10000 {
		t.Fatalf("Ply() = %d", g.Ply())
	}
	if len(g.seen) != 4 || cap(g.seen) > 32 || len(g.index) != minIndexSize {
		t.Fatalf("tracker keeps %d positions (capacity %d, index %d) for 4 distinct ones", len(g.seen), cap(g.seen), len(g.index))
	}
	if g.Moves() != nil {
		t.Fatalf("moves kept after DropMoves: %d", len(g.Moves()))
	}
	if g.Count() != 2501 || g.FivefoldPly() != 16 {
		t.Fatalf("count %d, fivefold at %d", g.Count(), g.FivefoldPly())
	}
}

// TestOccurrencesKept: every occurrence is listed up to the sixth; past
// it, the first five and the current one.
func TestOccurrencesKept(t *testing.T) {
	g := NewGame(StartPosition())
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	want := map[int][]int{
		8:  {0, 4, 8},
		20: {0, 4, 8, 12, 16, 20},
		28: {0, 4, 8, 12, 16, 28},
	}
	for i := 0; i < 28; i++ {
		g.PlayUCI(cycle[i%4])
		if w, ok := want[g.Ply()]; ok {
			if got := g.Occurrences(); !reflect.DeepEqual(got, w) {
				t.Errorf("ply %d: occurrences %v, want %v", g.Ply(), got, w)
			}
		}
	}
	if g.Count() != 8 {
		t.Errorf("count %d, want 8", g.Count())
	}
	pos := g.Position()
	m, _ := pos.ParseUCI("g1f3")
	if got, w := g.OccurrencesOf(m), []int{1, 5, 9, 13, 17, 25}; !reflect.DeepEqual(got, w) {
		t.Errorf("OccurrencesOf(Nf3) = %v, want %v", got, w)
	}
}

// TestIrreversibleMoveForgets: after a pawn move no earlier position is
// kept, and a long stretch gives its memory back.
func TestIrreversibleMoveForgets(t *testing.T) {
	// A stretch of many distinct positions: kings and knights wander.
	p, err := ParseFEN("4k3/p7/8/8/8/8/P7/N3K1N1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(p)
	var buf [256]Move
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		var quiet []Move
		for _, m := range g.pos.LegalMoves(buf[:0]) {
			if g.pos.board[m.From()].Type() != Pawn && !g.pos.IsCapture(m) {
				quiet = append(quiet, m)
			}
		}
		if len(quiet) == 0 {
			break
		}
		g.Play(quiet[rng.IntN(len(quiet))])
	}
	if len(g.seen) < 100 {
		t.Fatalf("only %d distinct positions; the walk is too short", len(g.seen))
	}
	pawn := "a2a3"
	if g.Turn() == Black {
		pawn = "a7a6"
	}
	if _, err := g.PlayUCI(pawn); err != nil {
		t.Fatal(err)
	}
	if len(g.seen) != 1 || cap(g.seen) > maxIdleSeen || len(g.index) != minIndexSize {
		t.Fatalf("after pawn moves: %d positions, capacity %d, index %d", len(g.seen), cap(g.seen), len(g.index))
	}
}

// TestVerdictFiftyMoves: the 50-move claim needs a game still going; at
// a mate or stalemate there is nothing to claim.
func TestVerdictFiftyMoves(t *testing.T) {
	for _, tc := range []struct {
		name, fen    string
		fifty, byMov bool
	}{
		{"clock at 100", "7k/8/6K1/8/8/8/8/6Q1 w - - 100 80", true, false},
		{"clock at 99, a quiet move completes it", "7k/8/6K1/8/8/8/8/6Q1 w - - 99 80", true, true},
		{"clock at 100, mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", false, false},
		{"clock at 120, stalemated", "7k/8/6QK/8/8/8/8/8 b - - 120 90", false, false},
		{"clock at 98", "7k/8/6K1/8/8/8/8/6Q1 w - - 98 80", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			v := NewGame(p).Verdict()
			if v.FiftyMoves != tc.fifty || v.FiftyMovesByMove != tc.byMov {
				t.Fatalf("FiftyMoves %v, by move %v; want %v, %v", v.FiftyMoves, v.FiftyMovesByMove, tc.fifty, tc.byMov)
			}
		})
	}
	// The clock reaches 100 with a mating move: no claim there.
	p, err := ParseFEN("7k/8/6K1/8/8/8/8/1Q6 w - - 99 80")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(p)
	if _, err := g.PlaySAN("Qb8#"); err != nil {
		t.Fatal(err)
	}
	if v := g.Verdict(); !v.Checkmate || v.FiftyMoves {
		t.Fatalf("after Qb8#: checkmate %v, FiftyMoves %v", v.Checkmate, v.FiftyMoves)
	}
}

// TestIndexBaseWraps: the index forgets a stretch by moving its base past
// the stretch's entries, and clears itself when the base grows too large;
// a game whose base starts just below that bound counts every position as
// a fresh game does, across many stretches (a knight shuffle between pawn
// moves), with claims and OccurrencesOf.
func TestIndexBaseWraps(t *testing.T) {
	fresh, wrapped := NewGame(StartPosition()), NewGame(StartPosition())
	wrapped.base = maxIndexBase - 3
	wrapped.Reset(StartPosition())
	shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}
	pawns := []string{"a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "h2h3", "h7h6"}
	var plies []string
	for i := 0; i < len(pawns); i += 2 {
		plies = append(plies, shuffle...)
		plies = append(plies, pawns[i], pawns[i+1])
	}
	wraps := 0
	for i, u := range plies {
		before := wrapped.base
		for _, g := range []*Game{fresh, wrapped} {
			if _, err := g.PlayUCI(u); err != nil {
				t.Fatalf("ply %d: %v", i+1, err)
			}
		}
		if wrapped.base < before {
			wraps++
		}
		if fresh.Count() != wrapped.Count() || !reflect.DeepEqual(fresh.Occurrences(), wrapped.Occurrences()) ||
			!reflect.DeepEqual(fresh.ClaimMoves(nil), wrapped.ClaimMoves(nil)) {
			t.Fatalf("ply %d: count %d, occurrences %v vs count %d, occurrences %v", i+1,
				fresh.Count(), fresh.Occurrences(), wrapped.Count(), wrapped.Occurrences())
		}
		pos := fresh.Position()
		for _, m := range pos.LegalMoves(nil) {
			if a, b := fresh.OccurrencesOf(m), wrapped.OccurrencesOf(m); !reflect.DeepEqual(a, b) {
				t.Fatalf("ply %d: OccurrencesOf(%s) %v vs %v", i+1, m, a, b)
			}
		}
	}
	if fresh.Count() != 1 || wraps == 0 {
		t.Fatalf("count %d, base cleared %d times", fresh.Count(), wraps)
	}
}

// TestShortStretchForgets: a short stretch (the usual case, whose table
// stays at its smallest) is forgotten at the next irreversible move too,
// not only the long stretch of TestIrreversibleMoveForgets: each pawn move
// or capture leaves one position, the current one.
func TestShortStretchForgets(t *testing.T) {
	g := NewGame(StartPosition())
	plies := []struct {
		uci          string
		irreversible bool
	}{
		{"e2e4", true}, {"e7e5", true}, {"g1f3", false}, {"b8c6", false},
		{"f1b5", false}, {"a7a6", true}, {"b5c6", true}, {"d7c6", true},
		{"e1g1", true}, {"f7f6", true}, {"d2d4", true}, {"e5d4", true},
		{"f3d4", true}, {"c6c5", true}, {"d4b3", false}, {"d8d1", true},
	}
	for i, p := range plies {
		if _, err := g.PlayUCI(p.uci); err != nil {
			t.Fatalf("ply %d %s: %v", i+1, p.uci, err)
		}
		if p.irreversible && len(g.seen) != 1 {
			t.Errorf("ply %d %s: %d positions kept after an irreversible move, want 1", i+1, p.uci, len(g.seen))
		}
		if len(g.index) != minIndexSize {
			t.Errorf("ply %d %s: index of %d entries, want the smallest (%d)", i+1, p.uci, len(g.index), minIndexSize)
		}
	}
	if g.Count() != 1 {
		t.Errorf("count %d after the last capture, want 1", g.Count())
	}
}
