package listener

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/pgn"
)

func TestPGNFeedResentGames(t *testing.T) {
	const head = "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[GameURL \"https://lichess.org/broadcast/e/r/round001/game0001\"]\n"
	clk := func(moves ...string) string { // with clock comments, as Lichess sends them
		var b strings.Builder
		for i, m := range moves {
			if i%2 == 0 {
				b.WriteString(strconv.Itoa(i/2+1) + ". ")
			}
			b.WriteString(m + " { [%clk 1:30:00] } ")
		}
		return b.String()
	}
	steps := []struct {
		name      string
		text      string
		want      []string
		result    string
		emitted   bool
		tailParse bool
	}{
		{"first", head + "[Result \"*\"]\n\n" + clk("e4") + "*\n\n", []string{"e4"}, "*", true, false},
		{"one more", head + "[Result \"*\"]\n\n" + clk("e4", "e5") + "*\n\n", []string{"e4", "e5"}, "*", true, true},
		{"two more", head + "[Result \"*\"]\n\n" + clk("e4", "e5", "Nf3", "Nc6") + "*\n\n", []string{"e4", "e5", "Nf3", "Nc6"}, "*", true, true},
		{"resent as it was", head + "[Result \"*\"]\n\n" + clk("e4", "e5", "Nf3", "Nc6") + "*\n\n", []string{"e4", "e5", "Nf3", "Nc6"}, "*", false, true},
		{"a keep-alive", " ", nil, "", false, false},
		{"correction", head + "[Result \"*\"]\n\n" + clk("e4", "e5", "Nf3", "d6") + "*\n\n", []string{"e4", "e5", "Nf3", "d6"}, "*", true, false},
		{"after the correction", head + "[Result \"*\"]\n\n" + clk("e4", "e5", "Nf3", "d6", "d4") + "*\n\n", []string{"e4", "e5", "Nf3", "d6", "d4"}, "*", true, true},
		{"result tag and token", head + "[Result \"1-0\"]\n\n" + clk("e4", "e5", "Nf3", "d6", "d4") + "1-0\n\n", []string{"e4", "e5", "Nf3", "d6", "d4"}, "1-0", true, false},
	}
	var got []threefold.GameState
	f := newPGNFeed("lichess", "test", 0, threefold.AudienceArbiters, nil, pgn.Limits{})
	for _, st := range steps {
		n, tails := len(got), f.tailParses
		err := f.feedText(st.text, func(int) string { return "?" }, func(s threefold.GameState) error { got = append(got, s); return nil })
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if (len(got) > n) != st.emitted {
			t.Fatalf("%s: emitted %v, want %v", st.name, len(got) > n, st.emitted)
		}
		if (f.tailParses > tails) != st.tailParse {
			t.Errorf("%s: tail parse %v, want %v", st.name, f.tailParses > tails, st.tailParse)
		}
		if !st.emitted {
			continue
		}
		s := got[len(got)-1]
		if !slices.Equal(s.Moves, st.want) || s.Result != st.result || s.Game.ID != "https://lichess.org/broadcast/e/r/round001/game0001" || s.Game.White != "W" {
			t.Errorf("%s: snapshot moves %v result %q game %+v", st.name, s.Moves, s.Result, s.Game)
		}
	}
	// Snapshots handed out earlier are never changed afterwards.
	if !slices.Equal(got[1].Moves, []string{"e4", "e5"}) || !slices.Equal(got[2].Moves, []string{"e4", "e5", "Nf3", "Nc6"}) {
		t.Errorf("an earlier snapshot changed: %v %v", got[1].Moves, got[2].Moves)
	}
	if last := got[len(got)-1]; !last.Finished {
		t.Error("a game with result 1-0 is not finished")
	}
}
