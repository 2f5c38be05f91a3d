package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a requirement ended the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls f with a recorder in a goroutine of its own (Skipf and Fatalf
// end it as they end a test) and returns the recorder and f's result.
func run(t *testing.T, f func(testing.TB) string) (*recorder, string) {
	r := &recorder{TB: t}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = f(r)
	}()
	<-done
	return r, got
}

func TestRequirements(t *testing.T) {
	corpus := t.TempDir()
	if err := os.MkdirAll(filepath.Join(corpus, "pgn"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "pgn", "corpus.pgn.gz"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir() // a $PATH without any program
	for _, tc := range []struct {
		name    string
		env     map[string]string
		need    func(testing.TB) string
		want    string // the value returned, when the test goes on
		skipped string // a substring of the skip reason
		failed  string // a substring of the failure
	}{
		{name: "postgres set", env: map[string]string{PostgresVar: "postgres://x/y"}, need: PostgresDSN, want: "postgres://x/y"},
		{name: "postgres missing locally", env: map[string]string{PostgresVar: ""}, need: PostgresDSN,
			skipped: "needs PostgreSQL (THREEFOLD_TEST_POSTGRES_DSN is not set: export THREEFOLD_TEST_POSTGRES_DSN="},
		{name: "postgres missing in CI", env: map[string]string{PostgresVar: "", CIVar: "true"}, need: PostgresDSN,
			failed: "needs PostgreSQL, and CI is set"},
		{name: "stockfish by variable", env: map[string]string{StockfishVar: os.Args[0]}, need: Stockfish, want: os.Args[0]},
		{name: "chromium missing locally", env: map[string]string{"PATH": empty}, need: Chromium,
			skipped: "needs Chromium (apt-get install chromium)"},
		{name: "chromium missing in CI", env: map[string]string{"PATH": empty, CIVar: "1"}, need: Chromium,
			failed: "needs Chromium, and CI is set"},
		{name: "corpus file", env: map[string]string{CorpusVar: corpus},
			need: func(t testing.TB) string { return Corpus(t, "pgn/corpus.pgn.gz") },
			want: filepath.Join(corpus, "pgn", "corpus.pgn.gz")},
		{name: "corpus missing locally", env: map[string]string{CorpusVar: ""},
			need:    func(t testing.TB) string { return Corpus(t, "pgn/corpus.pgn.gz") },
			skipped: "needs pgn/corpus.pgn.gz of the shared reference data (THREEFOLD_CORPUS is not set"},
		{name: "corpus missing in CI", env: map[string]string{CorpusVar: "", CIVar: "true"},
			need:   func(t testing.TB) string { return Corpus(t, "pgn/corpus.pgn.gz") },
			failed: "needs pgn/corpus.pgn.gz of the shared reference data, and CI is set"},
		{name: "corpus pointing at the wrong folder", env: map[string]string{CorpusVar: empty},
			need:   func(t testing.TB) string { return Corpus(t, "pgn/corpus.pgn.gz") },
			failed: "THREEFOLD_CORPUS=" + empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(CIVar, "")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			r, got := run(t, tc.need)
			switch {
			case tc.skipped != "":
				if !strings.Contains(r.skipped, tc.skipped) || r.failed != "" {
					t.Errorf("skipped %q, failed %q; want a skip saying %q", r.skipped, r.failed, tc.skipped)
				}
			case tc.failed != "":
				if !strings.Contains(r.failed, tc.failed) || r.skipped != "" {
					t.Errorf("skipped %q, failed %q; want a failure saying %q", r.skipped, r.failed, tc.failed)
				}
			default:
				if got != tc.want || r.skipped != "" || r.failed != "" {
					t.Errorf("got %q (skipped %q, failed %q), want %q", got, r.skipped, r.failed, tc.want)
				}
			}
		})
	}
}
