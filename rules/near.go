package rules

import "slices"

// A near repetition is a position whose placement, with the same side to
// move, occurred before as another position: other castling rights, or an
// en passant capture possible then and not now (or the other way round).
// It is what people take for a repetition and the rule does not count.
//
// Game finds them cheaply. The placement of a position can only recur
// until the next pawn move or capture, and within that stretch the
// position differs from an earlier one of the same placement only if
// castling rights were lost in between (the tracker then forgot the
// earlier positions) or the stretch began with an en passant capture
// possible (only a double push makes one, and it begins a stretch). Until
// one of those happens nothing is done at all; from then on to the next
// pawn move or capture, every new position is indexed by its placement.

// NearRepetition is an earlier position with the placement and the side
// to move of the current one but another identity.
type NearRepetition struct {
	// Plies are the plies at which it occurred, as Occurrences lists them;
	// Count how many times.
	Plies []int
	Count int
	// Diff says how it differs from the current position: DiffCastling,
	// DiffEnPassant or both.
	Diff Diff
}

// placementKey is the placement and the side to move of a Key.
type placementKey struct {
	planes [4]uint64
	turn   uint32
}

func placementOf(k *Key) placementKey { return placementKey{k.planes, k.meta & 1} }

// placementHash returns the hash of the placement and the side to move of
// the entry e: its hash without the castling rights and the e.p. file.
func placementHash(e *seenPosition) uint64 {
	h := e.hash ^ castlingHash(uint16(e.key.meta>>keyCastleShift))
	if f := e.key.meta >> keyEPShift & 15; f != 0 {
		h ^= zobEP[(f-1)&7]
	}
	return h
}

// minNearSlots is the size of the placement index of a new stretch.
const minNearSlots = 64

// nearTracker indexes the positions of the current stretch by placement,
// once a near repetition has become possible. Its zero value is idle.
//
// A position of the stretch has a stable number, its ref: the positions
// the tracker kept (earlier) come first, then the Game's seen, so
// seen[i] is ref len(earlier)+i, and keep, which moves seen to the end of
// earlier, changes no ref.
type nearTracker struct {
	active bool
	// earlier are the positions of the stretch that the Game forgot when
	// castling rights changed.
	earlier []seenPosition
	// slots is an open-addressing table of every position of the stretch
	// by placementHash, filled in the order of the refs (so the positions
	// of one placement are met in the order they first occurred).
	slots []nearSlot
	used  int // slots in use
	// shared: two positions of the stretch have the same placementHash
	// (so perhaps the same placement): until then no position has a near
	// repetition, and NearRepetitions answers at once.
	shared bool
}

// nearSlot is one position of the stretch in the placement index.
type nearSlot struct {
	hash uint64 // placementHash
	ref  int32  // ref + 1; 0: empty
}

// stop ends the stretch: a pawn moved or a piece was captured.
func (n *nearTracker) stop() {
	if n.active {
		n.active = false
		n.earlier = n.earlier[:0]
		if len(n.slots) > minNearSlots {
			n.slots = nil
		} else {
			clear(n.slots)
		}
		n.used, n.shared = 0, false
	}
}

// keep is called when castling rights changed without a pawn move or a
// capture, before the Game forgets seen: they may recur in placement.
func (n *nearTracker) keep(seen []seenPosition) {
	base := len(n.earlier)
	n.earlier = append(n.earlier, seen...)
	if !n.active {
		n.active = true
		for i := range seen {
			n.insert(placementHash(&seen[i]), int32(base+i))
		}
	}
	// Already active: every position of seen was indexed when it was new.
}

// add indexes the current position of g, which is new, starting a stretch
// when it has an en passant capture (the position is then the first of
// its stretch: a double push just made it).
func (n *nearTracker) add(g *Game) {
	if !n.active {
		if g.pos.ep == NoSquare {
			return
		}
		n.active = true
	}
	n.insert(placementHash(&g.seen[g.cur]), int32(len(n.earlier))+g.cur)
}

// insert enters the position ref, whose placement hashes to h; refs come
// in increasing order.
func (n *nearTracker) insert(h uint64, ref int32) {
	if 2*(n.used+1) > len(n.slots) {
		n.grow()
	}
	mask := uint64(len(n.slots) - 1)
	i := h & mask
	for n.slots[i].ref != 0 {
		if n.slots[i].hash == h {
			n.shared = true
		}
		i = (i + 1) & mask
	}
	n.slots[i] = nearSlot{hash: h, ref: ref + 1}
	n.used++
}

// grow doubles the placement index (or makes the first one) and enters
// its positions again, in the order of their refs.
func (n *nearTracker) grow() {
	old := n.slots
	size := max(minNearSlots, 2*len(old))
	n.slots = make([]nearSlot, size)
	mask := uint64(size - 1)
	var live []nearSlot
	for _, s := range old {
		if s.ref != 0 {
			live = append(live, s)
		}
	}
	slices.SortFunc(live, func(a, b nearSlot) int { return int(a.ref - b.ref) })
	for _, s := range live {
		i := s.hash & mask
		for n.slots[i].ref != 0 {
			i = (i + 1) & mask
		}
		n.slots[i] = s
	}
}

// NearRepetitions returns the earlier positions with the placement and
// side to move of the current one but another identity, since the last
// pawn move or capture, in the order they first occurred. It is nil
// almost always, and costs nothing then.
func (g *Game) NearRepetitions() []NearRepetition {
	if !g.near.shared {
		return nil // the usual answer, inlined
	}
	return g.nearRepetitions()
}

func (g *Game) nearRepetitions() []NearRepetition {
	n := &g.near
	cur := &g.seen[g.cur]
	h := placementHash(cur)
	pk := placementOf(&cur.key)
	var out []NearRepetition
	mask := uint64(len(n.slots) - 1)
	for i := h & mask; n.slots[i].ref != 0; i = (i + 1) & mask {
		s := n.slots[i]
		if s.hash != h {
			continue
		}
		var o *seenPosition
		if r := int(s.ref - 1); r < len(n.earlier) {
			o = &n.earlier[r]
		} else {
			o = &g.seen[r-len(n.earlier)]
		}
		if o.key == cur.key || placementOf(&o.key) != pk {
			continue
		}
		out = append(out, NearRepetition{Plies: o.plies(), Count: int(o.count), Diff: cur.key.Diff(o.key)})
	}
	return out
}

// clone returns a copy of n that shares nothing with it.
func (n *nearTracker) clone() nearTracker {
	c := *n
	c.earlier, c.slots = slices.Clone(n.earlier), slices.Clone(n.slots)
	return c
}
