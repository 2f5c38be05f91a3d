package rules

import (
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

// Published node counts (chessprogramming.org "Perft Results").
var perftCases = []struct {
	name  string
	fen   string
	nodes []int // nodes[d-1] at depth d
	short int   // the depth run with -short
}{
	{"start", StartFEN, []int{20, 400, 8902, 197281, 4865609, 119060324}, 4},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int{48, 2039, 97862, 4085603, 193690690}, 3},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int{14, 191, 2812, 43238, 674624, 11030083}, 4},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int{6, 264, 9467, 422333, 15833292}, 3},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int{6, 264, 9467, 422333, 15833292}, 3},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int{44, 1486, 62379, 2103487, 89941194}, 3},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int{46, 2079, 89890, 3894594, 164075551}, 3},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			maxDepth := tc.short
			if !testing.Short() {
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
	p, _ := ParseFEN(perftCases[1].fen)
	n := 0
	for b.Loop() {
		n += perft(&p, 3)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "nodes/s")
}
