// Package book reads Polyglot opening books (.bin), the format bot runners
// already have, and chooses a book move by the entries' weights.
//
// A book is a file of 16-byte entries sorted by key, each big-endian: the
// position's key (8 bytes), a move (2), its weight (2) and a learning
// value (4) that is not used here. A move packs the target file and rank
// (bits 0–5), the origin (6–11) and a promotion (12–14: none, knight,
// bishop, rook, queen); castling is the king taking its own rook (e1h1),
// the form package rules reads.
package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sort"

	"github.com/threefold-chess/threefold/rules"
)

// entrySize is the size of one entry of a book.
const entrySize = 16

// Key returns the Polyglot key of the position g has reached. The en
// passant file counts when the last move was a double pawn push and a
// pawn of the side to move stands beside it (whether or not the capture
// is legal, as the format says).
func Key(g *rules.Game) uint64 {
	pos := g.Position()
	var k uint64
	for sq := rules.Square(0); sq < 64; sq++ {
		pc := pos.PieceAt(sq)
		if pc == rules.NoPiece {
			continue
		}
		kind := 2 * (int(pc.Type()) - 1)
		if pc.Color() == rules.White {
			kind++
		}
		k ^= randoms[64*kind+int(sq)]
	}
	for _, r := range pos.CastlingRights() {
		i := 768
		if !r.Short {
			i++
		}
		if r.Color == rules.Black {
			i += 2
		}
		k ^= randoms[i]
	}
	if file, ok := enPassantFile(g, &pos); ok {
		k ^= randoms[772+file]
	}
	if pos.Turn() == rules.White {
		k ^= randoms[780]
	}
	return k
}

// enPassantFile is the file of a pawn that just moved two squares with a
// pawn of the side to move beside it.
func enPassantFile(g *rules.Game, pos *rules.Position) (int, bool) {
	moves := g.Moves()
	if len(moves) == 0 {
		// A game from a FEN: its en passant square (kept only when the
		// capture is legal).
		if ep := pos.EnPassant(); ep != rules.NoSquare {
			return ep.File(), true
		}
		return 0, false
	}
	last := moves[len(moves)-1]
	from, to := last.From(), last.To()
	us := pos.Turn()
	if pos.PieceAt(to) != rules.NewPiece(us.Other(), rules.Pawn) || from.File() != to.File() || abs(from.Rank()-to.Rank()) != 2 {
		return 0, false
	}
	for _, df := range []int{-1, 1} {
		f := to.File() + df
		if f >= 0 && f < 8 && pos.PieceAt(rules.NewSquare(f, to.Rank())) == rules.NewPiece(us, rules.Pawn) {
			return to.File(), true
		}
	}
	return 0, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Book is an open Polyglot book. Its methods are safe for concurrent use
// (the file is read with ReadAt, never loaded whole).
type Book struct {
	f    *os.File
	path string
	n    int64 // entries
}

// Open opens a book and checks that it is a whole number of entries.
func Open(path string) (*Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("book: %w", err)
	}
	if st.Size()%entrySize != 0 || st.Size() == 0 {
		f.Close()
		return nil, fmt.Errorf("book: %s: %d bytes is not a Polyglot book (entries of %d bytes)", path, st.Size(), entrySize)
	}
	return &Book{f: f, path: path, n: st.Size() / entrySize}, nil
}

// Close closes the book's file.
func (b *Book) Close() error { return b.f.Close() }

// Entries returns the number of entries in the book.
func (b *Book) Entries() int64 { return b.n }

// entry is one raw entry of a book.
type entry struct {
	key    uint64
	move   uint16
	weight uint16
}

func (b *Book) read(i int64) (entry, error) {
	var buf [entrySize]byte
	if _, err := b.f.ReadAt(buf[:], i*entrySize); err != nil {
		return entry{}, fmt.Errorf("book: %s: entry %d: %w", b.path, i, err)
	}
	return entry{key: binary.BigEndian.Uint64(buf[0:]), move: binary.BigEndian.Uint16(buf[8:]), weight: binary.BigEndian.Uint16(buf[10:])}, nil
}

// Candidate is a book move of a position and its weight.
type Candidate struct {
	Move   rules.Move
	Weight int
}

// Moves returns the legal book moves of the position g has reached, by
// falling weight (a move the book lists twice counts once, with the sum of
// its weights). Entries whose move is not legal there (a key collision, a
// damaged book) are left out.
func (b *Book) Moves(g *rules.Game) ([]Candidate, error) {
	key := Key(g)
	var readErr error
	lo := sort.Search(int(b.n), func(i int) bool {
		e, err := b.read(int64(i))
		if err != nil {
			readErr = err
			return true
		}
		return e.key >= key
	})
	if readErr != nil {
		return nil, readErr
	}
	pos := g.Position()
	var out []Candidate
	for i := int64(lo); i < b.n; i++ {
		e, err := b.read(i)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
		if e.key != key {
			break
		}
		m, err := pos.ParseUCI(moveUCI(e.move))
		if err != nil {
			continue
		}
		found := false
		for j := range out {
			if out[j].Move == m {
				out[j].Weight += int(e.weight)
				found = true
			}
		}
		if !found {
			out = append(out, Candidate{Move: m, Weight: int(e.weight)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	return out, nil
}

// moveUCI writes a book move in UCI (castling as e1h1).
func moveUCI(m uint16) string {
	sq := func(v uint16) string { return string([]byte{byte('a' + v&7), byte('1' + v>>3&7)}) }
	s := sq(m>>6&63) + sq(m&63)
	if p := m >> 12 & 7; p >= 1 && p <= 4 {
		s += string("nbrq"[p-1])
	}
	return s
}

// How Choose picks among the book moves.
const (
	ChooseWeighted = "weighted" // at random, in proportion to the weights
	ChooseBest     = "best"     // the heaviest (the first listed of equals)
)

// Choose picks a move among candidates (as Moves returns them) by how:
// ChooseWeighted draws with rnd in proportion to the weights, ChooseBest
// takes the heaviest. Moves of weight 0 are never played (Polyglot books
// keep them to say a move is known and bad). It reports false when none
// is left.
func Choose(cands []Candidate, how string, rnd *rand.Rand) (Candidate, bool) {
	total := 0
	for _, c := range cands {
		total += c.Weight
	}
	if total == 0 {
		return Candidate{}, false
	}
	if how == ChooseBest {
		best := cands[0]
		for _, c := range cands[1:] {
			if c.Weight > best.Weight {
				best = c
			}
		}
		return best, true
	}
	r := rnd.IntN(total)
	for _, c := range cands {
		if r < c.Weight {
			return c, true
		}
		r -= c.Weight
	}
	return Candidate{}, false // not reached: r < total
}
