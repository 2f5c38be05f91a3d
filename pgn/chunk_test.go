package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// readWhole reads data with one Reader: the games and the error that stopped it (nil at the end).
func readWhole(data io.Reader, lim Limits) ([]*Game, error) {
	r := NewReaderLimits(data, lim)
	var games []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
}

// readChunked reads data as scan does: a Splitter's chunks read each on its own by one of readers
// ChunkReaders in turn, stitched back in order, keeping the tags keep names (all when nil). It returns the
// games, the error, and how many chunks there were and were read again.
func readChunked(t testing.TB, data io.Reader, lim Limits, size, readers int, keep ...string) (games []*Game, err error, chunks, rereads int) {
	t.Helper()
	sp := NewSplitter(data, lim, size)
	crs := make([]*ChunkReader, readers)
	for i := range crs {
		crs[i] = NewChunkReader(lim)
		crs[i].KeepTags = keep
	}
	st := NewStitcher(lim)
	st.KeepTags = keep
	line := 0
	for {
		c, err := sp.Next()
		if err == io.EOF {
			return games, nil, chunks, rereads
		}
		if err != nil {
			t.Fatalf("Splitter.Next: %v", err)
		}
		if c.line != line {
			t.Fatalf("chunk %d starts after %d lines, want %d", chunks, c.line, line)
		}
		line += bytes.Count(c.data, []byte("\n"))
		if !c.last && (len(c.data) == 0 || c.data[len(c.data)-1] != '\n') {
			t.Fatalf("chunk %d does not end at a line end: %q", chunks, c.data)
		}
		p := crs[chunks%readers].Read(c)
		chunks++
		gs, reread, err := st.Stitch(p)
		for i := range c.data {
			c.data[i] = '#' // the games must not share the chunk's buffer, which later chunks reuse
		}
		c.Release()
		if reread {
			rereads++
		}
		games = append(games, gs...)
		if err != nil {
			return games, err, chunks, rereads
		}
	}
}

// checkChunked fails when reading data in chunks of size bytes gives other games or another error than
// reading it whole.
func checkChunked(t *testing.T, data []byte, lim Limits, size int) (chunks, rereads int) {
	t.Helper()
	want, wantErr := readWhole(bytes.NewReader(data), lim)
	for _, readers := range []int{1, 3} {
		var src io.Reader = bytes.NewReader(data)
		if readers == 3 && len(data) < 1<<14 { // cuts where reads end
			src = iotest.OneByteReader(src)
		}
		got, err, n, re := readChunked(t, src, lim, size, readers)
		chunks, rereads = n, re
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("size %d, %d readers: error %v, want %v", size, readers, err, wantErr)
		}
		if !sameGames(got, want) {
			t.Fatalf("size %d, %d readers (%d chunks, %d read again): %s", size, readers, chunks, rereads, firstDifference(got, want))
		}
	}
	return chunks, rereads
}

func firstDifference(got, want []*Game) string {
	for i := range min(len(got), len(want)) {
		if !sameGames(got[i:i+1], want[i:i+1]) {
			return fmt.Sprintf("game %d: got %+v, want %+v", i, *got[i], *want[i])
		}
	}
	return fmt.Sprintf("%d games, want %d", len(got), len(want))
}

