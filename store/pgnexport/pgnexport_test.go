package pgnexport

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

func knights(cycles int) []string {
	var out []string
	for i := 0; i < cycles; i++ {
		out = append(out, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	return out
}

// readBack parses the exported text with package pgn and replays it.
func readBack(t *testing.T, text string) (*pgn.Game, *rules.Game) {
	t.Helper()
	games, err := pgn.ParseGames(text)
	if err != nil {
		t.Fatalf("pgn.ParseGames: %v\n%s", err, text)
	}
	if len(games) != 1 {
		t.Fatalf("%d games read back, want 1\n%s", len(games), text)
	}
	if games[0].Err != nil {
		t.Fatalf("the export has a syntax error: %v\n%s", games[0].Err, text)
	}
	tracker, err := games[0].Replay(nil)
	if err != nil {
		t.Fatalf("the export does not replay: %v\n%s", err, text)
	}
	return games[0], tracker
}

// uciOf replays moves written in notation from fen and returns them as UCI.
func uciOf(t *testing.T, fen string, notation rules.Notation, moves []string) []string {
	t.Helper()
	start := rules.StartPosition()
	if fen != "" {
		var err error
		if start, err = rules.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	g := rules.NewGame(start)
	var out []string
	for _, tok := range moves {
		var (
			m   rules.Move
			err error
		)
		if notation == rules.UCI {
			m, err = g.PlayUCI(tok)
		} else {
			m, err = g.PlaySAN(tok)
		}
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		out = append(out, m.UCI())
	}
	return out
}

func movesUCI(g *rules.Game) []string {
	var out []string
	for _, m := range g.Moves() {
		out = append(out, m.UCI())
	}
	return out
}

func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name     string
		game     store.Game
		contains []string // in this order
		absent   []string
		tags     map[string]string
	}{
		{
			name: "knights dance to the fifth occurrence",
			game: store.Game{
				GameState: threefold.GameState{
					Game:        threefold.GameRef{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"},
					Source:      "lichess game abcdefgh",
					Notation:    rules.SAN,
					Moves:       knights(4),
					Result:      "1/2-1/2",
					Termination: "fivefold",
				},
				StartedAt: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC),
			},
			contains: []string{
				"{1st occurrence: repeated at plies 4, 8, 12, 16}",
				"1. Nf3 {1st occurrence: repeated at plies 5, 9, 13}",
				"{2nd occurrence: plies 0, 4}",
				"{2nd occurrence: plies 1, 5}",
				"4. Ng1 {2nd occurrence: plies 3, 7} {Black may claim by declaring 4...Ng8 (9.2.1)}",
				"4... Ng8 {3rd occurrence: plies 0, 4, 8; White may claim (9.2.2)}",
				"{4th occurrence: plies 0, 4, 8, 12; White may claim (9.2.2)}",
				"{5th occurrence: plies 0, 4, 8, 12, 16; drawn (9.6.1)}",
				"{Termination: fivefold} 1/2-1/2",
			},
			absent: []string{"SetUp", "(9.3)"},
			tags: map[string]string{"Event": "lichess game abcdefgh", "Site": "https://lichess.org/abcdefgh",
				"Date": "2026.11.29", "White": "Alice", "Black": "Bob", "Result": "1/2-1/2"},
		},
		{
			name: "moves played after the fivefold are not annotated",
			game: store.Game{
				GameState: threefold.GameState{
					Game:        threefold.GameRef{Site: "lichess", ID: "after5th", White: "Alice", Black: "Bob"},
					Notation:    rules.SAN,
					Moves:       knights(5),
					Result:      "1/2-1/2",
					Termination: "fivefold",
				},
			},
			contains: []string{
				"{5th occurrence: plies 0, 4, 8, 12, 16; drawn (9.6.1)}",
				"9. Nf3 {played after the game was drawn at ply 16: not annotated} 9... Nf6 10. Ng1 Ng8 {Termination: fivefold}",
			},
			absent: []string{"6th occurrence", "plies 1, 5, 9, 13, 17", "repeated at plies 4, 8, 12, 16, 20"},
			tags:   map[string]string{"White": "Alice", "Black": "Bob", "Result": "1/2-1/2"},
		},
		{
			name: "UCI from a FEN with Black to move",
			game: store.Game{
				GameState: threefold.GameState{
					Game:     threefold.GameRef{Site: "lichess", ID: "fen00001", White: `A "quoted" \ name`},
					Event:    "Endgame drill",
					StartFEN: "4k3/8/8/8/8/8/8/4K2R b - - 0 40",
					Notation: rules.UCI,
					Moves:    []string{"e8d8", "e1d1", "d8e8", "d1e1", "e8d8", "e1d1", "d8e8", "d1e1"},
					Result:   "*",
				},
			},
			contains: []string{
				"{1st occurrence: repeated at plies 4, 8} 40... Kd8 41. Kd1 Ke8 42. Ke1 {2nd occurrence: plies 0, 4} 42... Kd8",
				"43... Ke8 {2nd occurrence: plies 3, 7} {White may claim by declaring 44.Ke1 (9.2.1)}",
				"44. Ke1 {3rd occurrence: plies 0, 4, 8; Black may claim (9.2.2)} *",
			},
			tags: map[string]string{"Event": "Endgame drill", "Site": "lichess", "White": `A "quoted" \ name`, "Black": "?",
				"SetUp": "1", "FEN": "4k3/8/8/8/8/8/8/4K2R b - - 0 40", "Result": "*"},
		},
		{
			name: "a game without repetition has no comments but the termination",
			game: store.Game{
				GameState: threefold.GameState{
					Game:   threefold.GameRef{Site: "file", ID: "x"},
					Moves:  []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"},
					Result: "1-0",
				},
			},
			contains: []string{"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"},
			absent:   []string{"occurrence", "{"},
			tags:     map[string]string{"Event": "?", "Site": "file", "Date": "????.??.??", "Result": "1-0"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, tc.game); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			flat := strings.Join(strings.Fields(text), " ")
			at := 0
			for _, want := range tc.contains {
				i := strings.Index(flat[at:], want)
				if i < 0 {
					t.Errorf("missing (or out of order) %q in\n%s", want, text)
					continue
				}
				at += i + len(want)
			}
			for _, no := range tc.absent {
				if strings.Contains(text, no) {
					t.Errorf("unexpected %q in\n%s", no, text)
				}
			}
			for _, line := range strings.Split(text, "\n") {
				if len(line) > 79 {
					t.Errorf("line longer than 79: %q", line)
				}
			}
			g, tracker := readBack(t, text)
			for name, want := range tc.tags {
				if got, _ := g.Tag(name); got != want {
					t.Errorf("tag %s = %q, want %q", name, got, want)
				}
			}
			want := uciOf(t, tc.game.StartFEN, tc.game.Notation, tc.game.Moves)
			if got := movesUCI(tracker); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("read back moves %v, want %v", got, want)
			}
			if g.Result != tc.tags["Result"] {
				t.Errorf("result %q, want %q", g.Result, tc.tags["Result"])
			}
		})
	}
}

