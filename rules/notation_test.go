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
