package lichess

import (
	"strings"
	"testing"
)

// A line cut inside a game's tag section (the connection delivered the
// first half of the game, then the game again) must not merge the cut
// tags into the next game: the cut part is dropped.
func TestPGNSplitterDropsCutTagSection(t *testing.T) {
	game := "[Event \"e\"]\n[Site \"https://lichess.org/broadcast/t/r/rid/ch1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n"
	cut := game[:len(game)/3] + "\n" // ends inside the Site tag
	var sp pgnSplitter
	var got []string
	for _, line := range strings.SplitAfter(cut+game, "\n") {
		if pgn, ok := sp.add([]byte(line)); ok {
			got = append(got, pgn)
		}
	}
	if rest := sp.flush(); rest != "" {
		got = append(got, rest)
	}
	if len(got) != 1 || strings.Count(got[0], "[Event") != 1 || !strings.Contains(got[0], "1. e4 e5 *") {
		t.Fatalf("games %q, want the one whole game", got)
	}
}
