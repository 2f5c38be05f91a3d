package scan

import "runtime/debug"

// The garbage collector's settings while a scan runs (TuneGC), unless
// GOGC or GOMEMLIMIT say otherwise. scan's live heap is a few MB (the attack
// tables, the chunks in flight) while it allocates some 50 bytes a ply, so
// at the default GOGC=100 the collector ran every few MB: about 190 of
// 1,770 instructions a ply (callgrind, scan --json --workers 1, the
// corpus's first 10,000 games); at 800 it is about 10, for a heap of
// some 40 MB more. The soft limit keeps a file of huge games (each read
// whole before it is analysed, up to pgn.max_game_bytes) from growing the
// heap 9-fold past it.
const (
	gcPercent   = 800
	memoryLimit = 512 << 20
)

// TuneGC sets the collector for a scan (see gcPercent) where getenv
// says GOGC and GOMEMLIMIT are not set, and returns what puts the settings
// back. The settings are the whole process's: the program that runs the
// scan decides (Print does not call it).
func TuneGC(getenv func(string) string) (restore func()) {
	setPercent, setLimit := getenv("GOGC") == "", getenv("GOMEMLIMIT") == ""
	var percent int
	var limit int64
	if setPercent {
		percent = debug.SetGCPercent(gcPercent)
	}
	if setLimit {
		limit = debug.SetMemoryLimit(memoryLimit)
	}
	return func() {
		if setPercent {
			debug.SetGCPercent(percent)
		}
		if setLimit {
			debug.SetMemoryLimit(limit)
		}
	}
}
