//go:build race

package rules

// raceEnabled: the race detector slows perft tenfold and finds nothing in
// it (one goroutine, no shared state), so the deep perft rows run without
// it (.ci/run runs TestPerft again without -race).
const raceEnabled = true
