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

// nearTracker indexes the positions of the current stretch by placement,
// once a near repetition has become possible. Its zero value is idle.
type nearTracker struct {
	active bool
	// earlier are the positions of the stretch that the tracker forgot when
	// castling rights changed.
	earlier []seenPosition
	// byPlacement holds, for each placement, its positions: i >= 0 is
	// seen[i] of the Game, i < 0 is earlier[-i-1].
	byPlacement map[placementKey][]int32
}

// stop ends the stretch: a pawn moved or a piece was captured.
func (n *nearTracker) stop() {
	if n.active {
		n.active = false
		n.earlier = n.earlier[:0]
		clear(n.byPlacement)
	}
}

// keep is called when castling rights changed without a pawn move or a
// capture, before the tracker forgets seen: they may recur in placement.
func (n *nearTracker) keep(seen []seenPosition) {
	if !n.active {
		n.active = true
		if n.byPlacement == nil {
			n.byPlacement = map[placementKey][]int32{}
		}
	}
	base := int32(len(n.earlier))
	n.earlier = append(n.earlier, seen...)
	for pk, refs := range n.byPlacement {
		for i, r := range refs {
			if r >= 0 {
				refs[i] = -(base + r) - 1
			}
		}
		n.byPlacement[pk] = refs
	}
	for i := range seen {
		if ref := -(base + int32(i)) - 1; !n.indexed(&seen[i].key, ref) {
			pk := placementOf(&seen[i].key)
			n.byPlacement[pk] = append(n.byPlacement[pk], ref)
		}
	}
}

// indexed reports whether ref is already listed under the placement of k.
func (n *nearTracker) indexed(k *Key, ref int32) bool {
	for _, r := range n.byPlacement[placementOf(k)] {
		if r == ref {
			return true
		}
	}
	return false
}

// add indexes the current position of g, which is new, starting a stretch
// when it has an en passant capture.
func (n *nearTracker) add(g *Game) {
	if !n.active {
		if g.pos.ep == NoSquare {
			return
		}
		n.active = true
		if n.byPlacement == nil {
			n.byPlacement = map[placementKey][]int32{}
		}
	}
	pk := placementOf(&g.seen[g.cur].key)
	n.byPlacement[pk] = append(n.byPlacement[pk], g.cur)
}

// NearRepetitions returns the earlier positions with the placement and
// side to move of the current one but another identity, since the last
// pawn move or capture, in the order they first occurred. It is nil
// almost always, and costs nothing then.
func (g *Game) NearRepetitions() []NearRepetition {
	if !g.near.active {
		return nil // the usual answer, inlined
	}
	return g.nearRepetitions()
}

func (g *Game) nearRepetitions() []NearRepetition {
	n := &g.near
	cur := &g.seen[g.cur]
	var out []NearRepetition
	for _, r := range n.byPlacement[placementOf(&cur.key)] {
		var o *seenPosition
		if r >= 0 {
			o = &g.seen[r]
		} else {
			o = &n.earlier[-r-1]
		}
		if o.key == cur.key {
			continue
		}
		out = append(out, NearRepetition{Plies: o.plies(), Count: int(o.count), Diff: cur.key.Diff(o.key)})
	}
	return out
}

// clone returns a copy of n that shares nothing with it.
func (n *nearTracker) clone() nearTracker {
	c := nearTracker{active: n.active, earlier: slices.Clone(n.earlier)}
	if n.byPlacement != nil {
		c.byPlacement = make(map[placementKey][]int32, len(n.byPlacement))
		for pk, refs := range n.byPlacement {
			c.byPlacement[pk] = slices.Clone(refs)
		}
	}
	return c
}
