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
		if len(moves) >= 2 && rng.IntN(3) > 0 {
			if back, ok := TakeBack(&p, moves); ok {
				m = back
			}
		}
		p.Play(m)
		moves = append(moves, m)
	}
	return moves
}

// TakeBack returns the move that takes back the previous move of the side
// to move in p, the position after moves, and whether it is legal there
// (not after castling or a promotion, which no move undoes).
func TakeBack(p *rules.Position, moves []rules.Move) (rules.Move, bool) {
	n := len(moves)
	if n < 2 {
		return rules.NoMove, false
	}
	prev := moves[n-2]
	back := rules.NewMove(prev.To(), prev.From(), rules.NoPieceType)
	if prev.IsCastling() || prev.Promotion() != rules.NoPieceType || !p.IsLegal(back) {
		return rules.NoMove, false
	}
	return back, true
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

// QuietLines returns count lines of n plies: those of Line(seed, n) for
// seeds 0, 1, 2, ... in which every ply of each window [from, to] raises
// nothing under the rules of a draw — its position's first occurrence, no
// draw to claim by a declared move, the halfmove clock under 99 — and
// which no rule has drawn by ply n (no fifth occurrence, no 75 moves
// without a capture or a pawn move). A benchmark of live updates at
// several lengths plays them, so that its rows compare the same work
// (random play past a few hundred plies repeats positions, and the
// alerts they raise are another cost than the game's length). It fails
// tb when 100 times count seeds do not give count lines.
func QuietLines(tb testing.TB, count, n int, windows ...[2]int) [][]string {
	tb.Helper()
	var out [][]string
	for seed := uint64(0); len(out) < count && seed < uint64(100*count); seed++ {
		moves, ok := Line(seed, n)
		if ok && quiet(moves, windows) {
			out = append(out, moves)
		}
	}
	if len(out) < count {
		tb.Fatalf("%d quiet lines of %d plies, want %d", len(out), n, count)
	}
	return out
}

// quiet reports whether a line is quiet in windows (see QuietLines).
func quiet(moves []string, windows [][2]int) bool {
	g := rules.NewGame(rules.StartPosition())
	for p, san := range moves {
		if _, err := g.PlaySAN(san); err != nil {
			return false
		}
		if g.HalfmoveClock() >= 150 || g.FivefoldPly() >= 0 {
			return false
		}
		for _, w := range windows {
			if p+1 >= w[0] && p+1 <= w[1] && (g.Count() > 1 || g.HalfmoveClock() >= 99 || g.CanClaimRepetition()) {
				return false
			}
		}
	}
	return true
}
