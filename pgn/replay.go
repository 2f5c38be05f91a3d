package pgn

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

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

// Variant returns the rules the game is played under, named by its [Variant] tag (see
// rules.ParseVariant); a game without the tag is standard chess. Another variant is a
// *rules.VariantError.
func (g *Game) Variant() (rules.Variant, error) {
	name, _ := g.Tag("Variant")
	return rules.ParseVariant(name)
}

// Start returns the position the game starts from — its [FEN] tag, or the standard start — under the
// rules its [Variant] tag names, with notes on what the [FEN] claims that the position cannot have (see
// rules.ParseStartVariant). In a game without a [Variant] tag, a castling field that names an inner rook
// file (Shredder-FEN, B to G) can only be Chess960 and is read so. An unreadable [FEN] is a
// *rules.FENError, a variant other than standard chess and Chess960 a *rules.VariantError.
//
// [SetUp "1"] without a [FEN] tag (or with a blank one) says the game starts from a position it does not
// give: it is read from the standard start, with a note that says so, since its first moves are then
// likely to be illegal for that reason.
func (g *Game) Start() (rules.Position, []string, error) {
	fen, _ := g.StartFEN()
	var notes []string
	if fen == "" {
		if v, ok := g.Tag("SetUp"); ok && strings.TrimSpace(v) == "1" {
			notes = []string{NoteSetUpWithoutFEN}
		}
	}
	if _, tagged := g.Tag("Variant"); !tagged {
		if fen == "" {
			return rules.StartPosition(), notes, nil
		}
		return rules.ParseFENNotes(fen)
	}
	v, err := g.Variant()
	if err != nil {
		return rules.Position{}, nil, err
	}
	start, more, err := rules.ParseStartVariant(fen, v)
	return start, append(notes, more...), err
}

// NoteSetUpWithoutFEN is the note of Game.Start on a game with [SetUp "1"] and no [FEN] tag.
const NoteSetUpWithoutFEN = `[SetUp "1"] without a [FEN] tag: the game is read from the standard start position`

// Replay plays the main line on a rules.Game that starts from Start and calls visit, when not nil,
// after every ply with the ply number (1-based), the move as written and the tracker. The first move
// that cannot be played stops the replay with a *MoveError; the returned game then holds the moves
// before it. An unreadable [FEN] tag or a variant threefold does not follow is an error and the game is
// nil. Replay plays whatever moves the reader kept, also for a game with a syntax error in Err (the
// moves before the problem).
func (g *Game) Replay(visit func(ply int, san string, tracker *rules.Game)) (*rules.Game, error) {
	tracker := new(rules.Game)
	err := g.ReplayOn(tracker, visit)
	if _, played := err.(*MoveError); err != nil && !played {
		return nil, err
	}
	return tracker, err
}

// ReplayOn is Replay on tracker, which it resets (rules.Game.Reset) to the start of the game: a caller
// that replays game after game reuses one tracker and its memory. A game without a start (an unreadable
// [FEN] tag, a variant threefold does not follow) is an error and leaves tracker as it was; a move that
// cannot be played is a *MoveError, with tracker holding the moves before it.
func (g *Game) ReplayOn(tracker *rules.Game, visit func(ply int, san string, tracker *rules.Game)) error {
	start, _, err := g.Start()
	var fe *rules.FENError
	if errors.As(err, &fe) {
		return fmt.Errorf("[FEN] tag: %w", err)
	}
	if err != nil {
		return err
	}
	return g.PlayFrom(tracker, start, visit)
}

// PlayFrom is ReplayOn from start, the position Start returned for the game: a caller that needs Start's
// notes too reads the [FEN] and [Variant] tags once.
func (g *Game) PlayFrom(tracker *rules.Game, start rules.Position, visit func(ply int, san string, tracker *rules.Game)) error {
	tracker.Reset(start)
	moves := g.MoveList()
	for i := range moves.Len() {
		san := moves.At(i)
		if _, err := tracker.PlaySAN(san); err != nil {
			return &MoveError{Ply: i + 1, Number: moveNumber(&start, i), Token: san, Err: err}
		}
		if visit != nil {
			visit(i+1, san, tracker)
		}
	}
	return nil
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
