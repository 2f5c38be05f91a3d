package rules

import (
	"fmt"
	"slices"
)

// Game tracks one game move by move and answers, after every ply, what the
// repetition rule (FIDE 9.2, 9.6.1) and the move-count rules (9.3, 9.6.2)
// say about the current position.
//
// Only what the rule needs is kept: the distinct positions since the last
// irreversible move (a pawn move, a capture, a loss of castling rights; no
// earlier position can ever occur again), each once with its count and the
// plies of its first five occurrences and of its latest. A game that
// shuffles back and forth for thousands of plies keeps a handful of
// entries. Each ply costs a constant amount of work: positions are indexed
// by a 64-bit hash and confirmed with the exact Key. The list of moves
// played is kept too unless DropMoves was called. History before the start
// position is unknown and is not invented: the start position counts as the
// first occurrence of itself.
//
// Ply numbering: ply 0 is the start position, ply n the position after the
// n-th half-move. A Game is not safe for concurrent use.
type Game struct {
	start       Position
	pos         Position
	ply         int
	moves       []Move
	dropMoves   bool
	seen        []seenPosition // the distinct positions since the last irreversible move, in order of first occurrence
	cur         int32          // index in seen of the current position
	count       int32          // its count, seen[cur].count
	index       []int32        // open-addressing table: base + 1 + index in seen of a position; base or less if empty
	base        int32          // the positions counted before the current stretch (see resetWindow)
	twice       [2][]int32     // by side to move: indexes in seen of the positions that occurred at least twice
	fivefoldPly int
	near        nearTracker
	// notable is what Notable reads: marks set by the rare events after
	// which a ply may have something to report, each cleared when what it
	// marks can no longer hold.
	notable uint8
}

// The marks of Game.notable.
const (
	// notableTwice: a position of the current stretch has occurred twice
	// (twice is not empty); cleared when the stretch ends.
	notableTwice uint8 = 1 << iota
	// notableFifty: the halfmove clock is at least 99; cleared by a pawn
	// move or a capture.
	notableFifty
	// notableNear: a near repetition is possible (near.shared); cleared
	// by a pawn move or a capture.
	notableNear
)

// fiftyClock is the halfmove clock from which the move-count rules may
// have something to say: at 99 a declared move may complete 50 moves.
const fiftyClock = 99

// keptPlies is how many first occurrences of a position keep their ply:
// up to the fifth, which ends the game (9.6.1). The latest is kept too.
const keptPlies = 5

// seenPosition is one distinct position of the current reversible stretch.
type seenPosition struct {
	hash  uint64
	key   Key
	count int32            // occurrences so far
	first [keptPlies]int32 // the plies of its first occurrences (count of them, at most keptPlies)
	last  int32            // the ply of its latest occurrence
}

// plies returns the plies of the occurrences kept: every one up to the
// sixth, then the first five and the latest.
func (e *seenPosition) plies() []int {
	n := min(int(e.count), keptPlies)
	out := make([]int, n, n+1)
	for i := range out {
		out[i] = int(e.first[i])
	}
	if int(e.count) > keptPlies {
		out = append(out, int(e.last))
	}
	return out
}

const (
	minIndexSize = 64
	// maxIdleSeen bounds the capacity kept for the distinct positions
	// across an irreversible move: a long stretch gives its memory back.
	maxIdleSeen = 1024
)

// NewGame starts tracking a game from start.
func NewGame(start Position) *Game {
	g := &Game{seen: make([]seenPosition, 0, 32)}
	g.Reset(start)
	return g
}

