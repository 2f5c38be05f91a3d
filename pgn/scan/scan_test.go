package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
)

const shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 "

func TestAnalyse(t *testing.T) {
	tests := []struct {
		name                     string
		pgn                      string
		plies, max               int
		threefold, claimable     []int
		fivefold, firstClaimPly  int // -1: none
		firstClaimRule, errorSub string
		fifty, seventyFive       int // the plies of the 50- and 75-move rules, when not 0
	}{
		{name: "third occurrence", pgn: "[White \"A\"]\n[Black \"B\"]\n\n" + shuffle + "*\n",
			plies: 8, max: 3, threefold: []int{8}, claimable: []int{7, 8}, fivefold: -1, firstClaimPly: 7, firstClaimRule: "9.2.1"},
		{name: "fifth occurrence", pgn: "\n" + shuffle + "5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 *\n",
			plies: 16, max: 5, threefold: []int{8, 9, 10, 11, 12, 13, 14, 15, 16}, claimable: []int{7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
			fivefold: 16, firstClaimPly: 7, firstClaimRule: "9.2.1"},
		{name: "second occurrence", pgn: "\n1. Nf3 Nf6 2. Ng1 Ng8 *\n",
			plies: 4, max: 2, threefold: []int{}, claimable: []int{}, fivefold: -1, firstClaimPly: -1},
		{name: "50 moves", pgn: "[FEN \"8/8/8/8/8/8/8/K6k w - - 97 80\"]\n\n80. Ka2 Kh2 81. Ka1 Kh1 *\n",
			plies: 4, max: 2, threefold: []int{}, claimable: []int{}, fivefold: -1, firstClaimPly: -1, fifty: 2},
		{name: "75 moves", pgn: "[FEN \"8/8/8/8/8/8/8/K6k w - - 148 80\"]\n\n80. Ka2 Kh2 81. Ka1 *\n",
			plies: 3, max: 1, threefold: []int{}, claimable: []int{}, fivefold: -1, firstClaimPly: -1, seventyFive: 2},
		{name: "an illegal move", pgn: "\n1. e4 e5 2. Ke3 *\n", plies: 2, max: 1, threefold: []int{}, claimable: []int{},
			fivefold: -1, firstClaimPly: -1, errorSub: "ply 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := pgn.ParseGames(tt.pgn)
			if err != nil || len(games) != 1 {
				t.Fatalf("parse: %v, %d games", err, len(games))
			}
			r := Analyse(games[0], "f.pgn")
			if r.Plies != tt.plies || r.MaxOccurrences != tt.max || !slices.Equal(r.ThreefoldPlies, tt.threefold) || !slices.Equal(r.ClaimablePlies, tt.claimable) {
				t.Errorf("plies %d max %d threefold %v claimable %v", r.Plies, r.MaxOccurrences, r.ThreefoldPlies, r.ClaimablePlies)
			}
			if got := ptr(r.FivefoldPly); got != tt.fivefold {
				t.Errorf("fivefold %d, want %d", got, tt.fivefold)
			}
			if c := r.FirstClaim; (c == nil) != (tt.firstClaimPly < 0) || c != nil && (c.Ply != tt.firstClaimPly || c.Rule != tt.firstClaimRule) {
				t.Errorf("first claim %+v, want ply %d rule %s", c, tt.firstClaimPly, tt.firstClaimRule)
			}
			if got := ptr(r.FiftyMovesPly); tt.fifty != 0 && got != tt.fifty {
				t.Errorf("50-move rule at ply %d, want %d", got, tt.fifty)
			}
			if got := ptr(r.SeventyFiveMovesPly); tt.seventyFive != 0 && got != tt.seventyFive {
				t.Errorf("75-move rule at ply %d, want %d", got, tt.seventyFive)
			}
			if !strings.Contains(r.Error, tt.errorSub) || (tt.errorSub == "") != (r.Error == "") {
				t.Errorf("error %q, want %q", r.Error, tt.errorSub)
			}
		})
	}
}

