package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/configkeys"
)

// hugeTags generates, without holding it, the input of the issue: one game with tags of 60 MB each
// (37 of them: more than 2 GiB of tag text), then a normal game.
type hugeTags struct {
	tags, size int
	tag        int
	line       *strings.Reader // what is left of the current tag line's head or tail
	value      int             // bytes of the current value still to give
	tail       *strings.Reader
}

var xs = bytes.Repeat([]byte("x"), 64<<10)

func (h *hugeTags) Read(p []byte) (int, error) {
	switch {
	case h.line != nil && h.line.Len() > 0:
		return h.line.Read(p)
	case h.value > 0:
		n := copy(p[:min(len(p), h.value)], xs)
		h.value -= n
		if h.value == 0 {
			h.line = strings.NewReader("\"]\n")
		}
		return n, nil
	case h.tag < h.tags:
		h.line = strings.NewReader(fmt.Sprintf("[Tag%d \"", h.tag))
		h.value = h.size
		h.tag++
		return h.line.Read(p)
	}
	return h.tail.Read(p)
}

// TestHugeTagsDoNotPanic: 37 tags of 60 MB each (2.2 GB of tag text) made the 32-bit offsets of the game
// text overflow (panic: slice bounds out of range). Each line is now cut at the line limit, the game gets
// an error naming its line and the limit, memory stays bounded, and the next game is read.
func TestHugeTagsDoNotPanic(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2.2 GB")
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	in := &hugeTags{tags: 37, size: 60 << 20, tail: strings.NewReader("\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n")}
	games := readAll(t, NewReader(in))
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if len(games) != 2 {
		t.Fatalf("%d games, want 2", len(games))
	}
	var se *SyntaxError
	if !errors.As(games[0].Err, &se) || se.Limit != "max_line_bytes" || se.Line != 1 {
		t.Fatalf("first game: error %v, want the line limit at line 1", games[0].Err)
	}
	if ev, _ := games[1].Tag("Event"); ev != "next" || len(games[1].Moves) != 1 || games[1].Err != nil {
		t.Fatalf("second game: %+v", games[1])
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("reading allocated %d MB", alloc>>20)
	}
}

// TestLimits: each limit ends the taking of a game's text with an error that names the game's line and
// the limit; the moves before it are kept and the next game is read whole.
func TestLimits(t *testing.T) {
	next := "\n[Event \"next\"]\n\n1. d4 d5 *\n"
	longComment := "{" + strings.Repeat("a comment ", 200) + "}"
	tests := []struct {
		name  string
		lim   Limits
		input string
		moves []string // of the first game
		limit string
		line  int
	}{
		{"plies", Limits{MaxPlies: 4}, "[Event \"a\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8\n3. Nf3 Nf6 *\n", mv("Nf3 Nf6 Ng1 Ng8"), "max_plies", 4},
		{"line", Limits{MaxLineBytes: 100}, "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 " + longComment + " Nc6 *\n", mv("e4 e5"), "max_line_bytes", 4},
		{"tag", Limits{MaxTagBytes: 10}, "[Event \"a\"]\n[Annotator \"" + strings.Repeat("z", 11) + "\"]\n\n1. e4 *\n", mv("e4"), "max_tag_bytes", 2},
		{"game text", Limits{MaxGameBytes: 1000}, "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 " + longComment + "\n Nc6 3. Bb5 *\n", mv("e4 e5"), "max_game_bytes", 4},
		{"game text in an open comment", Limits{MaxGameBytes: 1000}, "[Event \"a\"]\n\n1. e4 e5 {\n" + strings.Repeat("text\n", 300) + "} 2. Nf3 *\n", mv("e4 e5"), "max_game_bytes", 199},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readAll(t, NewReaderLimits(strings.NewReader(tt.input+next), tt.lim))
			if len(games) != 2 {
				for _, g := range games {
					t.Logf("game line %d: %q %v", g.Line, g.Moves, g.Err)
				}
				t.Fatalf("%d games, want 2", len(games))
			}
			g := games[0]
			var se *SyntaxError
			if !errors.As(g.Err, &se) || se.Limit != tt.limit || se.Line != tt.line || !strings.Contains(se.Error(), "pgn."+tt.limit) {
				t.Fatalf("error %v, want limit %s at line %d", g.Err, tt.limit, tt.line)
			}
			if strings.Join(g.Moves, " ") != strings.Join(tt.moves, " ") {
				t.Errorf("moves %q, want %q", g.Moves, tt.moves)
			}
			if ev, _ := games[1].Tag("Event"); ev != "next" || len(games[1].Moves) != 2 || games[1].Err != nil {
				t.Errorf("next game: tags %v moves %q err %v", games[1].Tags, games[1].Moves, games[1].Err)
			}
		})
	}
}