func TestWriteUnplayableMove(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, store.Game{
		GameState: threefold.GameState{
			Game:   threefold.GameRef{Site: "file", ID: "bad"},
			Moves:  []string{"e4", "e5", "Ke3", "Nc6"},
			Result: "1-0",
		},
	})
	var me *MoveError
	if !errors.As(err, &me) || me.Ply != 3 || me.Token != "Ke3" {
		t.Fatalf("error %v, want a MoveError at ply 3 (Ke3)", err)
	}
	g, tracker := readBack(t, buf.String())
	if tracker.Ply() != 2 || g.Result != "*" {
		t.Errorf("wrote %d plies, result %q; want the 2 that play and *\n%s", tracker.Ply(), g.Result, buf.String())
	}
	if !strings.Contains(buf.String(), "cannot be played") {
		t.Errorf("no comment about the bad move:\n%s", buf.String())
	}
}

// TestWriteChess960: a Chess960 game followed on Lichess (its start in
// Shredder-FEN, moves in UCI with castling as the king onto its rook) is
// exported with [Variant "Chess960"] and its start in X-FEN, so that it
// reads back as Chess960 with the same positions; start position 518 too.
func TestWriteChess960(t *testing.T) {
	for _, tc := range []struct{ name, start string }{
		{"king on c1", "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"},
		{"start position 518", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start, err := rules.ParseStart(tc.start)
			if err != nil {
				t.Fatal(err)
			}
			g := rules.NewGame(start)
			var moves []string
			for i := 0; i < 12; i++ { // random play, castling whenever it can
				p := g.Position()
				legal := p.LegalMoves(nil)
				m := legal[(i*7)%len(legal)]
				for _, c := range legal {
					if c.IsCastling() {
						m = c
					}
				}
				moves = append(moves, m.UCIChess960())
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if err := Write(&buf, store.Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "free"},
				StartFEN: tc.start, Notation: rules.UCI, Moves: moves}}); err != nil {
				t.Fatal(err)
			}
			back, tracker := readBack(t, buf.String())
			if v, _ := back.Tag("Variant"); v != "Chess960" {
				t.Errorf("[Variant %q]\n%s", v, buf.String())
			}
			if pos, want := tracker.Position(), g.Position(); pos.Key() != want.Key() || tracker.Ply() != 12 {
				t.Errorf("reads back as %s after %d plies, want %s\n%s", pos.FEN(), tracker.Ply(), want.FEN(), buf.String())
			}
		})
	}
}

