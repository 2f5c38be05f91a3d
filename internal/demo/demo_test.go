package demo

import (
	"testing"
)

// Every game of the cast exists and reaches a claim where the scenario
// starts it from (a lead of plies before its first claim).
func TestRecordedGames(t *testing.T) {
	games, err := loadDemoGames()
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, game int) {
		t.Helper()
		if game >= len(games) {
			t.Fatalf("%s: game %d of %d", name, game, len(games))
		}
		if g := games[game]; g.firstClaim >= len(g.san) {
			t.Errorf("%s: game %d (%s - %s) has no claim", name, game, g.white, g.black)
		}
	}
	for _, b := range demoBoardSpecs {
		check("board", b.game)
	}
	check("fivefold", demoFivefold.game)
	for _, s := range demoBotStarts {
		check("bot start", s.game)
		if s.ply >= len(games[s.game].uci) {
			t.Errorf("bot start at ply %d of a %d-ply game", s.ply, len(games[s.game].uci))
		}
	}
}
