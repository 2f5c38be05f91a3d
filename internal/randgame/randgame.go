// Package randgame plays random games whose placements recur, for tests.
//
// Shuffle often takes back the mover's previous move, so the same
// placement comes back around double pushes and castling-right losses:
// the near repetitions (same placement and side to move, another position)
// that random legal moves alone almost never produce. It is for tests only.
package randgame

import (
	"math/rand/v2"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

// Shuffle plays up to plies random legal moves from start (fewer if the
// game ends), two in three of them, where legal, the move that takes back
// the mover's previous one.
func Shuffle(rng *rand.Rand, start rules.Position, plies int) []rules.Move {
	var moves []rules.Move
	p := start
	for len(moves) < plies {
		legal := p.LegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		if n := len(moves); n >= 2 && rng.IntN(3) > 0 {
			prev := moves[n-2]
			back := rules.NewMove(prev.To(), prev.From(), rules.NoPieceType)
			if !prev.IsCastling() && prev.Promotion() == rules.NoPieceType && p.IsLegal(back) {
				m = back
			}
		}
		p.Play(m)
		moves = append(moves, m)
	}
	return moves
}

// Line plays random legal moves from the standard start, the same for the
// same seed, and returns the first n in SAN; it starts again with the
// next game when one ends before n plies, and reports false when 1,000
// games all ended early.
func Line(seed uint64, n int) ([]string, bool) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var legal []rules.Move
	for range 1000 {
		p := rules.StartPosition()
		moves := make([]string, 0, n)
		for len(moves) < n {
			legal = p.LegalMoves(legal[:0])
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, p.SAN(m))
			p.Play(m)
		}
		if len(moves) == n {
			return moves, true
		}
	}
	return nil, false
}

// MustLine is Line for a test or benchmark, which fails when no game was
// long enough.
func MustLine(tb testing.TB, seed uint64, n int) []string {
	tb.Helper()
	moves, ok := Line(seed, n)
	if !ok {
		tb.Fatal("no random game long enough")
	}
	return moves
}
