package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/store"
)

// exportedGames reads exported PGN back with package pgn and replays each
// game, returning "site-tag: moves as UCI" per game.
func exportedGames(t *testing.T, text string) []string {
	t.Helper()
	games, err := pgn.ParseGames(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	var out []string
	for _, g := range games {
		if g.Err != nil {
			t.Fatalf("syntax error in the export: %v\n%s", g.Err, text)
		}
		tracker, err := g.Replay(nil)
		if err != nil {
			t.Fatalf("the export does not replay: %v\n%s", err, text)
		}
		var moves []string
		for _, m := range tracker.Moves() {
			moves = append(moves, m.UCI())
		}
		event, _ := g.Tag("Event")
		out = append(out, event+": "+strings.Join(moves, " "))
	}
	return out
}

const (
	lichessExport = "Casual blitz: g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
	fileExport    = "Wch U20: e2e4 e7e5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8"
)

func TestExportSelects(t *testing.T) {
	f := newStoreFixture(t)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"id", []string{"abcdefgh"}, []string{lichessExport}},
		{"site/id", []string{"file/round1.pgn#1"}, []string{fileExport}},
		{"url", []string{"https://lichess.org/abcdefgh"}, []string{lichessExport}},
		{"url with side and ply", []string{"https://lichess.org/abcdefgh/black#12"}, []string{lichessExport}},
		{"player's url without scheme", []string{"lichess.org/abcdefghWXYZ"}, []string{lichessExport}},
		{"two games in the order given", []string{"abcdefgh", "round1.pgn#1"}, []string{lichessExport, fileExport}},
		{"source", []string{"--source", "file"}, []string{fileExport}},
		{"event", []string{"--event", "u20"}, []string{fileExport}},
		{"player", []string{"--player", "bob"}, []string{lichessExport}},
		{"all, oldest update first", []string{"--all"}, []string{lichessExport, fileExport}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runMain(t, append([]string{"export", "--config", f.config}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			got := exportedGames(t, out)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("exported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestExportAnnotatesAndWritesAFile(t *testing.T) {
	f := newStoreFixture(t)
	path := filepath.Join(t.TempDir(), "out.pgn")
	code, out, errs := runMain(t, "export", "--config", f.config, "-o", path, "lichess/abcdefgh")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{
		`[Site "https://lichess.org/abcdefgh"]`, `[White "Alice"]`, `[Result "1/2-1/2"]`,
		"4. Ng1 {2nd occurrence: plies 3, 7} {Black may claim by declaring 4...Ng8 (9.2.1)}",
		"4... Ng8 {3rd occurrence: plies 0, 4, 8; White may claim (9.2.2)}",
		"{Termination: threefold_claimed} 1/2-1/2",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("missing %q in\n%s", want, data)
		}
	}
	if got := exportedGames(t, string(data)); len(got) != 1 || got[0] != lichessExport {
		t.Errorf("read back %v", got)
	}
}

func TestExportErrors(t *testing.T) {
	f := newStoreFixture(t)
	// A second game with the id of the first, on another site, and a game
	// whose moves stop being legal.
	st, err := store.Open(context.Background(), store.Config{DataDir: f.dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []store.Game{
		{GameState: threefold.GameState{Game: threefold.GameRef{Site: "dgt", ID: "abcdefgh"}, Moves: []string{"d4"}}},
		{GameState: threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "broken"}, Event: "Broken", Moves: []string{"e4", "e5", "Ke3"}, Result: "1-0"}},
	} {
		if err := st.PutGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		stderr   string
		exported []string
	}{
		{"nothing selected", nil, exitUsage, "which games?", nil},
		{"games and filters", []string{"abcdefgh", "--all"}, exitUsage, "not both", nil},
		{"ambiguous id", []string{"abcdefgh"}, exitUsage, "names 2 games", nil},
		{"unknown game", []string{"zzzzzzzz"}, exitFailure, `no stored game "zzzzzzzz"`, nil},
		{"nothing matches", []string{"--player", "nobody"}, exitFailure, "no stored game matches", nil},
		{"bad since", []string{"--since", "soon"}, exitUsage, `--since "soon"`, nil},
		{"unplayable move", []string{"file/broken"}, exitSomeGames, `move 3 ("Ke3")`, []string{"Broken: e2e4 e7e5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runMain(t, append([]string{"export", "--config", f.config}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.stderr)
			}
			if tc.exported != nil {
				if got := exportedGames(t, out); strings.Join(got, "\n") != strings.Join(tc.exported, "\n") {
					t.Errorf("exported %v, want %v", got, tc.exported)
				}
			}
		})
	}
}

// TestExportKeepsTheTagsOfAPGNFile: a game watched in a PGN file is
// exported with its own tags, in their order (Event, Site, Date, Round,
// ratings, ...), and threefold's added after them; not with Event "file
// ...", Site "file" and today's date.
func TestExportKeepsTheTagsOfAPGNFile(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pgnPath := "../../examples/lichess-repetitions.pgn"
	if code, _, errs := runMain(t, "watch", "--once", "--config", cfg, pgnPath); code != 0 {
		t.Fatalf("watch: exit %d: %s", code, errs)
	}
	code, out, errs := runMain(t, "export", "--config", cfg, "file/"+pgnPath+"#5")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	games, err := pgn.ParseGames(out)
	if err != nil || len(games) != 1 {
		t.Fatalf("%d games, %v:\n%s", len(games), err, out)
	}
	text, err := os.ReadFile(pgnPath)
	if err != nil {
		t.Fatal(err)
	}
	originals, err := pgn.ParseGames(string(text))
	if err != nil {
		t.Fatal(err)
	}
	orig := originals[4] // zacnick - klut: game #5
	var want []pgn.Tag
	for _, tag := range orig.Tags {
		want = append(want, tag)
	}
	got := games[0].Tags
	if len(got) < len(want) {
		t.Fatalf("tags %v, want the original %v first", got, want)
	}
	for i, tag := range want {
		if got[i] != tag {
			t.Errorf("tag %d is %v, the original %v", i+1, got[i], tag)
		}
	}
	if ann, _ := games[0].Tag("Annotator"); ann != "threefold" {
		t.Errorf("Annotator %q, want threefold added", ann)
	}
	if !strings.Contains(out, "{Termination: fivefold}") {
		t.Errorf("no termination in the export:\n%s", out)
	}
}
