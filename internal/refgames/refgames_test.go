package refgames

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReferenceCoversTheTraps: the repository's set holds enough games of
// each kind the rule gets wrong elsewhere, one annotation per game, ids
// 0..n-1.
func TestReferenceCoversTheTraps(t *testing.T) {
	set := Reference(t)
	ann := set.Annotations(t)
	games := strings.Count("\n"+set.Text(t), "\n[Event ")
	if games != len(ann) {
		t.Fatalf("%d games, %d annotations", games, len(ann))
	}
	count := map[string]int{}
	for i, a := range ann {
		if a.ID != i {
			t.Fatalf("annotation %d has id %d", i, a.ID)
		}
		threefold := len(a.ThreefoldPlies) > 0
		byMoveOnly := false
		for _, p := range a.ClaimablePlies {
			byMoveOnly = byMoveOnly || !slices.Contains(a.ThreefoldPlies, p)
		}
		for kind, is := range map[string]bool{
			"threefold":                  threefold,
			"fivefold":                   a.FivefoldPly != nil,
			"claim by move":              byMoveOnly,
			"claim by move, no 3rd":      !threefold && len(a.ClaimablePlies) > 0,
			"no claim at all":            len(a.ClaimablePlies) == 0,
			"FEN start":                  a.StartFEN != nil,
			"FEN start with a threefold": a.StartFEN != nil && threefold,
			"e.p. square changes answer": a.NaiveDiverges,
		} {
			if is {
				count[kind]++
			}
		}
	}
	for kind, least := range map[string]int{
		"threefold": 150, "fivefold": 15, "claim by move": 150, "claim by move, no 3rd": 10, "no claim at all": 10,
		"FEN start": 20, "FEN start with a threefold": 10, "e.p. square changes answer": 90,
	} {
		if count[kind] < least {
			t.Errorf("%d games with %s, want at least %d", count[kind], kind, least)
		}
	}
	t.Logf("%d games: %v", len(ann), count)
}

// TestReferenceCopiesTheSharedData: with $THREEFOLD_CORPUS, every game of
// the repository's set is byte for byte the game it names in "from", and its
// annotation is that game's reference line with only "id" renumbered.
func TestReferenceCopiesTheSharedData(t *testing.T) {
	sources := map[string]Set{"repetitions.pgn": Repetitions(t), "corpus.pgn.gz": Corpus(t)}
	texts := map[string][]string{}
	lines := map[string][][]byte{}
	for name, s := range sources {
		texts[name] = splitGames(s.Text(t))
		lines[name] = s.AnnotationLines(t)
	}
	ref := Reference(t)
	refTexts := splitGames(ref.Text(t))
	for i, line := range ref.AnnotationLines(t) {
		var head struct {
			From string `json:"from"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			t.Fatal(err)
		}
		file, idx, _ := strings.Cut(head.From, "#")
		n, err := strconv.Atoi(idx)
		if err != nil || n >= len(texts[file]) {
			t.Fatalf("game %d: from %q", i, head.From)
		}
		if refTexts[i] != texts[file][n] {
			t.Errorf("game %d: text differs from %s", i, head.From)
		}
		if want := renumbered(lines[file][n], n, i, line); !bytes.Equal(line, want) {
			t.Errorf("game %d: annotation\n%s\nwant\n%s", i, line, want)
		}
	}
}

// splitGames cuts a file of the shared data into game texts, as
// gen_testdata.go does.
func splitGames(text string) []string {
	games := strings.Split(strings.TrimRight(text, "\n"), "\n\n[Event ")
	for i := 1; i < len(games); i++ {
		games[i] = "[Event " + games[i]
	}
	return games
}

// renumbered is the source line as gen_testdata.go writes it for game i:
// the id, then the from and selected fields copied from got.
func renumbered(src []byte, n, i int, got []byte) []byte {
	rest, _ := bytes.CutPrefix(src, fmt.Appendf(nil, `{"id":%d,`, n))
	var extra struct {
		From     string `json:"from"`
		Selected string `json:"selected"`
	}
	json.Unmarshal(got, &extra)
	return fmt.Appendf(nil, `{"id":%d,"from":%q,"selected":%q,%s`, i, extra.From, extra.Selected, rest)
}