// hostile are texts whose game boundaries a cut in the wrong place would move: every way a game reaches
// past a line that looks like the start of the next one.
var hostile = []struct{ name, text string }{
	{"plain games", "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"c\"]\n\n1. d4 d5 0-1\n\n[Event \"d\"]\n\n1. c4 *\n"},
	{"no blank lines", "[Event \"a\"]\n1. e4 e5 1-0\n[Event \"b\"]\n1. d4 0-1\n[Event \"c\"]\n1. c4 *\n"},
	{"CRLF and BOM", "\uFEFF[Event \"a\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n\uFEFF[Event \"b\"]\r\n\r\n1. d4 *\r\n"},
	{"comment open over tag pairs, closed", "[Event \"a\"]\n\n1. e4 {open\n\n[Event \"x\"]\n\n[Site \"y\"]\n} e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n"},
	{"comment never closed", "[Event \"a\"]\n\n1. e4 {open\n\n[Event \"x\"]\n\n1. d4 d5\n\n[Event \"y\"]\n\n1. c4 *\n"},
	{"variation never closed", "[Event \"a\"]\n\n1. e4 (1. d4 d5\n\n[Event \"b\"]\n\n1. c4 c5 *\n\n[Event \"c\"]\n\n1. Nf3 *\n"},
	{"tag section with blank lines inside", "[Event \"a\"]\n\n[Site \"b\"]\n\n[Date \"c\"]\n\n1. e4 *\n\n[Event \"d\"]\n\n1. d4 *\n"},
	{"movetext without a result", "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4\n\n[Event \"c\"]\n\n1. c4\n"},
	{"results mid-line", "1. e4 1-0 1. d4 0-1 [Event \"x\"] 1. c4 *\n\n[Event \"a\"]\n\n1. e4 * 1. d4 *\n"},
	{"semicolon comments", "[Event \"a\"]\n\n1. e4 ; {not a comment\n\n[Event \"b\"]\n\n1. d4 ; [Event \"q\"]\n*\n"},
	{"escape lines", "% [Event \"no\"]\n[Event \"a\"]\n\n1. e4 *\n\n%{\n\n[Event \"b\"]\n\n1. d4 *\n"},
	{"braces and quotes in tags", "[Event \"{\"]\n[Site \"a\\\"b}\"]\n\n1. e4 *\n\n[Event \"(\"]\n\n1. d4 *\n"},
	{"malformed tag pairs", "[Event \"a\n\n[Event \"b\"] {c\n\n[Event \"c\"] junk ]\n\n1. e4 *\n\n[Event\n\n[E \"d\"]\n\n1. d4 *\n"},
	{"comments between games", "{a comment}\n\n[Event \"a\"]\n\n1. e4 *\n\n{another\n\n[Event \"b\"]\n}\n\n[Event \"c\"]\n\n1. d4 *\n"},
	{"blank lines before a game", "\n\n\n\n[Event \"a\"]\n\n1. e4 *\n\n\n\n\n\n[Event \"b\"]\n\n1. d4 *\n\n\n\n"},
	{"spaces before tag pairs", "  [Event \"a\"]\n\n1. e4 *\n\n\t[Event \"b\"]\n\n1. d4 *\n"},
	{"no final line end", "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4"},
	{"garbage", "\x00\xff[[[ \"\n\n[\n\n[A\"\n\n]]]}}}((\n\n[B \"\"]\n\n)))"},
	{"long lines", "[Event \"a\"]\n\n1. e4 {" + strings.Repeat("x", 90) + "} e5 *\n\n[Event \"" + strings.Repeat("y", 90) + "\"]\n\n1. d4 *\n\n" + strings.Repeat("z", 300) + "\n\n[Event \"c\"]\n\n1. c4 *\n"},
	{"tag section cut where no blank line is", "  [Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n% x\n[Site \"d\"]\n\n1. d4 *\n"},
	{"tag section over the byte limit", "[Event \"a\"]\n" + strings.Repeat(" [Xy \"yyyyyyyyyyyyyyyyyyyyyyyyyyy\"]\n", 5) + "[D \"d\"]\n\n1. e4 *\n\n[Event \"e\"]\n\n1. d4 *\n"},
	{"tag lines over the byte limits", "[Event \"a\"]\n" + strings.Repeat("[Xy \"yyyyyyy\"]\n", 10) + "[D \"d\"]\n\n1. e4 *\n\n" +
		"[Event \"b\"]\n[" + strings.Repeat("N", 40) + " \"v\"]\r\n[Site \"s\"]\r\n\r\n1. d4 *\n\n[Event \"c\"]\n[Site \"s\"]\n[Date \"d\"]\n\n1. c4 *\n"},
	{"blank lines count towards the next game", "[Event \"a\"]\n\n1. e4 1-0" + strings.Repeat("\n", 40) + "[Event \"b\"]\n\n1. d4 {aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}\n{bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb}\nd5 *\n\n[Event \"c\"]\n\n1. c4 *\n"},
	{"movetext over many lines", "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 Nc6\r\n3. Bb5 a6\n4.\nBa4 Nf6\n5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8\n10. d4 Nbd7\n{c} 11. c4 c6\n*\n\n[Event \"b\"]\n\n1. d4 *\n"},
	{"moves with glyphs and joined numbers", "[Event \"a\"]\n\n1.e4 e5! 2.Nf3?! Nc6 3. Bb5!! a6\n4.Ba4 Nf6 *\n\n[Event \"b\"]\n\n1. d4!? *\n"},
	{"many plies", "[Event \"a\"]\n\n" + strings.Repeat("1. Nf3 Nf6 2. Ng1 Ng8 ", 4) + "*\n\n[Event \"b\"]\n\n1. d4 *\n"},
	{"move numbers of every form", "[Event \"a\"]\n\n1. e4 e5 2.Nf3 Nc6 9. Bb5 10. a6 11.Ba4 99... Nf6 100. O-O 12. \n13.\n7. 8 9.. Be7 1.\t" +
		"Re1 10.  b5 1 Bb3 12 d6 *\n\n[Event \"b\"]\n\n1. d4 12. *\n"},
	{"a line cut at the limit after a game ends in it", "0900000000000000000000[Xy \"0\"]000 B0 B0000\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4 *\n"},
	{"errors after lines of moves", "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 Nc6\r\n3. Bb5 a6\r\n4. Ba4 Nf6 5. O-O Be7\n6. Re1 b5 x!z\n7. Bb3 *\n\n" +
		"[Event \"b\"]\r\n\r\n1. d4 d5\r\n2. c4 e6\r\n3. Nc3 Nf6\r\n4. Bg5 Be7\r\n5. e3 O-O\r\n6. Nf3 h6\r\n7. Bh4 b6\r\n8. cxd5 Nxd5 {c}\r\n*\r\n"},
	{"moves against delimiters and long tokens", "[Event \"a\"]\n\n1. e4{c} e5(1... d5) 2. Nf3$1 Nc6\t3. Bb5\va6 4. exd6e.p. b1=q 5. Nf3?? e5!\n6. a3;x\n7. Ba4\"Nf6 " +
		strings.Repeat("a", 32) + " " + strings.Repeat("b", 33) + " *\n\n[Event \"b\"]\n\n1. d4[ *\n"},
	// As the Lichess database writes games: the movetext on one line, a comment after every move, black's
	// moves numbered after it; then comments of every length against the ends of words and lines.
	{"a comment after every move", "[Event \"a\"]\n\n1. e4 { [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:02:59] } 2. Nf3 {x}Nc6{} 3. Bb5 " +
		"{ [%clk 0:02:58] }\n3... a6 {1234567} 4. Ba4 {12345678} 4... Nf6 {123456789} 5. O-O {" + strings.Repeat("c", 40) +
		"} Be7 {open\nclosed} 6. Re1 {a { b} b5 { } *\n\n[Event \"b\"]\n\n1. d4 {never closed\n\n[Event \"c\"]\n\n1. c4 {c} *\n"},
	// What chunkMoves reads 8 bytes at a time, and what it must leave to its general case, each in a game of
	// its own (a game is read no further after an error): moves of 5, 6 and 7 bytes, a glyph, a control
	// byte, a byte above 127 or a delimiter right after a move or a number, numbers of 3 digits, of 2 dots,
	// with a letter, without a dot, before a line end or a tab, a tag pair on the line after a move, black's
	// move numbers after comments.
	{"moves and numbers read a word at a time", wordGames(
		"5. O-O-O Be7 6. Nxe4+ Bb7", "6. Raxb1+ b5", "7. exd8=Q+ d6", "4. Ba4! Nf6", "4. Ba4!? Nf6", "2. Nf3\x01 Nc6",
		"3. Bb5\x7f a6", "8. a3\x00 d5", "14. a3\xff b6", "14. a3 b6\x0e", "8. a3{c} d5", "8. a3(x) d5", "9.. b4",
		"10.\x01 c5", "11... c4", "123. Nc3", "1.. Ne4", "12.e4 e5", "1x. Nf6", "12.\nNf3 Nf6\t17.\tNg5", "18. 9e4 h6",
		"Ne4 ... Nf6", "Bb5\r\n16. Nf3", "1. e4 e5 2. Nf3\n\n", "4. Nxe4! Nf6", "123 Nf6", "12x Nf6", "12.x Nf6",
		"4. Nf3\n[Site \"x\"]\n", "{c} 3... a6", "{c} 12... a6 {c}{d} {e}  13. a4", "1x... Nf6", "1.x. Nf6", "1..x Nf6", "12..x Nf6",
		"123... Nf6", "1....\nNf6"),
	},
	// Lichess's clock comments, which chunkMoves reads with the plies after them in one loop (clockPlies),
	// and what it must leave to its general case: a clock of two digits of hours, a comment with an
	// evaluation, a line end after a comment, a move of 7 bytes, a number of 3 digits.
	{"clock comments as Lichess writes them", strings.Join(clockGames("2... Nc6 { [%clk 0:02:59] }", "2... Nc6 { [%clk 10:02:59] }",
		"2... Nc6 { [%eval 0.17] [%clk 0:02:59] }", "2... Nc6 { [%eval #-3] }", "2... Nc6 { [%clk 0:02:59] }\n",
		"2... exd8=Q+ { [%clk 0:02:59] }", "102... Nc6 { [%clk 0:02:59] }"), "")},
}

