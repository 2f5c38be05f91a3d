package bot_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// The bot plays from the opening book (book/testdata/tiny.bin) while the
// position is in it, up to max_moves, never a book move that repeats a
// position of the game; then the mover plays.
func TestOpeningBook(t *testing.T) {
	tests := []struct {
		name     string
		moves    string // already played; the bot is White
		maxMoves int
		replies  string // the opponent's moves, then it resigns
		want     string // the bot's moves
		rules    string // the rule of each of them
	}{
		{name: "the heaviest line while it lasts", maxMoves: 12, replies: "e7e5 b8c6",
			want: "e2e4 g1f3", rules: "book book engine"},
		{name: "a book move that repeats is skipped", moves: "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6", maxMoves: 12,
			want: "b1c3", rules: "book"},
		{name: "past max_moves the book is not used", moves: "e2e4 e7e5", maxMoves: 1,
			rules: "engine"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{cfg: func(c *bot.Config) {
				c.Book = bot.BookConfig{Path: filepath.Join("book", "testdata", "tiny.bin"), MaxMoves: tc.maxMoves, Choice: "best"}
			}})
			pre := strings.Fields(tc.moves)
			id := h.newGame(fakelichess.GameSpec{Moves: pre}, rules.White)
			replies := strings.Fields(tc.replies)
			h.opponent(id, func(g *rules.Game) string {
				if n := (g.Ply() - len(pre)) / 2; n < len(replies) {
					return replies[n]
				}
				return "resign"
			})
			st, _ := h.waitGameOver(id)
			var got []string
			for i := len(pre); i < len(st.Moves); i += 2 {
				got = append(got, st.Moves[i])
			}
			if want := strings.Fields(tc.want); len(got) < len(want) || strings.Join(got[:len(want)], " ") != tc.want {
				t.Errorf("the bot played %v, want %s first", got, tc.want)
			}
			var used []string
			for _, l := range strings.Split(h.logs.String(), "\n") {
				if strings.Contains(l, `msg="move chosen"`) {
					_, r, _ := strings.Cut(l, " rule=")
					r, _, _ = strings.Cut(r, " ")
					used = append(used, r)
				}
			}
			if strings.Join(used, " ") != tc.rules {
				t.Errorf("rules %v, want %s", used, tc.rules)
			}
		})
	}
}

// A book that cannot be opened stops the bot at start, naming the key.
func TestOpeningBookMissing(t *testing.T) {
	h := newHarness(t, harnessOpt{noAutoStart: true, cfg: func(c *bot.Config) {
		c.Book = bot.BookConfig{Path: filepath.Join(t.TempDir(), "none.bin"), MaxMoves: 10, Choice: "weighted"}
	}})
	h.start()
	err := <-h.done
	h.stopBot = nil
	if err == nil || !strings.Contains(err.Error(), "bot.book.path") {
		t.Fatalf("Run: %v, want an error naming bot.book.path", err)
	}
}
