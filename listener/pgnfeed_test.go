package listener

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/randgame"
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

// A long game resent with one more move is parsed from the end of the
// text seen before; a change anywhere before it — a takeback, a move
// corrected in the middle, a tag, a comment — is seen and the text parsed
// whole, and so is a second game after the first.
func TestPGNFeedResentLongGame(t *testing.T) {
	const url = "https://lichess.org/broadcast/e/r/round001/game0001"
	head := func(white string) string {
		return "[Event \"E\"]\n[White \"" + white + "\"]\n[Black \"B\"]\n[GameURL \"" + url + "\"]\n"
	}
	line := randgame.MustLine(t, 7, 161)
	corrected := slices.Clone(line[:151])
	corrected[60] = "Qh5" // a token the random line does not have there
	if corrected[60] == line[60] {
		t.Fatal("the correction changes nothing")
	}
	commented := strings.Replace(pgnOf(head("W"), line[:151], "*"), " 31. ", " {a comment} 31. ", 1)
	second := "[Event \"E\"]\n[GameURL \"https://lichess.org/broadcast/e/r/round001/game0002\"]\n\n1. d4 *\n"
	steps := []struct {
		name      string
		text      string
		want      []string // the moves emitted, nil: nothing emitted
		white     string
		tailParse bool
	}{
		{"first", pgnOf(head("W"), line[:150], "*"), line[:150], "W", false},
		{"one more", pgnOf(head("W"), line[:151], "*"), line[:151], "W", true},
		{"resent as it was", pgnOf(head("W"), line[:151], "*"), nil, "", true},
		{"a move in the middle corrected", pgnOf(head("W"), corrected, "*"), corrected, "W", false},
		{"one more after it", pgnOf(head("W"), append(slices.Clone(corrected), "Kf1"), "*"), append(slices.Clone(corrected), "Kf1"), "W", true},
		{"back to the line", pgnOf(head("W"), line[:151], "*"), line[:151], "W", false},
		{"a takeback", pgnOf(head("W"), line[:149], "*"), line[:149], "W", false},
		{"a tag changed", pgnOf(head("W2"), line[:149], "*"), nil, "", false},
		{"one more with the new tag", pgnOf(head("W2"), line[:151], "*"), line[:151], "W2", true},
		{"a tag changed, its length kept", pgnOf(head("W3"), line[:151], "*"), nil, "", false},
		{"the tag as it was", pgnOf(head("W2"), line[:151], "*"), nil, "", false},
		{"a comment in the middle", strings.Replace(commented, "[White \"W\"]", "[White \"W2\"]", 1), nil, "", false},
		{"one more after the comment", strings.Replace(pgnOf(head("W2"), line[:152], "*"), " 31. ", " {a comment} 31. ", 1), line[:152], "W2", true},
		{"a second game after it", strings.Replace(pgnOf(head("W2"), line[:153], "*"), " 31. ", " {a comment} 31. ", 1) + second, line[:153], "W2", false},
	}
	var got []threefold.GameState
	f := newPGNFeed("lichess", "test", 0, threefold.AudienceArbiters, nil, pgn.Limits{})
	for _, st := range steps {
		n, tails, fulls := len(got), f.tailParses, f.fullParses
		if err := f.feedText(st.text, func(int) string { return "?" }, func(s threefold.GameState) error { got = append(got, s); return nil }); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if tail := f.tailParses > tails; tail != st.tailParse || (f.fullParses > fulls) == st.tailParse {
			t.Errorf("%s: tail parse %v, full parse %v; want tail parse %v", st.name, tail, f.fullParses > fulls, st.tailParse)
		}
		var mine []threefold.GameState
		for _, s := range got[n:] {
			if s.Game.ID == url {
				mine = append(mine, s)
			}
		}
		if st.want == nil {
			if len(mine) != 0 {
				t.Errorf("%s: emitted %d plies, want nothing", st.name, len(mine[0].Moves))
			}
			continue
		}
		if len(mine) != 1 {
			t.Fatalf("%s: emitted %d snapshots of the game, want 1", st.name, len(mine))
		}
		if s := mine[0]; !slices.Equal(s.Moves, st.want) || s.Game.White != st.white {
			t.Errorf("%s: emitted %d plies by %q, want %d by %q", st.name, len(s.Moves), s.Game.White, len(st.want), st.white)
		}
	}
	if last := got[len(got)-1]; last.Game.ID != "https://lichess.org/broadcast/e/r/round001/game0002" || !slices.Equal(last.Moves, []string{"d4"}) {
		t.Errorf("the second game: %+v", last)
	}
}

