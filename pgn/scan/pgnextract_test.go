package scan

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/internal/testenv"
)

// TestPgnExtractMisses measures what the best-known archive tool misses:
// pgn-extract --repetition, on the corpus, against the reference
// annotations (which scan --json reproduces on every game: the corpus rows
// of cmd/threefold's scan tests). pgn-extract finds
// no repetition scan does not, and every threefold it misses is a game
// where it counts an en passant square after a double push although no
// pawn could take: the reference annotations mark each as naive_diverges.
func TestPgnExtractMisses(t *testing.T) {
	if raceEnabled {
		t.Skip("scans the whole corpus: .ci/run runs it without -race")
	}
	tool := testenv.PgnExtract(t)
	set := refgames.Corpus(t)
	text := set.Text(t)
	notes := set.Annotations(t)

	// Number the games in a tag pgn-extract keeps: every game of the
	// corpus begins with its [Event] tag.
	var tagged strings.Builder
	n := 0
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "[Event ") {
			tagged.WriteString("[GameId \"" + strconv.Itoa(n) + "\"]\n")
			n++
		}
		tagged.WriteString(line)
	}
	if n != len(notes) {
		t.Fatalf("%d games begin with [Event], %d annotations", n, len(notes))
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "corpus.pgn"), filepath.Join(dir, "repetitions.pgn")
	if err := os.WriteFile(in, []byte(tagged.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(context.Background(), tool, "--repetition", "-s", "-o", out, in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v: %s", tool, err, stderr.String())
	}
	found, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	theirs := map[int]bool{}
	for _, m := range regexp.MustCompile(`\[GameId "(\d+)"\]`).FindAllSubmatch(found, -1) {
		id, _ := strconv.Atoi(string(m[1]))
		theirs[id] = true
	}

	var ours, missed []int
	for id := range notes {
		if notes[id].Skipped != nil {
			continue
		}
		if notes[id].MaxOccurrences >= 3 {
			ours = append(ours, id)
			if !theirs[id] {
				missed = append(missed, id)
			}
		}
	}
	for id := range theirs {
		if !slices.Contains(ours, id) {
			t.Errorf("game %d: pgn-extract finds a threefold the reference annotations do not", id)
		}
	}
	for _, id := range missed {
		if !notes[id].NaiveDiverges {
			t.Errorf("game %d: pgn-extract misses its threefold, but not for an en passant square", id)
		}
	}
	t.Logf("pgn-extract --repetition: %d of the corpus's %d threefold games found, %d missed (games %v), every one for an en passant square no pawn could use",
		len(ours)-len(missed), len(ours), len(missed), missed)
	if len(missed) == 0 {
		t.Error("pgn-extract misses nothing: the measure measures nothing")
	}
}
