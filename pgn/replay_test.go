package pgn

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/rules"
)

func TestReplay(t *testing.T) {
	tests := []struct {
		name     string
		pgn      string
		plies    int    // plies replayed
		finalFEN string // "" = not checked
		err      string // substring of the error; "" = none
		kind     error  // errors.Is target for a *MoveError
	}{
		{
			name:     "scholar's mate",
			pgn:      "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
			plies:    7,
			finalFEN: "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
		},
		{
			name:     "start from a FEN with Black to move",
			pgn:      "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 40\"]\n\n40... Kd7 41. O-O Ke6 *",
			plies:    3,
			finalFEN: "8/8/4k3/8/8/8/8/5RK1 w - - 6 42",
		},
		{
			name:  "illegal move names ply, number and token",
			pgn:   "1. e4 e5 2. Nf3 Qxh2 3. Nxh2 *",
			plies: 3,
			err:   "ply 4 (2... Qxh2): illegal move",
			kind:  rules.ErrIllegal,
		},
		{
			name:  "ambiguous move",
			pgn:   "1. d4 d5 2. Nf3 Nf6 3. Nd2 e6 *",
			plies: 4,
			err:   "ply 5 (3. Nd2): ambiguous move",
			kind:  rules.ErrAmbiguous,
		},
		{
			name:  "null move --",
			pgn:   "1. e4 -- 2. d4 *",
			plies: 1,
			err:   "ply 2 (1... --): unreadable move",
			kind:  rules.ErrSyntax,
		},
		{
			name:  "null move Z0",
			pgn:   "1. e4 e5 2. Z0 *",
			plies: 2,
			err:   "ply 3 (2. Z0): unreadable move",
			kind:  rules.ErrSyntax,
		},
		{
			name:  "move numbers continue from the FEN",
			pgn:   "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 23\"]\n\n23. Kd2 Kd7 24. Kd4 *",
			plies: 2,
			err:   "ply 3 (24. Kd4): illegal move",
			kind:  rules.ErrIllegal,
		},
		{
			name: "unreadable FEN",
			pgn:  "[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *",
			err:  "[FEN] tag: ",
		},
		{
			name:     "FEN with castling rights it cannot have",
			pgn:      "[FEN \"4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1\"]\n\n1. Kd2 *",
			plies:    1,
			finalFEN: "4k3/8/8/8/8/8/3K4/8 b - - 1 1",
		},
	}
	reused := new(rules.Game) // ReplayOn replays every game on it, one after the other
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ParseGames(tt.pgn)
			if err != nil || len(games) != 1 || games[0].Err != nil {
				t.Fatalf("ParseGames: %d games, %v", len(games), err)
			}
			var tracker *rules.Game
			defer func() {
				// ReplayOn does what Replay does, on a tracker that replayed the games before.
				before := reused.Ply()
				errOn := games[0].ReplayOn(reused, nil)
				if fmt.Sprint(errOn) != fmt.Sprint(err) {
					t.Errorf("ReplayOn: error %v, Replay's %v", errOn, err)
				}
				if tracker == nil {
					if reused.Ply() != before {
						t.Errorf("ReplayOn changed the tracker although the game has no start")
					}
					return
				}
				if reused.Ply() != tracker.Ply() || reused.Position() != tracker.Position() || reused.Count() != tracker.Count() {
					t.Errorf("ReplayOn: %d plies, Replay: %d plies, or another position", reused.Ply(), tracker.Ply())
				}
			}()
			visits := 0
			tracker, err = games[0].Replay(func(ply int, san string, tr *rules.Game) {
				visits++
				if ply != visits || tr.Ply() != ply || san != games[0].Moves[ply-1] {
					t.Errorf("visit %d: ply %d, tracker ply %d, san %q", visits, ply, tr.Ply(), san)
				}
			})
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if tt.kind != nil {
				var me *MoveError
				if !errors.As(err, &me) || !errors.Is(err, tt.kind) || me.Token != games[0].Moves[me.Ply-1] {
					t.Errorf("error %#v is not a *MoveError wrapping %v", err, tt.kind)
				}
			}
			if tracker == nil {
				if tt.plies != 0 {
					t.Fatalf("no tracker")
				}
				return
			}
			if tracker.Ply() != tt.plies || visits != tt.plies {
				t.Errorf("replayed %d plies (%d visits), want %d", tracker.Ply(), visits, tt.plies)
			}
			pos := tracker.Position()
			if tt.finalFEN != "" && pos.FEN() != tt.finalFEN {
				t.Errorf("final FEN %q, want %q", pos.FEN(), tt.finalFEN)
			}
		})
	}
}