// clockPly is a ply as Lichess writes it, with a clock comment: clockGames puts it in a game around each
// piece of movetext, with enough such plies after it that chunkMoves reads them in its loop for them
// (clockPlies).
const clockPly = "3. Bb5 { [%clk 0:02:58] } 3... a6 { [%clk 0:02:57] } "

// clockGames returns a game for each piece of movetext, written as Lichess writes its games (a move
// number, a move and a clock comment a ply), after two plies and before three and a result.
func clockGames(movetext ...string) []string {
	games := make([]string, len(movetext))
	for i, m := range movetext {
		name := strings.NewReplacer("\n", "|", "\r", "|", "\"", "'", "\\", "/").Replace(m) // on the tag pair's line
		games[i] = fmt.Sprintf("[Event \"%s\"]\n\n1. e4 { [%%clk 0:03:00] } 1... e5 { [%%clk 0:03:00] } 2. Nf3 { [%%clk 0:02:59] } %s %s%s*\n\n",
			name, m, clockPly, clockPly)
	}
	return games
}

// wordGames returns a game for each piece of movetext, after three moves and before a fourth and a result.
func wordGames(movetext ...string) string {
	var b strings.Builder
	for _, m := range movetext {
		fmt.Fprintf(&b, "[Event \"%s\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 %s 4. d4 d5 *\n\n", m, m)
	}
	return b.String()
}

// TestClockPliesReadsComments: clockPlies reads the plies after comments whose "}" is anywhere in the 32
// bytes after their "{", not only after clock comments (the loop of chunkMoves would read them too, one
// token at a time).
func TestClockPliesReadsComments(t *testing.T) {
	var b strings.Builder
	for n := range 32 {
		fmt.Fprintf(&b, "%d. e4 {%s} %d... e5 { [%%clk 0:01:00] } ", n+1, strings.Repeat("e", n), n+1)
	}
	line := []byte(b.String() + strings.Repeat("*", 64))
	i, off := clockPlies(line, 0, make([]MoveSpan, 0, 100))
	if len(off) != 64 || i != b.Len() {
		t.Fatalf("%d plies read, stopped at %d of %d: %q", len(off), i, b.Len(), line[i:])
	}
}

