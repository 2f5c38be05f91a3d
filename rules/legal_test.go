package rules

import (
	"errors"
	"testing"
)

// shortcutPositions are positions where a legality shortcut that trusts
// the checkers and the lines through the king goes wrong if it is wrong:
// pins on every kind of line, discovered and double checks, en passant
// that exposes the king, checks that only en passant answers, castling
// through or out of check, and SAN where one of two candidates is pinned.
var shortcutPositions = []struct {
	name, fen string
}{
	{"knight pinned on a file", "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1"},
	{"bishop pinned on a diagonal, may move along it", "6k1/8/8/8/3q4/8/1B6/K7 w - - 0 1"},
	{"rook pinned on a rank, may take the pinner", "8/8/8/8/8/6k1/8/K1R3r1 w - - 0 1"},
	{"pawn pinned on a diagonal takes the pinner", "4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1"},
	{"pawn pinned on a file pushes along it", "4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1"},
	{"discovered check by a knight", "4k3/8/8/8/4N3/8/8/4R1K1 b - - 0 1"},
	{"double check: only the king moves", "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1"},
	{"double check: a free bishop could take one checker", "4k3/2b5/3N4/8/8/8/8/4R1K1 b - - 0 1"},
	{"en passant discovers check through the captured pawn", "6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 2"},
	{"single check: block or take", "r3k3/8/8/8/8/2n5/8/R3K2R w KQ - 0 1"},
	{"en passant exposes the king along the rank", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2"},
	{"en passant takes the checking pawn", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"},
	{"en passant blocked by a pin on the diagonal", "8/8/8/1k6/3Pp3/8/8/4KB2 b - d3 0 1"},
	{"castling through an attacked square", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"},
	{"castling out of check", "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1"},
	{"two knights, one pinned", "4k3/8/8/b5N1/8/8/3N4/4K3 w - - 0 1"},
	{"two rooks, one pinned on the file", "4r2k/8/8/8/8/R7/4R3/4K3 w - - 0 1"},
	{"rook pinned on the rank moves along it", "4k3/8/8/8/8/8/8/r1R1K1R1 w - - 0 1"},
	{"knight checks, a rook takes it", "4k3/8/8/8/8/3n4/8/R2RK3 w - - 0 1"},
	{"king walks along a checking line", "8/8/8/8/k7/8/8/r3K3 w - - 0 1"},
	{"mate on the back rank", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"},
	{"smothered mate", "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1"},
	{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},
	{"only a pinned bishop moves, along the pin", "7k/6b1/5Q2/8/8/8/8/K7 b - - 0 1"},
	{"perft position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
}

// statusOf is the status of the shortcut positions that are not Ongoing.
var statusOf = map[string]Status{
	"mate on the back rank": Checkmate,
	"smothered mate":        Checkmate,
	"stalemate":             Stalemate,
}

// TestLegalAgreesWithAttacks walks a few plies from every shortcut
// position and every perft position: at every position the checkers Play
// and ParseFEN keep are the attackers of the king, and legal answers for
// every pseudo-legal move as legalByAttacks (which looks for attackers of
// the king after the move) does; HasLegalMove says whether there is one.
func TestLegalAgreesWithAttacks(t *testing.T) {
	type root struct {
		name    string
		variant Variant
		fen     string
	}
	var roots []root
	withStatus := 0
	for _, c := range shortcutPositions {
		roots = append(roots, root{c.name, Standard, c.fen})
		if _, ok := statusOf[c.name]; ok {
			withStatus++
		}
	}
	if withStatus != len(statusOf) {
		t.Fatalf("statusOf names %d positions, %d of them shortcut positions", len(statusOf), withStatus)
	}
	for _, c := range perftCases {
		roots = append(roots, root{"perft " + c.name, c.variant, c.fen})
	}
	depth := 3
	if testing.Short() || raceEnabled {
		depth = 2
	}
	for _, r := range roots {
		t.Run(r.name, func(t *testing.T) {
			p, _, err := ParseFENVariant(r.fen, r.variant)
			if err != nil {
				t.Fatal(err)
			}
			positions := 0
			var walk func(p *Position, depth int)
			walk = func(p *Position, depth int) {
				positions++
				if got, want := p.checkers, p.computeCheckers(); got != want {
					t.Fatalf("%s: checkers %x, want %x", p.FEN(), got, want)
				}
				var arr [256]Move
				legalMoves := 0
				for _, m := range p.pseudoMoves(arr[:0]) {
					got, want := p.legal(m), p.legalByAttacks(m)
					if got != want {
						t.Fatalf("%s: %s legal %v, want %v", p.FEN(), m, got, want)
					}
					if want {
						legalMoves++
					}
				}
				if p.HasLegalMove() != (legalMoves > 0) {
					t.Fatalf("%s: HasLegalMove %v with %d legal moves", p.FEN(), p.HasLegalMove(), legalMoves)
				}
				if depth == 0 {
					return
				}
				for _, m := range p.LegalMoves(arr[:0]) {
					next := *p
					next.Play(m)
					walk(&next, depth-1)
				}
			}
			walk(&p, depth)
			if wantStatus, ok := statusOf[r.name]; ok && p.Status() != wantStatus {
				t.Fatalf("status %v, want %v", p.Status(), wantStatus)
			}
		})
	}
}

// TestShortcutMoves: in the shortcut positions, the moves a wrong
// shortcut would get wrong are read (SAN and UCI) as legal or illegal as
// the rules say, and check is seen after a discovered or double check.
func TestShortcutMoves(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		san       string // the move as written
		want      string // its UCI, or "illegal" / "ambiguous"
		check     bool   // the side to move is in check after it
	}{
		{"pinned knight may not move", "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "illegal", false},
		{"pinned bishop moves along the pin", "6k1/8/8/8/3q4/8/1B6/K7 w - - 0 1", "Bc3", "b2c3", false},
		{"pinned bishop takes the pinner", "6k1/8/8/8/3q4/8/1B6/K7 w - - 0 1", "Bxd4", "b2d4", false},
		{"pinned bishop may not leave the line", "6k1/8/8/8/3q4/8/1B6/K7 w - - 0 1", "Ba3", "illegal", false},
		{"pinned rook takes the pinner on the rank", "8/8/8/8/8/6k1/8/K1R3r1 w - - 0 1", "Rxg1+", "c1g1", true},
		{"pinned rook may not leave the rank", "8/8/8/8/8/6k1/8/K1R3r1 w - - 0 1", "Rc2", "illegal", false},
		{"pinned pawn takes the pinner", "4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1", "cxb4", "c3b4", false},
		{"pinned pawn may not push off the diagonal", "4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1", "c4", "illegal", false},
		{"pawn pinned on a file pushes", "4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1", "e4", "e2e4", false},
		{"discovered check by the knight", "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "Nc5", "e4c5", true},
		{"in double check a block is illegal", "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1", "Kd7", "e8d7", false},
		{"in double check the king must move", "3rk3/8/3N4/8/8/8/8/4R1K1 b - - 0 1", "Rxd6", "illegal", false},
		{"in double check taking one checker is illegal", "4k3/2b5/3N4/8/8/8/8/4R1K1 b - - 0 1", "Bxd6", "illegal", false},
		{"en passant discovers check through the captured pawn", "6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 2", "exd6", "e5d6", true},
		{"in single check the knight blocks", "r3k3/8/8/8/8/2n5/8/R3K2R w KQ - 0 1", "Rxa8+", "a1a8", true},
		{"in check a move that does not answer it", "4k3/8/8/8/8/3n4/8/R2RK3 w - - 0 1", "Ra2", "illegal", false},
		{"in check the checker is taken", "4k3/8/8/8/8/3n4/8/R2RK3 w - - 0 1", "Rxd3", "d1d3", false},
		{"en passant exposing the king on the rank", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "bxc6", "illegal", false},
		{"en passant takes the checking pawn", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "exd3", "e4d3", false},
		{"castling through an attacked square", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O", "illegal", false},
		{"castling on the other side", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O-O", "e1a1", false},
		{"castling out of check", "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O", "illegal", false},
		{"one knight pinned: Ne4 is the free one", "4k3/8/8/b5N1/8/8/3N4/4K3 w - - 0 1", "Ne4", "g5e4", false},
		{"one knight pinned: the pinned one named", "4k3/8/8/b5N1/8/8/3N4/4K3 w - - 0 1", "Nde4", "illegal", false},
		{"one rook pinned: Ra2 is the free one", "4r2k/8/8/8/8/R7/4R3/4K3 w - - 0 1", "Ra2", "a3a2", false},
		{"one rook pinned: the pinned one named", "4r2k/8/8/8/8/R7/4R3/4K3 w - - 0 1", "Rea2", "illegal", false},
		{"both rooks free: ambiguous", "7k/8/8/8/8/R7/4R3/4K3 w - - 0 1", "Ra2", "ambiguous", false},
		{"rook pinned on the rank moves along it", "4k3/8/8/8/8/8/8/r1R1K1R1 w - - 0 1", "Rd1", "c1d1", false},
		{"rook pinned on the rank takes the pinner", "4k3/8/8/8/8/8/8/r1R1K1R1 w - - 0 1", "Rxa1", "c1a1", false},
		{"king may not walk along the checking line", "8/8/8/8/k7/8/8/r3K3 w - - 0 1", "Kf1", "illegal", false},
		{"king steps off the checking line", "8/8/8/8/k7/8/8/r3K3 w - - 0 1", "Ke2", "e1e2", false},
		{"the only king step, not in check, onto an attacked square", "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "Kf1", "illegal", false},
		{"king may not step where an enemy pawn takes", "4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "Kd2", "illegal", false},
		{"king steps in front of the enemy pawn", "4k3/8/8/8/8/4p3/8/4K3 w - - 0 1", "Ke2", "e1e2", false},
		{"black king may not step where a white pawn takes", "4k3/8/4P3/8/8/8/8/4K3 b - - 0 1", "Kd7", "illegal", false},
		{"the only bishop, pinned on a diagonal, leaves it", "4k3/8/8/8/8/2b5/3B4/4K3 w - - 0 1", "Be3", "illegal", false},
		{"the only bishop, not in check and on no line of the king", "4k3/8/8/8/8/8/8/1B2K3 w - - 0 1", "Bh7", "b1h7", false},
		{"knight on the king's file, the enemy rook shielded by a pawn", "4r1k1/8/8/8/4P3/8/4N3/4K3 w - - 0 1", "Nc3", "e2c3", false},
		{"pawn on the king's diagonal, the enemy bishop beyond it", "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", "d4", "illegal", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseSAN(tc.san)
			switch {
			case tc.want == "illegal" || tc.want == "ambiguous":
				wantErr := ErrIllegal
				if tc.want == "ambiguous" {
					wantErr = ErrAmbiguous
				}
				if !errors.Is(err, wantErr) {
					t.Fatalf("%s read as %v, %v; want %v", tc.san, m, err, wantErr)
				}
				for _, l := range p.LegalMoves(nil) {
					if p.SAN(l) == tc.san {
						t.Fatalf("%s is among the legal moves", tc.san)
					}
				}
				return
			case err != nil:
				t.Fatalf("%s: %v", tc.san, err)
			case m.UCIChess960() != tc.want:
				t.Fatalf("%s read as %s, want %s", tc.san, m.UCIChess960(), tc.want)
			}
			if u, err := p.ParseUCI(tc.want); err != nil || u != m {
				t.Fatalf("UCI %s read as %v, %v", tc.want, u, err)
			}
			next := p
			next.Play(m)
			if next.InCheck() != tc.check {
				t.Fatalf("after %s in check %v, want %v", tc.san, next.InCheck(), tc.check)
			}
		})
	}
}