// TestCommentHoldingTagPairs: a comment ends only at "}": a line inside it that looks like a tag pair is
// comment text, and the games after it keep their places. Only when the comment is never closed does the
// reader go back to that line and read the next game from there.
func TestCommentHoldingTagPairs(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []want
	}{
		{"closed comment quoting a header",
			"[Event \"A\"]\n\n1. e4 {the game was\n[Event \"quoted\"]\n[Site \"in a comment\"]\n} e5 2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 *\n",
			[]want{
				{line: 1, tags: []Tag{{"Event", "A"}}, moves: mv("e4 e5 Nf3"), result: "1-0"},
				{line: 8, tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			}},
		{"never closed: the next game is read from the tag pair",
			"[Event \"A\"]\n\n1. e4 {never closed\n\n[Event \"B\"]\n\n1. d4 d5 *\n\n[Event \"C\"]\n\n1. c4 *\n",
			[]want{
				{tags: []Tag{{"Event", "A"}}, moves: mv("e4"), err: "line 5: unterminated comment opened at line 3"},
				{line: 5, tags: []Tag{{"Event", "B"}}, moves: mv("d4 d5"), result: "*"},
				{line: 9, tags: []Tag{{"Event", "C"}}, moves: mv("c4"), result: "*"},
			}},
		{"never closed, and the next game has an open comment too",
			"1. e4 {one\n[Event \"B\"]\n1. d4 {two\n[Event \"C\"]\n1. c4 *\n",
			[]want{
				{moves: mv("e4"), err: "line 2: unterminated comment opened at line 1"},
				{line: 2, tags: []Tag{{"Event", "B"}}, moves: mv("d4"), err: "line 4: unterminated comment opened at line 3"},
				{line: 4, tags: []Tag{{"Event", "C"}}, moves: mv("c4"), result: "*"},
			}},
		{"a later game's closing brace closes the comment (it ends only at \"}\")",
			"[Event \"A\"]\n\n1. e4 {open\n\n[Event \"B\"]\n\n1. d4 {x} d5 *\n\n[Event \"C\"]\n\n1. c4 *\n",
			[]want{
				{line: 1, tags: []Tag{{"Event", "A"}}, moves: mv("e4 d5"), result: "*"},
				{line: 9, tags: []Tag{{"Event", "C"}}, moves: mv("c4"), result: "*"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkGames(t, readAll(t, NewReader(strings.NewReader(tt.input))), tt.want)
		})
	}
}

// TestMoveTokens: lower-case promotion letters are a move (the SAN reader accepts them); a token far
// longer than any move is a syntax error that quotes only an excerpt of it.
func TestMoveTokens(t *testing.T) {
	games := readAll(t, NewReader(strings.NewReader("1. a8=q b1=n+ 2. exd8=r# c1=b *\n")))
	if len(games) != 1 || games[0].Err != nil || strings.Join(games[0].Moves, " ") != "a8=q b1=n+ exd8=r# c1=b" {
		t.Fatalf("got %+v", games[0])
	}
	long := strings.Repeat("a", 1<<20)
	games = readAll(t, NewReader(io.MultiReader(strings.NewReader("1. e4 "+long+" e5 *\n"))))
	if len(games) != 1 || games[0].Err == nil || len(games[0].Err.Error()) > 100 || len(games[0].Moves) != 1 {
		msg := ""
		if games[0].Err != nil {
			msg = games[0].Err.Error()
		}
		t.Fatalf("moves %d, error of %d bytes: %.200s", len(games[0].Moves), len(msg), msg)
	}
	if !bytes.Contains([]byte(games[0].Err.Error()), []byte("unexpected token \"aaaa")) {
		t.Fatalf("error %v", games[0].Err)
	}
}

// BenchmarkMemoryHugeTags: the game of 37 tags of 60 MB each (2.2 GB
// of text, it panicked and took 14 GB). B/op, everything allocated to read
// it and the next game, is bounded by pgn.max_line_bytes, not the input.
func BenchmarkMemoryHugeTags(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		in := &hugeTags{tags: 37, size: 60 << 20, tail: strings.NewReader("\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n")}
		if games := readAll(b, NewReader(in)); len(games) != 2 {
			b.Fatalf("%d games", len(games))
		}
	}
	b.ReportMetric(37*60<<20, "input-B")
}

// The range tags of the pgn: keys allow what WithDefaults keeps: at most
// MaxLimit, and the defaults.
func TestLimitsRangeTags(t *testing.T) {
	ranges, err := configkeys.Ranges(reflect.TypeOf(Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(ranges) != reflect.TypeOf(Limits{}).NumField() {
		t.Errorf("ranges of %d keys, want one for each limit: %v", len(ranges), ranges)
	}
	for key, r := range ranges {
		if r.Max != MaxLimit || r.Min < 1 {
			t.Errorf("%s: range %d..%d, want from at least 1 to MaxLimit", key, r.Min, r.Max)
		}
	}
	if err := configkeys.CheckRanges(reflect.ValueOf(Limits{}.WithDefaults())); err != nil {
		t.Errorf("a default is out of its range: %v", err)
	}
}
