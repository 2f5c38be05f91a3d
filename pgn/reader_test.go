package pgn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// want describes one expected game; nil fields are not checked.
type want struct {
	line   int
	tags   []Tag
	moves  []string
	result string
	err    string // substring of Err; "" means no error
}

func readAll(t testing.TB, r *Reader) []*Game {
	t.Helper()
	var games []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if g.Index != len(games) {
			t.Fatalf("game %d has Index %d", len(games), g.Index)
		}
		games = append(games, g)
	}
}

func checkGames(t *testing.T, games []*Game, wants []want) {
	t.Helper()
	if len(games) != len(wants) {
		for _, g := range games {
			t.Logf("game %d line %d: tags %v moves %q result %q err %v", g.Index, g.Line, g.Tags, g.Moves, g.Result, g.Err)
		}
		t.Fatalf("got %d games, want %d", len(games), len(wants))
	}
	for i, w := range wants {
		g := games[i]
		if w.line != 0 && g.Line != w.line {
			t.Errorf("game %d: Line %d, want %d", i, g.Line, w.line)
		}
		if w.tags != nil && !reflect.DeepEqual(g.Tags, w.tags) {
			t.Errorf("game %d: tags %q, want %q", i, g.Tags, w.tags)
		}
		if w.moves != nil && !reflect.DeepEqual(g.Moves, w.moves) && !(len(w.moves) == 0 && len(g.Moves) == 0) {
			t.Errorf("game %d: moves %q, want %q", i, g.Moves, w.moves)
		}
		if g.Result != w.result {
			t.Errorf("game %d: result %q, want %q", i, g.Result, w.result)
		}
		switch {
		case w.err == "" && g.Err != nil:
			t.Errorf("game %d: unexpected error %v", i, g.Err)
		case w.err != "" && g.Err == nil:
			t.Errorf("game %d: no error, want one containing %q", i, w.err)
		case w.err != "" && !strings.Contains(g.Err.Error(), w.err):
			t.Errorf("game %d: error %q, want one containing %q", i, g.Err, w.err)
		}
		if g.Err != nil {
			var se *SyntaxError
			if !errors.As(g.Err, &se) {
				t.Errorf("game %d: error %T is not a *SyntaxError", i, g.Err)
			}
		}
	}
}

func mv(s string) []string { return strings.Fields(s) }

