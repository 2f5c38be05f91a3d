package rules

import "fmt"

// Game tracks one game move by move and answers, after every ply, what the
// repetition rule (FIDE 9.2, 9.6.1) and the move-count rules (9.3, 9.6.2)
// say about the current position.
//
// Only positions since the last irreversible move (a pawn move, a capture,
// a loss of castling rights) are kept: no earlier position can ever occur
// again, so memory stays bounded by the longest reversible stretch, not by
// the length of the game. Each ply costs a constant amount of work plus a
// scan of that stretch with 64-bit hashes (confirmed with the exact Key).
// History before the start position is unknown and is not invented: the
// start position counts as the first occurrence of itself.
//
// Ply numbering: ply 0 is the start position, ply n the position after the
// n-th half-move. A Game is not safe for concurrent use.
type Game struct {
	start       Position
	pos         Position
	moves       []Move
	window      []occurrence // positions since the last irreversible move; window[i] is at ply windowStart+i
	windowStart int
	index       []int32    // open-addressing table: 1 + index in window of the latest occurrence of a position, 0 if empty
	twice       [2][]int32 // by side to move: window indexes of the second occurrence of each position seen twice
	fivefoldPly int
}

type occurrence struct {
	hash  uint64
	key   Key
	prev  int32 // index in window of the previous occurrence of the same position, or -1
	count int32 // how many times the position had occurred up to and including this ply
	slot  int32 // the slot of the index that points to the position
}

const minIndexSize = 64

// NewGame starts tracking a game from start.
func NewGame(start Position) *Game {
	g := &Game{start: start, pos: start, fivefoldPly: -1, window: make([]occurrence, 0, 32)}
	g.record(true)
	return g
}

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Turn returns the side to move in the current position.
func (g *Game) Turn() Color { return g.pos.turn }

// HalfmoveClock returns the half-moves since the last capture or pawn move
// in the current position (cheaper than Position().HalfmoveClock()).
func (g *Game) HalfmoveClock() int { return int(g.pos.halfmove) }

// Moves returns the moves played so far. The slice must not be modified.
func (g *Game) Moves() []Move { return g.moves }

// Play makes the move m if it is legal in the current position.
func (g *Game) Play(m Move) error {
	if !g.pos.IsLegal(m) {
		return fmt.Errorf("%w: %s in %s", ErrIllegal, m.UCI(), g.pos.FEN())
	}
	g.play(m)
	return nil
}

// PlayUCI reads a UCI move (see Position.ParseUCI) and plays it.
func (g *Game) PlayUCI(s string) (Move, error) {
	m, err := g.pos.ParseUCI(s)
	if err != nil {
		return NoMove, err
	}
	g.play(m)
	return m, nil
}

// PlaySAN reads a SAN move (see Position.ParseSAN) and plays it.
func (g *Game) PlaySAN(s string) (Move, error) {
	m, err := g.pos.ParseSAN(s)
	if err != nil {
		return NoMove, err
	}
	g.play(m)
	return m, nil
}

func (g *Game) play(m Move) {
	p := &g.pos
	irreversible := p.board[m.From()].Type() == Pawn || p.board[m.To()] != NoPiece
	castle := p.castle
	p.Play(m)
	g.moves = append(g.moves, m)
	g.record(irreversible || p.castle != castle)
}

// record adds the current position to the window, first emptying it when
// the move that led here was irreversible.
func (g *Game) record(irreversible bool) {
	if irreversible || g.index == nil {
		g.resetWindow()
	}
	h := g.pos.hash
	idx := int32(len(g.window))
	g.window = append(g.window, occurrence{})
	e := &g.window[idx]
	e.hash, e.key, e.prev, e.count = h, g.pos.Key(), -1, 1
	slot := g.lookup(h, &e.key)
	if s := g.index[slot]; s != 0 {
		e.prev, e.count = s-1, g.window[s-1].count+1
	}
	e.slot = int32(slot)
	g.index[slot] = idx + 1
	if e.count == 2 {
		t := g.pos.turn
		g.twice[t] = append(g.twice[t], idx)
	}
	if e.count >= 5 && g.fivefoldPly < 0 {
		g.fivefoldPly = len(g.moves)
	}
	if 2*len(g.window) > len(g.index) {
		g.growIndex()
	}
}

