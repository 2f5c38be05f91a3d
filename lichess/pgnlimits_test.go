package lichess

import (
	"fmt"
	"strings"
	"testing"
)

// TestPGNSeenForgetsFinishedGames: the map of the PGN last delivered per
// broadcast game kept every game's whole text forever; it now keeps a
// hash per game still going, and a finished game leaves it.
func TestPGNSeenForgetsFinishedGames(t *testing.T) {
	seen := newPGNSeen()
	game := func(i int, movetext string) string {
		return fmt.Sprintf("[Event \"e\"]\n[GameURL \"https://lichess.org/broadcast/t/r/rid/g%d\"]\n\n%s\n", i, movetext)
	}
	for i := 0; i < 1000; i++ {
		if !seen.fresh(game(i, "1. e4 e5 *")) {
			t.Fatalf("game %d not delivered", i)
		}
		if seen.fresh(game(i, "1. e4 e5 *")) {
			t.Fatalf("game %d delivered twice", i)
		}
		if !seen.fresh(game(i, "1. e4 e5 2. Nf3 1-0")) {
			t.Fatalf("game %d: the end not delivered", i)
		}
	}
	if len(seen.last) != 0 {
		t.Fatalf("%d finished games still kept", len(seen.last))
	}
	seen.fresh(game(1, "1. d4 *"))
	if len(seen.last) != 1 {
		t.Fatalf("%d games kept, want the one going on", len(seen.last))
	}
}

// TestPGNSplitterCapsAGame: the splitter kept a game's text without
// bound; past its cap it keeps no more lines, and what it delivers is
// just past the cap (so that a PGN reader with the same limit reports the
// game), and the next game is whole.
func TestPGNSplitterCapsAGame(t *testing.T) {
	sp := pgnSplitter{max: 1000}
	var got []string
	add := func(line string) {
		if pgn, ok := sp.add([]byte(line)); ok {
			got = append(got, pgn)
		}
	}
	add("[Event \"long\"]\n")
	add("\n")
	for i := 0; i < 10000; i++ {
		add("1. Nf3 Nf6 2. Ng1 Ng8\n")
	}
	add("1/2-1/2\n")
	add("\n")
	add("[Event \"next\"]\n")
	add("\n")
	add("1. e4 *\n")
	if rest := sp.flush(); rest != "" {
		got = append(got, rest)
	}
	if len(got) != 2 {
		t.Fatalf("%d games", len(got))
	}
	if n := len(got[0]); n <= 1000 || n > 1100 {
		t.Fatalf("the long game is %d bytes, want just past 1000", n)
	}
	if !strings.Contains(got[1], "next") || !strings.Contains(got[1], "1. e4 *") {
		t.Fatalf("next game %q", got[1])
	}
}
