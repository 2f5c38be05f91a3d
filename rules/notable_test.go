package rules

import "fmt"

// CheckNotable is checkNotable, for the tests of package rules_test.
var CheckNotable = checkNotable

// checkNotable returns an error when Notable, on the current ply of g,
// rules out something a caller that looks at every ply would report
// (scan asks Count, CanClaimRepetition, HalfmoveClock and
// NearRepetitions), or when it is not what the tracker's state says: a
// position of the stretch that occurred twice, the clock at 99 or more,
// or a near repetition possible.
func checkNotable(g *Game) error {
	count, claim, clock, near := g.Count(), g.CanClaimRepetition(), g.HalfmoveClock(), len(g.NearRepetitions())
	if (count >= 2 || claim || clock >= 99 || near != 0) && !g.Notable() {
		return fmt.Errorf("ply %d (%s): Notable false, but count %d, may claim %v, halfmove clock %d, %d near repetitions",
			g.Ply(), g.pos.FEN(), count, claim, clock, near)
	}
	state := len(g.twice[0])+len(g.twice[1]) != 0 || g.pos.halfmove >= 99 || g.near.shared
	if g.Notable() != state {
		return fmt.Errorf("ply %d (%s): Notable %v, but the tracker's state says %v (twice %v, halfmove clock %d, near shared %v)",
			g.Ply(), g.pos.FEN(), g.Notable(), state, g.twice, clock, g.near.shared)
	}
	return nil
}
