//go:build race

package pgn

// raceEnabled: the race detector slows reading the whole corpus tenfold and
// finds nothing there that the other tests do not run (the reader runs on one
// goroutine), so the tests that do it run without it (.ci/run runs them).
const raceEnabled = true
