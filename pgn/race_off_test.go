//go:build !race

package pgn

const raceEnabled = false
