package rules_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/rules"
)

// state is everything a Game answers about its current position.
func state(g *rules.Game) string {
	return fmt.Sprint(g.Ply(), g.Verdict(), g.NearRepetitions(), g.FivefoldPly(), g.Moves())
}

// TestClone: a clone goes on as a replay of the same moves would, and the
// game it was cloned from does not move.
func TestClone(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 9))
	for i := range 40 {
		start := rules.StartPosition()
		moves := randgame.Shuffle(rng, start, 120)
		g := rules.NewGame(start)
		for ply, m := range moves {
			if ply%7 == 3 {
				before := state(g)
				c := g.Clone()
				for _, next := range moves[ply:min(ply+12, len(moves))] {
					if err := c.Play(next); err != nil {
						t.Fatalf("game %d: clone at ply %d: %v", i, ply, err)
					}
				}
				replay := rules.NewGame(start)
				for _, m := range moves[:c.Ply()] {
					replay.Play(m)
				}
				if got, want := state(c), state(replay); got != want {
					t.Fatalf("game %d: clone at ply %d, at ply %d: %s, a replay says %s", i, ply, c.Ply(), got, want)
				}
				if after := state(g); after != before {
					t.Fatalf("game %d: playing on the clone changed the game at ply %d: %s, was %s", i, ply, after, before)
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The arbiter's question "would the move he declares make a third
// occurrence?" (9.2.1), answered on a copy: the game itself does not move.
func ExampleGame_Clone() {
	g := rules.NewGame(rules.StartPosition())
	for _, mv := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"} {
		g.PlaySAN(mv)
	}
	next := g.Clone()
	next.PlaySAN("Ng8")
	fmt.Println(next.Ply(), next.Count(), next.Occurrences(), next.CanClaimThreefold())
	fmt.Println(g.Ply(), g.Count())
	// Output:
	// 8 3 [0 4 8] true
	// 7 2
}
