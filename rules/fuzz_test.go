package rules

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// FuzzFEN: reading a FEN never panics, in standard chess (with and
// without the Chess960 guess of ParseFEN) and in Chess960; an error is a
// *FENError naming a field; a position it accepts writes X-FEN and
// Shredder-FEN that both read back to the same Key, and every legal move
// survives SAN and UCI round trips (castling in both UCI forms).
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
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
		"1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
		"4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
		"n1bb1rkr/qpnppppp/2p5/p7/P1P5/5P2/1P1PPRPP/NQBBN1KR w Kkf - 0 1",
		"4k3/8/8/8/8/8/8/4K1RR w GH - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, read := range []func(string) (Position, []string, error){ParseFENNotes, standardFEN, chess960FEN} {
			p, _, err := read(s)
			if err != nil {
				var fe *FENError
				if !errors.As(err, &fe) || fe.Field == "" || fe.Reason == "" {
					t.Fatalf("error without field: %v", err)
				}
				continue
			}
			checkFENRoundTrips(t, s, p)
		}
	})
}

func checkFENRoundTrips(t *testing.T, s string, p Position) {
	t.Helper()
	for _, fen := range []string{p.FEN(), p.ShredderFEN()} {
		q, notes, err := ParseFENVariant(fen, p.Variant())
		if err != nil || len(notes) > 0 {
			t.Fatalf("%q: own FEN %q does not read back: %v %v", s, fen, err, notes)
		}
		if q.Key() != p.Key() || q.Hash() != p.Hash() || q.FEN() != p.FEN() || q.ShredderFEN() != p.ShredderFEN() {
			t.Fatalf("%q: round trip of %s changed the position: %s vs %s", s, fen, p.ShredderFEN(), q.ShredderFEN())
		}
	}
	if p.Hash() != p.computeHash() {
		t.Fatalf("%q: hash out of step", s)
	}
	if p.checkers != p.computeCheckers() {
		t.Fatalf("%q: checkers out of step", s)
	}
	for _, m := range p.LegalMoves(nil) {
		san := p.SAN(m)
		if got, err := p.ParseSAN(san); err != nil || got != m {
			t.Fatalf("%s: SAN %q of %s reads as %v, %v", p.FEN(), san, m, got, err)
		}
		for _, u := range []string{m.UCI(), m.UCIChess960()} {
			if got, err := p.ParseUCI(u); err != nil || got != m {
				t.Fatalf("%s: UCI %s reads as %v, %v", p.FEN(), u, got, err)
			}
		}
		next := p
		next.Play(m)
		if next.Hash() != next.computeHash() {
			t.Fatalf("%s: hash out of step after %s", p.FEN(), m)
		}
		if next.checkers != next.computeCheckers() {
			t.Fatalf("%s: checkers out of step after %s", p.FEN(), m)
		}
	}
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

// FuzzSANFastPath: whenever the fast reading of ParseSAN answers, the full
// reading gives the same move and no error.
func FuzzSANFastPath(f *testing.F) {
	for _, s := range []string{"e4", "e3", "exd6", "Nf3", "Nbd7", "N1d2", "Nb1d2", "Nxe5", "Kxe2", "O-O", "O-O-O#", "d8=Q+", "dxc8=N", "e8=K", "bxa1=Q", "Qh4xe1+", "Rae1", "hxg1=R", "a1", "axb"} {
		f.Add(s)
	}
	fens := []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fen := range fens {
			p, _ := ParseFEN(fen)
			checkSANFastPath(t, &p, s)
		}
	})
}

// checkSANFastPath fails when the fast reading of s answers with another
// move than the full reading.
func checkSANFastPath(t *testing.T, p *Position, s string) {
	t.Helper()
	m := p.sanFast(s)
	if m == NoMove {
		return
	}
	want, err := p.parseSAN(s)
	if err != nil || m != want {
		t.Fatalf("%q in %s: fast reading %s, full reading %s, %v", s, p.FEN(), m, want, err)
	}
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

// FuzzChess960Play plays a random game from a Chess960 start (the fuzzer
// picks the start and the moves) and checks at every ply what FuzzFEN
// checks: both FEN notations read back to the same position, every legal
// move survives SAN and both UCI forms, the hash follows the Key.
func FuzzChess960Play(f *testing.F) {
	for _, seed := range []struct {
		sp    uint16
		moves []byte
	}{{518, []byte{1, 2, 3}}, {0, []byte("castle early")}, {959, []byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}}, {300, []byte("the king walks over to the other side")}} {
		f.Add(seed.sp, seed.moves)
	}
	f.Fuzz(func(t *testing.T, sp uint16, choices []byte) {
		p, err := Chess960Start(int(sp) % 960)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range choices {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				return
			}
			checkFENRoundTrips(t, p.FEN(), p)
			// Castling first when there is one, so that short inputs reach it.
			slices.SortStableFunc(moves, func(a, b Move) int { return cmp.Compare(b&castlingFlag, a&castlingFlag) })
			p.Play(moves[int(c)%len(moves)])
		}
	})
}

// TestChess960RandomGames plays random games from every Chess960 start
// and checks every position as FuzzChess960Play does.
func TestChess960RandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 960))
	starts, plies := 960, 80
	if testing.Short() || raceEnabled {
		starts = 24 // all 960 without -race
	}
	castlings := 0
	for i := 0; i < starts; i++ {
		p, _ := Chess960Start(i * 960 / starts)
		for ply := 0; ply < plies; ply++ {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			checkFENRoundTrips(t, p.FEN(), p)
			m := moves[rng.IntN(len(moves))]
			for _, c := range moves {
				if c.IsCastling() && rng.IntN(2) == 0 {
					m = c
				}
			}
			if m.IsCastling() {
				castlings++
			}
			p.Play(m)
		}
	}
	if castlings < starts/3 {
		t.Errorf("only %d castling moves in %d games", castlings, starts)
	}
}
