package pgn

import (
	"fmt"
	"strconv"

	"github.com/threefold-chess/threefold/rules"
)

// MoveError is a main-line move that cannot be played: illegal, ambiguous or unreadable (a null move, a
// typo). Err wraps rules.ErrIllegal, rules.ErrAmbiguous or rules.ErrSyntax.
type MoveError struct {
	Ply    int    // 1-based ply of the move (ply 1 is the first half-move from the start position)
	Number string // the move number as PGN writes it before this move: "19." (White) or "19..." (Black)
	Token  string // the move as written
	Err    error
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("ply %d (%s %s): %v", e.Ply, e.Number, e.Token, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// Replay plays the main line on a rules.Game that starts from StartFEN (or the standard start) and calls
// visit, when not nil, after every ply with the ply number (1-based), the move as written and the tracker.
// The first move that cannot be played stops the replay with a *MoveError; the returned game then holds
// the moves before it. An unreadable [FEN] tag is an error and the game is nil. Replay plays whatever
// moves the reader kept, also for a game with a syntax error in Err (the moves before the problem).
func (g *Game) Replay(visit func(ply int, san string, tracker *rules.Game)) (*rules.Game, error) {
	fen, _ := g.StartFEN()
	start, err := rules.ParseStart(fen)
	if err != nil {
		return nil, fmt.Errorf("[FEN] tag: %w", err)
	}
	tracker := rules.NewGame(start)
	for i, san := range g.Moves {
		if _, err := tracker.PlaySAN(san); err != nil {
			return tracker, &MoveError{Ply: i + 1, Number: moveNumber(&start, i), Token: san, Err: err}
		}
		if visit != nil {
			visit(i+1, san, tracker)
		}
	}
	return tracker, nil
}

// MoveNumber returns the move number PGN writes before the half-move that makes ply (1-based) from
// start: "19." before a White move, "19..." before a Black one.
func MoveNumber(start *rules.Position, ply int) string { return moveNumber(start, ply-1) }

// moveNumber returns the move number PGN writes before the half-move at index i (0-based) from start.
func moveNumber(start *rules.Position, i int) string {
	if start.Turn() == rules.Black {
		i++
	}
	n := start.FullmoveNumber()
	if n < 1 {
		n = 1
	}
	n += i / 2
	if i%2 == 0 {
		return strconv.Itoa(n) + "."
	}
	return strconv.Itoa(n) + "..."
}
