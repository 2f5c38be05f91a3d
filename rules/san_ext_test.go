package rules_test

import (
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// TestSANReadingOnRealGames: in positions of real games (every position of
// the reference set; and, when THREEFOLD_CORPUS is set, every 16th of the
// games that repeat and every 256th of the whole corpus unless -short; 8
// times fewer under the race detector),
// the fast reading of SAN gives every legal move from its SAN and agrees
// with the full reading on other spellings (CheckSANReading). Real games
// have what the perft positions of TestParseSANFastPath have few of:
// pieces pinned on long lines, several knights or rooks that reach one
// square with one of them pinned, kings walking into the line of a
// slider behind them.
func TestSANReadingOnRealGames(t *testing.T) {
	sources, every := refgames.All, []int{1, 16, 256}
	if rules.RaceEnabled {
		every = []int{8, 128, 2048}
	}
	if testing.Short() {
		sources = refgames.All[:2]
	}
	refgames.Run(t, sources, func(t *testing.T, set refgames.Set) {
		step := every[0]
		for i, src := range refgames.All {
			if src.Name == set.Name {
				step = every[i]
			}
		}
		games, err := pgn.ParseGames(set.Text(t))
		if err != nil {
			t.Fatal(err)
		}
		positions, moves, n := 0, 0, 0
		for _, pg := range games {
			p, _, err := pg.Start()
			if err != nil {
				continue // not a game rules can follow (a variant)
			}
			for _, san := range pg.Moves {
				if n++; n%step == 0 {
					k, err := rules.CheckSANReading(&p)
					if err != nil {
						t.Fatal(err)
					}
					positions, moves = positions+1, moves+k
				}
				m, err := p.ParseSAN(san)
				if err != nil {
					break // checked up to there
				}
				p.Play(m)
			}
		}
		t.Logf("%s: %d positions, %d legal moves read back", set.Name, positions, moves)
		if positions == 0 {
			t.Fatal("no position checked")
		}
	})
}
