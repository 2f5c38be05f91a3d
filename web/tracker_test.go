package web

import (
	"slices"
	"strconv"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/rules"
)

// TestTrackerOccurrencesByKey: the tracker's occurrence numbers and
// groups, which it takes from the game's own count, are those of the
// positions' keys over the whole game (every ply's position looked up
// among all before it), on random games (which repeat positions once few
// pieces are left), knight shuffles (the start position seven times over,
// past the fifth occurrence), and a start position with castling
// rights and an en passant square that the shuffles lose.
func TestTrackerOccurrencesByKey(t *testing.T) {
	type game struct {
		start    string
		notation rules.Notation
		moves    []string
	}
	games := map[string]game{
		"knight shuffles": {"", rules.UCI, append(append(slices.Repeat([]string{"g1f3", "g8f6", "f3g1", "f6g8"}, 7), "e2e4", "e7e5"),
			"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3")},
		"rights and en passant lost": {"r3k2r/8/8/8/4Pp2/8/8/R3K2R b KQkq e3 0 1", rules.UCI, []string{"a8b8", "a1b1", "b8a8", "b1a1",
			"a8b8", "a1b1", "b8a8", "b1a1", "e8d8", "e1d1", "d8e8", "d1e1", "e8d8", "e1d1", "d8e8", "d1e1", "h8g8"}},
	}
	for seed := range uint64(12) {
		games["random "+strconv.FormatUint(seed, 10)] = game{"", rules.SAN, randgame.MustLine(t, seed, 400)}
	}
	repeating := 0 // games in which a position repeats
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			var tr tracker
			tr.apply(&threefold.GameState{StartFEN: g.start, Notation: g.notation, Moves: g.moves}, 20000)
			if tr.attn != "" {
				t.Fatal(tr.attn)
			}
			// The reference: every ply's key among all before it.
			start, err := rules.ParseStart(g.start)
			if err != nil {
				t.Fatal(err)
			}
			rg := rules.NewGame(start)
			key := func() rules.Key { p := rg.Position(); return p.Key() }
			byKey := map[rules.Key][]int{key(): {0}}
			occ, group, repeated, most := []int{1}, []int{-1}, 0, 1
			for ply, tok := range g.moves {
				play := rg.PlaySAN
				if g.notation == rules.UCI {
					play = rg.PlayUCI
				}
				if _, err := play(tok); err != nil {
					t.Fatalf("ply %d: %v", ply+1, err)
				}
				k := key()
				plies := append(byKey[k], ply+1)
				byKey[k] = plies
				occ, most = append(occ, len(plies)), max(most, len(plies))
				gr := -1
				if len(plies) >= 2 {
					if len(plies) == 2 {
						group[plies[0]] = repeated
						repeated++
					}
					gr = group[plies[0]]
				}
				group = append(group, gr)
			}
			if repeated > 0 {
				repeating++
			}
			if !slices.Equal(tr.occ, occ) || !slices.Equal(tr.group, group) || tr.maxCount != most || tr.repeated != repeated {
				t.Errorf("occ %v group %v (max %d, %d repeated), want %v %v (max %d, %d repeated)", tr.occ, tr.group, tr.maxCount, tr.repeated, occ, group, most, repeated)
			}
		})
	}
	if repeating < len(games)/2 {
		t.Errorf("a position repeats in %d of %d games: too few to test", repeating, len(games))
	}
}
