//go:build race

package explain_test

// raceEnabled: the race detector slows the claim-by-claim check of the
// reference games tenfold and finds nothing in it (one goroutine), so under
// it a fifth of the reference games are checked, and not the repetitions
// set (.ci/run runs it again, whole, without -race).
const raceEnabled = true