func TestWriteBadFEN(t *testing.T) {
	err := Write(&bytes.Buffer{}, store.Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "x", ID: "y"}, StartFEN: "not a fen"}})
	if err == nil || !strings.Contains(err.Error(), "start FEN") {
		t.Errorf("error %v, want one about the start FEN", err)
	}
}

// TestWriteKeepsTheGamesTags: a game read from PGN is written with its own
// tags in their order and threefold's after them; Result is the
// movetext's, SetUp and FEN the start replayed, a roster tag missing from
// the original is written first, and an Annotator of its own is kept.
func TestWriteKeepsTheGamesTags(t *testing.T) {
	g := store.Game{GameState: threefold.GameState{
		Game:     threefold.GameRef{Site: "file", ID: "round.pgn#3", White: "Anand", Black: "Kramnik"},
		Source:   "file round.pgn",
		StartFEN: "4k3/8/8/8/8/8/8/4K1NR w K - 0 1",
		Moves:    []string{"Nf3", "Kd8", "Ng1", "Ke8"},
		Result:   "*",
		Tags: []threefold.Tag{{Name: "Event", Value: "Candidates"}, {Name: "Site", Value: "Toronto"}, {Name: "Round", Value: "7.1"},
			{Name: "White", Value: "Anand"}, {Name: "Black", Value: "Kramnik"}, {Name: "Result", Value: "1-0"},
			{Name: "WhiteElo", Value: "2770"}, {Name: "SetUp", Value: "1"}, {Name: "FEN", Value: "4k3/8/8/8/8/8/8/4K1NR w KQ - 0 1"},
			{Name: "Annotator", Value: "GM Someone"}, {Name: "ECO", Value: "C42"}},
	}}
	var b strings.Builder
	if err := Write(&b, g); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(b.String(), "\n\n")
	want := `[Date "????.??.??"]
[Event "Candidates"]
[Site "Toronto"]
[Round "7.1"]
[White "Anand"]
[Black "Kramnik"]
[Result "*"]
[WhiteElo "2770"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K1NR w K - 0 1"]
[ECO "C42"]
[Annotator "GM Someone; threefold"]`
	if header != want {
		t.Errorf("tags:\n%s\nwant:\n%s", header, want)
	}
}