// TestChunkedMatchesReader reads texts that move game boundaries around, in chunks of every small size,
// within the default limits and within tiny ones: the games and errors must be the Reader's.
func TestChunkedMatchesReader(t *testing.T) {
	tiny := Limits{MaxLineBytes: 40, MaxGameBytes: 120, MaxPlies: 6, MaxTagBytes: 8}
	// Lines of any length, games of a few lines: the lines of moves of a chunk are read on at once
	// (chunkMovesLines) where the game cannot reach the limit in them, and the game's bytes counted so.
	fewLines := Limits{MaxGameBytes: 160, MaxPlies: 12}
	for _, tt := range hostile {
		t.Run(tt.name, func(t *testing.T) {
			for _, lim := range []Limits{{}, tiny, fewLines} {
				for size := 1; size <= len(tt.text)+1; size++ {
					checkChunked(t, []byte(tt.text), lim, size)
				}
			}
		})
	}
}

// TestChunkedClockComments reads Lichess's plies with a clock comment, and every way a ply near one differs
// from them, each in a game of its own, in chunks of every small size: the games and errors must be the
// Reader's, which reads comments one by one (scanMovetext), not as clockPlies does.
func TestChunkedClockComments(t *testing.T) {
	games := clockGames(
		// Plies clockPlies reads, with moves of every length it reads.
		"2... Nc6 { [%clk 0:02:59] }", "2... a6 { [%clk 9:59:59] }", "2... Nxe5 { [%clk 0:00:00] }", "2... O-O-O { [%clk 0:02:59] }",
		"2... Nc6 { [%clk ?:;<:=>] }", "12. Nc6 { [%clk 0:02:59] }", "12... Nc6 { [%clk 0:02:59] }", "1. Nc6 { [%clk 0:02:59] }",
		// Comments it must not take for a clock comment: a "}" or a line end in any byte of the time, a longer
		// time, one more space, an evaluation, two comments, another comment.
		"2... Nc6 { [%clk }:02:59] }", "2... Nc6 { [%clk 0:}2:59] }", "2... Nc6 { [%clk 0:0}:59] }", "2... Nc6 { [%clk 0:02:}9] }",
		"2... Nc6 { [%clk 0:02:5}] }", "2... Nc6 { [%clk 0:02:59} }", "2... Nc6 { [%clk 0:0\n:59] }", "2... Nc6 { [%clk 0:02:59\n }",
		"2... Nc6 { [%clk 10:02:59] }", "2... Nc6 { [%clk 0:02:590] }", "2... Nc6 { [%clk 0:02:59]  }", "2... Nc6 {  [%clk 0:02:59] }",
		"2... Nc6 { [%eval 0.17] [%clk 0:02:59] }", "2... Nc6 { [%eval #-3] }", "2... Nc6 { [%clk 0:02:59] } {c}", "2... Nc6 {c}",
		"2... Nc6 { [%clk 0:02:59]", "2... Nc6 { [%clk 0:02:59 }", "2... Nc6 { [%CLK 0:02:59] }", "2... Nc6 { [%clk 0:1a:59] }",
		// What comes after a clock comment, other than a space: a line end, CRLF, a tab, a result, a comment, the
		// next game.
		"2... Nc6 { [%clk 0:02:59] }\n", "2... Nc6 { [%clk 0:02:59] }\r\n", "2... Nc6 { [%clk 0:02:59] }\t", "2... Nc6 { [%clk 0:02:59] }1-0",
		"2... Nc6 { [%clk 0:02:59] }{c}", "2... Nc6 { [%clk 0:02:59] }\n{c}", "2... Nc6 { [%clk 0:02:59] }\n\n[Event \"b\"]\n\n1. e4 { [%clk 0:03:00] }",
		// Numbers it must leave to the general case: 3 digits, 2 or 4 dots, joined to the move, two spaces, no
		// dot, a wrong byte in each place of each form it reads (one whose high or low half is a digit's), a
		// control byte or a tab after it.
		"102. Nc6 { [%clk 0:02:59] }", "102... Nc6 { [%clk 0:02:59] }", "2.. Nc6 { [%clk 0:02:59] }", "2.... Nc6 { [%clk 0:02:59] }",
		"2...Nc6 { [%clk 0:02:59] }", "2...  Nc6 { [%clk 0:02:59] }", "2 Nc6 { [%clk 0:02:59] }", "2..\tNc6 { [%clk 0:02:59] }",
		"?. Nc6 { [%clk 0:02:59] }", "2x Nc6 { [%clk 0:02:59] }", "2!. Nc6 { [%clk 0:02:59] }", ":2. Nc6 { [%clk 0:02:59] }",
		"1:. Nc6 { [%clk 0:02:59] }", "2a. Nc6 { [%clk 0:02:59] }", "22x Nc6 { [%clk 0:02:59] }", ":... Nc6 { [%clk 0:02:59] }",
		"2a.. Nc6 { [%clk 0:02:59] }", "2.a. Nc6 { [%clk 0:02:59] }", "2..a Nc6 { [%clk 0:02:59] }", "?2... Nc6 { [%clk 0:02:59] }",
		"2:... Nc6 { [%clk 0:02:59] }", "2!... Nc6 { [%clk 0:02:59] }", "2?... Nc6 { [%clk 0:02:59] }", "22a.. Nc6 { [%clk 0:02:59] }",
		"22.a. Nc6 { [%clk 0:02:59] }", "22..a Nc6 { [%clk 0:02:59] }", "2.\x01Nc6 { [%clk 0:02:59] }", "12.\x01Nc6 { [%clk 0:02:59] }",
		"12...\x00Nc6 { [%clk 0:02:59] }", "2.\tNc6 { [%clk 0:02:59] }", "12.\tNc6 { [%clk 0:02:59] }", "2...\tNc6 { [%clk 0:02:59] }",
		// Moves it must leave to the general case: 6 and 7 bytes, glyphs, a NAG, a variation, no space or two
		// before the comment, a result, a null move, castling with zeros, a lower-case piece, bytes no move has.
		"2... exd8=Q { [%clk 0:02:59] }", "2... exd8=Q+ { [%clk 0:02:59] }", "2... Nc6?! { [%clk 0:02:59] }", "2... Nc6! { [%clk 0:02:59] }",
		"2... Nc6 $1 { [%clk 0:02:59] }", "2... Nc6 (2... d6) { [%clk 0:02:59] }", "2... Nc6{ [%clk 0:02:59] }", "2... Nc6  { [%clk 0:02:59] }",
		"2... 1-0 { [%clk 0:02:59] }", "2... -- { [%clk 0:02:59] }", "2... 0-0 { [%clk 0:02:59] }", "2... nc6 { [%clk 0:02:59] }",
		"2... Nc6\x00 { [%clk 0:02:59] }", "2... N\xffc { [%clk 0:02:59] }")
	// Other comments, which clockPlies reads when their "}" is in the 32 bytes after the "{" and a space
	// follows: of every length to 36 (an evaluation before the clock is 30 to 33 bytes), with a line end
	// in each word, another "{" inside, two "}", followed by a line end or a tab.
	var comments []string
	for n := range 37 {
		comments = append(comments, clockGames("2... Nc6 {"+strings.Repeat("e", n)+"}", "2... Nc6 {"+strings.Repeat("e", n)+"}\n",
			"2... Nc6 {"+strings.Repeat("e", n)+"}\t", "2... Nc6 {"+strings.Repeat("{", n)+"}}")...)
		if n%8 == 0 || n%8 == 7 {
			comments = append(comments, clockGames("2... Nc6 {"+strings.Repeat("e", n)+"\n}", "2... Nc6 {"+strings.Repeat("e", n)+"\n"+strings.Repeat("e", max(0, 31-n))+"}",
				"2... Nc6 {"+strings.Repeat("e", n)+"\n e}")...)
		}
	}
	tiny := Limits{MaxLineBytes: 40, MaxGameBytes: 120, MaxPlies: 6, MaxTagBytes: 8}
	fewPlies := Limits{MaxPlies: 5} // reached in clockPlies
	for _, g := range games {
		for _, lim := range []Limits{{}, tiny, fewPlies} {
			for size := 1; size <= len(g)+1; size++ {
				checkChunked(t, []byte(g), lim, size)
			}
		}
	}
	for _, g := range comments { // many: cut in fewer places
		for size := 1; size <= len(g)+1; size += 1 + size/16 {
			checkChunked(t, []byte(g), Limits{}, size)
		}
	}
	// And all of them in one text, in chunks of a few sizes.
	all := []byte(strings.Join(append(games, comments...), ""))
	for _, size := range []int{1, 100, 1000, 1 << 14} {
		checkChunked(t, all, Limits{}, size)
	}
}

