package pgnexport

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// TestRepetitionsAgainstOracle exports every reference game (the
// repository's set, and with $THREEFOLD_CORPUS every game of the shared data
// that repeats) and checks that the annotations claim exactly the plies the
// reference says (threefold, fivefold, claimable), and that the export reads
// back with package pgn to the same moves.
func TestRepetitionsAgainstOracle(t *testing.T) {
	t.Run("reference", func(t *testing.T) { exportAgainstOracle(t, refgames.Reference(t), 300, 150) })
	t.Run("repetitions", func(t *testing.T) { exportAgainstOracle(t, refgames.Repetitions(t), 1000, 1000) })
}

// exportAgainstOracle checks the games of one set; at least minGames must be
// checked, minRepeating of them with a third occurrence.
func exportAgainstOracle(t *testing.T, set refgames.Set, minGames, minRepeating int) {
	oracles := set.Annotations(t)
	text := set.Text(t)
	games, err := pgn.ParseGames(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(oracles) {
		t.Fatalf("%d games, %d oracle lines", len(games), len(oracles))
	}
	checked, withRepetition := 0, 0
	for i, pg := range games {
		o := oracles[i]
		if o.Skipped != nil || o.Error != nil || pg.Err != nil {
			continue
		}
		fen, _ := pg.StartFEN()
		g := store.Game{
			GameState: threefold.GameState{
				Game:     threefold.GameRef{Site: "file", ID: set.Name + "#" + itoa(i)},
				StartFEN: fen,
				Notation: rules.SAN,
				Moves:    pg.Moves,
				Result:   pg.Result,
			},
		}
		plies, bad := replay(g, fen)
		if bad != nil {
			t.Errorf("game %d: %v", i, bad)
			continue
		}
		var three, claim []int
		five := -1
		for p, pl := range plies {
			for _, c := range pl.comments {
				switch {
				case strings.HasSuffix(c, "(9.2.2)"):
					three = append(three, p)
					claim = append(claim, p)
				case strings.HasSuffix(c, "(9.6.1)"):
					three = append(three, p)
					claim = append(claim, p)
					if five < 0 {
						five = p
					}
				case strings.HasSuffix(c, "(9.2.1)"):
					claim = append(claim, p)
				}
			}
		}
		wantFive := -1
		if o.FivefoldPly != nil {
			wantFive = *o.FivefoldPly
		}
		// The oracle counts on after a fifth occurrence; the export does not
		// annotate moves played after the game was drawn there.
		wantThree, wantClaim := upTo(o.ThreefoldPlies, wantFive), upTo(o.ClaimablePlies, wantFive)
		if !sameInts(three, wantThree) || !sameInts(claim, wantClaim) || five != wantFive {
			t.Errorf("game %d: annotated threefold %v claimable %v fivefold %d; oracle %v %v %d",
				i, three, claim, five, wantThree, wantClaim, wantFive)
		}
		if len(o.ThreefoldPlies) > 0 {
			withRepetition++
		}
		if i%10 == 0 { // the read-back of every tenth game: the write path is the same for all
			var buf bytes.Buffer
			if err := Write(&buf, g); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
			back, tracker := readBack(t, buf.String())
			if tracker.Ply() != o.Plies {
				t.Errorf("game %d: read back %d plies, want %d", i, tracker.Ply(), o.Plies)
			}
			if back.Result != normResult(pg.Result) {
				t.Errorf("game %d: result %q, want %q", i, back.Result, pg.Result)
			}
		}
		checked++
	}
	t.Logf("%d games checked, %d with a threefold repetition", checked, withRepetition)
	if checked < minGames || withRepetition < minRepeating {
		t.Errorf("only %d games (%d with repetitions) checked", checked, withRepetition)
	}
}

func normResult(r string) string {
	switch r {
	case "1-0", "0-1", "1/2-1/2":
		return r
	}
	return "*"
}

func sameInts(a, b []int) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// upTo is the plies up to and including last (all of them when last < 0).
func upTo(plies []int, last int) []int {
	if last < 0 {
		return plies
	}
	var out []int
	for _, p := range plies {
		if p <= last {
			out = append(out, p)
		}
	}
	return out
}
