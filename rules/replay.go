package rules

import (
	"fmt"
	"strings"
	"unsafe"
)

// ParseStart reads the start of a game as every part of threefold writes
// it (see WriteStart): "" (or only spaces) is the standard start position,
// a FEN whose castling field names rooks by their files (Shredder-FEN,
// HAha) a Chess960 position, any other FEN a position as ParseFEN reads
// it.
func ParseStart(fen string) (Position, error) {
	if strings.TrimSpace(fen) == "" {
		return StartPosition(), nil
	}
	if f := strings.Fields(fen); len(f) >= 3 && strings.ContainsAny(f[2], "ABCDEFGHabcdefgh") {
		p, _, err := ParseFENVariant(fen, Chess960)
		return p, err
	}
	return ParseFEN(fen)
}

// WriteStart writes the start of a game so that ParseStart reads it back
// in its variant: "" for the standard start position of standard chess,
// Shredder-FEN for a Chess960 position, FEN otherwise. A Chess960
// position without castling rights reads back as standard chess, which
// plays the same from there.
func WriteStart(p Position) string {
	if p.variant == Chess960 {
		return p.ShredderFEN()
	}
	if fen := p.FEN(); fen != StartFEN {
		return fen
	}
	return ""
}

// ParseStartVariant reads the start of a game of the variant v, with notes
// on what the FEN claims that the position cannot have: "" (or only
// spaces) is the standard start position (in Chess960, start position 518
// played as Chess960), anything else a FEN read as ParseFENVariant reads
// it.
func ParseStartVariant(fen string, v Variant) (Position, []string, error) {
	if strings.TrimSpace(fen) == "" {
		p := StartPosition()
		p.variant = v
		return p, nil, nil
	}
	return ParseFENVariant(fen, v)
}

// Notation is how the moves of a move list are written.
type Notation uint8

const (
	// SAN moves ("e4", "Nf3", "O-O", "e8=Q"); the tolerant forms ParseSAN
	// accepts (0-0, e8Q, trailing !? or #) are fine. The zero Notation.
	SAN Notation = iota
	// UCI moves ("e2e4", "e7e8q"); castling as the king's two-square move
	// or the king onto its own rook (e1h1).
	UCI
)

// String returns "san" or "uci".
func (n Notation) String() string {
	switch n {
	case SAN:
		return "san"
	case UCI:
		return "uci"
	}
	return fmt.Sprintf("Notation(%d)", uint8(n))
}

// MarshalText writes n as String does.
func (n Notation) MarshalText() ([]byte, error) {
	if n > UCI {
		return nil, fmt.Errorf("rules: unknown notation %d", uint8(n))
	}
	return []byte(n.String()), nil
}

// UnmarshalText reads "san" (or "") and "uci".
func (n *Notation) UnmarshalText(b []byte) error {
	switch string(b) {
	case "san", "":
		*n = SAN
	case "uci":
		*n = UCI
	default:
		return fmt.Errorf("rules: unknown notation %q (want san or uci)", b)
	}
	return nil
}

// ParseMove reads tok, written in notation n, as a legal move in p.
func (n Notation) ParseMove(p *Position, tok string) (Move, error) {
	if n == UCI {
		return p.ParseUCI(tok)
	}
	return p.ParseSAN(tok)
}

// ReplayError is a move list that cannot be replayed: its start position
// (Ply 0) or the move that makes Ply.
type ReplayError struct {
	Ply   int    // 0: the start position; n: the n-th move
	Token string // the start FEN or the move, as written
	Err   error  // a *FENError, or wraps ErrSyntax, ErrIllegal or ErrAmbiguous
}

