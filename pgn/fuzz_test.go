package pgn

import (
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

var errShape = regexp.MustCompile(`^line [1-9][0-9]*: [a-zA-Z]`)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, every game error must be a
// *SyntaxError naming a line and the problem, every move must be a SAN-shaped token, and reading the
// same bytes one at a time must give the same games.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 e5 2. Nf3 {c} (2. Nc3) $1 Nc6!? 1-0\n",
		"1. e4 { open\n[Event \"y\"]\n1. d4 *",
		"\uFEFF% esc\r\n[A \"b\\\"c\"]\r\n\r\n1.e4 1...e5 ; x\r\n*",
		"1. e4 ((( e5 ))) ) } ] \x00\xff 0-1",
		"[A \"b\"]\n\n1. e4 {x\n[B \"c\"]\n} e5 1. d4 {y\n\n[C \"d\"]\n1. c4 a8=q *",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games := fuzzRead(t, NewReader(strings.NewReader(string(data))), len(data))
		slow := fuzzRead(t, NewReader(iotest.OneByteReader(strings.NewReader(string(data)))), len(data))
		if !sameGames(games, slow) {
			t.Fatalf("one-byte reads give different games")
		}
		parsed, err := ParseGames(string(data))
		if err != nil && err != ErrNoGames || len(parsed) != len(games) {
			t.Fatalf("ParseGames: %d games, %v; Reader: %d games", len(parsed), err, len(games))
		}
		// Within tiny limits: the same guarantees, and every game within them.
		lim := Limits{MaxLineBytes: 40, MaxGameBytes: 200, MaxPlies: 6, MaxTagBytes: 8}
		small := fuzzRead(t, NewReaderLimits(strings.NewReader(string(data)), lim), len(data))
		slowSmall := fuzzRead(t, NewReaderLimits(iotest.OneByteReader(strings.NewReader(string(data))), lim), len(data))
		if !sameGames(small, slowSmall) {
			t.Fatalf("one-byte reads give different games within limits")
		}
		for _, g := range small {
			if len(g.Moves) > lim.MaxPlies {
				t.Fatalf("game %d: %d moves over the limit", g.Index, len(g.Moves))
			}
			for _, tag := range g.Tags {
				// The limit is on the file's bytes: a value read as Windows-1252 has a
				// character for each of them, up to 3 bytes in UTF-8.
				if utf8.RuneCountInString(tag.Value) > lim.MaxTagBytes || len(tag.Value) > 3*lim.MaxTagBytes {
					t.Fatalf("game %d: tag %q over the limit", g.Index, tag.Name)
				}
			}
		}
	})
}

func fuzzRead(t *testing.T, r *Reader, size int) []*Game {
	var games []*Game
	lastLine := 0
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if len(games) > size {
			t.Fatalf("more games (%d) than input bytes (%d)", len(games), size)
		}
		if g.Index != len(games) || g.Line < lastLine || g.Line < 1 && (len(g.Tags) > 0 || len(g.Moves) > 0) {
			t.Fatalf("game %d: Index %d, Line %d after line %d", len(games), g.Index, g.Line, lastLine)
		}
		lastLine = g.Line
		if g.Err != nil {
			se, ok := g.Err.(*SyntaxError)
			if !ok || !errShape.MatchString(g.Err.Error()) || se.Line < g.Line {
				t.Fatalf("game %d (line %d): error %T %q does not name a line and a problem", g.Index, g.Line, g.Err, g.Err)
			}
		}
		for _, m := range g.Moves {
			if m == "" || !sanShaped([]byte(m)) {
				t.Fatalf("game %d: move %q is not SAN-shaped", g.Index, m)
			}
		}
		switch g.Result {
		case "", "1-0", "0-1", "1/2-1/2", "*":
		default:
			t.Fatalf("game %d: result %q", g.Index, g.Result)
		}
		games = append(games, g)
	}
	return games
}
