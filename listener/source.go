// Package listener follows games from any source and turns the verdicts of the rules into alerts.
//
// It turns any feed of chess games — a Lichess game, user, TV
// channel or broadcast, chess.com targets, DGT LiveChess e-boards, a PGN file
// that a relay keeps rewriting — into game snapshots (Source), and follows
// every game of those snapshots with one rules.Game per game (Watcher),
// turning the verdicts of the law into alerts with stable ids and their
// proof. It knows nothing about where alerts go (package notify) or how the
// program is configured (cmd/threefold).
package listener

import (
	"context"

	"github.com/threefold-chess/threefold"
)

// Emit receives the snapshots of a source. It returns an error only to stop
// the source (the source's Run then returns that error).
type Emit func(threefold.GameState) error

// Source is a feed of game snapshots.
//
// The contract, the same for every source:
//
//   - Run follows the feed until ctx is cancelled (it then returns
//     ctx.Err()), the feed is over for good (a finished game or file set
//     that is not followed: nil), or the feed cannot be followed at all (a
//     game or broadcast that does not exist, a bad file: an error that says
//     which and why). Transient failures — a dropped connection, a 5xx, a
//     429, a DGT server that restarts — are retried by Run itself with
//     backoff and logged; they do not end it.
//   - The first event for each game, and the first after every reconnect,
//     is a full snapshot: the start position and every move so far. There
//     are no deltas: every event is a snapshot, so the same state may arrive
//     more than once (after a reconnect, a resent broadcast PGN, a DGT board
//     that reports a move twice) and a later snapshot may contradict an
//     earlier one (a broadcast correction, a takeback). Consumers therefore
//     recompute idempotently by game (Game.Site, Game.ID) and ply; the
//     Watcher does exactly that.
//   - emit is called from one goroutine at a time, never concurrently, and
//     synchronously: the threefold.GameState (and its Moves) belongs to the consumer
//     only for reading, and must not be modified.
//   - Run owns everything it opens (connections, files, timers, goroutines)
//     and has closed and stopped all of it when it returns. The caller owns
//     ctx and cancels it to stop the source; nothing else needs closing.
//   - A slow consumer slows the source down and loses nothing: while emit
//     runs the source does not read (a stream backs up in TCP, a poller
//     polls later). The watcher costs microseconds per snapshot, so keep
//     slow work (webhooks) behind a queue, as package notify does.
type Source interface {
	// Name says what the source follows, for logs and alerts
	// ("lichess broadcast round 4Yuk2i2H", "dgt ws://localhost:1982/…").
	Name() string
	Run(ctx context.Context, emit Emit) error
}

// StateKeeper keeps what a source needs across restarts (a DGT source: the
// games on its boards and their health), beside what the program keeps of
// the source itself.
type StateKeeper interface {
	// LoadState returns what was kept, nil when nothing was.
	LoadState(ctx context.Context) ([]byte, error)
	SaveState(ctx context.Context, state []byte) error
}