// Run hands the reports back in input order whatever the workers, and
// says when a file could not be read.
func TestRunInOrder(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := range 40 {
		if i%3 == 0 {
			text.WriteString("\n" + shuffle + "*\n\n")
		} else {
			text.WriteString("\n1. e4 e5 *\n\n")
		}
	}
	name := filepath.Join(dir, "games.pgn")
	if err := os.WriteFile(name, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	var ids []int
	var out bytes.Buffer
	w := Writer{Out: &out, JSON: true}
	readFailed, err := Run(context.Background(), Options{Files: []string{name, filepath.Join(dir, "nosuch.pgn")}, Workers: 4,
		ReadError: func(m string) { msgs = append(msgs, m) }}, func(r *Report) error {
		ids = append(ids, r.ID)
		if r.File != name {
			t.Errorf("file %q, want %q (two files named)", r.File, name)
		}
		return w.Write(r)
	})
	if err != nil || !readFailed || len(msgs) != 1 || !strings.Contains(msgs[0], "nosuch.pgn") {
		t.Fatalf("err %v, readFailed %v, messages %v", err, readFailed, msgs)
	}
	for i, id := range ids {
		if id != i {
			t.Fatalf("ids %v: not in input order", ids)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var first Report
	if len(lines) != 40 || json.Unmarshal([]byte(lines[0]), &first) != nil || len(first.ThreefoldPlies) != 1 {
		t.Errorf("%d JSON lines; first %q", len(lines), lines[0])
	}
}

func ptr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// TestNearRepetitions: the plies whose placement and side to move occurred
// before as another position, in the JSON and in the text line.
func TestNearRepetitions(t *testing.T) {
	tests := []struct {
		name string
		pgn  string
		want []NearRepetition
		text string // in the text line; "" when there is none
	}{
		{name: "a castling right lost by a rook that came back",
			pgn:  "[FEN \"rn2k2r/ppp2ppp/8/8/8/8/PPP2PP1/4K2R w Kkq - 0 1\"]\n\n1. Rh2 Na6 2. Rh1 Nb8 3. Rh2 Na6 *\n",
			want: []NearRepetition{{Ply: 4, SamePlacementAs: []int{0}, Differences: []string{"castling"}}},
			text: "near repetition at ply 4 after 2...Nb8: the placement and side to move of ply 0, but another position: other castling rights"},
		{name: "an en passant capture possible once",
			pgn: "[FEN \"1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1\"]\n\n1... d5 2. Nc3 Nc6 3. Nb1 Nb8 4. Nc3 Nc6 5. Nb1 Nb8 *\n",
			want: []NearRepetition{{Ply: 5, SamePlacementAs: []int{1}, Differences: []string{"en_passant"}},
				{Ply: 9, SamePlacementAs: []int{1}, Differences: []string{"en_passant"}}},
			text: "near repetition at ply 5 after 3...Nb8: the placement and side to move of ply 1, but another position: other en passant captures; 1 more ply like it"},
		{name: "a double push whose capture is illegal (rank exposure) repeats for real",
			pgn:  "[FEN \"1n2k3/3p4/8/r3P2K/8/8/8/1N6 b - - 0 1\"]\n\n1... d5 2. Nc3 Nc6 3. Nb1 Nb8 *\n",
			want: nil},
		{name: "a plain repetition", pgn: "\n" + shuffle + "*\n", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := pgn.ParseGames(tt.pgn)
			if err != nil || len(games) != 1 {
				t.Fatalf("parse: %v, %d games", err, len(games))
			}
			r := Analyse(games[0], "")
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			got, _ := json.Marshal(r.NearRepetitions)
			want, _ := json.Marshal(tt.want)
			if string(got) != string(want) {
				t.Errorf("near repetitions %s, want %s", got, want)
			}
			line := textLine(r)
			if tt.text != "" && !strings.Contains(line, tt.text) || tt.text == "" && strings.Contains(line, "near repetition") {
				t.Errorf("text line %q, want it to say %q", line, tt.text)
			}
		})
	}
}

// TestAnalyserReuse: one Analyser that analyses the 310 reference games one
// after the other (its tracker reset each time) reports on each exactly
// what a new one reports.
func TestAnalyserReuse(t *testing.T) {
	games, err := pgn.ParseGames(refgames.ReferencePGN())
	if err != nil || len(games) < 300 {
		t.Fatalf("reference games: %d, %v", len(games), err)
	}
	var reused Analyser
	for _, g := range games {
		got, want := reused.Analyse(g, "f.pgn"), Analyse(g, "f.pgn")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("game %d: the reused analyser reports\n%+v\nwant\n%+v", g.Index, got, want)
		}
	}
}

// TestRunMatchesOneReader: Run, reading a file in chunks on several
// workers, reports what analysing the games of one pgn.Reader reports, also
// where a comment stays open over many chunks (those are read and analysed
// again, in order) and with a file's games numbered across chunks.
func TestRunMatchesOneReader(t *testing.T) {
	name, text := writeOpenCommentGames(t, 600, 200, 400, "[Event \"g%d\"]\n[Site \"s\"]\n\n")
	games, err := pgn.ParseGames(text)
	if err != nil {
		t.Fatal(err)
	}
	var got []*Report
	if _, err := Run(context.Background(), Options{Files: []string{name}, Workers: 3}, func(r *Report) error {
		got = append(got, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(games) {
		t.Fatalf("%d reports, want %d", len(got), len(games))
	}
	for i, g := range games {
		want := Analyse(g, "")
		if !sameReports(got[i], want) {
			t.Fatalf("report %d:\n%+v\nwant\n%+v", i, got[i], want)
		}
	}
}

// sameReports says whether a and b are equal, their games' moves compared
// as strings: a game of Run's has them in the text of its chunk.
func sameReports(a, b *Report) bool {
	x, y := *a, *b
	if !slices.Equal(x.moves.Strings(), y.moves.Strings()) {
		return false
	}
	x.moves, y.moves = pgn.MoveList{}, pgn.MoveList{}
	return reflect.DeepEqual(x, y)
}

// writeOpenCommentGames writes a file of n games, each with the tag
// section tags (a format of the game's number) and the shuffle, but for
// game open, whose comment stays open over inside games' worth of text:
// the chunks there must be read again in order. It returns the file's name
// and its text.
func writeOpenCommentGames(t *testing.T, n, open, inside int, tags string) (string, string) {
	t.Helper()
	var text strings.Builder
	for i := range n {
		fmt.Fprintf(&text, tags, i)
		if i == open {
			text.WriteString("1. e4 { a comment open over many games:\n\n")
			for j := range inside {
				fmt.Fprintf(&text, "[Event \"inside %d\"]\n\n1. d4 d5 *\n\n", j)
			}
			text.WriteString("} e5 2. Nf3 *\n\n")
			continue
		}
		text.WriteString(shuffle + "*\n\n")
	}
	name := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(name, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name, text.String()
}

// TestRunRendersJSON: with Options.JSON the workers render the reports'
// JSON lines but their file and id; the lines are the ones Writer makes
// of the reports alone, also for the chunks read again in order (a
// comment open over many games) and with a file name in each line.
func TestRunRendersJSON(t *testing.T) {
	name, _ := writeOpenCommentGames(t, 400, 100, 300, "[Event \"g%d \\\"q\\\"\"]\n[White \"\u00e9\"]\n\n")
	var rendered, whole strings.Builder
	renderedBy := Writer{Out: &rendered, JSON: true}
	wholeBy := Writer{Out: &whole, JSON: true}
	var reports, onWorkers int
	if _, err := Run(context.Background(), Options{Files: []string{name, name}, Workers: 3, JSON: true}, func(r *Report) error {
		reports++
		if r.jsonTail != nil {
			onWorkers++
		}
		if err := renderedBy.Write(r); err != nil {
			return err
		}
		plain := *r
		plain.jsonTail = nil
		return wholeBy.Write(&plain)
	}); err != nil {
		t.Fatal(err)
	}
	if onWorkers == 0 || onWorkers == reports {
		t.Errorf("%d of %d reports rendered on the workers, want some (not those read again)", onWorkers, reports)
	}
	if rendered.String() != whole.String() {
		got, want := strings.Split(rendered.String(), "\n"), strings.Split(whole.String(), "\n")
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("line %d:\n%s\nwant\n%s", i+1, got[i], want[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
}

// TestAnalysedTags: Analyse reads no tag but analysedTags (which Run keeps
// alone): it reports the same on games stripped of the others.
func TestAnalysedTags(t *testing.T) {
	var text strings.Builder
	text.WriteString(refgames.Reference(t).Text(t))
	for _, file := range []string{"../../examples/lichess-repetitions.pgn", "../../cmd/threefold/testdata/chess960.pgn"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(b)
		text.WriteString("\n\n")
	}
	text.WriteString("[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 99 80\"]\n\n80. Ka2 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n")
	games, err := pgn.ParseGames(text.String())
	if err != nil {
		t.Fatal(err)
	}
	var a Analyser
	for _, g := range games {
		want := a.Analyse(g, "f")
		stripped := *g
		stripped.Tags = nil
		for _, tag := range g.Tags {
			if slices.Contains(analysedTags, tag.Name) {
				stripped.Tags = append(stripped.Tags, tag)
			}
		}
		if got := a.Analyse(&stripped, "f"); !reflect.DeepEqual(got, want) {
			t.Fatalf("game %d without the other tags:\n%+v\nwith them:\n%+v", g.Index, got, want)
		}
	}
}

// TestAnalyseAllocations: analysing a game of a chunk with nothing to
// report allocates the report and its final FEN only; a [FEN] tag adds the
// report's pointer to it and what reading it takes. Each allocation costs
// about a hundred instructions a game.
func TestAnalyseAllocations(t *testing.T) {
	tests := []struct {
		name string
		pgn  string
		want float64
	}{
		{"standard start", "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n", 2},
		{"a FEN", "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Ka2 Kh2 2. Kb3 *\n", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := pgn.NewSplitter(strings.NewReader(tt.pgn), pgn.Limits{}, 0).Next()
			if err != nil {
				t.Fatal(err)
			}
			games := pgn.NewChunkReader(pgn.Limits{}).Read(c).Games
			if len(games) != 1 || games[0].Err != nil {
				t.Fatalf("%d games", len(games))
			}
			var a Analyser
			if r := a.Analyse(games[0], ""); r.Error != "" || r.MaxOccurrences != 1 {
				t.Fatalf("report %+v", r)
			}
			if got := testing.AllocsPerRun(50, func() { a.Analyse(games[0], "") }); got != tt.want {
				t.Errorf("%v allocations an Analyse, want %v", got, tt.want)
			}
		})
	}
}

// TestRunStoppedByContext: a scan whose context ends before the end of its
// input (Ctrl-C, SIGTERM) says so with an error, as the end of ctx, and
// is not a complete scan: a caller that took it for one exited 0.
func TestRunStoppedByContext(t *testing.T) {
	var text strings.Builder
	for range 200 {
		text.WriteString("\n" + shuffle + "*\n\n")
	}
	name := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(name, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		workers  int
		cancelAt int // cancel when this many reports were emitted; 0: before Run
	}{
		{name: "cancelled before the scan", workers: 1, cancelAt: 0},
		{name: "cancelled after the first game, one worker", workers: 1, cancelAt: 1},
		{name: "cancelled after the first game, four workers", workers: 4, cancelAt: 1},
		{name: "cancelled after ten games, two workers", workers: 2, cancelAt: 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAt == 0 {
				cancel()
			}
			emitted := 0
			_, err := Run(ctx, Options{Files: []string{name}, Workers: tt.workers}, func(*Report) error {
				emitted++
				if emitted == tt.cancelAt {
					cancel()
				}
				return nil
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run after %d of 200 games: err %v, want one wrapping context.Canceled", emitted, err)
			}
		})
	}
}
