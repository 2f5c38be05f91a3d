package rules

import (
	"fmt"
	"strings"
	"testing"
)

// CheckSANReading is checkSANReading, for the tests of package rules_test.
var CheckSANReading = checkSANReading

// RaceEnabled is raceEnabled, for the tests of package rules_test.
const RaceEnabled = raceEnabled

// checkSANReading returns an error unless, in p, the fast reading of SAN
// (sanFast) and the full one (parseSAN) both give every legal move from
// its own SAN (a promotion may be left to the full reading), and the fast
// reading, for other spellings of it (without the check mark, with or
// without x, long forms, the rank before the file, 0-0) and for every
// short token to every square (a king stepping along the line of a
// slider that gives check, a piece onto its own), either leaves them to
// the full reading or gives what the full reading gives. It returns the
// number of legal moves checked.
func checkSANReading(p *Position) (int, error) {
	moves := p.LegalMoves(nil)
	for _, m := range moves {
		san := p.SAN(m)
		if got := p.sanFast(san); got != m && (got != NoMove || m.Promotion() == NoPieceType) {
			return 0, fmt.Errorf("%s: fast reading of %q: %s, want %s", p.FEN(), san, got, m)
		}
		if got, err := p.parseSAN(san); err != nil || got != m {
			return 0, fmt.Errorf("%s: full reading of %q: %s, %v; want %s", p.FEN(), san, got, err, m)
		}
		bare := strings.TrimRight(san, "+#")
		spellings := []string{bare, bare + "+", bare + "#", strings.ReplaceAll(bare, "x", ""),
			strings.ReplaceAll(bare, "O", "0"), m.From().String() + m.To().String()}
		if pc := p.board[m.From()]; pc.Type() != Pawn {
			letter := string("PNBRQK"[pc.Type()-1])
			from, to := m.From().String(), m.To().String()
			spellings = append(spellings, letter+from+to, letter+from+"x"+to, letter+to, letter+"x"+to,
				letter+from[:1]+to, letter+from[1:]+to, letter+from[1:]+from[:1]+to, letter+from[:1]+"x"+from[1:]+to)
		}
		for _, s := range spellings {
			if err := checkSANFastAgrees(p, s); err != nil {
				return 0, err
			}
		}
	}
	// Every short token, legal or not: the fast reading must leave the
	// illegal and ambiguous ones to the full reading.
	for to := Square(0); to < 64; to++ {
		sq := to.String()
		for _, s := range [...]string{sq, "N" + sq, "B" + sq, "R" + sq, "Q" + sq, "K" + sq, "Kx" + sq} {
			if err := checkSANFastAgrees(p, s); err != nil {
				return 0, err
			}
		}
		for f := 'a'; f <= 'h'; f++ {
			if err := checkSANFastAgrees(p, string(f)+"x"+sq); err != nil {
				return 0, err
			}
		}
	}
	return len(moves), nil
}

// checkSANFastAgrees returns an error when the fast reading of s answers
// with another move than the full reading.
func checkSANFastAgrees(p *Position, s string) error {
	fast := p.sanFast(s)
	if fast == NoMove {
		return nil
	}
	if full, err := p.parseSAN(s); err != nil || full != fast {
		return fmt.Errorf("%q in %s: fast reading %s, full reading %s, %v", s, p.FEN(), fast, full, err)
	}
	return nil
}

// TestSANReachTables: the steps sanFast looks up for the knight and the
// king are those of the attack tables.
func TestSANReachTables(t *testing.T) {
	for sq := Square(0); sq < 64; sq++ {
		for _, tc := range []struct {
			name string
			pt   PieceType
			want uint64
		}{{"knight", Knight, knightAttacks[sq]}, {"king", King, kingAttacks[sq]}} {
			mg := &sanReach[tc.pt][sq]
			if got := mg.attacks[((^uint64(0)&mg.mask)*mg.number)>>(mg.shift&63)&(maxMagicPart-1)]; got != tc.want {
				t.Errorf("%s on %s: %#x, want %#x", tc.name, sq, got, tc.want)
			}
		}
	}
}

// TestSANEnPassant: an en passant capture is read as legal only when it
// is, also when the other pawn that could take may not (a pin on its
// diagonal) and when the pawn taken is the one that gives check.
func TestSANEnPassant(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		san, want string // want: the UCI of the move, or "" when it is illegal
	}{
		{"pinned pawn", "7k/6b1/8/2PpP3/8/2K5/8/8 w - d6 0 2", "exd6", ""},
		{"the other pawn", "7k/6b1/8/2PpP3/8/2K5/8/8 w - d6 0 2", "cxd6", "c5d6"},
		{"taking the checker", "7k/8/8/3pP3/4K3/8/8/8 w - d6 0 2", "exd6", "e5d6"},
		{"black pinned pawn", "7K/8/2k5/8/2pPp3/8/6B1/8 b - d3 0 2", "exd3", ""},
		{"black, the other pawn", "7K/8/2k5/8/2pPp3/8/6B1/8 b - d3 0 2", "cxd3", "c4d3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, notes, err := ParseFENVariant(tc.fen, Standard)
			if err != nil || len(notes) != 0 || p.EnPassant() == NoSquare {
				t.Fatalf("%s: %v %v, en passant %s", tc.fen, err, notes, p.EnPassant())
			}
			if _, err := checkSANReading(&p); err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseSAN(tc.san)
			switch {
			case tc.want == "" && err == nil:
				t.Fatalf("%s read as %s, want an illegal move", tc.san, m)
			case tc.want != "" && (err != nil || m.UCI() != tc.want):
				t.Fatalf("%s read as %s, %v; want %s", tc.san, m, err, tc.want)
			}
		})
	}
}