// TestReplayVariant: the [Variant] tag decides the rules. Chess960 under
// any of its names; standard chess without the tag or under a standard
// name, where a right the position cannot have is void whether written
// KQkq or HAha, except that an untagged FEN naming an inner rook file is
// Chess960; any other variant is an error with nothing replayed.
func TestReplayVariant(t *testing.T) {
	const inner = "[FEN \"1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w FBfb - 0 1\"]\n"
	const xfen = "[FEN \"1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w KQkq - 0 1\"]\n"
	tests := []struct {
		name     string
		tags     string
		moves    string
		variant  rules.Variant
		plies    int
		finalFEN string
		notes    int
		err      string
	}{
		{"Chess960 with X-FEN", "[Variant \"Chess960\"]\n" + xfen, "1. O-O O-O-O", rules.Chess960, 2, "2kr1r2/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2", 0, ""},
		{"Chess 960 with Shredder-FEN", "[Variant \"Chess 960\"]\n" + inner, "1. O-O-O O-O", rules.Chess960, 2, "1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR1R2 w - - 2 2", 0, ""},
		{"Freestyle", "[Variant \"Freestyle\"]\n" + xfen, "1. O-O", rules.Chess960, 1, "", 0, ""},
		{"Fischerandom without a FEN is the standard start", "[Variant \"Fischerandom\"]\n", "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O", rules.Chess960, 8, "rnbq1rk1/ppppppbp/5np1/8/8/5NP1/PPPPPPBP/RNBQ1RK1 w - - 4 5", 0, ""},
		{"untagged with an inner file is Chess960", inner, "1. O-O", rules.Chess960, 1, "", 0, ""},
		{"untagged KQkq with the king off e1: void", xfen, "1. O-O", rules.Standard, 0, "", 4, "illegal move"},
		{"Standard with an inner file: void", "[Variant \"Standard\"]\n" + inner, "1. Kd1", rules.Standard, 1, "1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1R1K1R2 b - - 1 1", 4, ""},
		{"From Position with HAha", "[Variant \"From Position\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1\"]\n", "1. O-O", rules.Standard, 1, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1", 0, ""},
		{"Crazyhouse", "[Variant \"Crazyhouse\"]\n", "1. e4 e5", rules.Standard, 0, "", 0, `variant "Crazyhouse" is not supported`},
		{"an unknown variant", "[Variant \"Knightmate\"]\n", "1. e4 e5", rules.Standard, 0, "", 0, `variant "Knightmate" is not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ParseGames(tt.tags + "\n" + tt.moves + " *")
			if err != nil || len(games) != 1 {
				t.Fatalf("ParseGames: %d games, %v", len(games), err)
			}
			g := games[0]
			start, notes, startErr := g.Start()
			tracker, err := g.Replay(nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				var ve *rules.VariantError
				if strings.Contains(tt.err, "variant") && (!errors.As(err, &ve) || tracker != nil || !errors.As(startErr, &ve)) {
					t.Fatalf("error %#v (tracker %v) is not a *rules.VariantError with nothing replayed", err, tracker)
				}
				if tracker == nil {
					return
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if start.Variant() != tt.variant || len(notes) != tt.notes || tracker.Ply() != tt.plies {
				t.Errorf("%s, %d notes %q, %d plies; want %s, %d notes, %d plies", start.Variant(), len(notes), notes, tracker.Ply(), tt.variant, tt.notes, tt.plies)
			}
			if pos := tracker.Position(); tt.finalFEN != "" && pos.FEN() != tt.finalFEN {
				t.Errorf("final FEN %q, want %q", pos.FEN(), tt.finalFEN)
			}
		})
	}
}

func TestReplayBadFiles(t *testing.T) {
	tests := []struct {
		file string
		errs []string // per game, "" = replays cleanly
	}{
		{"illegal.pgn", []string{"ply 4 (2... Qxh2): illegal move: Qxh2 in ", ""}},
		{"truncated_move.pgn", []string{"", `ply 5 (3. N): unreadable move: "N": no destination square`}},
		{"ambiguous.pgn", []string{"ply 5 (3. Nd2): ambiguous move: Nd2 in ", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			games := readFileGames(t, filepath.Join("testdata", "bad", tt.file))
			if len(games) != len(tt.errs) {
				t.Fatalf("%d games, want %d", len(games), len(tt.errs))
			}
			for i, g := range games {
				_, err := g.Replay(nil)
				if tt.errs[i] == "" && err != nil || tt.errs[i] != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.errs[i])) {
					t.Errorf("game %d: %v, want %q", i, err, tt.errs[i])
				}
			}
		})
	}
}

// replayAgainstOracle replays every game and compares plies and final FEN with the reference.
func replayAgainstOracle(t *testing.T, games []*Game, oracle []refgames.Annotation) {
	t.Helper()
	if len(games) != len(oracle) {
		t.Fatalf("read %d games, oracle has %d", len(games), len(oracle))
	}
	bad := 0
	for i, g := range games {
		o := oracle[i]
		tracker, err := g.Replay(nil)
		switch {
		case err != nil && o.Error == nil:
			t.Errorf("game %d (line %d): %v", i, g.Line, err)
		case err == nil && o.Error != nil:
			t.Errorf("game %d (line %d): replayed, oracle error %q", i, g.Line, *o.Error)
		case tracker == nil:
		case tracker.Ply() != o.Plies:
			t.Errorf("game %d (line %d): %d plies, oracle %d", i, g.Line, tracker.Ply(), o.Plies)
		default:
			pos := tracker.Position()
			if fen := pos.FEN(); fen != o.FinalFEN {
				t.Errorf("game %d (line %d): final FEN %q, oracle %q", i, g.Line, fen, o.FinalFEN)
			} else {
				continue
			}
		}
		if bad++; bad > 10 {
			t.Fatal("too many differences")
		}
	}
}

// TestPlayFrom: playing from the position Start returned is ReplayOn, game by game on the reference games
// (the same moves played, the same error), and the moves are played from the position given, not read
// again from the tags.
func TestPlayFrom(t *testing.T) {
	games, err := ParseGames(refgames.ReferencePGN())
	if err != nil {
		t.Fatal(err)
	}
	var a, b rules.Game
	for _, g := range games {
		start, _, err := g.Start()
		if err != nil {
			continue
		}
		errA, errB := g.ReplayOn(&a, nil), g.PlayFrom(&b, start, nil)
		pa, pb := a.Position(), b.Position()
		if fmt.Sprint(errA) != fmt.Sprint(errB) || a.Ply() != b.Ply() || pa.FEN() != pb.FEN() {
			t.Fatalf("game %d: ReplayOn %v at %s, PlayFrom %v at %s", g.Index, errA, pa.FEN(), errB, pb.FEN())
		}
	}
	g := &Game{Tags: []Tag{{"FEN", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}}, Moves: []string{"O-O"}}
	if err := g.PlayFrom(&a, rules.StartPosition(), nil); err == nil {
		t.Fatalf("castled from the standard start, where it is illegal: PlayFrom read the [FEN] tag")
	}
}

// TestReplayChunkGames: a game of a ChunkReader, whose moves are in its chunk's text, replays as the same
// game of a Reader: the same moves visited, the same error, the same end.
func TestReplayChunkGames(t *testing.T) {
	text := refgames.ReferencePGN() + "\n\n[Event \"glyphs\"]\n\n1.e4 e5! 2.Nf3?! Nc6 3. Bb5 a6 4. Ke3 *\n"
	want, err := ParseGames(text)
	if err != nil {
		t.Fatal(err)
	}
	got, err, _, _ := readChunked(t, strings.NewReader(text), Limits{}, 2048, 2)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d games, %v; want %d", len(got), err, len(want))
	}
	replay := func(g *Game) string {
		var visited []string
		tracker, err := g.Replay(func(_ int, san string, _ *rules.Game) { visited = append(visited, san) })
		if tracker == nil {
			return fmt.Sprint(err)
		}
		p := tracker.Position()
		return fmt.Sprint(visited, err, p.FEN())
	}
	for i := range want {
		if got[i].Moves != nil {
			t.Fatalf("game %d of a ChunkReader has Moves", i)
		}
		if a, b := replay(got[i]), replay(want[i]); a != b {
			t.Fatalf("game %d: %s\nwant %s", i, a, b)
		}
	}
}

// TestStartSetUpWithoutFEN: [SetUp "1"] says the game starts from a
// position of its own; without the [FEN] tag that gives it, the game is
// read from the standard start with a note that says so (its first moves
// are likely illegal for that reason). With the tag, or with [SetUp "0"],
// there is no such note.
func TestStartSetUpWithoutFEN(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
	tests := []struct {
		name, tags string
		note       bool
	}{
		{name: "SetUp without FEN", tags: "[SetUp \"1\"]\n", note: true},
		{name: "SetUp with a blank FEN", tags: "[SetUp \"1\"]\n[FEN \"\"]\n", note: true},
		{name: "SetUp without FEN, Chess960", tags: "[Variant \"Chess960\"]\n[SetUp \"1\"]\n", note: true},
		{name: "SetUp with FEN", tags: "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n"},
		{name: "SetUp 0", tags: "[SetUp \"0\"]\n"},
		{name: "no tags", tags: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ParseGames(tt.tags + "\n1. e4 *\n")
			if err != nil || len(games) != 1 {
				t.Fatalf("ParseGames: %d games, %v", len(games), err)
			}
			_, notes, err := games[0].Start()
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(notes, NoteSetUpWithoutFEN); got != tt.note {
				t.Errorf("notes %q: want the SetUp note %v", notes, tt.note)
			}
		})
	}
}