// Reset starts tracking a new game from start on g, keeping the memory g
// has (within the bounds an irreversible move keeps), so that a caller
// that follows many games one after the other allocates nothing per game.
// Everything known about the previous game is forgotten; the moves kept
// are kept again unless DropMoves was called (the slice Moves returned
// before is overwritten). The zero Game is ready to Reset.
func (g *Game) Reset(start Position) {
	g.start, g.pos, g.ply, g.fivefoldPly = start, start, 0, -1
	g.moves = g.moves[:0]
	g.near.stop()
	g.twice[0], g.twice[1] = g.twice[0][:0], g.twice[1][:0]
	g.notable = 0
	if start.halfmove >= fiftyClock {
		g.notable = notableFifty
	}
	g.play(NoMove)
}

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return g.ply }

// Turn returns the side to move in the current position.
func (g *Game) Turn() Color { return g.pos.turn }

// HalfmoveClock returns the half-moves since the last capture or pawn move
// in the current position (cheaper than Position().HalfmoveClock()).
func (g *Game) HalfmoveClock() int { return int(g.pos.halfmove) }

// Moves returns the moves played so far, or nil after DropMoves. The slice
// must not be modified.
func (g *Game) Moves() []Move { return g.moves }

// DropMoves stops keeping the list of moves played (Moves returns nil from
// then on), for callers that keep the moves themselves or need only the
// verdicts: the memory of the game then no longer grows with its length.
func (g *Game) DropMoves() { g.moves, g.dropMoves = nil, true }

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
	m := g.pos.sanFast(s)
	if m == NoMove {
		return g.playSANSlow(s)
	}
	g.play(m)
	return m, nil
}

// playSANSlow is PlaySAN for the moves the fast reading leaves to parseSAN.
func (g *Game) playSANSlow(s string) (Move, error) {
	m, err := g.pos.parseSAN(s)
	if err != nil {
		return NoMove, err
	}
	g.play(m)
	return m, nil
}

// play makes the legal move m and counts the position it leads to, first
// forgetting every position when m was irreversible. play(NoMove) is how
// Reset enters the start position: the first of a new stretch. The first
// position of a stretch (after an irreversible move, two plies in five) is
// entered here at once, with nothing to look up and no room to check; the
// position after a reversible move goes to countReversible.
func (g *Game) play(m Move) {
	p := &g.pos
	if m != NoMove {
		g.ply++
		if !g.dropMoves {
			g.moves = append(g.moves, m)
		}
		changed := p.play(m) // last, so that m is not held across the call
		if p.halfmove >= fiftyClock {
			g.notable |= notableFifty
		}
		if changed == 0 {
			g.countReversible()
			return
		}
		if changed&newPlacement != 0 {
			// A new stretch, the clock at 0, no near repetition (the
			// twice mark goes with the stretch, below).
			g.notable &= notableTwice
			if g.near.active {
				g.near.stop()
			}
		} else {
			// Castling, or a king or rook move that loses castling rights.
			g.near.keep(g.seen)
			g.markNear()
		}
	}
	// The position is the first of a new stretch: every position is
	// forgotten (resetWindow, whose usual case is here, without a call)
	// and there is nothing to look up. seen has room for it and the index
	// for many (resetWindow makes sure).
	base := g.base + int32(len(g.seen))
	if len(g.index) != minIndexSize || base > maxIndexBase || cap(g.seen) > maxIdleSeen {
		g.resetWindow()
	} else {
		g.base = base
		g.seen = g.seen[:0]
		if g.notable&notableTwice != 0 {
			g.twice[0], g.twice[1] = g.twice[0][:0], g.twice[1][:0]
			g.notable &^= notableTwice
		}
	}
	h := p.hash
	g.index[h&uint64(len(g.index)-1)] = g.base + 1
	g.seen = g.seen[:1]
	e := &g.seen[0]
	e.hash, e.count, e.first[0] = h, 1, int32(g.ply) // see countReversible on first[1:] and last
	p.fillKey(&e.key)
	g.cur, g.count = 0, 1
	if g.near.active || p.ep != NoSquare { // almost never: no call at all
		g.near.add(g)
		g.markNear()
	}
}