// TestMoveListSpans: Spans gives the moves At gives, for a game of a ChunkReader (spans of the chunk's
// text) and of a Reader (strings, copied into a text for it).
func TestMoveListSpans(t *testing.T) {
	const text = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 {c} Nc6 3. Bb5!? a6 *\n\n[Event \"b\"]\n\n*\n"
	chunked, err, _, _ := readChunked(t, strings.NewReader(text), Limits{}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := readWhole(strings.NewReader(text), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}, nil}
	tests := []struct {
		name  string
		games []*Game
	}{{"ChunkReader", chunked}, {"Reader", whole}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.games) != len(want) {
				t.Fatalf("%d games, want %d", len(tt.games), len(want))
			}
			for i, g := range tt.games {
				moves := g.MoveList()
				text, spans := moves.Spans()
				var got []string
				for j, sp := range spans {
					got = append(got, text[sp.Start:sp.End])
					if at := moves.At(j); at != got[j] {
						t.Errorf("game %d: move %d is %q by its span, %q by At", i, j, got[j], at)
					}
				}
				if !slices.Equal(got, want[i]) || moves.Len() != len(want[i]) {
					t.Errorf("game %d: spans give %q (Len %d), want %q", i, got, moves.Len(), want[i])
				}
			}
		})
	}
}

// TestChunkedGameByteLimit reads games of many lines of moves, with LF and CRLF line ends, within game
// byte limits around their sizes, in chunks of every size: where a game reaches the limit depends on how
// the bytes of the lines read on at once (chunkMovesLines) are counted.
func TestChunkedGameByteLimit(t *testing.T) {
	moves := "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O Be7\n6. Re1 b5\n7. Bb3 d6 *\n\n[Event \"b\"]\n\n1. d4 *\n"
	tests := []struct{ name, text string }{
		{"LF", moves},
		{"CRLF", strings.ReplaceAll(moves, "\n", "\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for limit := 60; limit <= 130; limit++ {
				for size := 1; size <= len(tt.text)+1; size += 3 {
					checkChunked(t, []byte(tt.text), Limits{MaxGameBytes: limit}, size)
				}
			}
		})
	}
}

