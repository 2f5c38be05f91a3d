package rules_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// bruteNear returns, for the last position of ps, what NearRepetitions must
// say, found by looking at every earlier ply since the last pawn move or
// capture (stretch is its first ply).
func bruteNear(ps []rules.Position, stretch int) []rules.NearRepetition {
	cur := &ps[len(ps)-1]
	ck := cur.Key()
	byKey := map[rules.Key][]int{}
	var order []rules.Key
	for i := stretch; i < len(ps)-1; i++ {
		k := ps[i].Key()
		if k == ck || k.Diff(ck)&^(rules.DiffCastling|rules.DiffEnPassant) != 0 {
			continue
		}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	var out []rules.NearRepetition
	for _, k := range order {
		plies := byKey[k]
		n := len(plies)
		if n > 6 {
			plies = append(plies[:5:5], plies[n-1])
		}
		out = append(out, rules.NearRepetition{Plies: plies, Count: n, Diff: ck.Diff(k)})
	}
	return out
}

// checkNear plays moves from start and compares NearRepetitions with the
// brute force at every ply; it returns how many plies had one, and the
// components they differed in.
func checkNear(t *testing.T, name string, start rules.Position, moves []rules.Move) (int, rules.Diff) {
	t.Helper()
	g := rules.NewGame(start)
	ps := []rules.Position{start}
	stretch, found, kinds := 0, 0, rules.Diff(0)
	for ply := 0; ; ply++ {
		got, want := g.NearRepetitions(), bruteNear(ps, stretch)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: ply %d: NearRepetitions %v, want %v", name, ply, got, want)
		}
		if err := rules.CheckNotable(g); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) > 0 {
			found++
		}
		for _, n := range got {
			kinds |= n.Diff
		}
		if ply == len(moves) {
			return found, kinds
		}
		p := g.Position()
		if p.PieceAt(moves[ply].From()).Type() == rules.Pawn || p.IsCapture(moves[ply]) {
			stretch = ply + 1
		}
		if err := g.Play(moves[ply]); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, g.Position())
	}
}

// TestNearRepetitionsRandom: generated games that shuffle around double
// pushes and castling-right losses, standard and Chess960.
func TestNearRepetitionsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	games, found, kinds := 300, 0, rules.Diff(0)
	if testing.Short() {
		games = 60
	}
	for i := range games {
		start := rules.StartPosition()
		if i%3 == 2 {
			start, _ = rules.Chess960Start(rng.IntN(960))
		}
		n, k := checkNear(t, fmt.Sprintf("random game %d", i), start, randgame.Shuffle(rng, start, 60+rng.IntN(100)))
		found, kinds = found+n, kinds|k
	}
	if found < games/10 || kinds != rules.DiffCastling|rules.DiffEnPassant {
		t.Errorf("%d plies with a near repetition in %d games, differing in %v: the games do not test both kinds", found, games, kinds)
	}
}

// TestNearRepetitionsReferenceGames: the real games of the reference set
// (and of the shared data when THREEFOLD_CORPUS is set) agree with the
// brute force at every ply. (A game where an e.p. square kept after every
// double push changes the answer is not one of them: there the capture was
// never possible, and the positions are simply the same.)
func TestNearRepetitionsReferenceGames(t *testing.T) {
	sources := refgames.All[:1]
	if !testing.Short() {
		sources = refgames.All[:2]
	}
	refgames.Run(t, sources, func(t *testing.T, set refgames.Set) {
		games, err := pgn.ParseGames(set.Text(t))
		if err != nil {
			t.Fatal(err)
		}
		withNear := 0
		for i, pg := range games {
			tracker, _ := pg.Replay(nil) // a game that stops early is checked up to there
			if tracker == nil {
				continue
			}
			if n, _ := checkNear(t, fmt.Sprintf("%s game %d", set.Name, i), tracker.Start(), tracker.Moves()); n > 0 {
				withNear++
			}
		}
		t.Logf("%s: %d games, %d with a near repetition", set.Name, len(games), withNear)
		if withNear == 0 {
			t.Error("no near repetition at all")
		}
	})
}

// The position after 3.Ke1 has the placement of the start, with White to
// move, but White's castling rights are gone: a near repetition, not a
// repetition.
func ExampleGame_NearRepetitions() {
	g := rules.NewGame(mustFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))
	for _, mv := range []string{"Kf1", "Kf8", "Ke1", "Ke8"} {
		g.PlaySAN(mv)
	}
	for _, n := range g.NearRepetitions() {
		fmt.Println(n.Plies, n.Count, n.Diff)
	}
	fmt.Println(g.Count())
	// Output:
	// [0] 1 castling
	// 1
}

// TestNearRepetitionAfterCastling: castling loses castling rights but
// moves no pawn and captures nothing (its move goes king to own rook), so
// a later placement of before the castling is a near repetition.
func TestNearRepetitionAfterCastling(t *testing.T) {
	tests := []struct {
		name  string
		start string
		moves []string
	}{
		{"standard O-O, king and rook walk back", "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
			[]string{"O-O", "Kd8", "Kh2", "Ke8", "Kg3", "Kd8", "Rh1", "Ke8", "Kf2", "Kd8", "Ke1", "Ke8"}},
		{"standard O-O-O by Black", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
			[]string{"O-O-O", "Kf1", "Rd7", "Ke1", "Kd8", "Kf1", "Ke8", "Ke1", "Ra7", "Kf1", "Ra8", "Ke1"}},
		{"Chess960, king and rook side by side", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
			[]string{"O-O", "Kd8", "Rf2", "Kc8", "Kf1", "Kc7", "Rg2", "Kd7", "Rg1", "Ke8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := mustFEN(tt.start)
			g := rules.NewGame(start)
			var moves []rules.Move
			for _, san := range tt.moves {
				m, err := g.PlaySAN(san)
				if err != nil {
					t.Fatalf("%s: %v", san, err)
				}
				moves = append(moves, m)
			}
			if n, kinds := checkNear(t, tt.name, start, moves); n == 0 || kinds&rules.DiffCastling == 0 {
				t.Errorf("%d plies with a near repetition, differing in %v; want one in castling rights", n, kinds)
			}
		})
	}
}