// countReversible is play's path after a reversible move: the position
// is looked up among those of the stretch and counted again, or entered.
func (g *Game) countReversible() {
	p := &g.pos
	h := p.hash
	index := g.index
	mask := uint64(len(index) - 1)
	slot := h & mask
	base := g.base
	for ; ; slot = (slot + 1) & mask {
		s := index[slot&mask] - base
		if s <= 0 {
			break // a new position
		}
		if g.seen[s-1].hash == h {
			// Rarely: a position with the same hash, perhaps the
			// same position. Out of line, so that nothing here is
			// held across a call.
			var again bool
			if slot, again = g.countAgain(); again {
				return
			}
			break
		}
	}
	n := len(g.seen)
	index[slot&mask] = base + int32(n) + 1
	if n == cap(g.seen) {
		g.growSeen()
	}
	// The new entry is written in place: first[1:] and last may hold an
	// old entry's plies, which count hides (last is read only past
	// keptPlies occurrences, and recordAgain writes it).
	seen := g.seen[:n+1]
	g.seen = seen
	e := &seen[n]
	e.hash, e.count, e.first[0] = h, 1, int32(g.ply)
	p.fillKey(&e.key)
	g.cur, g.count = int32(n), 1
	if 2*(n+1) > len(g.index) {
		g.growIndex()
	}
	if g.near.active { // almost never: no call at all
		g.near.add(g)
		g.markNear()
	}
}

// markNear marks the game notable once a near repetition is possible.
func (g *Game) markNear() {
	if g.near.shared {
		g.notable |= notableNear
	}
}

// Notable reports whether the current ply may have something to report:
// when it is false, the position has occurred only once (Count is 1),
// CanClaimRepetition is false, HalfmoveClock is below 99 and
// NearRepetitions is empty. It is one load, for callers that look at
// every ply (the answer may be true when none of those holds: the
// positions of the current stretch include one that occurred twice, so
// the caller asks the others).
func (g *Game) Notable() bool { return g.notable != 0 }

// countAgain is play's path for a current position whose hash an entry
// has: it counts the position again and returns true if it is there
// (the Key decides), or else returns the empty slot where it goes.
func (g *Game) countAgain() (slot uint64, again bool) {
	key := g.pos.Key()
	i := g.lookup(g.pos.hash, &key)
	if s := g.index[i] - g.base; s > 0 {
		g.recordAgain(s - 1)
		return uint64(i), true
	}
	return uint64(i), false
}

// growSeen makes room for one more entry in seen.
func (g *Game) growSeen() {
	g.seen = append(g.seen, seenPosition{})[:len(g.seen)]
}

// recordAgain counts one more occurrence of the position seen[i], the
// current one.
func (g *Game) recordAgain(i int32) {
	ply := int32(g.ply)
	g.cur = i
	e := &g.seen[i]
	if e.count < keptPlies {
		e.first[e.count] = ply
	}
	e.count++
	e.last = ply
	g.count = e.count
	if e.count == 2 {
		t := g.pos.turn & 1
		g.twice[t] = append(g.twice[t], i)
		g.notable |= notableTwice
	}
	if e.count >= 5 && g.fivefoldPly < 0 {
		g.fivefoldPly = g.ply
	}
}

// maxIndexBase bounds base; past it the index is cleared.
const maxIndexBase = 1 << 30

// resetWindow forgets every position: none can occur again. The index is
// not cleared: base moves past its entries, which then read as empty.
// (play does the same inline when the index and seen are of the usual
// size.)
func (g *Game) resetWindow() {
	g.base += int32(len(g.seen))
	switch {
	case g.index == nil || len(g.index) > minIndexSize:
		g.index = make([]int32, minIndexSize)
		g.base = 0
	case g.base > maxIndexBase:
		clear(g.index)
		g.base = 0
	}
	if cap(g.seen) > maxIdleSeen || cap(g.seen) == 0 {
		g.seen = make([]seenPosition, 0, 32)
	}
	g.seen = g.seen[:0]
	g.twice[0], g.twice[1] = g.twice[0][:0], g.twice[1][:0]
	g.notable &^= notableTwice
}