// TestChunkedKeepTags: a ChunkReader that keeps some tags gives the games of one Reader without the
// others, in every chunking: a game of tags it drops is still a game, and a malformed or over-long tag it
// drops is still the game's error.
func TestChunkedKeepTags(t *testing.T) {
	tiny := Limits{MaxLineBytes: 40, MaxGameBytes: 120, MaxPlies: 6, MaxTagBytes: 8}
	// Opening: length 7, first letter 7 in keepBit's 3 bits, bit 63. Ewent and Event: the same bit (Reader.keepAt).
	keeps := [][]string{{"Event", "FEN", "Opening"}, {"Event", "Ewent", "FEN", "Opening"}, {"FEN", "Ewent", "Event"}, nil}
	texts := append([]struct{ name, text string }{
		{"only dropped tags", "[Site \"a\"]\n\n[Site \"b\"]\n[Date \"c\"]\n\n1. e4 *\n"},
		{"dropped tags malformed or over the limit", "[Event \"a\"]\n[Site \"" + strings.Repeat("s", 20) + "\"]\n\n1. e4 *\n\n[Site x]\n\n1. d4 *\n\n[Site \"y\n"},
		{"kept tags around dropped ones", "[Site \"a\"]\n[Event \"b\\\\\\\"\"]\n[Date \"c\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[Event \"d\"]\n\n1. Kb1 *\n"},
		{"dropped tags placed as kept ones", "[Opening \"Sicilian\"]\n[Gambits \"none\"]\n[Ewent \"e\"]\n[FEM \"f\"]\n\n1. e4 *\n"},
		{"tag names of every length and form", tagNameGames()},
	}, hostile...)
	for _, tt := range texts {
		t.Run(tt.name, func(t *testing.T) {
			for _, keep := range keeps {
				for _, lim := range []Limits{{}, tiny} {
					want, wantErr := readWhole(strings.NewReader(tt.text), lim)
					for _, g := range want {
						var tags []Tag
						for _, tag := range g.Tags {
							if keep == nil || slices.Contains(keep, tag.Name) {
								tags = append(tags, tag)
							}
						}
						g.Tags = tags
					}
					for size := 1; size <= len(tt.text)+1; size += 1 + size/256 { // every size of a short text
						got, err, chunks, rereads := readChunked(t, strings.NewReader(tt.text), lim, size, 2, keep...)
						if fmt.Sprint(err) != fmt.Sprint(wantErr) {
							t.Fatalf("keep %q, size %d: error %v, want %v", keep, size, err, wantErr)
						}
						if !sameGames(got, want) {
							t.Fatalf("keep %q, size %d (%d chunks, %d read again): %s", keep, size, chunks, rereads, firstDifference(got, want))
						}
					}
				}
			}
		})
	}
}

// tagNameGames returns games whose tag names chunkTagLines reads (and remembers, from game to game and
// chunk to chunk) or leaves to scanTags, each name in a game of its own (only a game's first error is
// reported): names of every length to 20, kept names and names that begin or end as they do, names of 15
// bytes and longer ones that begin with them, no name, a byte no name has in each place of a name of 15
// bytes, a byte below ' ', a tab or no space after a name; the same names again in later games.
func tagNameGames() string {
	names := []string{"Event", "Even", "Events", "EventEventEventX", "Opening", "OpeningOpeningO", "OpeningOpeningOp", "FEN", "FE", "F",
		"WhiteRatingDiff", "WhiteRatingDiffX", "BlackRatingDiff", "UTCDate", "UTCTime", "A_+#=:-9", "Ewent", "", strings.Repeat("N", 15)}
	for n := 1; n <= 20; n++ {
		names = append(names, strings.Repeat("n", n-1)+"e")
	}
	for i := range 15 {
		names = append(names, strings.Repeat("N", i)+"("+strings.Repeat("N", 14-i))
		if i%4 == 0 {
			names = append(names, strings.Repeat("N", i)+"\""+strings.Repeat("N", 14-i), strings.Repeat("E", i)+"\xc3\x89t")
		}
	}
	var b strings.Builder
	for round := range 2 {
		for i, name := range names {
			fmt.Fprintf(&b, "[Site \"s\"]\n[%s \"v%d\"]\n\n1. e4 *\n\n", name, i)
			if i%9 == round {
				for _, form := range []string{"[%s\t\"w\"]", "[%s\x01\"x\"]", "[%s  \"y\"]", "[%s\"z\"]"} {
					fmt.Fprintf(&b, "[Event \"e\"]\n"+form+"\n\n*\n\n", name)
				}
			}
		}
	}
	return b.String()
}