func (e *ReplayError) Error() string {
	if e.Ply == 0 {
		return fmt.Sprintf("start position %q: %v", e.Token, e.Err)
	}
	return fmt.Sprintf("ply %d (%s): %v", e.Ply, e.Token, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Step is one ply a Replay reached, handed to the function a caller passes
// to Sync, Rewind or Extend. It is valid only during that call.
type Step struct {
	// Ply is the ply reached. Ply 0 is the start position: the replay
	// (re)started, and every ply it had reached before is gone.
	Ply int
	// Move made Ply (NoMove at ply 0), written Token in the list.
	Move  Move
	Token string
	// Before is the position before Move (nil at ply 0), for its SAN.
	Before *Position
	// Game is the game at Ply.
	Game *Game
}

// Change is what Rewind (or Sync) did before it played new moves.
type Change struct {
	// Restarted: the replay started over from the start position (also the
	// first time); Rebuilt: it did so after it had played a game, because
	// the start or the notation changed (NewStart) or because the new list
	// no longer extends what was played (a correction, a takeback).
	Restarted, Rebuilt, NewStart bool
	// Had is how many plies were played before; Kept how many of them the
	// new list shares (all of them when it extends them), played again
	// after a rebuild.
	Had, Kept int
}

// Replay follows one game whose whole move list arrives again and again (a
// stream's snapshots, a broadcast's PGN, a bot's game state): it plays only
// the moves that extend what it played, and starts over from the start
// position when the start, the notation or an earlier move changed. A move
// that could not be played is not tried again while the list keeps it.
//
// The lists it is given are read, never modified, and kept: a caller may
// hand it the same backing array again with moves appended (an extension is
// then seen in constant time), but must not change an element it handed
// out. The zero Replay is ready; it is not safe for concurrent use.
type Replay struct {
	started  bool
	start    string
	notation Notation
	game     *Game        // nil before the first Sync and while the start cannot be read
	played   []string     // the moves of game, as written
	failed   *ReplayError // the last failure, until the list changes at or before it
	before   Position     // the position before the move being played
}

// Game returns the game replayed so far (nil before the first Sync and while
// the start position cannot be read). It must not be played on.
func (r *Replay) Game() *Game { return r.game }

// Ply returns how many moves were played.
func (r *Replay) Ply() int { return len(r.played) }

// Moves returns the moves played, as written. The slice must not be
// modified.
func (r *Replay) Moves() []string { return r.played }

// Reset forgets the game: the next Sync is a first one.
func (r *Replay) Reset() { *r = Replay{} }

// Sync brings r to the game that starts at start (see ParseStart) and
// whose moves, written in n, are moves: Rewind, then Extend. each, when not
// nil, is called with every ply reached, in order (see Step). On an error
// r keeps the plies before the failing one.
func (r *Replay) Sync(start string, n Notation, moves []string, each func(Step)) (Change, error) {
	c, err := r.Rewind(start, n, moves, each)
	if err != nil {
		return c, err
	}
	return c, r.Extend(moves, each)
}

// Rewind makes what r played a prefix of moves, starting over from start
// and replaying the plies they share when it is not one already, and
// reports what it did. each is called as for Sync.
func (r *Replay) Rewind(start string, n Notation, moves []string, each func(Step)) (Change, error) {
	c := Change{Had: len(r.played)}
	if r.started && r.game == nil && r.start == start {
		return c, r.failed // the same start, which could not be read
	}
	if !r.started || r.start != start || r.notation != n {
		c.Rebuilt, c.NewStart = r.game != nil, r.game != nil
		r.started, r.start, r.notation, r.failed = true, start, n, nil
		return c, r.restart(&c, nil, each)
	}
	c.Kept = commonPrefix(r.played, moves)
	if c.Kept < len(r.played) {
		c.Rebuilt = true
		return c, r.restart(&c, moves[:c.Kept], each)
	}
	return c, nil
}

// restart starts the game over and replays kept.
func (r *Replay) restart(c *Change, kept []string, each func(Step)) error {
	c.Restarted = true
	r.game, r.played, r.failed = nil, nil, nil
	pos, err := ParseStart(r.start)
	if err != nil {
		r.failed = &ReplayError{Ply: 0, Token: r.start, Err: err}
		return r.failed
	}
	r.game = NewGame(pos)
	if each != nil {
		each(Step{Game: r.game})
	}
	if err := r.extend(kept, each); err != nil {
		// Cannot happen: these moves were played before from the same start.
		return err
	}
	return nil
}

// Extend plays the moves of moves beyond what r played; what r played must
// be a prefix of moves (Rewind makes it one). each is called as for Sync.
// A move that failed before and is still in the list at the same ply is not
// tried again: its error is returned at once.
func (r *Replay) Extend(moves []string, each func(Step)) error {
	if r.game == nil {
		if r.failed != nil {
			return r.failed
		}
		return fmt.Errorf("rules: Extend before Sync")
	}
	if f := r.failed; f != nil {
		if len(moves) >= f.Ply && len(r.played) == f.Ply-1 && moves[f.Ply-1] == f.Token {
			return f
		}
		r.failed = nil
	}
	return r.extend(moves, each)
}

func (r *Replay) extend(moves []string, each func(Step)) error {
	for i := len(r.played); i < len(moves); i++ {
		tok := moves[i]
		r.before = r.game.pos
		m, err := r.notation.ParseMove(&r.before, tok)
		if err != nil {
			r.failed = &ReplayError{Ply: i + 1, Token: tok, Err: err}
			return r.failed
		}
		r.game.play(m)
		r.played = moves[:i+1]
		if each != nil {
			each(Step{Ply: i + 1, Move: m, Token: tok, Before: &r.before, Game: r.game})
		}
	}
	return nil
}

// commonPrefix returns how many leading moves a and b share. When b is a
// and more in the same backing array, it answers without comparing.
func commonPrefix(a, b []string) int {
	if len(a) == 0 {
		return 0
	}
	if len(b) >= len(a) && unsafe.SliceData(a) == unsafe.SliceData(b) {
		return len(a)
	}
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
