package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestCastlingChess960 checks every castling move of positions built for
// the special cases of Chess960 castling: the move (UCI as a Chess960
// engine writes it), its SAN, and the position after it. The expected
// values were checked with chessops 0.15.1, Lichess's rules library.
func TestCastlingChess960(t *testing.T) {
	type castle struct{ uci, san, after string }
	for _, tc := range []struct {
		name string
		fen  string
		want []castle
	}{
		{"king already on g1: only the rook moves; long castling crosses the board", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
			[]castle{{"g1h1", "O-O", "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1"}, {"g1b1", "O-O-O", "1r4kr/8/8/8/8/8/8/2KR3R b kq - 1 1"}}},
		{"the same for Black", "1r4kr/8/8/8/8/8/8/1R4KR b HBhb - 0 1",
			[]castle{{"g8h8", "O-O", "1r3rk1/8/8/8/8/8/8/1R4KR w KQ - 1 2"}, {"g8b8", "O-O-O", "2kr3r/8/8/8/8/8/8/1R4KR w KQ - 1 2"}}},
		{"king and rook swap squares", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
			[]castle{{"f1g1", "O-O", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"}}},
		{"king already on c1, rook beside it", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1",
			[]castle{{"c1b1", "O-O-O", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"}}},
		{"the rook shielded the king's destination: castling would be into check", "4k3/8/8/8/8/8/8/qRK5 w B - 0 1", nil},
		{"only the rook crosses an attacked square", "1r2k3/8/8/8/8/8/8/R4K2 w A - 0 1",
			[]castle{{"f1a1", "O-O-O", "1r2k3/8/8/8/8/8/8/2KR4 b - - 1 1"}}},
		{"the king crosses an attacked square", "3rk3/8/8/8/8/8/8/R4K2 w A - 0 1", nil},
		{"a piece on the rook's destination", "4k3/8/8/8/8/8/8/1K3N1R w H - 0 1", nil},
		{"an enemy piece on the king's path", "4k3/8/8/8/8/8/8/1K1r3R w H - 0 1", nil},
		{"rook already on f1, the king jumps past it", "4k3/8/8/8/8/8/8/1K3R2 w F - 0 1",
			[]castle{{"b1f1", "O-O", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"}}},
		{"the king would pass an attacked square beyond the rook", "4r1k1/8/8/8/8/8/8/1K3R2 w F - 0 1", nil},
		{"rook in the corner beside the king", "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
			[]castle{{"b1a1", "O-O-O", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"}}},
		{"in check along the rank", "4k3/8/8/8/8/8/8/RK5r w A - 0 1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, notes, err := ParseFENVariant(tc.fen, Chess960)
			if err != nil || len(notes) > 0 {
				t.Fatal(err, notes)
			}
			var got []castle
			for _, m := range p.LegalMoves(nil) {
				if !m.IsCastling() {
					continue
				}
				next := p
				next.Play(m)
				got = append(got, castle{m.UCIChess960(), p.SAN(m), next.FEN()})
				if next.Hash() != next.computeHash() {
					t.Errorf("%s: hash out of step", m.UCIChess960())
				}
				for _, s := range []string{m.UCIChess960(), m.UCI()} {
					if back, err := p.ParseUCI(s); err != nil || back != m {
						t.Errorf("UCI %s reads as %v, %v", s, back, err)
					}
				}
				if back, err := p.ParseSAN(p.SAN(m)); err != nil || back != m {
					t.Errorf("SAN %s reads as %v, %v", p.SAN(m), back, err)
				}
			}
			slices.SortFunc(got, func(a, b castle) int { return strings.Compare(a.san, b.san) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("castling moves\n got %v\nwant %v", got, tc.want)
			}
			if len(tc.want) == 0 {
				for _, s := range []string{"O-O", "O-O-O"} {
					if m, err := p.ParseSAN(s); err == nil {
						t.Errorf("%s read as %v", s, m)
					}
				}
			}
		})
	}
}

// TestCastlingUCIForms: castling is read as the king taking its rook in
// every position and, from e1/e8, as the king's two-square move (to the
// corner rook, as python-chess reads it: e1c1 is not castling with a rook
// on b1); the
// writers give e1g1 for standard castling and king-takes-rook otherwise.
func TestCastlingUCIForms(t *testing.T) {
	for _, tc := range []struct {
		name, fen        string
		variant          Variant
		in               []string // all read as the same castling move
		uci, uci960, san string
	}{
		{"standard O-O", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Standard, []string{"e1g1", "e1h1"}, "e1g1", "e1h1", "O-O"},
		{"standard O-O-O", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", Standard, []string{"e8c8", "e8a8"}, "e8c8", "e8a8", "O-O-O"},
		{"960 with the king on e1 and the rook in the corner", "4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1", Chess960, []string{"e1g1", "e1h1"}, "e1g1", "e1h1", "O-O"},
		{"960 with the king on e1 and the rook on b1", "4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1", Chess960, []string{"e1b1"}, "e1b1", "e1b1", "O-O-O"},
		{"960 with the rook on g1: e1g1 is king takes rook", "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", Chess960, []string{"e1g1"}, "e1g1", "e1g1", "O-O"},
		{"960 with the king on b1", "4k3/8/8/8/8/8/8/RK5R w HA - 0 1", Chess960, []string{"b1h1"}, "b1h1", "b1h1", "O-O"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, err := ParseFENVariant(tc.fen, tc.variant)
			if err != nil {
				t.Fatal(err)
			}
			var first Move
			for i, s := range tc.in {
				m, err := p.ParseUCI(s)
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				if !m.IsCastling() || (i > 0 && m != first) {
					t.Fatalf("%s read as %v", s, m)
				}
				first = m
			}
			if first.UCI() != tc.uci || first.UCIChess960() != tc.uci960 || p.SAN(first) != tc.san {
				t.Errorf("written as %s, %s, %s; want %s, %s, %s", first.UCI(), first.UCIChess960(), p.SAN(first), tc.uci, tc.uci960, tc.san)
			}
			if p.IsCapture(first) {
				t.Errorf("castling counted as a capture")
			}
		})
	}
}

// TestCastlingFEN reads castling fields in X-FEN and Shredder-FEN and
// writes them back in both; void rights are dropped with a note. The
// expected X-FEN is what python-chess 1.11.2 and chessops 0.15.1 write.
func TestCastlingFEN(t *testing.T) {
	for _, tc := range []struct {
		name        string
		fen         string
		parse       func(string) (Position, []string, error)
		variant     Variant
		xfen, shred string // the castling field written both ways
		notes       int
	}{
		{"960 start in X-FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", chess960FEN, Chess960, "KQkq", "HAha", 0},
		{"KQkq names the outermost rooks", "1rk2r2/8/8/8/8/8/8/1RK2R2 w KQkq - 0 1", chess960FEN, Chess960, "KQkq", "FBfb", 0},
		{"Shredder letters read the same", "1rk2r2/8/8/8/8/8/8/1RK2R2 w FBfb - 0 1", chess960FEN, Chess960, "KQkq", "FBfb", 0},
		{"a rook that is not the outermost keeps its file", "4k3/8/8/8/8/8/8/4K1RR w G - 0 1", chess960FEN, Chess960, "G", "G", 0},
		{"two rights on one side: the outer counts", "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1", chess960FEN, Chess960, "K", "H", 1},
		{"no rook on that file", "4k3/8/8/8/8/8/8/4K2R w HF - 0 1", chess960FEN, Chess960, "K", "H", 1},
		{"king off its back rank", "4k3/8/8/8/8/8/4K3/R6R w HA - 0 1", chess960FEN, Chess960, "-", "-", 2},
		{"standard start written HAha", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", standardFEN, Standard, "KQkq", "HAha", 0},
		{"an inner file makes an untagged FEN Chess960", "1rk2r2/8/8/8/8/8/8/1RK2R2 w FBfb - 0 1", ParseFENNotes, Chess960, "KQkq", "FBfb", 0},
		{"KQkq with the king off e1 stays standard, void", "1rk2r2/8/8/8/8/8/8/1RK2R2 w KQkq - 0 1", ParseFENNotes, Standard, "-", "-", 4},
		{"standard chess declared: an inner file is void", "1rk2r2/8/8/8/8/8/8/1RK2R2 w FBfb - 0 1", standardFEN, Standard, "-", "-", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, notes, err := tc.parse(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if p.Variant() != tc.variant || p.castlingFEN() != tc.xfen || p.writeCastling(true) != tc.shred || len(notes) != tc.notes {
				t.Errorf("%s: %s / %s, notes %q; want %s: %s / %s, %d notes", p.Variant(), p.castlingFEN(), p.writeCastling(true), notes, tc.variant, tc.xfen, tc.shred, tc.notes)
			}
			for _, s := range []string{p.FEN(), p.ShredderFEN()} {
				q, _, err := ParseFENVariant(s, p.Variant())
				if err != nil || q.Key() != p.Key() {
					t.Errorf("%s does not read back: %v", s, err)
				}
			}
		})
	}
}

func chess960FEN(s string) (Position, []string, error) { return ParseFENVariant(s, Chess960) }
func standardFEN(s string) (Position, []string, error) { return ParseFENVariant(s, Standard) }

// TestCastlingRightsIdentity: rights are held per rook, so a rook that
// leaves and comes back makes a new position (its right is gone), and so
// does losing one right of two; the other rook's right is kept.
func TestCastlingRightsIdentity(t *testing.T) {
	start, err := Chess960Start(0) // bbqnnrkr: rooks f1 and h1, king g1
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(start)
	for _, mv := range []string{"e2e4", "e7e5", "e1d3", "e8d6", "f1e1", "f8e8", "e1f1", "e8f8"} {
		if _, err := g.PlayUCI(mv); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
	}
	p := g.Position()
	if got := p.ShredderFEN(); !strings.Contains(got, " b Hh ") && !strings.Contains(got, " w Hh ") {
		t.Fatalf("after the f-rooks went and came back: %s, want rights Hh", got)
	}
	before := p.Key()
	// The same placement with the f-rooks' rights still held is another position.
	q, _, _ := ParseFENVariant(strings.Replace(p.ShredderFEN(), " Hh ", " HFhf ", 1), Chess960)
	if q.Key() == before {
		t.Fatal("losing the f-rook's right did not change the identity")
	}
	if _, err := p.ParseSAN("O-O-O"); err == nil {
		t.Errorf("O-O-O accepted after the f-rook moved")
	}
	// Knight shuffles repeat the position; the rook's trip did not.
	for _, mv := range []string{"d3e1", "d6e8", "e1d3", "e8d6", "d3e1", "d6e8", "e1d3", "e8d6"} {
		if _, err := g.PlayUCI(mv); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
	}
	if now := g.Position(); g.Count() != 3 || now.Key() != before {
		t.Errorf("count %d after two knight round trips, want 3", g.Count())
	}
}

// TestChess960Start: the numbering is the standard one (SP 518 is the
// standard start; SP 0 and SP 959 as published), every number gives a
// distinct legal start with the king between the rooks and the bishops on
// squares of both colours, and out-of-range numbers are errors.
func TestChess960Start(t *testing.T) {
	for _, tc := range []struct {
		n    int
		rank string
	}{{0, "BBQNNRKR"}, {1, "BQNBNRKR"}, {518, "RNBQKBNR"}, {959, "RKRNNQBB"}} {
		p, err := Chess960Start(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.ToLower(tc.rank) + "/pppppppp/8/8/8/8/PPPPPPPP/" + tc.rank + " w KQkq - 0 1"
		if p.FEN() != want || p.Variant() != Chess960 {
			t.Errorf("SP %d: %s (%s), want %s", tc.n, p.FEN(), p.Variant(), want)
		}
	}
	std, _ := Chess960Start(518)
	if standard := StartPosition(); std.Key() != standard.Key() {
		t.Errorf("SP 518 is not the standard start's identity")
	}
	seen := map[string]int{}
	for n := 0; n < 960; n++ {
		p, err := Chess960Start(n)
		if err != nil {
			t.Fatal(err)
		}
		placement, _, _ := strings.Cut(p.FEN(), " ")
		rank := placement[strings.LastIndexByte(placement, '/')+1:]
		if m, dup := seen[rank]; dup {
			t.Fatalf("SP %d and %d are both %s", m, n, rank)
		}
		seen[rank] = n
		r1, k, r2 := strings.IndexByte(rank, 'R'), strings.IndexByte(rank, 'K'), strings.LastIndexByte(rank, 'R')
		b1, b2 := strings.IndexByte(rank, 'B'), strings.LastIndexByte(rank, 'B')
		if !(r1 < k && k < r2) || (b1+b2)%2 == 0 {
			t.Fatalf("SP %d: %s is not a Chess960 start", n, rank)
		}
		want := string([]byte{'A' + byte(r2), 'A' + byte(r1), 'a' + byte(r2), 'a' + byte(r1)})
		if got := p.writeCastling(true); got != want || len(p.LegalMoves(nil)) == 0 {
			t.Fatalf("SP %d: rights %s, want %s", n, got, want)
		}
	}
	for _, n := range []int{-1, 960} {
		if _, err := Chess960Start(n); err == nil {
			t.Errorf("SP %d accepted", n)
		}
	}
}

// TestParseVariant reads the names PGN tags, Lichess and chess.com give
// the variants; other variants are a *VariantError naming them.
func TestParseVariant(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Variant
		ok   bool
	}{
		{"", Standard, true}, {"Standard", Standard, true}, {"From Position", Standard, true}, {"fromPosition", Standard, true},
		{"normal", Standard, true}, {"chess", Standard, true},
		{"Chess960", Chess960, true}, {"chess960", Chess960, true}, {"Chess 960", Chess960, true}, {"Fischerandom", Chess960, true},
		{"Fischer Random", Chess960, true}, {"Freestyle", Chess960, true}, {"wild/fr", Chess960, true},
		{"Crazyhouse", Standard, false}, {"atomic", Standard, false}, {"Three-check", Standard, false}, {"threeCheck", Standard, false},
		{"King of the Hill", Standard, false}, {"kingOfTheHill", Standard, false}, {"Horde", Standard, false},
		{"Racing Kings", Standard, false}, {"antichess", Standard, false}, {"Duck Chess", Standard, false},
	} {
		v, err := ParseVariant(tc.name)
		var ve *VariantError
		if tc.ok && (err != nil || v != tc.want) || !tc.ok && (!errors.As(err, &ve) || ve.Name != tc.name || !strings.Contains(err.Error(), "not supported")) {
			t.Errorf("ParseVariant(%q) = %v, %v", tc.name, v, err)
		}
	}
	for _, v := range []Variant{Standard, Chess960} {
		b, err := v.MarshalText()
		var back Variant
		if err != nil || back.UnmarshalText(b) != nil || back != v {
			t.Errorf("%v: text %q does not read back: %v", v, b, err)
		}
	}
}
