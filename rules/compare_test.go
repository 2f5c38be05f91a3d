package rules_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/rules"
)

// identityFields returns the parts of a position's identity read from its
// FEN, independently of Key: placement, side to move, castling rights by
// rook file (Shredder-FEN, one letter per rook) and the en passant file.
func identityFields(p *rules.Position) [4]string {
	f := strings.Fields(p.ShredderFEN())
	return [4]string{f[0], f[1], f[2], f[3][:1]}
}

// wantDiff is the set of components that differ, read from the FEN fields.
func wantDiff(fa, fb [4]string) rules.Diff {
	var d rules.Diff
	for i, c := range []rules.Diff{rules.DiffPlacement, rules.DiffSideToMove, rules.DiffCastling, rules.DiffEnPassant} {
		if fa[i] != fb[i] {
			d |= c
		}
	}
	return d
}

// checkComparison checks one comparison of plies a and b of a game (ps
// holds the position at every ply) against what the positions say by
// themselves.
//
// With inGame, it compares them with CompareInGame, which says where
// castling rights were lost; otherwise with Compare, which is cheaper.
func checkComparison(t *testing.T, name string, ps []rules.Position, fields [][4]string, moves []rules.Move, a, b int, inGame bool) {
	t.Helper()
	pa, pb := &ps[a], &ps[b]
	c := rules.Compare(pa, pb)
	if inGame {
		var err error
		if c, err = rules.CompareInGame(ps[0], moves, a, b); err != nil {
			t.Fatalf("%s: plies %d,%d: %v", name, a, b, err)
		}
	}
	want := wantDiff(fields[a], fields[b])
	if c.Diff != want {
		t.Fatalf("%s: plies %d,%d: diff %v, want %v\n%s\n%s", name, a, b, c.Diff, want, pa.FEN(), pb.FEN())
	}
	if c.Same() != (pa.Key() == pb.Key()) {
		t.Fatalf("%s: plies %d,%d: same %v, keys equal %v", name, a, b, c.Same(), pa.Key() == pb.Key())
	}
	if c.Positions[0] != *pa || c.Positions[1] != *pb {
		t.Fatalf("%s: plies %d,%d: positions compared are not the plies'", name, a, b)
	}
	// Squares: exactly those whose occupant differs.
	var squares []rules.Square
	for s := rules.Square(0); s < 64; s++ {
		if pa.PieceAt(s) != pb.PieceAt(s) {
			squares = append(squares, s)
		}
	}
	if len(squares) != len(c.Squares) {
		t.Fatalf("%s: plies %d,%d: squares %v, want %v", name, a, b, c.Squares, squares)
	}
	for i, s := range squares {
		if sc := c.Squares[i]; sc.Square != s || sc.Pieces != [2]rules.Piece{pa.PieceAt(s), pb.PieceAt(s)} {
			t.Fatalf("%s: plies %d,%d: square %d = %+v, want %s", name, a, b, i, sc, s)
		}
	}
	// Castling: one entry per rook file in one Shredder field and not the
	// other, each lost between the two plies by a move of king or rook or
	// a capture on the rook's square.
	fa, fb := fields[a][2], fields[b][2]
	n := 0
	for _, l := range fa + fb {
		if l != '-' && strings.ContainsRune(fa, l) != strings.ContainsRune(fb, l) {
			n++
		}
	}
	if n != len(c.Castling) {
		t.Fatalf("%s: plies %d,%d: castling %+v, want %d rights (%s / %s)", name, a, b, c.Castling, n, fa, fb)
	}
	lo, hi := min(a, b), max(a, b)
	for _, r := range c.Castling {
		letter := rune('a' + r.Rook.File())
		if r.Color == rules.White {
			letter -= 'a' - 'A'
		}
		holder := []string{fa, fb}[r.HeldIn]
		if !strings.ContainsRune(holder, letter) {
			t.Fatalf("%s: plies %d,%d: right %+v not in the holder's field %q", name, a, b, r, holder)
		}
		if (r.HeldIn == 0) != (a < b) {
			t.Fatalf("%s: plies %d,%d: the later ply holds right %+v", name, a, b, r)
		}
		if !inGame {
			if r.LostPly != 0 {
				t.Fatalf("%s: plies %d,%d: Compare says where right %+v was lost", name, a, b, r)
			}
			continue
		}
		if r.LostPly <= lo || r.LostPly > hi || r.LostMove != moves[r.LostPly-1] {
			t.Fatalf("%s: plies %d,%d: right %+v lost outside the plies", name, a, b, r)
		}
		before, after := fields[r.LostPly-1][2], fields[r.LostPly][2]
		if !strings.ContainsRune(before, letter) || strings.ContainsRune(after, letter) {
			t.Fatalf("%s: right %c not lost at ply %d (%s -> %s)", name, letter, r.LostPly, before, after)
		}
		m := r.LostMove
		bp := &ps[r.LostPly-1]
		if mover := bp.PieceAt(m.From()); mover.Type() != rules.King && m.From() != r.Rook && m.To() != r.Rook {
			t.Fatalf("%s: right %c lost at ply %d by %s, neither king nor rook", name, letter, r.LostPly, m)
		}
	}
	// En passant: the legal captures on the e.p. square of a position
	// whose e.p. file the other has not.
	if (len(c.EnPassant) > 0) != c.Diff.Has(rules.DiffEnPassant) {
		t.Fatalf("%s: plies %d,%d: en passant %+v with diff %v", name, a, b, c.EnPassant, c.Diff)
	}
	for _, e := range c.EnPassant {
		p := []*rules.Position{pa, pb}[e.In]
		if e.Move.To() != p.EnPassant() || !p.IsLegal(e.Move) || p.PieceAt(e.Move.From()).Type() != rules.Pawn {
			t.Fatalf("%s: plies %d,%d: en passant %+v is not a legal capture in %s", name, a, b, e, p.FEN())
		}
	}
}

