package explain_test

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/rules"
)

// game plays sans from fen ("" is the standard start).
func game(t testing.TB, fen string, sans ...string) *explain.Game {
	t.Helper()
	start, err := rules.ParseStart(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(start)
	for _, s := range sans {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	eg, err := explain.NewGame(start, g.Moves())
	if err != nil {
		t.Fatal(err)
	}
	return eg
}

// randomGame plays a random game whose placements recur.
func randomGame(t testing.TB, rng *rand.Rand, start rules.Position, plies int) *explain.Game {
	g, err := explain.NewGame(start, randgame.Shuffle(rng, start, plies))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestReportIsTheKeys: explain says "same" exactly when the keys are
// equal, and its differences are exactly the components that differ, each
// explained in a sentence; the JSON kinds are the contract's.
func TestReportIsTheKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	games := 60
	if testing.Short() {
		games = 20
	}
	kinds := map[string]int{}
	for i := range games {
		start := rules.StartPosition()
		if i%4 == 3 {
			start, _ = rules.Chess960Start(rng.IntN(960))
		}
		g := randomGame(t, rng, start, 40+rng.IntN(80))
		ps := make([]rules.Position, g.Plies()+1)
		for ply := range ps {
			ps[ply] = g.Position(ply)
		}
		// Every pair with the same placement and side to move, and random pairs.
		var pairs [][2]int
		for a := range ps {
			for b := a + 1; b < len(ps); b++ {
				if samePlacement(&ps[a], &ps[b]) {
					pairs = append(pairs, [2]int{a, b})
				}
			}
			if a%3 == 0 {
				pairs = append(pairs, [2]int{a, rng.IntN(len(ps))})
			}
		}
		for _, pr := range pairs {
			r, err := explain.ComparePlies(g, pr[0], pr[1], i18n.English)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, r, &ps[pr[0]], &ps[pr[1]])
			for _, d := range r.Differences {
				kinds[d.Kind]++
			}
		}
	}
	for _, k := range []string{"side_to_move", "placement", "castling", "en_passant"} {
		if kinds[k] == 0 {
			t.Errorf("no difference of kind %s in %d games: the games do not test it", k, games)
		}
	}
}

func samePlacement(a, b *rules.Position) bool {
	return strings.Fields(a.FEN())[0] == strings.Fields(b.FEN())[0] && a.Turn() == b.Turn()
}

func checkReport(t *testing.T, r *explain.Report, a, b *rules.Position) {
	t.Helper()
	want := a.Key().Diff(b.Key())
	if r.Same != (a.Key() == b.Key()) {
		t.Fatalf("plies %v: same %v, keys equal %v", r.Plies, r.Same, a.Key() == b.Key())
	}
	var got []string
	for _, d := range r.Differences {
		if d.Explanation == "" {
			t.Fatalf("plies %v: %s without a sentence", r.Plies, d.Kind)
		}
		if len(got) == 0 || got[len(got)-1] != d.Kind {
			got = append(got, d.Kind)
		}
	}
	if !slices.Equal(got, want.Names()) {
		t.Fatalf("plies %v: kinds %v, want %v\n%s\n%s", r.Plies, got, want.Names(), a.FEN(), b.FEN())
	}
	// The JSON holds the same kinds, and nothing but the contract's.
	var js struct {
		Same        bool  `json:"same"`
		Plies       []int `json:"plies"`
		Differences []struct {
			Kind string `json:"kind"`
		} `json:"differences"`
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &js); err != nil {
		t.Fatal(err)
	}
	if js.Same != r.Same || len(js.Differences) != len(r.Differences) || !slices.Equal(js.Plies, r.Plies) {
		t.Fatalf("JSON %s does not say what the report says", out)
	}
}

// TestWorkedCases: the five cases of the same-position page, each with the
// verdict and the reason it must give.
func TestWorkedCases(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  string
		a, b   int
		same   bool
		kinds  []string
		phrase string
	}{
		{"two routes to the same state", "rnbqkb1r/pppppppp/7n/8/8/N7/PPPPPPPP/R1BQKBNR w KQkq - 0 1", "Nb1 Ng8 Nc3 Nf6 Nb1 Ng8", 2, 6, true, nil,
			"The move numbers or the clocks differ, but they are never part of the comparison."},
		{"the side to move", "7k/8/8/4p3/4P3/8/8/K7 w - - 0 1", "Kb1 Kg8 Kb2 Kh8 Ka1", 0, 5, false, []string{"side_to_move"},
			"White has the move at ply 0, Black at ply 5."},
		{"a right that does not return", "rn2k2r/ppp2ppp/8/8/8/8/PPP2PP1/4K2R w Kkq - 0 1", "Rh2 Na6 Rh1 Nb8", 0, 4, false, []string{"castling"},
			"the rook left h1 at ply 1 (1.Rh2), and a lost right does not return when the rook comes back"},
		{"right retained, move blocked", "4k1nr/ppp2ppp/8/8/8/8/PPP2PPP/4K1NR w Kk - 0 1", "Nf3 Nf6 Ng1 Ng8", 0, 4, true, nil,
			"White cannot castle with the rook on h1 (O-O) at ply 0 nor at ply 4, yet holds the right"},
		{"en passant possible once", "1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1", "d5 Nc3 Nc6 Nb1 Nb8", 1, 5, false, []string{"en_passant"},
			"White can capture en passant at ply 1: exd6, the pawn on e5 takes on d6; at ply 5 this capture is not possible."},
		{"the king moved", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Kf1 Kd8 Ke1 Ke8", 0, 4, false, []string{"castling"},
			"the king moved at ply 1 (1.Kf1), and a lost right never returns"},
		{"the rook captured at home", "4k2r/8/8/8/8/8/8/B3K3 w k - 0 1", "Bxh8+", 0, 1, false, []string{"side_to_move", "placement", "castling"},
			"the rook was captured on h8 at ply 1 (1.Bxh8)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game(t, tt.fen, strings.Fields(tt.moves)...)
			r, err := explain.ComparePlies(g, tt.a, tt.b, i18n.English)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, d := range r.Differences {
				kinds = append(kinds, d.Kind)
			}
			if r.Same != tt.same || !slices.Equal(kinds, tt.kinds) {
				t.Errorf("same %v kinds %v, want %v %v", r.Same, kinds, tt.same, tt.kinds)
			}
			if text := r.Text(); !strings.Contains(text, tt.phrase) {
				t.Errorf("the text does not say %q:\n%s", tt.phrase, text)
			}
			if svg := r.SVG(); !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(svg, "</svg>\n") {
				t.Errorf("not an SVG drawing: %.80s", svg)
			}
		})
	}
}

// TestCompareFENsSaysNothingOfHistory: two FENs are no game; a castling
// right is said to be held in one and not the other, with no ply.
func TestCompareFENsSaysNothingOfHistory(t *testing.T) {
	a, _ := rules.ParseFEN("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
	b, _ := rules.ParseFEN("4k3/8/8/8/8/8/8/4K2R w - - 0 1")
	r := explain.Compare(a, b, i18n.English)
	if r.Same || len(r.Differences) != 1 || r.Differences[0].LostPly != nil || r.Plies != nil {
		t.Fatalf("%+v", r)
	}
	want := "White holds the right to castle with the rook on h1 (O-O) in the first position but not in the second position."
	if r.Differences[0].Explanation != want {
		t.Errorf("%q, want %q", r.Differences[0].Explanation, want)
	}
}