// resetWindow forgets every position: none can occur again. Only the
// slots in use are cleared, so the cost follows the window, not the index.
func (g *Game) resetWindow() {
	switch {
	case g.index == nil:
		g.index = make([]int32, minIndexSize)
	case len(g.index) > minIndexSize:
		g.index = g.index[:minIndexSize]
		clear(g.index)
	default:
		for i := range g.window {
			g.index[g.window[i].slot] = 0
		}
	}
	g.window = g.window[:0]
	g.windowStart = len(g.moves)
	g.twice[0], g.twice[1] = g.twice[0][:0], g.twice[1][:0]
}

// lookup returns the slot of the index that holds the latest occurrence
// of the position (h, key), or the empty slot where it would go.
func (g *Game) lookup(h uint64, key *Key) int {
	mask := uint64(len(g.index) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := g.index[i]
		if s == 0 {
			return int(i)
		}
		if o := &g.window[s-1]; o.hash == h && o.key == *key {
			return int(i)
		}
	}
}

// growIndex doubles the index and re-enters the latest occurrence of
// every position in the window.
func (g *Game) growIndex() {
	n := 2 * len(g.index)
	if cap(g.index) >= n {
		g.index = g.index[:n]
		clear(g.index)
	} else {
		g.index = make([]int32, n)
	}
	for i := range g.window {
		o := &g.window[i]
		o.slot = int32(g.lookup(o.hash, &o.key))
		g.index[o.slot] = int32(i) + 1
	}
}

// Count returns how many times the current position has occurred,
// including now.
func (g *Game) Count() int { return int(g.window[len(g.window)-1].count) }

// Occurrences returns the plies at which the current position occurred,
// in ascending order; the last is the current ply.
func (g *Game) Occurrences() []int {
	last := len(g.window) - 1
	plies := make([]int, g.window[last].count)
	for i, j := last, len(plies)-1; i >= 0 && j >= 0; i, j = int(g.window[i].prev), j-1 {
		plies[j] = g.windowStart + i
	}
	return plies
}

// OccurrencesOf returns the plies at which the position that m would
// produce has already occurred (m must be legal). It is empty when that
// position is new.
func (g *Game) OccurrencesOf(m Move) []int {
	next := g.pos
	next.Play(m)
	key := next.Key()
	s := g.index[g.lookup(next.hash, &key)]
	if s == 0 {
		return nil
	}
	plies := make([]int, g.window[s-1].count)
	for j, k := int(s-1), len(plies)-1; j >= 0 && k >= 0; j, k = int(g.window[j].prev), k-1 {
		plies[k] = g.windowStart + j
	}
	return plies
}

// CanClaimThreefold reports whether the current position has occurred at
// least three times, so that the side to move may claim a draw (9.2.2).
func (g *Game) CanClaimThreefold() bool { return g.Count() >= 3 }

// CanClaimRepetition reports whether the side to move may claim a draw by
// repetition now: under 9.2.2, or under 9.2.1 by declaring a move.
func (g *Game) CanClaimRepetition() bool {
	if g.Count() >= 3 {
		return true
	}
	var one [1]Move
	return len(g.claimMoves(one[:0], true)) > 0
}

// ClaimMoves appends to buf the legal moves of the side to move that would
// produce a position that has already occurred at least twice: declaring
// one of them lets the player claim a draw (9.2.1).
func (g *Game) ClaimMoves(buf []Move) []Move {
	return g.claimMoves(buf, false)
}