// checkGame compares every pair of plies with the same placement (the
// pairs that matter), every ply with the next and the one two further, and
// random pairs.
func checkGame(t *testing.T, name string, start rules.Position, moves []rules.Move, rng *rand.Rand) (pairs int) {
	t.Helper()
	ps := make([]rules.Position, 0, len(moves)+1)
	p := start
	ps = append(ps, p)
	for _, m := range moves {
		p.Play(m)
		ps = append(ps, p)
	}
	fields := make([][4]string, len(ps))
	byPlacement := map[string][]int{}
	for i := range ps {
		fields[i] = identityFields(&ps[i])
		byPlacement[fields[i][0]] = append(byPlacement[fields[i][0]], i)
	}
	for _, plies := range byPlacement {
		for i := range plies {
			for j := i + 1; j < len(plies); j++ {
				checkComparison(t, name, ps, fields, moves, plies[i], plies[j], true)
				checkComparison(t, name, ps, fields, moves, plies[j], plies[i], false)
				pairs += 2
			}
		}
	}
	for i := range ps {
		for _, d := range []int{1, 2} {
			if i+d < len(ps) {
				checkComparison(t, name, ps, fields, moves, i, i+d, false)
				pairs++
			}
		}
		checkComparison(t, name, ps, fields, moves, i, rng.IntN(len(ps)), false)
		pairs++
	}
	for range 3 {
		checkComparison(t, name, ps, fields, moves, rng.IntN(len(ps)), rng.IntN(len(ps)), true)
		pairs++
	}
	return pairs
}

// TestCompareReferenceGames: on the real games of testdata, "same" exactly
// when the keys are equal, and the reasons exactly the components that
// differ, each with the right details.
func TestCompareReferenceGames(t *testing.T) {
	games, _ := loadBenchGames(t)
	if testing.Short() {
		games = games[:50]
	}
	rng := rand.New(rand.NewPCG(15, 1))
	pairs, near := 0, 0
	for i, bg := range games {
		start := bg.position(t)
		g := rules.NewGame(start)
		for _, u := range bg.moves {
			if _, err := g.PlayUCI(u); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		pairs += checkGame(t, "reference game "+bg.start, start, g.Moves(), rng)
		near += countNear(start, g.Moves())
	}
	t.Logf("%d pairs compared, %d near repetitions", pairs, near)
}

// countNear counts the plies whose placement and side to move occurred
// before as another position.
func countNear(start rules.Position, moves []rules.Move) int {
	seen := map[[2]string]rules.Key{}
	n := 0
	p := start
	for i := -1; i < len(moves); i++ {
		if i >= 0 {
			p.Play(moves[i])
		}
		f := identityFields(&p)
		k := [2]string{f[0], f[1]}
		if old, ok := seen[k]; ok && old != p.Key() {
			n++
		}
		seen[k] = p.Key()
	}
	return n
}

// TestCompareRandomGames: the same property on generated games, standard
// and Chess960, that repeat placements often.
func TestCompareRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	games, near := 300, 0
	if testing.Short() {
		games = 60
	}
	for i := range games {
		start := rules.StartPosition()
		if i%3 == 2 {
			start, _ = rules.Chess960Start(rng.IntN(960))
		}
		moves := randgame.Shuffle(rng, start, 60+rng.IntN(100))
		checkGame(t, "random game", start, moves, rng)
		near += countNear(start, moves)
	}
	if near < games/10 {
		t.Errorf("only %d near repetitions in %d random games: the generator does not test what it should", near, games)
	}
}

// TestCompareFENs: positions that are not from one game.
func TestCompareFENs(t *testing.T) {
	fen := func(s string) rules.Position {
		p, err := rules.ParseFEN(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name   string
		a, b   string
		diff   string
		clocks bool
	}{
		{"same but the clocks", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 12 40", "same", true},
		{"side to move", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 b - - 0 1", "side_to_move", false},
		{"void right is no right", "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "same", false},
		{"e.p. square without a capture is no e.p.", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", "same", false},
		{"e.p. possible", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "en_passant", false},
		{"two e.p. files", "4k3/8/8/2pPp3/8/8/8/4K3 w - c6 0 1", "4k3/8/8/2pPp3/8/8/8/4K3 w - e6 0 1", "en_passant", false},
		{"castling and placement", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/R3K1R1 w Q - 0 1", "placement,castling", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := fen(tt.a), fen(tt.b)
			c := rules.Compare(&a, &b)
			if c.Diff.String() != tt.diff || c.ClocksDiffer != tt.clocks {
				t.Errorf("diff %v clocks %v, want %s %v", c.Diff, c.ClocksDiffer, tt.diff, tt.clocks)
			}
		})
	}
}