// TestPGNFeedCorrectionAnywhere: a broadcast game resent ply by ply (each
// text after the first a tail parse), then resent with one move
// corrected, at plies all along the game: the first, every fifth, each of
// the last few. Each correction is parsed whole and emitted as it is, the
// line sent again after it too, and the next move after that is a tail
// parse again.
func TestPGNFeedCorrectionAnywhere(t *testing.T) {
	const url = "https://lichess.org/broadcast/e/r/round001/game0001"
	const at = 150 // plies before the correction: about 1 KB of movetext
	head := "[Event \"E\"]\n[GameURL \"" + url + "\"]\n"
	line := randgame.MustLine(t, 11, at+1)
	feed := func(f *pgnFeed, moves []string) (emitted []string, tail bool) {
		t.Helper()
		tails := f.tailParses
		err := f.feedText(pgnOf(head, moves, "*"), func(int) string { return "?" }, func(s threefold.GameState) error {
			emitted = s.Moves
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return emitted, f.tailParses > tails
	}
	// follow feeds the line ply by ply, as a broadcast does.
	follow := func() *pgnFeed {
		f := newPGNFeed("lichess", "test", 0, threefold.AudienceArbiters, nil, pgn.Limits{})
		for p := 1; p <= at; p++ {
			if got, tail := feed(f, line[:p]); !slices.Equal(got, line[:p]) || tail != (p > 1) {
				t.Fatalf("ply %d: emitted %d plies, tail parse %v", p, len(got), tail)
			}
		}
		return f
	}
	// The corrections of the move at a ply: another move (its length
	// changes the text after it, most of the time), and one of the same
	// length (only that move's bytes change).
	corrections := []struct {
		name string
		move func(old string) string
	}{
		{"another move", func(old string) string {
			if old == "Qh5" {
				return "Qh4"
			}
			return "Qh5"
		}},
		{"its piece letter", func(old string) string {
			if old[0] == 'B' {
				return "N" + old[1:]
			}
			return "B" + old[1:]
		}},
		{"its last character", func(old string) string {
			if old[len(old)-1] == '1' {
				return old[:len(old)-1] + "2"
			}
			return old[:len(old)-1] + "1"
		}},
	}
	for _, c := range corrections {
		for k := 0; k < at; k += 1 + min(4, (at-k)/2) { // every fifth ply, and each of the last few
			f := follow()
			corrected := slices.Clone(line[:at])
			corrected[k] = c.move(line[k])
			if got, tail := feed(f, corrected); !slices.Equal(got, corrected) || tail {
				t.Fatalf("%s, ply %d corrected: emitted %d plies, tail parse %v", c.name, k+1, len(got), tail)
			}
			if got, tail := feed(f, line[:at]); !slices.Equal(got, line[:at]) || tail {
				t.Fatalf("%s, ply %d, back to the line: emitted %d plies, tail parse %v", c.name, k+1, len(got), tail)
			}
			if got, tail := feed(f, line[:at+1]); !slices.Equal(got, line[:at+1]) || !tail {
				t.Fatalf("%s, ply %d, one more: emitted %d plies, tail parse %v", c.name, k+1, len(got), tail)
			}
		}
	}
}

// TestReadSimpleTail: the new part of a resent movetext read without a
// pgn.Reader when it is only moves, numbers and the result, and left to
// package pgn otherwise.
func TestReadSimpleTail(t *testing.T) {
	rows := []struct {
		name, tail string
		moves      []string
		result     string
		ok         bool
	}{
		{"one move", "Nf3 *\n\n", []string{"Nf3"}, "*", true},
		{"a number and two moves", "12. Nf3 Nc6 *\n\n", []string{"Nf3", "Nc6"}, "*", true},
		{"black's number", "12... Nc6 1-0\n", []string{"Nc6"}, "1-0", true},
		{"castling, promotion, check, mate", "O-O-O exd8=Q+ Qxf7# 0-1", []string{"O-O-O", "exd8=Q+", "Qxf7#"}, "0-1", true},
		{"the result alone", "1/2-1/2\r\n\r\n", nil, "1/2-1/2", true},
		{"clock comments", "12. Nf3 { [%clk 1:30:00] } Nc6 { [%clk 1:29:58] } *\n\n", []string{"Nf3", "Nc6"}, "*", true},
		{"a comment first", "{ a } Nf3 *", []string{"Nf3"}, "*", true},
		{"a comment across lines", "Nf3 { [%clk\n1:30:00] } *\n\n", nil, "", false},
		{"a comment not closed", "Nf3 { [%clk 1:30:00] *\n\n", nil, "", false},
		{"a comment before the result without a space", "Nf3 {c}*\n\n", nil, "", false},
		{"a comment against a move", "Nf3{c} *\n\n", nil, "", false},
		{"a comment last", "Nf3 {c}", nil, "", false},
		{"a glyph", "Nf3! *\n\n", nil, "", false},
		{"a NAG", "Nf3 $1 *\n\n", nil, "", false},
		{"a variation", "Nf3 (Nc3) *\n\n", nil, "", false},
		{"a line end between moves", "Nf3\nNc6 *\n\n", nil, "", false},
		{"two spaces", "Nf3  Nc6 *\n\n", nil, "", false},
		{"no result", "Nf3 Nc6 \n\n", nil, "", false},
		{"the result written otherwise", "Nf3 ½-½\n\n", nil, "", false},
		{"more after the result", "Nf3 * Nc6\n\n", nil, "", false},
		{"a number without a space", "12.Nf3 *\n\n", nil, "", false},
		{"a null move", "-- *\n\n", nil, "", false},
		{"lower-case promotion", "e8=q *\n\n", nil, "", false},
		{"a long token", "Nf3xxxxxx *\n\n", nil, "", false},
		{"empty", "", nil, "", false},
		{"over the line limit", "Nf3 " + strings.Repeat("Nc6 Nb8 ", 8) + "*", nil, "", false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			moves, result, ok := readSimpleTail(r.tail, nil, 64)
			if ok != r.ok {
				t.Fatalf("ok %v, want %v", ok, r.ok)
			}
			if ok && (!slices.Equal(moves, r.moves) || result != r.result) {
				t.Errorf("got %q %q, want %q %q", moves, result, r.moves, r.result)
			}
		})
	}
}

// FuzzReadSimpleTail holds readSimpleTail to package pgn: a text it reads
// is one game of no tags and no error for pgn.ParseGamesLimits, with the
// same moves and result.
func FuzzReadSimpleTail(f *testing.F) {
	for _, s := range []string{"Nf3 *\n\n", "12. Nf3 Nc6 *\n\n", "12... Nc6 1-0\n", "O-O-O exd8=Q+ Qxf7# 0-1", "1/2-1/2\r\n",
		"Nf3! *", "e8=q *", "%e4 *", "Nf3 { [%clk 1:30:00] } Nc6 { [%clk 1:29:58] } *\n\n", "{ { } e4 *", "e4 { } } *",
		"e4 {\n[Event \"x\"]\n} *", "e4 { [%eval 0.3] [%clk 0:01:00] } 1-0", "e4 e5 1-0 *", "e4 1-0\n[Event \"x\"]\n\n1. d4 *", "e4 * \n \n", "Ka1 ab 1-0"} {
		f.Add(s)
	}
	lim := pgn.Limits{}.WithDefaults()
	f.Fuzz(func(t *testing.T, tail string) {
		moves, result, ok := readSimpleTail(tail, nil, lim.MaxLineBytes)
		if !ok {
			return
		}
		games, err := pgn.ParseGamesLimits(tail, lim)
		if err != nil || len(games) != 1 {
			t.Fatalf("%q: pgn reads %d games, error %v", tail, len(games), err)
		}
		g := games[0]
		if g.Err != nil || len(g.Tags) > 0 || !slices.Equal(g.Moves, moves) || g.Result != result {
			t.Fatalf("%q: pgn reads %q %q (tags %v, error %v), readSimpleTail %q %q", tail, g.Moves, g.Result, g.Tags, g.Err, moves, result)
		}
	})
}

// TestPGNFeedFindsABroadcastGameByURL: a Lichess broadcast's feed names a
// game by the chapter id in its [GameURL]; a resent text finds its game by
// the URL (no URL parsed on every update), takes the tail path, and a
// game forgotten (finished, then not resent for the grace period) is a new
// one when its URL comes again.
func TestPGNFeedFindsABroadcastGameByURL(t *testing.T) {
	const url = "https://lichess.org/broadcast/e/r/round001/chapter1"
	clk := clock.NewFake(time.Unix(0, 0))
	f := newPGNFeed("lichess", "test", 0, threefold.AudienceArbiters, clk, pgn.Limits{})
	ids := 0 // the URLs parsed
	f.idOf = func(u string) string { ids++; return BroadcastGameID(u) }
	f.grace = time.Hour
	head := "[Event \"E\"]\n[GameURL \"" + url + "\"]\n"
	var got []threefold.GameState
	feed := func(moves []string, result string) (tail bool) {
		t.Helper()
		tails := f.tailParses
		if err := f.feedText(pgnOf(head, moves, result), func(int) string { return "?" }, func(s threefold.GameState) error {
			got = append(got, s)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return f.tailParses > tails
	}
	line := randgame.MustLine(t, 3, 12)
	steps := []struct {
		name   string
		moves  []string
		result string
		tail   bool
	}{
		{"first", line[:10], "*", false},
		{"one more", line[:11], "*", true},
		{"finished (the [Result] tag changed)", line[:12], "1-0", false},
		{"resent finished", line[:12], "1-0", true},
	}
	for _, st := range steps {
		before := ids
		if tail := feed(st.moves, st.result); tail != st.tail || (ids > before) == tail {
			t.Errorf("%s: tail parse %v, want %v; URL parsed %v", st.name, tail, st.tail, ids > before)
		}
		if s := got[len(got)-1]; s.Game.ID != "chapter1" || !slices.Equal(s.Moves, st.moves) || s.Result != st.result {
			t.Fatalf("%s: emitted %s with %d plies", st.name, s.Game.ID, len(s.Moves))
		}
	}
	clk.Advance(2 * time.Hour)
	f.prune()
	if len(f.games) != 0 || len(f.byURL) != 0 {
		t.Fatalf("after the grace period: %d games, %d by URL", len(f.games), len(f.byURL))
	}
	n := len(got)
	if tail := feed(line[:12], "1-0"); tail || len(got) != n+1 {
		t.Errorf("the game again after it was forgotten: tail parse %v, %d emitted", tail, len(got)-n)
	}
	if tail := feed(line[:12], "1-0"); !tail {
		t.Error("resent once more: not a tail parse")
	}
}

// TestPGNFeedEvent: a game read from PGN (a file, a broadcast, chess.com)
// carries its [Event] tag as GameState.Event, which the store keeps and
// `export --event` selects by; PGN's unknown "?" is no event.
func TestPGNFeedEvent(t *testing.T) {
	for _, tc := range []struct {
		name, tags, want string
	}{
		{"named", "[Event \"Tata Steel Masters 2026\"]\n", "Tata Steel Masters 2026"},
		{"unknown", "[Event \"?\"]\n", ""},
		{"absent", "[Site \"Wijk aan Zee\"]\n", ""},
		{"blank around", "[Event \" Club Championship \"]\n", "Club Championship"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newPGNFeed("file", "test", 0, threefold.AudienceArbiters, nil, pgn.Limits{})
			var got []threefold.GameState
			text := tc.tags + "[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
			if err := f.feedText(text, func(int) string { return "g1" }, func(s threefold.GameState) error { got = append(got, s); return nil }); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("emitted %d states, want 1", len(got))
			}
			if got[0].Event != tc.want {
				t.Errorf("event %q, want %q", got[0].Event, tc.want)
			}
		})
	}
}
