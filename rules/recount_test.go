package rules_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/rules"
)

// identity is the FIDE identity of a position (9.2.3) computed the slow
// way, without Key: the placement, the side to move and the castling
// rights as the FEN writes them, and an e.p. square only when some legal
// move captures en passant there. That can only be right after a double
// push (afterPush); otherwise no legal move is looked at.
func identity(p rules.Position, afterPush bool) string {
	f := strings.Fields(p.FEN())
	ep := "-"
	if afterPush {
		for _, m := range p.LegalMoves(nil) {
			if p.PieceAt(m.From()).Type() == rules.Pawn && m.From().File() != m.To().File() && p.PieceAt(m.To()) == rules.NoPiece {
				ep = m.To().String()
			}
		}
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + ep
}

// doublePush reports whether m, in p, moves a pawn two squares.
func doublePush(p *rules.Position, m rules.Move) bool {
	d := m.To().Rank() - m.From().Rank()
	return p.PieceAt(m.From()).Type() == rules.Pawn && (d == 2 || d == -2)
}

// recount is what Game must answer after each ply, counted by comparing
// the identity of the current position with that of every earlier one.
type recount struct {
	ids      []string         // identity by ply
	plies    map[string][]int // plies by identity
	fivefold int
}

func newRecount(start rules.Position) *recount {
	r := &recount{plies: map[string][]int{}, fivefold: -1}
	r.add(identity(start, true))
	return r
}

func (r *recount) add(id string) {
	r.plies[id] = append(r.plies[id], len(r.ids))
	if r.fivefold < 0 && len(r.plies[id]) == 5 {
		r.fivefold = len(r.ids)
	}
	r.ids = append(r.ids, id)
}

// claimMoves returns the legal moves of p that produce a position that
// occurred at least twice (9.2.1), in UCI, sorted.
func (r *recount) claimMoves(p rules.Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		next := p
		next.Play(m)
		if len(r.plies[identity(next, doublePush(&p, m))]) >= 2 {
			out = append(out, m.UCI())
		}
	}
	slices.Sort(out)
	return out
}

// kept is the list of plies Occurrences gives for all of them: every one
// up to the sixth, then the first five and the latest.
func kept(plies []int) []int {
	if len(plies) > 6 {
		return append(plies[:5:5], plies[len(plies)-1])
	}
	return plies
}

// checkRecount plays moves from start on a Game (by SAN when bySAN) and
// compares, after every ply, the count, the occurrences, the claim by
// declared move and the fivefold ply with the recount, and checks
// Notable (CheckNotable). It returns how
// many plies had a threefold and a claim by move, and whether a fivefold
// came.
func checkRecount(t *testing.T, name string, start rules.Position, moves []rules.Move, bySAN bool) (threefolds, claims int, fivefold bool) {
	t.Helper()
	g := rules.NewGame(start)
	r := newRecount(start)
	for ply := 0; ; ply++ {
		p := g.Position()
		occ := r.plies[r.ids[ply]]
		if g.Count() != len(occ) || fmt.Sprint(g.Occurrences()) != fmt.Sprint(kept(occ)) {
			t.Fatalf("%s: ply %d (%s): count %d occurrences %v, recount %v", name, ply, p.FEN(), g.Count(), g.Occurrences(), occ)
		}
		var got []string
		for _, m := range g.ClaimMoves(nil) {
			got = append(got, m.UCI())
		}
		slices.Sort(got)
		want := r.claimMoves(p)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: ply %d (%s): claim moves %v, recount %v", name, ply, p.FEN(), got, want)
		}
		if can := len(occ) >= 3 || len(want) > 0; g.CanClaimRepetition() != can {
			t.Fatalf("%s: ply %d (%s): CanClaimRepetition %v, recount %v", name, ply, p.FEN(), !can, can)
		}
		if err := rules.CheckNotable(g); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if g.FivefoldPly() != r.fivefold {
			t.Fatalf("%s: ply %d: fivefold ply %d, recount %d", name, ply, g.FivefoldPly(), r.fivefold)
		}
		if len(occ) >= 3 {
			threefolds++
		}
		if len(want) > 0 {
			claims++
		}
		if ply == len(moves) {
			return threefolds, claims, r.fivefold >= 0
		}
		m := moves[ply]
		if bySAN {
			san := p.SAN(m)
			if got, err := g.PlaySAN(san); err != nil || got != m {
				t.Fatalf("%s: ply %d (%s): PlaySAN(%q) = %v, %v; want %v", name, ply, p.FEN(), san, got, err, m)
			}
		} else if err := g.Play(m); err != nil {
			t.Fatalf("%s: ply %d: %v", name, ply, err)
		}
		r.add(identity(g.Position(), doublePush(&p, m)))
	}
}

// TestGameAgainstRecount: in games that often take moves back (standard
// and Chess960, played by move and by SAN), what Game says after every
// ply is what counting every earlier position the slow way says.
func TestGameAgainstRecount(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 6))
	games := 200
	if testing.Short() {
		games = 40
	}
	var threefolds, claims, fivefolds int
	for i := range games {
		start := rules.StartPosition()
		if i%3 == 2 {
			start, _ = rules.Chess960Start(rng.IntN(960))
		}
		a, b, five := checkRecount(t, fmt.Sprintf("game %d", i), start, randgame.Shuffle(rng, start, 40+rng.IntN(120)), i%2 == 1)
		threefolds, claims = threefolds+a, claims+b
		if five {
			fivefolds++
		}
	}
	t.Logf("%d games: %d plies with a threefold, %d with a claim by move, %d games with a fivefold", games, threefolds, claims, fivefolds)
	if threefolds < games || claims < games || fivefolds < games/10 {
		t.Errorf("%d threefold plies, %d claim plies, %d fivefold games in %d games: the games do not test the rule", threefolds, claims, fivefolds, games)
	}
}

// FuzzGameAgainstRecount: the fuzzer picks the start (standard or a
// Chess960 one) and the moves; a byte below 128 takes back the mover's
// previous move where that is legal, so positions recur.
func FuzzGameAgainstRecount(f *testing.F) {
	f.Add(uint16(518), []byte{1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint16(1000), []byte("castle, then shuffle the rooks back and forth"))
	f.Add(uint16(7), []byte{200, 130, 140, 150, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, sp uint16, choices []byte) {
		start := rules.StartPosition()
		if sp < 960 {
			start, _ = rules.Chess960Start(int(sp))
		}
		if len(choices) > 200 {
			choices = choices[:200]
		}
		var moves []rules.Move
		p := start
		for _, c := range choices {
			legal := p.LegalMoves(nil)
			if len(legal) == 0 {
				break
			}
			m := legal[int(c)%len(legal)]
			if back, ok := randgame.TakeBack(&p, moves); ok && c < 128 {
				m = back
			}
			p.Play(m)
			moves = append(moves, m)
		}
		checkRecount(t, "fuzz", start, moves, sp%2 == 1)
	})
}