func TestReaderFeatures(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []want
	}{
		{
			name:  "tags and movetext",
			input: "[Event \"Test\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n",
			want: []want{{line: 1, tags: []Tag{{"Event", "Test"}, {"White", "A"}},
				moves: mv("e4 e5 Nf3 Nc6"), result: "1-0"}},
		},
		{
			name:  "escaped quotes and backslashes in tag values",
			input: `[Event "The \"Big\" One"]` + "\n" + `[Site "C:\\chess\\x"]` + "\n" + `[Annotator "back\slash"]` + "\n\n1. d4 *\n",
			want: []want{{tags: []Tag{{"Event", `The "Big" One`}, {"Site", `C:\chess\x`}, {"Annotator", `back\slash`}},
				moves: mv("d4"), result: "*"}},
		},
		{
			// A value's closing quote is looked for 8 bytes at a time: escapes and quotes past the first 8.
			name:  "long tag values with escapes late",
			input: `[Event "abcdefghijklmnop\"q\\r"]` + "\n" + `[Site "abcdefghijklmnopqrstuvwxyz01234"]` + "\n" + `[Round "abcdefgh"]` + "\n\n1. d4 *\n",
			want: []want{{tags: []Tag{{"Event", `abcdefghijklmnop"q\r`}, {"Site", "abcdefghijklmnopqrstuvwxyz01234"}, {"Round", "abcdefgh"}},
				moves: mv("d4"), result: "*"}},
		},
		{
			name:  "unescaped quotes inside a tag value",
			input: `[Event "The "Big" One"]` + "\n" + `[Site "x" ]` + "\n" + `[Round "a"b" ]  ` + "\n\n1. e4 *",
			want:  []want{{tags: []Tag{{"Event", `The "Big" One`}, {"Site", "x"}, {"Round", `a"b`}}, moves: mv("e4"), result: "*"}},
		},
		{
			name:  "odd spacing in tag pairs and several on a line",
			input: "  [ Event   \"Spaced\" ]   [Round \"1\"][Date\t\"2024.01.01\"]\n[Empty \"\"]\n1. c4 0-1",
			want: []want{{tags: []Tag{{"Event", "Spaced"}, {"Round", "1"}, {"Date", "2024.01.01"}, {"Empty", ""}},
				moves: mv("c4"), result: "0-1"}},
		},
		{
			name:  "games without tags",
			input: "1. e4 e5 1/2-1/2\n\n1. d4 d5 2. c4 *\n1. Nf3 0-1",
			want: []want{
				{line: 1, moves: mv("e4 e5"), result: "1/2-1/2"},
				{line: 3, moves: mv("d4 d5 c4"), result: "*"},
				{line: 4, moves: mv("Nf3"), result: "0-1"},
			},
		},
		{
			name:  "percent escape lines",
			input: "% a comment line [Event \"No\"] {\n[Event \"Yes\"]\n%another\n\n1. e4 % not an escape mid-line\n% 1-0\ne5 *",
			want:  []want{{tags: []Tag{{"Event", "Yes"}}, moves: mv("e4"), result: "*", err: "line 5: unexpected token \"%\""}},
		},
		{
			name:  "percent escape lines between games",
			input: "%header\n[Event \"A\"]\n\n1. e4 *\n%sep\n[Event \"B\"]\n%x\n1. d4 *\n",
			want: []want{
				{line: 2, tags: []Tag{{"Event", "A"}}, moves: mv("e4"), result: "*"},
				{line: 6, tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "semicolon comments to end of line",
			input: "1. e4 ; comment with e5 and 1-0 and { and (\ne5 2. Nf3 ;\n 1-0",
			want:  []want{{moves: mv("e4 e5 Nf3"), result: "1-0"}},
		},
		{
			name:  "brace comments spanning lines with parentheses and semicolons",
			input: "1. e4 {a comment (with parens\n; and a semicolon\n[%clk 0:00:10]\n 1-0 } e5 {x}{y}2. Nf3 *",
			want:  []want{{moves: mv("e4 e5 Nf3"), result: "*"}},
		},
		{
			name:  "nested variations",
			input: "1. e4 (1. d4 d5 (1... Nf6 2. c4 {in (a) comment}) 2. c4) (1. c4) e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 1-0",
			want:  []want{{moves: mv("e4 e5 Nf3"), result: "1-0"}},
		},
		{
			name:  "result inside a variation does not end the game",
			input: "1. e4 (1. f3 e5 2. g4 Qh4# 0-1) e5 *",
			want:  []want{{moves: mv("e4 e5"), result: "*"}},
		},
		{
			name:  "NAGs",
			input: "1. e4 $1 e5 $2$14 2. Nf3$3 Nc6 $146 *",
			want:  []want{{moves: mv("e4 e5 Nf3 Nc6"), result: "*"}},
		},
		{
			name:  "glyphs glued and apart",
			input: "1. e4! e5? 2. Nf3!? Nc6?! 3. Bb5!! a6?? 4. Ba4 ! Nf6 ?! 5. O-O+!? Qe7#?? 1-0",
			want:  []want{{moves: mv("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O+ Qe7#"), result: "1-0"}},
		},
		{
			name:  "evaluation symbols",
			input: "1. e4 += e5 =+ 2. Nf3 +/- Nc6 -+ 3. d4 = *",
			want:  []want{{moves: mv("e4 e5 Nf3 Nc6 d4"), result: "*"}},
		},
		{
			name:  "move number forms",
			input: "1.e4 1...e5 2. Nf3 2... Nc6 3.Bb5 3 ... a6 4 Ba4 4. ... Nf6 12.O-O 12...0-0 *",
			want:  []want{{moves: mv("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O 0-0"), result: "*"}},
		},
		{
			name:  "check and mate marks kept, promotions and castling forms",
			input: "1. e8=Q+ exd8=N# 2. O-O-O 0-0-0 3. e8Q bxa1=R+ *",
			want:  []want{{moves: mv("e8=Q+ exd8=N# O-O-O 0-0-0 e8Q bxa1=R+"), result: "*"}},
		},
		{
			name:  "en passant remarks",
			input: "1. e4 d5 2. e5 f5 3. exf6 e.p. Nxf6 4. d4 c5 5. d5 e5 6. dxe6e.p. *",
			want:  []want{{moves: mv("e4 d5 e5 f5 exf6 Nxf6 d4 c5 d5 e5 dxe6"), result: "*"}},
		},
		{
			name:  "a line starting with [ that is not a tag pair does not end the game",
			input: "[Event \"A\"]\n\n1. e4 e5\n[%clk 0:01:00]\n2. Nf3 *\n",
			want:  []want{{tags: []Tag{{"Event", "A"}}, moves: mv("e4 e5"), result: "*", err: "line 4: unexpected [ in movetext"}},
		},
		{
			name:  "all four results",
			input: "1. e4 1-0\n1. e4 0-1\n1. e4 1/2-1/2\n1. e4 *\n",
			want: []want{
				{moves: mv("e4"), result: "1-0"}, {moves: mv("e4"), result: "0-1"},
				{moves: mv("e4"), result: "1/2-1/2"}, {moves: mv("e4"), result: "*"},
			},
		},
		{
			name:  "a draw written as ½-½",
			input: "[Event \"A\"]\n\n1. e4 e5 ½-½\n\n[Event \"B\"]\n\n1. d4 *\n",
			want: []want{
				{tags: []Tag{{"Event", "A"}}, moves: mv("e4 e5"), result: "1/2-1/2"},
				{line: 5, tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "result missing at EOF",
			input: "[Event \"A\"]\n\n1. e4 e5 2. Nf3",
			want:  []want{{tags: []Tag{{"Event", "A"}}, moves: mv("e4 e5 Nf3")}},
		},
		{
			name:  "result missing before the next game's tags",
			input: "[Event \"A\"]\n\n1. e4 e5\n[Event \"B\"]\n\n1. d4 *\n",
			want: []want{
				{line: 1, moves: mv("e4 e5")},
				{line: 4, tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "null moves kept for Replay to reject",
			input: "1. e4 -- 2. Nf3 Z0 *",
			want:  []want{{moves: mv("e4 -- Nf3 Z0"), result: "*"}},
		},
		{
			name:  "BOM at file start",
			input: "\uFEFF[Event \"BOM\"]\n\n1. e4 *",
			want:  []want{{line: 1, tags: []Tag{{"Event", "BOM"}}, moves: mv("e4"), result: "*"}},
		},
		{
			name:  "BOM before movetext",
			input: "\uFEFF1. e4 *",
			want:  []want{{moves: mv("e4"), result: "*"}},
		},
		{
			name:  "CRLF line ends",
			input: "[Event \"CRLF\"]\r\n[Site \"x\"]\r\n\r\n1. e4 {a\r\ncomment} e5\r\n2. Nf3 1-0\r\n\r\n[Event \"2\"]\r\n\r\n1. d4 *\r\n",
			want: []want{
				{line: 1, tags: []Tag{{"Event", "CRLF"}, {"Site", "x"}}, moves: mv("e4 e5 Nf3"), result: "1-0"},
				{line: 8, tags: []Tag{{"Event", "2"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "blank lines inside movetext",
			input: "[Event \"A\"]\n\n1. e4 e5\n\n\n2. Nf3 {x\n\n} Nc6\n\n1-0\n",
			want:  []want{{moves: mv("e4 e5 Nf3 Nc6"), result: "1-0"}},
		},
		{
			name:  "blank lines between tag pairs of the same game are allowed only before any movetext",
			input: "[Event \"A\"]\n[Site \"S\"]\n\n[Event \"B\"]\n\n1. e4 *",
			want: []want{
				{line: 1, tags: []Tag{{"Event", "A"}, {"Site", "S"}}},
				{line: 4, tags: []Tag{{"Event", "B"}}, moves: mv("e4"), result: "*"},
			},
		},
		{
			name:  "next game on the same line as a result",
			input: "1. e4 1-0 [Event \"B\"] 1. d4 0-1 1. c4 *",
			want: []want{
				{moves: mv("e4"), result: "1-0"},
				{tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "0-1"},
				{moves: mv("c4"), result: "*"},
			},
		},
		{
			name:  "comment after a result belongs to nobody",
			input: "[Event \"A\"]\n\n1. e4 1-0 {trailing}\n; more\n\n[Event \"B\"]\n\n1. d4 *\n{end of file}\n",
			want: []want{
				{tags: []Tag{{"Event", "A"}}, moves: mv("e4"), result: "1-0"},
				{line: 6, tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "empty input",
			input: "",
			want:  []want{},
		},
		{
			name:  "only whitespace and comments",
			input: "\n\n  {nothing}\n; here\n% at all\n",
			want:  []want{},
		},
		{
			name:  "unterminated comment resumes at the next tag pair",
			input: "[Event \"A\"]\n\n1. e4 {never closed e5\n2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 *\n",
			want: []want{
				{tags: []Tag{{"Event", "A"}}, moves: mv("e4"), err: "line 6: unterminated comment opened at line 3"},
				{tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "unterminated comment at EOF",
			input: "1. e4 e5 { cut here",
			want:  []want{{moves: mv("e4 e5"), err: "unterminated comment opened at line 1"}},
		},
		{
			name:  "unterminated variation resumes at the next tag pair",
			input: "[Event \"A\"]\n\n1. e4 (1. d4 d5 e5 2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 *\n",
			want: []want{
				{moves: mv("e4"), err: "unterminated variation opened at line 3"},
				{tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "unmatched closing parenthesis",
			input: "1. e4 ) e5 *\n1. d4 *",
			want:  []want{{moves: mv("e4"), result: "*", err: "line 1: unexpected ) outside a variation"}, {moves: mv("d4"), result: "*"}},
		},
		{
			name:  "garbage token keeps the moves before it",
			input: "[Event \"A\"]\n\n1. e4 e5 2. Nf3 hello Nc6 1-0\n\n[Event \"B\"]\n\n1. d4 *\n",
			want: []want{
				{moves: mv("e4 e5 Nf3"), result: "1-0", err: `line 3: unexpected token "hello"`},
				{moves: mv("d4"), result: "*"},
			},
		},
		{
			name:  "malformed tag pairs",
			input: "[Event \"unterminated]\n[Site]\n\n1. e4 *\n[ \"noname\"]\n1. d4 *\n",
			want: []want{
				{moves: mv("e4"), result: "*", err: `line 1: tag "Event": unterminated value`},
				{moves: mv("d4"), result: "*", err: "line 5: malformed tag pair: no tag name"},
			},
		},
		{
			name:  "stray brackets and quotes in movetext",
			input: "1. e4 [%clk 0:01:00] e5 *\n1. d4 \" *",
			want: []want{
				{moves: mv("e4"), result: "*", err: "unexpected [ in movetext"},
				{moves: mv("d4"), result: "*", err: `unexpected " in movetext`},
			},
		},
		{
			// The main line's plain moves and move numbers are read in one loop (mainLine); every other
			// token is handed to the general reader at the byte it starts on.
			name: "main-line tokens next to other tokens",
			input: "1. e4 e5 2.Nf3 Nc6!? 3. Bb5 $1 a6 4.\nBa4 12...Nf6 5 O-O Be7\n6. Re1 {c} b5 (6... d6 7. c3) 7. Bb3\n" +
				"d6 8. c3\tO-O 9. h3 Nb8 10. exd8=Q+ Qxd8 11. a8=q 1-0",
			want: []want{{moves: mv("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 exd8=Q+ Qxd8 a8=q"),
				result: "1-0"}},
		},
		{
			name:  "a move at the end of the text, a number ending a line",
			input: "1. e4 e5 2.\nNf3 Nc6 3.\nBb5",
			want:  []want{{moves: mv("e4 e5 Nf3 Nc6 Bb5")}},
		},
		{
			name:  "a move token too long for a move",
			input: "1. e4 e5 2. aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa Nc6 *",
			want: []want{{moves: mv("e4 e5"), result: "*",
				err: `line 1: unexpected token "aaaaaaaaaaaaaaaaaaaaaaaa"...`}},
		},
		{
			name:  "binary garbage between games",
			input: "[Event \"A\"]\n\n1. e4 *\n\x00\x01\xff\xfe garbage \x89PNG\r\n\x1a\n[Event \"B\"]\n\n1. d4 *\n",
			want: []want{
				{moves: mv("e4"), result: "*"},
				{line: 4, err: `line 4: unexpected token "\x00\x01\xff\xfe"`},
				{tags: []Tag{{"Event", "B"}}, moves: mv("d4"), result: "*"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games := readAll(t, NewReader(strings.NewReader(tt.input)))
			checkGames(t, games, tt.want)
			// The same games come out when the input arrives one byte at a time.
			games2 := readAll(t, NewReader(iotest.OneByteReader(strings.NewReader(tt.input))))
			if !sameGames(games, games2) {
				t.Errorf("one-byte reads give different games")
			}
		})
	}
}

func sameGames(a, b []*Game) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := *a[i], *b[i]
		if (x.Err == nil) != (y.Err == nil) || x.Err != nil && x.Err.Error() != y.Err.Error() {
			return false
		}
		x.Err, y.Err = nil, nil
		// A game of a ChunkReader has its moves in its text, one of a Reader in Moves.
		xm, ym := x.MoveList(), y.MoveList()
		x.Moves, y.Moves = xm.Strings(), ym.Strings()
		x.inText, y.inText = MoveList{}, MoveList{}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestVeryLongLine(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("[Event \"long\"]\n\n")
	n := 0
	for sb.Len() < 3<<20 { // longer than the 1 MiB buffer
		sb.WriteString("1. Nf3 Nf6 2. Ng1 Ng8 { a comment that is a little long } ")
		n += 4
	}
	sb.WriteString("1/2-1/2\n[Event \"next\"]\n1. e4 *\n")
	games := readAll(t, NewReaderLimits(strings.NewReader(sb.String()), Limits{MaxPlies: 1 << 20}))
	if len(games) != 2 || len(games[0].Moves) != n || games[0].Result != "1/2-1/2" || games[0].Err != nil {
		t.Fatalf("got %d games; first has %d moves (want %d), result %q, err %v", len(games), len(games[0].Moves), n, games[0].Result, games[0].Err)
	}
	if games[1].Line != 4 || len(games[1].Moves) != 1 {
		t.Fatalf("second game: line %d, moves %q", games[1].Line, games[1].Moves)
	}
}

func TestTagAndStartFEN(t *testing.T) {
	const fen = "8/8/8/4k3/8/8/4K3/8 w - - 0 1"
	tests := []struct {
		name    string
		input   string
		wantFEN string
		wantOK  bool
	}{
		{"FEN with SetUp", "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n1. Kd2 *", fen, true},
		{"FEN without SetUp", "[FEN \"" + fen + "\"]\n\n1. Kd2 *", fen, true},
		{"FEN with spaces around", "[FEN \"  " + fen + " \"]\n\n*", fen, true},
		{"no FEN", "[Event \"x\"]\n\n1. e4 *", "", false},
		{"blank FEN", "[FEN \"\"]\n\n1. e4 *", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ParseGames(tt.input)
			if err != nil || len(games) != 1 {
				t.Fatalf("ParseGames: %d games, %v", len(games), err)
			}
			got, ok := games[0].StartFEN()
			if got != tt.wantFEN || ok != tt.wantOK {
				t.Errorf("StartFEN() = %q, %v; want %q, %v", got, ok, tt.wantFEN, tt.wantOK)
			}
		})
	}
	g := &Game{Tags: []Tag{{"White", "A"}, {"white", "b"}, {"White", "C"}}}
	if v, ok := g.Tag("White"); v != "A" || !ok {
		t.Errorf("Tag(White) = %q, %v", v, ok)
	}
	if v, ok := g.Tag("Black"); v != "" || ok {
		t.Errorf("Tag(Black) = %q, %v", v, ok)
	}
}

func TestParseGames(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		games   int
		wantErr error
	}{
		{"two games", "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n", 2, nil},
		{"empty", "", 0, nil},
		{"blank with BOM", "\uFEFF \n\t\n", 0, nil},
		{"only a comment", "{ nothing here }", 0, ErrNoGames},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ParseGames(tt.text)
			if len(games) != tt.games || !errors.Is(err, tt.wantErr) {
				t.Errorf("got %d games, %v; want %d, %v", len(games), err, tt.games, tt.wantErr)
			}
		})
	}
}

func readFileGames(t testing.TB, path string) []*Game {
	t.Helper()
	rc, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	return readAll(t, NewReader(rc))
}

// checkAgainstOracle compares game count, start FEN and move count with the reference annotations.
func checkAgainstOracle(t *testing.T, games []*Game, oracle []refgames.Annotation) {
	t.Helper()
	if len(games) != len(oracle) {
		t.Fatalf("read %d games, oracle has %d", len(games), len(oracle))
	}
	bad := 0
	for i, g := range games {
		o := oracle[i]
		fen, ok := g.StartFEN()
		switch {
		case g.Err != nil:
			t.Errorf("game %d (line %d): %v", i, g.Line, g.Err)
		case o.Error == nil && len(g.Moves) != o.Plies:
			t.Errorf("game %d (line %d): %d moves, oracle plies %d", i, g.Line, len(g.Moves), o.Plies)
		case ok != (o.StartFEN != nil) || ok && fen != *o.StartFEN:
			t.Errorf("game %d: start FEN %q, oracle %v", i, fen, o.StartFEN)
		default:
			continue
		}
		if bad++; bad > 10 {
			t.Fatal("too many differences")
		}
	}
}

// TestReferenceGames reads real games with reference annotations — the
// repository's set, and with $THREEFOLD_CORPUS every game of the shared data
// that repeats and the whole corpus (gzip) — and compares every game.
func TestReferenceGames(t *testing.T) {
	refgames.Run(t, refgames.All, func(t *testing.T, set refgames.Set) {
		if set.Name == "corpus" && testing.Short() {
			t.Skip("corpus: -short")
		}
		games := readFileGames(t, set.PGNPath)
		oracle := set.Annotations(t)
		checkAgainstOracle(t, games, oracle)
		replayAgainstOracle(t, games, oracle)
	})
}

const twoGames = "[Event \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 d5 *\n"

func compress(t *testing.T, kind string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	switch kind {
	case "gzip":
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	case "zstd":
		zw, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	case "plain":
		buf.Write(data)
	}
	return buf.Bytes()
}

func TestCompressedInputs(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range []string{"plain", "gzip", "zstd"} {
		data := compress(t, kind, []byte(twoGames))
		// The file name says nothing true about the compression: detection is by magic number.
		path := filepath.Join(dir, kind+".txt")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sources := []struct {
			name string
			open func() (io.ReadCloser, error)
		}{
			{"file", func() (io.ReadCloser, error) { return Open(path, nil) }},
			{"stdin", func() (io.ReadCloser, error) { return Open("-", bytes.NewReader(data)) }},
			{"stream", func() (io.ReadCloser, error) { return NewDecompressingReader(bytes.NewReader(data)) }},
		}
		for _, src := range sources {
			t.Run(kind+"/"+src.name, func(t *testing.T) {
				rc, err := src.open()
				if err != nil {
					t.Fatal(err)
				}
				games := readAll(t, NewReader(rc))
				if err := rc.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
				checkGames(t, games, []want{
					{tags: []Tag{{"Event", "A"}}, moves: mv("e4 e5 Nf3"), result: "1-0"},
					{tags: []Tag{{"Event", "B"}}, moves: mv("d4 d5"), result: "*"},
				})
			})
		}
	}
}

func TestCompressedErrors(t *testing.T) {
	gz := compress(t, "gzip", []byte(twoGames))
	zs := compress(t, "zstd", []byte(twoGames))
	tests := []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"truncated gzip", gz[:len(gz)-12], "gzip: inflate: input ends at byte"},
		{"truncated zstd", zs[:len(zs)-6], "zstd: "},
		{"corrupt gzip", append(append([]byte{}, gz[:12]...), bytes.Repeat([]byte{0xff}, 40)...), "gzip: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, err := NewDecompressingReader(bytes.NewReader(tt.data))
			if err != nil {
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %q, want %q", err, tt.wantErr)
				}
				return
			}
			defer rc.Close()
			r := NewReader(rc)
			for {
				_, err := r.Next()
				if err == io.EOF {
					t.Fatal("no error for a damaged stream")
				}
				if err != nil {
					if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "pgn: read line ") {
						t.Fatalf("error %q, want one naming the line and containing %q", err, tt.wantErr)
					}
					if _, again := r.Next(); again == nil || again.Error() != err.Error() {
						t.Fatalf("error not sticky: %v", again)
					}
					return
				}
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "missing.pgn"), nil); err == nil || !strings.Contains(err.Error(), "missing.pgn") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Open("-", nil); err == nil {
		t.Error("stdin without a reader: no error")
	}
	rc, err := Open("-", iotest.ErrReader(errors.New("disk on fire")))
	if err == nil {
		rc.Close()
		t.Fatal("failing stdin: no error")
	}
	if !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("failing stdin: %v", err)
	}
}

func TestReadErrorNamesLine(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(strings.NewReader("[Event \"A\"]\n\n1. e4 *\n\n1. d4"), iotest.ErrReader(boom))
	r := NewReader(src)
	g, err := r.Next()
	if err != nil || g.Moves[0] != "e4" {
		t.Fatalf("first game: %v, %v", g, err)
	}
	_, err = r.Next()
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("error %v, want boom naming line 5", err)
	}
}

// TestBadInputFiles reads the files of testdata/bad: each must give its games with a clear error in the
// broken one, and the games after it.
func TestBadInputFiles(t *testing.T) {
	tests := []struct {
		file string
		want []want
	}{
		{"truncated.pgn", []want{
			{tags: []Tag{{"Event", "Complete"}, {"Site", "Somewhere"}, {"Result", "1-0"}}, moves: mv("e4 e5 Nf3 Nc6 Bb5"), result: "1-0"},
			{moves: mv("d4 d5 c4 e6 Nc3 Nf6"), err: "unterminated comment opened at line 12"},
		}},
		{"truncated_move.pgn", []want{
			{tags: []Tag{{"Event", "Whole"}}, moves: mv("e4 e5 Nf3 Nc6"), result: "*"},
			{tags: []Tag{{"Event", "Cut in a move"}}, moves: mv("d4 Nf6 c4 e6 N")}, // Replay reports "N"
		}},
		{"truncated_tag.pgn", []want{
			{tags: []Tag{{"Event", "Whole"}}, moves: mv("e4 e5"), result: "*"},
			{line: 5, tags: []Tag{{"Event", "Cut in a tag pair"}}, err: `line 6: tag "Site": unterminated value`},
		}},
		{"garbage.pgn", []want{
			{tags: []Tag{{"Event", "Before"}}, moves: mv("e4 e5"), result: "1/2-1/2"},
			{err: "unexpected token"},
			{tags: []Tag{{"Event", "After"}}, moves: mv("c4 e5"), result: "0-1"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			games := readFileGames(t, filepath.Join("testdata", "bad", tt.file))
			checkGames(t, games, tt.want)
		})
	}
}

func TestDecompressingShortInputs(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		games int
		err   string // substring of the first game's Err
	}{
		{"empty", "", 0, ""},
		{"one byte of gzip magic", "\x1f", 1, `unexpected token "\x1f"`},
		{"three bytes of zstd magic", "\x28\xb5\x2f", 1, "unterminated variation opened at line 1"},
		{"plain short game", "*", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, err := Open("-", strings.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			games := readAll(t, NewReader(rc))
			if len(games) != tt.games {
				t.Fatalf("%d games, want %d", len(games), tt.games)
			}
			if tt.err != "" && (games[0].Err == nil || !strings.Contains(games[0].Err.Error(), tt.err)) {
				t.Errorf("error %v, want %q", games[0].Err, tt.err)
			}
		})
	}
}

// TestTagValueCharacterSets: a tag value that is not valid UTF-8 is read
// as ISO 8859-1 (the PGN standard's character set) or Windows-1252 (its
// superset Windows exporters write); a UTF-8 value is kept as it is. The
// movetext is not touched.
func TestTagValueCharacterSets(t *testing.T) {
	tests := []struct {
		name, value, want string
	}{
		{name: "ASCII", value: "Carlsen, Magnus", want: "Carlsen, Magnus"},
		{name: "UTF-8", value: "Müller, Jürgen", want: "Müller, Jürgen"},
		{name: "UTF-8 Cyrillic", value: "Крамник", want: "Крамник"},
		{name: "ISO 8859-1", value: "M\xfcller, J\xfcrgen", want: "Müller, Jürgen"},
		{name: "Windows-1252 only", value: "\x8aahovi\x9a", want: "Šahoviš"},
		{name: "Latin-1 with an escaped quote", value: "\\\"Bj\xf6rn\\\"", want: `"Björn"`},
		{name: "a byte Windows-1252 leaves undefined", value: "\xe9a\x81b", want: "éa\ufffdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "[White \"" + tt.value + "\"]\n[Black \"B\"]\n\n1. e4 e5 *\n"
			games, err := ParseGames(text)
			if err != nil || len(games) != 1 {
				t.Fatalf("ParseGames: %d games, %v", len(games), err)
			}
			if got, _ := games[0].Tag("White"); got != tt.want {
				t.Errorf("White = %q, want %q", got, tt.want)
			}
			cr := NewChunkReader(Limits{})
			cr.KeepTags = []string{"White"}
			sp := NewSplitter(strings.NewReader(text), Limits{}, 0)
			c, err := sp.Next()
			if err != nil {
				t.Fatal(err)
			}
			part := cr.Read(c)
			if len(part.Games) != 1 {
				t.Fatalf("chunk: %d games", len(part.Games))
			}
			if got, _ := part.Games[0].Tag("White"); got != tt.want {
				t.Errorf("chunk: White = %q, want %q", got, tt.want)
			}
		})
	}
}
