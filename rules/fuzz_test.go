package rules

import (
	"errors"
	"strings"
	"testing"
)

// FuzzFEN: ParseFEN never panics; an error is a *FENError naming a field;
// a position it accepts writes a FEN that reads back to the same Key, and
// every legal move survives SAN and UCI round trips.
func FuzzFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"4k3/1b2p2b/8/3P1P2/4K3/8/8/r7 b - - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"4k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			var fe *FENError
			if !errors.As(err, &fe) || fe.Field == "" || fe.Reason == "" {
				t.Fatalf("error without field: %v", err)
			}
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("%q: own FEN %q does not read back: %v", s, p.FEN(), err)
		}
		if q.Key() != p.Key() || q.Hash() != p.Hash() || q.FEN() != p.FEN() {
			t.Fatalf("%q: round trip changed the position: %s vs %s", s, p.FEN(), q.FEN())
		}
		if p.Hash() != p.computeHash() {
			t.Fatalf("%q: hash out of step", s)
		}
		for _, m := range p.LegalMoves(nil) {
			san := p.SAN(m)
			if got, err := p.ParseSAN(san); err != nil || got != m {
				t.Fatalf("%s: SAN %q of %s reads as %v, %v", p.FEN(), san, m, got, err)
			}
			if got, err := p.ParseUCI(m.UCI()); err != nil || got != m {
				t.Fatalf("%s: UCI %s reads as %v, %v", p.FEN(), m, got, err)
			}
			next := p
			next.Play(m)
			if next.Hash() != next.computeHash() {
				t.Fatalf("%s: hash out of step after %s", p.FEN(), m)
			}
		}
	})
}

// FuzzSAN: ParseSAN never panics on any text in a few positions, and
// whatever it accepts is a legal move whose own SAN reads back to it.
func FuzzSAN(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd6e.p.", "e8=Q", "e8Q", "e8(Q)", "Nbd7", "R1a3", "Qh4xe1+", "Ng1-f3", "!?", "Kxx", "e9", "=", "", "Qa1b2c3"} {
		f.Add(s)
	}
	fens := []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fen := range fens {
			p, _ := ParseFEN(fen)
			m, err := p.ParseSAN(s)
			if err != nil {
				if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrAmbiguous) {
					t.Fatalf("%q: error of no kind: %v", s, err)
				}
				continue
			}
			if !p.IsLegal(m) {
				t.Fatalf("%q in %s: accepted illegal %s", s, fen, m)
			}
			if back, err := p.ParseSAN(p.SAN(m)); err != nil || back != m {
				t.Fatalf("%q in %s: SAN %q does not read back", s, fen, p.SAN(m))
			}
		}
	})
}

// FuzzUCI: ParseUCI never panics and accepts only legal moves.
func FuzzUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e1h1", "e7e8q", "e7e8", "0000", "a1a1", "h8h9", "e2e4k", ""} {
		f.Add(s)
	}
	p, _ := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := p.ParseUCI(s)
		if err == nil && !p.IsLegal(m) {
			t.Fatalf("%q accepted as illegal %s", s, m)
		}
		if err != nil && !strings.Contains(err.Error(), "move") {
			t.Fatalf("%q: unclear error %v", s, err)
		}
	})
}
