// Package testenv decides, for the tests of this module, whether a test that
// needs something from outside the repository runs: Stockfish, a PostgreSQL
// server, Chromium, pgn-extract, or the big reference corpus. When the thing is there the
// test gets its path or address. When it is not, the test is skipped with a
// reason that says how to provide it — unless CI is set (as CI services and
// .ci/run set it), where everything must be present and a missing one fails
// the test. It is for tests only; nothing in a program imports it.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Environment variables the tests read.
const (
	// CIVar, when set to anything, makes every requirement mandatory.
	CIVar = "CI"
	// PostgresVar is the DSN of a PostgreSQL server the tests may create
	// schemas in; store/testdata/start-postgres.sh starts one and prints it.
	PostgresVar = "THREEFOLD_TEST_POSTGRES_DSN"
	// StockfishVar is the path of a Stockfish binary, when it is not at a
	// usual place.
	StockfishVar = "THREEFOLD_TEST_STOCKFISH"
	// CorpusVar is the folder of the big reference data: pgn/ (the corpus
	// of real games and its reference annotations), cases/, lichess-api/.
	// It is not part of the repository; .ci/run sets it to ../shared/data
	// when that folder exists.
	CorpusVar = "THREEFOLD_CORPUS"
)

// InCI reports whether the tests run in CI, where nothing may be skipped
// for want of a program, a server or data.
func InCI() bool { return os.Getenv(CIVar) != "" }

// Unavailable ends the test because what it needs is missing: a skip that
// says what and how to provide it, or, in CI, a failure.
func Unavailable(t testing.TB, what, how string) {
	t.Helper()
	if InCI() {
		t.Fatalf("needs %s, and CI is set: it must run in CI (%s)", what, how)
	}
	t.Skipf("skipped, needs %s (%s); with CI set it fails instead", what, how)
}

// Stockfish returns the path of a Stockfish binary: $THREEFOLD_TEST_STOCKFISH,
// /usr/games/stockfish, /usr/bin/stockfish or stockfish on $PATH.
func Stockfish(t testing.TB) string {
	t.Helper()
	for _, p := range []string{os.Getenv(StockfishVar), "/usr/games/stockfish", "/usr/bin/stockfish"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	Unavailable(t, "Stockfish", "apt-get install stockfish, or set "+StockfishVar+" to its path")
	return ""
}

// Chromium returns the path of a Chromium (or Chrome) binary on $PATH.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Unavailable(t, "Chromium", "apt-get install chromium")
	return ""
}

// PgnExtract returns the path of pgn-extract (Debian's package puts it in
// /usr/games), the archive tool whose repetition search a test measures.
func PgnExtract(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/games/pgn-extract", "/usr/bin/pgn-extract"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("pgn-extract"); err == nil {
		return p
	}
	Unavailable(t, "pgn-extract", "apt-get install pgn-extract")
	return ""
}

// PostgresDSN returns the DSN of the test PostgreSQL server.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(PostgresVar)
	if dsn == "" {
		Unavailable(t, "PostgreSQL", PostgresVar+` is not set: export `+PostgresVar+`="$(sh store/testdata/start-postgres.sh)"`)
	}
	return dsn
}

// Corpus returns the path of name (slash-separated, such as
// "pgn/corpus.pgn.gz") inside the big reference data folder named by
// $THREEFOLD_CORPUS. A name missing from a folder that is set fails the
// test everywhere: the variable points at the wrong place.
func Corpus(t testing.TB, name string) string {
	t.Helper()
	dir := os.Getenv(CorpusVar)
	if dir == "" {
		Unavailable(t, name+" of the shared reference data", CorpusVar+" is not set: set it to the shared data folder, the one with pgn/ and lichess-api/")
	}
	path := filepath.Join(dir, filepath.FromSlash(name))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s=%s: %v", CorpusVar, dir, err)
	}
	return path
}
