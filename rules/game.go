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
	maxCount    [2]int32 // the highest occurrence count in the window, by side to move
	fivefoldPly int
	claimBuf    []Move
}

type occurrence struct {
	hash  uint64
	key   Key
	prev  int32 // index in window of the previous occurrence of the same position, or -1
	count int32 // how many times the position had occurred up to and including this ply
}

// NewGame starts tracking a game from start.
func NewGame(start Position) *Game {
	g := &Game{start: start, pos: start, fivefoldPly: -1}
	g.record(true)
	return g
}

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return len(g.moves) }

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
	if irreversible {
		g.window = g.window[:0]
		g.windowStart = len(g.moves)
		g.maxCount = [2]int32{}
	}
	h := g.pos.hash
	key := g.pos.Key()
	e := occurrence{hash: h, key: key, prev: -1, count: 1}
	for i := len(g.window) - 2; i >= 0; i -= 2 {
		if o := &g.window[i]; o.hash == h && o.key == key {
			e.prev, e.count = int32(i), o.count+1
			break
		}
	}
	g.window = append(g.window, e)
	if t := g.pos.turn; e.count > g.maxCount[t] {
		g.maxCount[t] = e.count
	}
	if e.count >= 5 && g.fivefoldPly < 0 {
		g.fivefoldPly = len(g.moves)
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
	h, key := next.hash, next.Key()
	for i := len(g.window) - 1; i >= 0; i-- {
		if o := &g.window[i]; o.hash == h && o.key == key {
			plies := make([]int, o.count)
			for j, k := i, len(plies)-1; j >= 0 && k >= 0; j, k = int(g.window[j].prev), k-1 {
				plies[k] = g.windowStart + j
			}
			return plies
		}
	}
	return nil
}

// CanClaimThreefold reports whether the current position has occurred at
// least three times, so that the side to move may claim a draw (9.2.2).
func (g *Game) CanClaimThreefold() bool { return g.Count() >= 3 }

// CanClaimRepetition reports whether the side to move may claim a draw by
// repetition now: under 9.2.2, or under 9.2.1 by declaring a move.
func (g *Game) CanClaimRepetition() bool {
	return g.Count() >= 3 || g.claimMoves(nil, true) != nil
}

// ClaimMoves appends to buf the legal moves of the side to move that would
// produce a position that has already occurred at least twice: declaring
// one of them lets the player claim a draw (9.2.1).
func (g *Game) ClaimMoves(buf []Move) []Move {
	return g.claimMoves(buf, false)
}

// claimMoves does the work of ClaimMoves; with first set it stops at the
// first move found and returns a non-nil slice only if there is one.
//
// Only a reversible move (no pawn move, no capture, no castling, no loss of
// castling rights) can lead back to an earlier position, and the position
// it leads to has no e.p. square, so its hash follows from the current one
// without playing the move; the move is played only to confirm the Key.
func (g *Game) claimMoves(buf []Move, first bool) []Move {
	them := g.pos.turn.Other()
	if g.maxCount[them] < 2 {
		return buf
	}
	var targets [16]uint64
	nt := 0
	for i := len(g.window) - 2; i >= 0 && nt < len(targets); i -= 2 {
		if g.window[i].count >= 2 {
			targets[nt] = g.window[i].hash
			nt++
		}
	}
	// More than 16 distinct twice-seen positions is possible only in very
	// long shuffles; then compare against the whole window.
	exhaustive := nt == len(targets)
	p := &g.pos
	base := p.hash ^ zobTurn
	if p.ep != NoSquare {
		base ^= zobEP[p.ep.File()]
	}
	g.claimBuf = p.LegalMoves(g.claimBuf[:0])
	for _, m := range g.claimBuf {
		from, to := m.From(), m.To()
		pc := p.board[from]
		if pc.Type() == Pawn || p.board[to] != NoPiece || p.isCastling(m) || p.castle&(castleLoss[from]|castleLoss[to]) != 0 {
			continue
		}
		h := base ^ zobPiece[pc][from] ^ zobPiece[pc][to]
		hit := exhaustive
		for _, t := range targets[:nt] {
			if t == h {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		next := *p
		next.Play(m)
		key := next.Key()
		for i := len(g.window) - 2; i >= 0; i -= 2 {
			if o := &g.window[i]; o.hash == h && o.key == key {
				if o.count >= 2 {
					if first {
						return append(buf, m)
					}
					buf = append(buf, m)
				}
				break
			}
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