// TestChunkReaderKeepTagsChanged: a ChunkReader whose KeepTags change between chunks (another slice, or
// the same one changed) keeps the tags they name then, not the ones it kept before (the tag names it
// remembers, chunkTagLines, are for its KeepTags).
func TestChunkReaderKeepTagsChanged(t *testing.T) {
	const text = "[Event \"e\"]\n[Site \"s\"]\n[Date \"d\"]\n[Round \"r\"]\n\n1. e4 *\n\n[Event \"f\"]\n[Site \"t\"]\n[Date \"c\"]\n[Round \"q\"]\n\n1. d4 *\n"
	want, err := readWhole(strings.NewReader(text), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	keep := []string{"Event", "Site"}
	cr := NewChunkReader(Limits{})
	for i, k := range [][]string{keep, {"Date"}, nil, {}, keep, keep} {
		if i == 5 {
			keep[1] = "Round" // the same slice, changed
		}
		cr.KeepTags = k
		sp := NewSplitter(strings.NewReader(text), Limits{}, 0)
		c, err := sp.Next()
		if err != nil {
			t.Fatal(err)
		}
		p := cr.Read(c)
		for j, g := range p.Games {
			var tags []Tag
			for _, tag := range want[j].Tags {
				if k == nil || slices.Contains(k, tag.Name) {
					tags = append(tags, tag)
				}
			}
			if !slices.Equal(g.Tags, tags) {
				t.Fatalf("read %d, KeepTags %q, game %d: tags %q, want %q", i, k, j, g.Tags, tags)
			}
		}
		c.Release()
	}
}

// TestChunkTagLinesReadsUsualLines: the usual tag pairs, with names of any length and values of any
// length, are read by chunkTagLines, not left to scanTags one line at a time.
func TestChunkTagLinesReadsUsualLines(t *testing.T) {
	var b strings.Builder
	for n := 1; n <= 30; n++ {
		fmt.Fprintf(&b, "[%s \"%s\"]\r\n[%s \"%s\"]\n", strings.Repeat("N", n), strings.Repeat("v", 2*n), strings.Repeat("n", n), strings.Repeat("w", n/2))
	}
	for _, keep := range [][]string{nil, {"NNN", "nnnnnnnnnnnnnnnnnnnn"}} {
		r := &Reader{lim: Limits{}.WithDefaults(), state: stateTags, keepTags: keep, src: []byte(b.String())}
		r.chunkTagLines()
		if len(r.src) != 0 || r.tags != 60 {
			t.Fatalf("keep %q: %d tag pairs read, %q left", keep, r.tags, r.src)
		}
	}
}

// TestStitcherCarryAndTheNextLine: the blank lines before a game, counted towards it in the chunk before,
// and the line that starts the next game, which the Reader counts too, take the game over its byte limit
// at a chunk's end: the chunk is read again, and the next line is part of the game, as the Reader of the
// whole text reads it. (The chunks as a Splitter cuts the text when a read brings all of it.)
func TestStitcherCarryAndTheNextLine(t *testing.T) {
	lim := Limits{MaxLineBytes: 40, MaxGameBytes: 120}
	// A malformed tag pair, then lines of the game until it has 120 bytes with the blank lines before it
	// and the next line, 18 bytes with its line end, then a blank line.
	blank, first, next := "\n \n \n \n  \n\n", "[A \"0a000000000\n", "[B\"00000000000000\n"
	game := first + strings.Repeat("0", 39) + "\n" + strings.Repeat("0", 120-len(blank)-len(first)-40-1-len(next)) + "\n\n"
	text := blank + game + next
	if len(blank)+len(game)+len(next) != lim.MaxGameBytes+1 || len(next) != 18 {
		t.Fatalf("the text is %d bytes, the next line %d", len(text), len(next))
	}
	want, err := readWhole(strings.NewReader(text), lim)
	if err != nil || len(want) != 1 {
		t.Fatalf("the Reader: %d games, error %v", len(want), err)
	}
	chunks := []*Chunk{
		{data: []byte(blank), nextLen: len(first) - 1},
		{data: []byte(game), line: 6, nextLen: len(next) - 1},
		{data: []byte(next), line: 6 + strings.Count(game, "\n"), nextLen: -1, last: true},
	}
	cr, st := NewChunkReader(lim), NewStitcher(lim)
	var got []*Game
	for _, c := range chunks {
		games, _, err := st.Stitch(cr.Read(c))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, games...)
	}
	if !sameGames(got, want) {
		t.Fatal(firstDifference(got, want))
	}
}

// TestChunkedFiles reads this module's PGN files in chunks of several sizes.
func TestChunkedFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "bad", "*.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "examples", "lichess-repetitions.pgn"), filepath.Join("..", "internal", "refgames", "testdata", "games.pgn"))
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int{1, 10, 100, 1000, 4096, 1 << 20} {
				checkChunked(t, data, Limits{}, size)
				checkChunked(t, data, Limits{MaxLineBytes: 60, MaxGameBytes: 1000, MaxPlies: 40, MaxTagBytes: 10}, size)
			}
		})
	}
}

// TestChunkedCutsBetweenGames: in a well-formed file every cut falls between two games, so no chunk is
// read twice (the parallel reading is not serial in disguise) — with and without blank lines between the
// games.
func TestChunkedCutsBetweenGames(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "internal", "refgames", "testdata", "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string][]byte{
		"blank lines":    data,
		"no blank lines": bytes.ReplaceAll(data, []byte("\n\n"), []byte("\n")),
		"CRLF":           bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")),
	} {
		t.Run(name, func(t *testing.T) {
			chunks, rereads := checkChunked(t, text, Limits{}, 4096)
			if chunks < 10 || rereads != 0 {
				t.Errorf("%d chunks, %d read again; want some chunks, none read again", chunks, rereads)
			}
		})
	}
}