// lookup returns the slot of the index that holds the position (h, key),
// or the empty slot where it would go.
func (g *Game) lookup(h uint64, key *Key) int {
	mask := uint64(len(g.index) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := g.index[i] - g.base
		if s <= 0 {
			return int(i)
		}
		if o := &g.seen[s-1]; o.hash == h && o.key == *key {
			return int(i)
		}
	}
}

// growIndex doubles the index and re-enters every position.
func (g *Game) growIndex() {
	g.index = make([]int32, 2*len(g.index))
	g.base = 0
	for i := range g.seen {
		o := &g.seen[i]
		g.index[g.lookup(o.hash, &o.key)] = int32(i) + 1
	}
}

// Count returns how many times the current position has occurred,
// including now.
func (g *Game) Count() int { return int(g.count) }

// Occurrences returns the plies at which the current position occurred,
// in ascending order; the last is the current ply. Past the sixth
// occurrence (the game was drawn at the fifth, 9.6.1) only the first five
// and the current one are listed.
func (g *Game) Occurrences() []int { return g.seen[g.cur].plies() }

// OccurrencesOf returns the plies at which the position that m would
// produce has already occurred (m must be legal), as Occurrences lists
// them. It is empty when that position is new.
func (g *Game) OccurrencesOf(m Move) []int {
	next := g.pos
	next.Play(m)
	key := next.Key()
	s := g.index[g.lookup(next.hash, &key)] - g.base
	if s <= 0 {
		return nil
	}
	return g.seen[s-1].plies()
}

// CanClaimThreefold reports whether the current position has occurred at
// least three times, so that the side to move may claim a draw (9.2.2).
func (g *Game) CanClaimThreefold() bool { return g.Count() >= 3 }

// CanClaimRepetition reports whether the side to move may claim a draw by
// repetition now: under 9.2.2, or under 9.2.1 by declaring a move.
func (g *Game) CanClaimRepetition() bool {
	// Usually false at once, inlined into the caller: the opponent has had
	// no position twice, so no move goes back to one.
	return g.count >= 3 || len(g.twice[g.pos.turn&1^1]) != 0 && g.canClaimByMove()
}

// canClaimByMove reports whether some legal move leads to a position
// that occurred twice (9.2.1). It is kept out of line so that
// CanClaimRepetition, which calls it rarely, is inlined.
//
//go:noinline
func (g *Game) canClaimByMove() bool {
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
	wantMeta := (cur.meta ^ 1) &^ keyEPMask // other side to move, same castling, no e.p.
	for _, i := range cands {
		t := &g.seen[i].key
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
		if p.board[from].Type() == Pawn || p.castle&castlingLoss(p.turn, p.board[from].Type(), from, to) != 0 || !p.pseudoLegal(m) || !p.legal(m) {
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
	// move that is neither would complete them (FiftyMovesByMove). Never at
	// a mate or stalemate: the game ended there, with nothing to claim.
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
		Ply:                  g.ply,
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
	switch {
	case v.Checkmate || v.Stalemate:
		// The game ended with the move that led here (5.1.1, 5.2.1): there
		// is nothing left to claim.
	case p.halfmove >= 100:
		v.FiftyMoves = true
	case p.halfmove == 99:
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

// Clone returns a copy of g that goes on independently: a move played on
// one is not played on the other. It answers "what if": the verdict after
// a move that is only declared (9.2.1), without replaying the game.
func (g *Game) Clone() *Game {
	c := *g
	c.moves = slices.Clone(g.moves)
	c.seen = slices.Clone(g.seen)
	c.index = slices.Clone(g.index)
	c.twice = [2][]int32{slices.Clone(g.twice[0]), slices.Clone(g.twice[1])}
	c.near = g.near.clone()
	return &c
}
