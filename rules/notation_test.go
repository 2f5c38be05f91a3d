package rules

import (
	"errors"
	"strings"
	"testing"
)

// TestParseSANPromotion: the promotion piece may be written in either
// case; a pawn reaching the last rank without one is an error that names
// the move (the standard requires the piece; it used to become a queen).
func TestParseSANPromotion(t *testing.T) {
	p, err := ParseFEN("8/P6k/8/8/8/8/6Kp/8 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		san, want string // want: the UCI of the move, or a part of the error
	}{
		{"a8=Q", "a7a8q"},
		{"a8=q", "a7a8q"},
		{"a8=n+", "a7a8n"},
		{"a8r", "a7a8r"},
		{"a8", `"a8": a promotion must name its piece`},
		{"a8+", `"a8+": a promotion must name its piece`},
	} {
		t.Run(tc.san, func(t *testing.T) {
			m, err := p.ParseSAN(tc.san)
			got := m.UCI()
			if err != nil {
				got = err.Error()
				if !errors.Is(err, ErrSyntax) {
					t.Errorf("error %v is not ErrSyntax", err)
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("ParseSAN(%q) = %s, want %s", tc.san, got, tc.want)
			}
		})
	}
}

// TestHugeInputShortErrors: an error quotes a short excerpt of the bad
// input, never all of it (a 50 MB "move" made a 104 MB JSON line).
func TestHugeInputShortErrors(t *testing.T) {
	huge := strings.Repeat("a", 50<<20)
	p := StartPosition()
	_, errSAN := p.ParseSAN(huge)
	_, errUCI := p.ParseUCI(huge)
	_, errFEN := ParseFEN(huge)
	_, errSq := ParseSquare(huge)
	for name, err := range map[string]error{"SAN": errSAN, "UCI": errUCI, "FEN": errFEN, "square": errSq} {
		if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), `"aaaa`) {
			t.Errorf("%s: error of %d bytes, want a short one quoting the start of the input", name, len(err.Error()))
		}
	}
}

// TestParseSANFastPath: in positions of every kind (the perft positions and
// a few plies after them: pins, checks, en passant, promotions, Chess960
// castling), the fast reading of ParseSAN answers for the SAN of every
// legal move with that move; for other spellings of it (long form, without
// or with a spurious x, without the check mark, lower-case promotion,
// "e.p.", 0-0) and for every short token to every square, legal or not, it
// either leaves the move to the full reading or agrees with it (not in the
// last ply walked, to keep the test short).
func TestParseSANFastPath(t *testing.T) {
	positions := 0
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		positions++
		if depth > 1 {
			// Every short token, legal or not: the fast reading must leave
			// the illegal and ambiguous ones to the full reading.
			for to := Square(0); to < 64; to++ {
				sq := to.String()
				tokens := []string{sq, sq + "=Q", "Nx" + sq}
				for _, l := range "NBRQK" {
					tokens = append(tokens, string(l)+sq)
				}
				for _, f := range "abcdefgh" {
					tokens = append(tokens, string(f)+"x"+sq, string(f)+"x"+sq+"=N")
				}
				for _, s := range tokens {
					checkSANFastPath(t, p, s)
				}
			}
		}
		for _, m := range p.LegalMoves(nil) {
			san := p.SAN(m)
			if got := p.sanFast(san); got != m && (got != NoMove || m.Promotion() == NoPieceType) {
				t.Fatalf("%s: fast reading of %q: %s; want %s", p.FEN(), san, got, m)
			}
			if depth == 1 {
				continue // the leaves: the SAN of every move only
			}
			bare := strings.TrimRight(san, "+#")
			spellings := []string{
				bare, bare + "+", bare + "#", bare + "e.p.", strings.ReplaceAll(bare, "x", ""), strings.ToLower(bare),
				strings.ReplaceAll(bare, "O", "0"), strings.Replace(bare, "=", "", 1),
				m.From().String() + m.To().String(), m.From().String() + "x" + m.To().String(),
			}
			if pc := p.board[m.From()]; pc.Type() != Pawn {
				letter := string("PNBRQK"[pc.Type()-1])
				spellings = append(spellings, letter+m.From().String()+m.To().String(), letter+m.From().String()+"x"+m.To().String(),
					letter+m.To().String(), letter+"x"+m.To().String(), letter+m.From().String()[:1]+m.To().String(),
					letter+m.From().String()[1:]+m.To().String())
			}
			for _, s := range spellings {
				checkSANFastPath(t, p, s)
			}
			if depth > 1 {
				next := *p
				next.Play(m)
				walk(&next, depth-1)
			}
		}
	}
	depth, want := 3, 10000
	if testing.Short() || raceEnabled {
		depth, want = 2, 400
	}
	for _, c := range perftCases {
		p := parsePerftCase(t, c.variant, c.fen)
		walk(&p, depth)
	}
	if positions < want {
		t.Fatalf("only %d positions walked", positions)
	}
}
