// Package refgames gives the tests of this module real games with their
// reference repetition annotations: the small set that travels with the
// repository (testdata/games.pgn, 310 games chosen to cover every trap of the
// rule), and, when $THREEFOLD_CORPUS points at the shared data, the whole
// files of games that repeat and of the corpus. The annotation format is the
// one of the shared data's pgn/README.md; ids are 0-based indexes into the
// set's PGN file. It is for tests only; nothing in a program imports it.
package refgames

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/testenv"
)

var (
	//go:embed testdata/games.pgn
	referencePGN []byte
	//go:embed testdata/games.annotations.jsonl
	referenceAnnotations []byte
)

// Set is one PGN file of real games and its annotation file (JSON lines, one
// per game, same order). Either may be gzip-compressed (a .gz suffix).
type Set struct {
	Name            string
	PGNPath         string
	AnnotationsPath string
}

// Annotation is the reference for one game: the fields of the contract that
// `threefold scan --json` reproduces, and the informative ones tests use.
type Annotation struct {
	ID             int     `json:"id"`
	Plies          int     `json:"plies"`
	MaxOccurrences int     `json:"max_occurrences"`
	ThreefoldPlies []int   `json:"threefold_plies"`
	FivefoldPly    *int    `json:"fivefold_ply"`
	ClaimablePlies []int   `json:"claimable_plies"`
	FinalFEN       string  `json:"final_fen"`
	StartFEN       *string `json:"start_fen"`
	Error          *string `json:"error"`
	Skipped        any     `json:"skipped"`
	NaiveDiverges  bool    `json:"naive_diverges"`
	// From names the shared file and index the game was copied from (the
	// repository's set only).
	From string `json:"from"`
}

// Reference is the set in the repository, written to a temporary folder so
// that it has paths like the others.
func Reference(t testing.TB) Set {
	t.Helper()
	dir := t.TempDir()
	s := Set{Name: "reference", PGNPath: filepath.Join(dir, "games.pgn"),
		AnnotationsPath: filepath.Join(dir, "games.annotations.jsonl")}
	if err := os.WriteFile(s.PGNPath, referencePGN, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.AnnotationsPath, referenceAnnotations, 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// ReferencePGN is the text of the repository's set.
func ReferencePGN() string { return string(referencePGN) }

// Repetitions is every game of the shared data with a third occurrence
// (3,244 games); it skips or fails as testenv.Corpus does.
func Repetitions(t testing.TB) Set {
	t.Helper()
	return Set{Name: "repetitions", PGNPath: testenv.Corpus(t, "pgn/repetitions.pgn"),
		AnnotationsPath: testenv.Corpus(t, "pgn/repetitions.oracle.jsonl")}
}

// Corpus is the whole shared corpus (59,915 games, gzip); it skips or fails
// as testenv.Corpus does.
func Corpus(t testing.TB) Set {
	t.Helper()
	return Set{Name: "corpus", PGNPath: testenv.Corpus(t, "pgn/corpus.pgn.gz"),
		AnnotationsPath: testenv.Corpus(t, "pgn/corpus.oracle.jsonl.gz")}
}

// Source makes a set by name: Reference, Repetitions or Corpus.
type Source struct {
	Name string
	Set  func(testing.TB) Set
}

// All are the three sets, smallest first; All[:2] leaves the corpus out.
var All = []Source{{"reference", Reference}, {"repetitions", Repetitions}, {"corpus", Corpus}}

// Run runs f as a subtest on each set of sources, named after it.
func Run(t *testing.T, sources []Source, f func(t *testing.T, set Set)) {
	t.Helper()
	for _, src := range sources {
		t.Run(src.Name, func(t *testing.T) { f(t, src.Set(t)) })
	}
}

// Text is the set's PGN, decompressed.
func (s Set) Text(t testing.TB) string {
	t.Helper()
	return string(readFile(t, s.PGNPath))
}

// AnnotationLines are the set's annotation lines, as written.
func (s Set) AnnotationLines(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, s.AnnotationsPath)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		out = append(out, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", s.AnnotationsPath, err)
	}
	return out
}

// Annotations are the set's annotations, decoded.
func (s Set) Annotations(t testing.TB) []Annotation {
	t.Helper()
	lines := s.AnnotationLines(t)
	out := make([]Annotation, len(lines))
	for i, line := range lines {
		if err := json.Unmarshal(line, &out[i]); err != nil {
			t.Fatalf("%s line %d: %v", s.AnnotationsPath, i+1, err)
		}
	}
	return out
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if data, err = io.ReadAll(zr); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data
}