// claimMoves does the work of ClaimMoves; with first set it stops at the
// first move found.
//
// Only a reversible move (no pawn move, no capture, no castling, no loss of
// castling rights) can lead back to an earlier position, and it changes
// the placement on exactly two squares. So for each position the opponent
// has had on the move twice (the candidates), the move that would lead
// there, if any, can be read from the difference of the two placements;
// it is then checked for legality. The cost is a few operations per
// candidate, and nothing at all while no position has occurred twice.
func (g *Game) claimMoves(buf []Move, first bool) []Move {
	p := &g.pos
	cands := g.twice[p.turn.Other()]
	if len(cands) == 0 {
		return buf
	}
	cur := p.Key()
	curOcc := cur.planes[0] | cur.planes[1] | cur.planes[2]
	wantMeta := (cur.meta ^ 1) &^ (15 << 5) // other side to move, same castling, no e.p.
	for _, i := range cands {
		t := &g.window[i].key
		if t.meta != wantMeta {
			continue
		}
		tOcc := t.planes[0] | t.planes[1] | t.planes[2]
		fromBB, toBB := curOcc&^tOcc, tOcc&^curOcc
		if popcount(fromBB) != 1 || popcount(toBB) != 1 {
			continue
		}
		from, to := lsb(fromBB), lsb(toBB)
		same := true
		for k := range t.planes {
			if cur.planes[k]&^fromBB != t.planes[k]&^toBB || (cur.planes[k]&fromBB == 0) != (t.planes[k]&toBB == 0) {
				same = false
				break
			}
		}
		if !same {
			continue
		}
		m := NewMove(from, to, NoPieceType)
		if p.board[from].Type() == Pawn || p.castle&(castleLoss[from]|castleLoss[to]) != 0 || !p.pseudoLegal(m) || !p.legal(m) {
			continue
		}
		buf = append(buf, m)
		if first {
			return buf
		}
	}
	return buf
}

// FivefoldPly returns the first ply at which a position occurred for the
// fifth time (the game was drawn there, 9.6.1), or -1.
func (g *Game) FivefoldPly() int { return g.fivefoldPly }

// Verdict is what the rules say about the current position of a game.
type Verdict struct {
	Ply         int
	Turn        Color // the side to move: the one who may claim
	Count       int   // occurrences of the current position, including now
	Occurrences []int // the plies at which it occurred
	// Threefold: the position has occurred three or more times; the side to
	// move may claim a draw now (9.2.2).
	Threefold bool
	// ClaimMoves: legal moves that would produce a position already seen
	// twice; the side to move may claim by declaring one (9.2.1).
	ClaimMoves []Move
	// Fivefold: the position has occurred five or more times; the game is
	// drawn (9.6.1).
	Fivefold bool
	// FiftyMoves: the side to move may claim a draw under 9.3: the last 50
	// moves of each side had no pawn move and no capture, or a declared
	// move that is neither would complete them (FiftyMovesByMove).
	FiftyMoves       bool
	FiftyMovesByMove bool
	// SeventyFiveMoves: 75 moves of each side without pawn move or capture,
	// and the last move did not mate: the game is drawn (9.6.2).
	SeventyFiveMoves     bool
	Checkmate            bool
	Stalemate            bool
	InsufficientMaterial bool
}

// Verdict computes everything the rules say about the current position.
func (g *Game) Verdict() Verdict {
	p := &g.pos
	v := Verdict{
		Ply:                  len(g.moves),
		Turn:                 p.turn,
		Count:                g.Count(),
		Occurrences:          g.Occurrences(),
		ClaimMoves:           g.ClaimMoves(nil),
		InsufficientMaterial: p.InsufficientMaterial(),
	}
	v.Threefold = v.Count >= 3
	v.Fivefold = v.Count >= 5
	switch p.Status() {
	case Checkmate:
		v.Checkmate = true
	case Stalemate:
		v.Stalemate = true
	}
	if p.halfmove >= 100 {
		v.FiftyMoves = true
	} else if p.halfmove == 99 && !v.Checkmate && !v.Stalemate {
		var arr [256]Move
		for _, m := range p.LegalMoves(arr[:0]) {
			if p.board[m.From()].Type() != Pawn && !p.IsCapture(m) {
				v.FiftyMoves, v.FiftyMovesByMove = true, true
				break
			}
		}
	}
	v.SeventyFiveMoves = p.halfmove >= 150 && !v.Checkmate
	return v
}
