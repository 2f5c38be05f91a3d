package rules_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/threefold-chess/threefold/rules"
)

// benchGame is one real game: its start and its moves in UCI.
type benchGame struct {
	start string // FEN, or "" for the standard start
	moves []string
}

// loadBenchGames reads testdata/repetitions.uci: real games that repeat,
// so the tracker and the claim check have real work to do.
func loadBenchGames(tb testing.TB) ([]benchGame, int) {
	tb.Helper()
	f, err := os.Open("testdata/repetitions.uci")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var games []benchGame
	plies := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		start, moves, _ := strings.Cut(line, "\t")
		if start == "startpos" {
			start = ""
		}
		g := benchGame{start: start, moves: strings.Fields(moves)}
		plies += len(g.moves)
		games = append(games, g)
	}
	return games, plies
}

func (g benchGame) position(tb testing.TB) rules.Position {
	if g.start == "" {
		return rules.StartPosition()
	}
	p, err := rules.ParseFEN(g.start)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkReplayUCI replays real games from UCI move lists with full
// repetition tracking. The notnil sub-benchmark is the baseline: the same
// games through notnil/chess, which also tracks repetitions on every move.
func BenchmarkReplayUCI(b *testing.B) {
	games, plies := loadBenchGames(b)
	starts := make([]rules.Position, len(games))
	for i, g := range games {
		starts[i] = g.position(b)
	}
	b.Run("threefold", func(b *testing.B) {
		for b.Loop() {
			for i, g := range games {
				tr := rules.NewGame(starts[i])
				for _, mv := range g.moves {
					if _, err := tr.PlayUCI(mv); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	})
	b.Run("threefold+claims", func(b *testing.B) {
		claims := 0
		for b.Loop() {
			for i, g := range games {
				tr := rules.NewGame(starts[i])
				for _, mv := range g.moves {
					if _, err := tr.PlayUCI(mv); err != nil {
						b.Fatal(err)
					}
					if tr.CanClaimRepetition() {
						claims++
					}
				}
			}
		}
		b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	})
	// notnil/chess rescans the game for repetitions on every move, so its
	// cost grows with the square of the game's length: the baseline runs
	// on the first games only, and plies/s is what compares.
	b.Run("notnil", func(b *testing.B) {
		var uci chess.UCINotation
		sample, samplePlies := games[:8], 0
		for _, g := range sample {
			samplePlies += len(g.moves)
		}
		for b.Loop() {
			for _, g := range sample {
				var gm *chess.Game
				if g.start == "" {
					gm = chess.NewGame()
				} else {
					opt, err := chess.FEN(g.start)
					if err != nil {
						b.Fatal(err)
					}
					gm = chess.NewGame(opt)
				}
				for _, mv := range g.moves {
					m, err := uci.Decode(gm.Position(), mv)
					if err != nil {
						b.Fatal(err)
					}
					if err := gm.Move(m); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.ReportMetric(float64(samplePlies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	})
}

// BenchmarkReplaySAN replays the same games from SAN, as scan reads PGN,
// with the claim check after every ply as scan makes it.
func BenchmarkReplaySAN(b *testing.B) {
	games, plies := loadBenchGames(b)
	starts := make([]rules.Position, len(games))
	sans := make([][]string, len(games))
	for i, g := range games {
		starts[i] = g.position(b)
		p := starts[i]
		for _, mv := range g.moves {
			m, err := p.ParseUCI(mv)
			if err != nil {
				b.Fatal(err)
			}
			sans[i] = append(sans[i], p.SAN(m))
			p.Play(m)
		}
	}
	for b.Loop() {
		for i, moves := range sans {
			tr := rules.NewGame(starts[i])
			for _, mv := range moves {
				if _, err := tr.PlaySAN(mv); err != nil {
					b.Fatal(err)
				}
				tr.CanClaimRepetition()
			}
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}

// BenchmarkClaimCheck measures the per-ply claim check alone (9.2.1 and
// 9.2.2) on every position of the games, against notnil/chess's
// EligibleDraws, which answers the 9.2.2 question only.
func BenchmarkClaimCheck(b *testing.B) {
	games, _ := loadBenchGames(b)
	var trackers []*rules.Game
	var notnils []*chess.Game
	for _, g := range games[:50] {
		tr := rules.NewGame(g.position(b))
		var gm *chess.Game
		if g.start == "" {
			gm = chess.NewGame()
		} else {
			opt, _ := chess.FEN(g.start)
			gm = chess.NewGame(opt)
		}
		for _, mv := range g.moves {
			tr.PlayUCI(mv)
			m, _ := chess.UCINotation{}.Decode(gm.Position(), mv)
			gm.Move(m)
		}
		trackers = append(trackers, tr)
		notnils = append(notnils, gm)
	}
	b.Run("threefold", func(b *testing.B) {
		for b.Loop() {
			for _, tr := range trackers {
				tr.CanClaimRepetition()
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N*len(trackers)), "ns/check")
	})
	b.Run("notnil", func(b *testing.B) {
		for b.Loop() {
			for _, gm := range notnils {
				gm.EligibleDraws()
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N*len(notnils)), "ns/check")
	})
}

// BenchmarkFEN: FEN of a middlegame position with castling rights and an
// en passant square, as scan writes each game's final position.
func BenchmarkFEN(b *testing.B) {
	p := mustFEN("r1bqk2r/pppp1ppp/2n2n2/1Bb1p3/4P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5")
	b.ReportAllocs()
	for b.Loop() {
		_ = p.FEN()
	}
}
