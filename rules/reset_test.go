package rules_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/rules"
)

// TestResetIsNewGame: one Game Reset for game after game (standard and
// Chess960, with many repetitions, fifth occurrences among them) answers at
// every ply exactly as a new Game does, and once warmed up a reset and a
// replay allocate nothing (in a game where no near repetition is possible:
// those are indexed in a map).
func TestResetIsNewGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	reused := rules.NewGame(rules.StartPosition())
	fivefolds := 0
	for i := range 150 {
		start := rules.StartPosition()
		if i%3 == 2 {
			start, _ = rules.Chess960Start(rng.IntN(960))
		}
		moves := randgame.Shuffle(rng, start, 20+rng.IntN(200))
		reused.Reset(start)
		fresh := rules.NewGame(start)
		seen := map[rules.Key]int{start.Key(): 1} // the oracle: occurrences by Key
		fivefold := -1
		for ply, m := range moves {
			if err := reused.Play(m); err != nil {
				t.Fatalf("game %d ply %d: %v", i, ply+1, err)
			}
			fresh.Play(m)
			p := fresh.Position()
			seen[p.Key()]++
			if seen[p.Key()] == 5 && fivefold < 0 {
				fivefold = ply + 1
			}
			if fresh.Count() != seen[p.Key()] || fresh.FivefoldPly() != fivefold {
				t.Fatalf("game %d ply %d: count %d, fifth occurrence at %d; want %d and %d", i, ply+1, fresh.Count(), fresh.FivefoldPly(), seen[p.Key()], fivefold)
			}
			if reused.Count() != fresh.Count() || !slices.Equal(reused.Occurrences(), fresh.Occurrences()) ||
				!slices.Equal(reused.ClaimMoves(nil), fresh.ClaimMoves(nil)) || reused.FivefoldPly() != fresh.FivefoldPly() ||
				reused.Position() != fresh.Position() || reused.Start() != fresh.Start() || !slices.Equal(reused.Moves(), fresh.Moves()) ||
				!reflect.DeepEqual(reused.NearRepetitions(), fresh.NearRepetitions()) {
				t.Fatalf("game %d ply %d: the reset game differs from a new one: count %d/%d, occurrences %v/%v, fivefold %d/%d",
					i, ply+1, reused.Count(), fresh.Count(), reused.Occurrences(), fresh.Occurrences(), reused.FivefoldPly(), fresh.FivefoldPly())
			}
		}
		if fresh.FivefoldPly() >= 0 {
			fivefolds++
		}
	}
	if fivefolds < 10 {
		t.Fatalf("only %d games with a fifth occurrence: the test does not test what it should", fivefolds)
	}

	// Pawn moves, captures and a long shuffle of knights: no en passant
	// capture ever possible, so no near repetition to index either.
	var moves []rules.Move
	p := rules.StartPosition()
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f3e5", "c6e5", "d2d4", "e5c6"}
	for range 70 {
		line = append(line, "b1c3", "g8f6", "c3b1", "f6g8")
	}
	for _, u := range line {
		m, err := p.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		moves = append(moves, m)
	}
	reused.DropMoves()
	allocs := testing.AllocsPerRun(20, func() {
		reused.Reset(rules.StartPosition())
		for _, m := range moves {
			reused.Play(m)
		}
	})
	if allocs != 0 {
		t.Fatalf("a reset and a replay of %d plies allocate %.1f times, want 0", len(moves), allocs)
	}

	// The same game as scan plays it: SAN, the claim check after every
	// ply, the status at the end.
	var sans []string
	p = rules.StartPosition()
	for _, m := range moves {
		sans = append(sans, p.SAN(m))
		p.Play(m)
	}
	allocs = testing.AllocsPerRun(20, func() {
		reused.Reset(rules.StartPosition())
		for _, s := range sans {
			if _, err := reused.PlaySAN(s); err != nil {
				t.Fatal(err)
			}
			reused.CanClaimRepetition()
		}
		end := reused.Position()
		end.Status()
	})
	if allocs != 0 {
		t.Fatalf("a reset and a replay of %d plies from SAN allocate %.1f times, want 0", len(sans), allocs)
	}
}

// TestResetForgetsNearRepetitions: a game that ends while near repetitions
// are indexed (an en passant capture was possible) leaves nothing behind:
// the next game, from that placement without the capture, has none.
func TestResetForgetsNearRepetitions(t *testing.T) {
	g := rules.NewGame(rules.StartPosition())
	for _, u := range []string{"e2e4", "g8f6", "e4e5", "d7d5", "g1f3", "b8c6", "f3g1", "c6b8"} {
		if _, err := g.PlayUCI(u); err != nil {
			t.Fatal(u, err)
		}
	}
	if len(g.NearRepetitions()) == 0 {
		t.Fatal("the first game has no near repetition: the test does not test what it should")
	}
	start, err := rules.ParseFEN("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(start)
	for _, u := range []string{"g1f3", "b8c6", "f3g1", "c6b8"} {
		if _, err := g.PlayUCI(u); err != nil {
			t.Fatal(u, err)
		}
		if near := g.NearRepetitions(); near != nil {
			t.Fatalf("after %s: near repetitions %v from the game before", u, near)
		}
	}
}

// TestZeroGameReset: the zero Game, Reset, follows a game as a new one
// does (scan keeps a Game by value and only ever Resets it), also when the
// game begins with irreversible moves, whose positions each begin a new
// stretch.
func TestZeroGameReset(t *testing.T) {
	var zero rules.Game
	zero.Reset(rules.StartPosition())
	fresh := rules.NewGame(rules.StartPosition())
	for _, u := range []string{"e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "d2d4"} {
		for _, g := range []*rules.Game{&zero, fresh} {
			if _, err := g.PlayUCI(u); err != nil {
				t.Fatal(u, err)
			}
		}
		if zero.Count() != fresh.Count() || !slices.Equal(zero.Occurrences(), fresh.Occurrences()) ||
			!slices.Equal(zero.ClaimMoves(nil), fresh.ClaimMoves(nil)) || zero.Notable() != fresh.Notable() {
			t.Fatalf("after %s: the zero Game counts %d at %v, a new one %d at %v", u, zero.Count(), zero.Occurrences(), fresh.Count(), fresh.Occurrences())
		}
	}
	if zero.Count() != 1 || fresh.FivefoldPly() != -1 {
		t.Fatalf("after d2d4: count %d, want 1", zero.Count())
	}
}