// TestChunkedCorpus reads the shared corpus in chunks: the same games as one Reader, none read again.
func TestChunkedCorpus(t *testing.T) {
	if raceEnabled {
		t.Skip("reads the whole corpus: .ci/run runs it without -race")
	}
	f, err := os.Open(refgames.Corpus(t).PGNPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rc, err := NewDecompressingReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := readWhole(bytes.NewReader(data), Limits{})
	got, err, chunks, rereads := readChunked(t, bytes.NewReader(data), Limits{}, DefaultChunkBytes, 2)
	if err != nil || !sameGames(got, want) {
		t.Fatalf("error %v; %s", err, firstDifference(got, want))
	}
	if rereads != 0 {
		t.Errorf("%d of %d chunks read again", rereads, chunks)
	}
}

// TestChunkedReadError: a read error ends the input where a Reader ends it, with the same error naming
// the same line, after the same games.
func TestChunkedReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, text := range []string{
		"[Event \"A\"]\n\n1. e4 *\n\n1. d4",
		"[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. d4 *\n",
		"[Event \"A\"]\n\n1. e4 {\n\n[Event \"B\"]\n\n1. d4 *\n\n",
		"",
	} {
		for size := 1; size < len(text)+2; size++ {
			for _, oneByte := range []bool{false, true} {
				src := func() io.Reader {
					var r io.Reader = strings.NewReader(text)
					if oneByte {
						r = iotest.OneByteReader(r)
					}
					return io.MultiReader(r, iotest.ErrReader(boom))
				}
				want, wantErr := readWhole(src(), Limits{})
				got, err, _, _ := readChunked(t, src(), Limits{}, size, 2)
				if !errors.Is(err, boom) || err.Error() != wantErr.Error() || !sameGames(got, want) {
					t.Fatalf("%q size %d: error %v, want %v; %s", text, size, err, wantErr, firstDifference(got, want))
				}
			}
		}
	}
}

// emptyReader returns nothing, forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// TestChunkedNoProgress: a reader that returns nothing and no error ends the input with an error, as it
// does a Reader's, instead of being read forever.
func TestChunkedNoProgress(t *testing.T) {
	src := func() io.Reader {
		return io.MultiReader(strings.NewReader("[Event \"a\"]\n\n1. e4 *\n"), emptyReader{})
	}
	want, wantErr := readWhole(src(), Limits{})
	got, err, _, _ := readChunked(t, src(), Limits{}, 4, 1)
	if !errors.Is(err, io.ErrNoProgress) || err.Error() != wantErr.Error() || !sameGames(got, want) {
		t.Fatalf("error %v, want %v; %s", err, wantErr, firstDifference(got, want))
	}
}

// TestSplitterCapsLongLines: a line far over MaxLineBytes is not held whole in a chunk, and is read as
// the Reader reads it.
func TestSplitterCapsLongLines(t *testing.T) {
	lim := Limits{MaxLineBytes: 100}
	text := "[Event \"a\"]\n\n1. e4 {" + strings.Repeat("x", 1<<20) + "} e5 *\n\n[Event \"b\"]\n\n1. d4 *\n"
	sp := NewSplitter(iotest.HalfReader(strings.NewReader(text)), lim, 64)
	for {
		c, err := sp.Next()
		if err == io.EOF {
			break
		}
		if len(c.data) > 4*64+lim.MaxLineBytes+3 {
			t.Fatalf("a chunk of %d bytes", len(c.data))
		}
	}
	checkChunked(t, []byte(text), lim, 64)
}

// TestSplitterKeepsLineBytes: no line of a chunk holds more than MaxLineBytes+2 bytes when the text is read
// a byte at a time (capLine caps the line a read ends in, the only one it may hold whole: a read of many
// lines is no longer than the buffer), whatever the cuts around a long line (a line may start in what a
// chunk leaves for the next one); and the games are the Reader's.
func TestSplitterKeepsLineBytes(t *testing.T) {
	lim := Limits{MaxLineBytes: 100}
	var b strings.Builder
	b.WriteString("[Event \"a\"]\n\n")
	for i, n := range []int{30, 30, 30, 250, 30, 120, 99, 100, 101, 102, 103, 500, 20, 20, 20, 20, 20, 20, 20, 20, 20, 300, 1} {
		fmt.Fprintf(&b, "%d. e4 e5 {%s}\n", i+1, strings.Repeat("x", n))
	}
	b.WriteString("*\n\n[Event \"b\"]\n\n1. d4 *\n")
	text := b.String()
	for size := 1; size <= 300; size++ {
		sp := NewSplitter(iotest.OneByteReader(strings.NewReader(text)), lim, size)
		for {
			c, err := sp.Next()
			if err == io.EOF {
				break
			}
			for line := range bytes.Lines(c.data) {
				if n := len(bytes.TrimSuffix(line, []byte("\n"))); n > lim.MaxLineBytes+2 {
					t.Fatalf("size %d: a line of %d bytes in a chunk: %q", size, n, line)
				}
			}
		}
		checkChunked(t, []byte(text), lim, size)
	}
}

// FuzzChunked reads arbitrary text in chunks of an arbitrary size: the games and the error must be the
// Reader's, within the default limits and tiny ones.
func FuzzChunked(f *testing.F) {
	for _, tt := range hostile {
		f.Add([]byte(tt.text), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		checkChunked(t, data, Limits{}, int(size)+1)
		checkChunked(t, data, Limits{MaxLineBytes: 40, MaxGameBytes: 120, MaxPlies: 6, MaxTagBytes: 8}, int(size)+1)
	})
}
