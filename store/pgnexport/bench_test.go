package pgnexport

import (
	"io"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// BenchmarkWriteRepetitions exports every game of the shared file of real
// games with repetitions (replay, verdict at every ply, PGN text;
// $THREEFOLD_CORPUS).
func BenchmarkWriteRepetitions(b *testing.B) {
	pgs, err := pgn.ParseGames(refgames.Repetitions(b).Text(b))
	if err != nil {
		b.Fatal(err)
	}
	var games []store.Game
	plies := 0
	for i, pg := range pgs {
		if pg.Err != nil {
			continue
		}
		fen, _ := pg.StartFEN()
		games = append(games, store.Game{
			GameState: threefold.GameState{
				Game:     threefold.GameRef{Site: "file", ID: itoa(i)},
				StartFEN: fen,
				Notation: rules.SAN,
				Moves:    pg.Moves,
				Result:   pg.Result,
			},
		})
		plies += len(pg.Moves)
	}
	for b.Loop() {
		for _, g := range games {
			Write(io.Discard, g) // a game that stops early is written too
		}
	}
	b.ReportMetric(float64(len(games))*float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}
