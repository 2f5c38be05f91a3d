//go:build race

package scan

// raceEnabled: the race detector slows a scan of the whole corpus tenfold
// and finds nothing in it that the other tests do not run, so the tests that
// do it run without it (.ci/run runs them).
const raceEnabled = true
