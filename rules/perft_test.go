package rules

import (
	"os"
	"strconv"
	"testing"
)

func perft(p *Position, depth int) int {
	var arr [256]Move
	moves := p.LegalMoves(arr[:0])
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, m := range moves {
		next := *p
		next.Play(m)
		n += perft(&next, depth-1)
	}
	return n
}

// Published node counts: chessprogramming.org "Perft Results" for
// standard chess; for Chess960 the positions of chessprogramming.org
// "Chess960 Perft Results" (Ethereal's fischer.epd, numbered as there),
// chosen for castling with the king or the rook already on its
// destination, king and rook swapping squares, and rooks beside the king.
// Each row runs to depth short with -short or -race and one deeper
// otherwise; the benchmark BenchmarkPerftDeep runs the rest of the table.
var perftCases = []struct {
	name    string
	variant Variant
	fen     string
	nodes   []int // nodes[d-1] at depth d
	short   int   // the depth run with -short
}{
	{"start", Standard, StartFEN, []int{20, 400, 8902, 197281, 4865609, 119060324}, 4},
	{"kiwipete", Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int{48, 2039, 97862, 4085603, 193690690}, 3},
	{"position3", Standard, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int{14, 191, 2812, 43238, 674624, 11030083}, 4},
	{"position4", Standard, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int{6, 264, 9467, 422333, 15833292}, 3},
	{"position4-mirrored", Standard, "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int{6, 264, 9467, 422333, 15833292}, 3},
	{"position5", Standard, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int{44, 1486, 62379, 2103487, 89941194}, 3},
	{"position6", Standard, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int{46, 2079, 89890, 3894594, 164075551}, 3},
	{"960-0", Chess960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", []int{21, 528, 12189, 326672, 8146062, 227689589}, 4},
	{"960-1", Chess960, "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1", []int{21, 807, 18002, 667366, 16253601, 590751109}, 4},
	{"960-2-swap", Chess960, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 0 1", []int{20, 479, 10471, 273318, 6417013, 177654692}, 4},
	{"960-5-king-on-g1", Chess960, "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 0 1", []int{29, 899, 26578, 824055, 24851983, 775718317}, 4},
	{"960-13-rook-on-d1", Chess960, "1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 1", []int{37, 883, 32187, 815535, 29370838, 783201510}, 4},
	{"960-20-xfen", Chess960, "n1bb1rkr/qpnppppp/2p5/p7/P1P5/5P2/1P1PPRPP/NQBBN1KR w Kkf - 0 1", []int{27, 697, 18724, 505089, 14226907, 400942568}, 4},
	{"960-30", Chess960, "nqnrkrb1/pppppp2/7p/4b1p1/8/PN1NP3/1PPP1PPP/1Q1RKRBB w FDfd - 0 1", []int{26, 683, 18102, 473911, 13055173, 352398011}, 4},
	{"960-74", Chess960, "n1rkbqrb/pp1ppp2/2n3p1/2p4p/P5PP/1P6/2PPPP2/NNRKBQRB w GCgc - 0 1", []int{24, 804, 20712, 684001, 18761475, 617932151}, 4},
}

func parsePerftCase(tb testing.TB, variant Variant, fen string) Position {
	tb.Helper()
	p, notes, err := ParseFENVariant(fen, variant)
	if err != nil || len(notes) > 0 {
		tb.Fatalf("%s: %v %v", fen, err, notes)
	}
	return p
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p := parsePerftCase(t, tc.variant, tc.fen)
			maxDepth := tc.short
			if !testing.Short() && !raceEnabled {
				maxDepth++
			}
			for d := 1; d <= maxDepth && d <= len(tc.nodes); d++ {
				if got := perft(&p, d); got != tc.nodes[d-1] {
					t.Errorf("depth %d: %d nodes, want %d", d, got, tc.nodes[d-1])
				}
			}
		})
	}
}

// BenchmarkPerft measures move generation and make-move: nodes/s.
func BenchmarkPerft(b *testing.B) {
	for _, tc := range []struct{ name, fen string }{{"kiwipete", perftCases[1].fen}, {"960-5", perftCases[10].fen}} {
		b.Run(tc.name, func(b *testing.B) {
			p, _, _ := ParseFENVariant(tc.fen, Chess960)
			n := 0
			for b.Loop() {
				n += perft(&p, 3)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftDeep checks every row of perftCases to the depths the
// tests leave out, up to 6 (or THREEFOLD_PERFT_DEPTH): run it with
// -benchtime=1x. Chess960 rows to depth 6 are 2.6e9 nodes.
func BenchmarkPerftDeep(b *testing.B) {
	maxDepth := 6
	if s := os.Getenv("THREEFOLD_PERFT_DEPTH"); s != "" {
		maxDepth, _ = strconv.Atoi(s)
	}
	for _, tc := range perftCases {
		b.Run(tc.name, func(b *testing.B) {
			p := parsePerftCase(b, tc.variant, tc.fen)
			for b.Loop() {
				for d := tc.short + 2; d <= maxDepth && d <= len(tc.nodes); d++ {
					if got := perft(&p, d); got != tc.nodes[d-1] {
						b.Fatalf("depth %d: %d nodes, want %d", d, got, tc.nodes[d-1])
					}
				}
			}
		})
	}
}

// TestPlayKeepsWhatItDerives: in every position of the perft table's
// trees (castling of both kinds, en passant with pins, promotions,
// Chess960), to depth 3 (2 with -short or -race), what play keeps up to
// date move by move equals what is computed from the position afresh: the
// hash, the checkers and the meta word of the Key (side to move, castling
// rights, e.p. file).
func TestPlayKeepsWhatItDerives(t *testing.T) {
	maxDepth := 3
	if testing.Short() || raceEnabled {
		maxDepth = 2
	}
	var walk func(t *testing.T, p *Position, depth int)
	walk = func(t *testing.T, p *Position, depth int) {
		var arr [256]Move
		for _, m := range p.LegalMoves(arr[:0]) {
			next := *p
			next.Play(m)
			if next.hash != next.computeHash() || next.checkers != next.computeCheckers() || next.meta != next.computeMeta() {
				t.Fatalf("%s after %s: kept hash %x checkers %x meta %x, computed %x %x %x", p.FEN(), m.UCIChess960(),
					next.hash, next.checkers, next.meta, next.computeHash(), next.computeCheckers(), next.computeMeta())
			}
			if depth > 1 {
				walk(t, &next, depth-1)
			}
		}
	}
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p := parsePerftCase(t, tc.variant, tc.fen)
			if p.meta != p.computeMeta() {
				t.Fatalf("read: meta %x, computed %x", p.meta, p.computeMeta())
			}
			walk(t, &p, maxDepth)
		})
	}
}
