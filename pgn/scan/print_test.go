package scan

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// failingWriter refuses every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("stdout closed") }

// TestPrint: the reports on stdout, the totals on stderr, whether a game
// failed, and a write error as such.
func TestPrint(t *testing.T) {
	games := "\n" + shuffle + "*\n\n1. e4 e5 *\n\n1. e4 Ke7 Kxe7 *\n"
	for _, tc := range []struct {
		name      string
		json, all bool
		lines     int // on stdout
	}{
		{name: "text, games with something to report", lines: 2},
		{name: "text, every game", all: true, lines: 3},
		{name: "JSON lines", json: true, lines: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			failed, err := Print(context.Background(), Options{Files: []string{"-"}, Stdin: strings.NewReader(games), Workers: 2},
				Output{Stdout: &stdout, Stderr: &stderr, JSON: tc.json, All: tc.all})
			if err != nil || !failed { // the third game has an illegal move
				t.Fatalf("failed %v, err %v; want a failed game", failed, err)
			}
			if n := strings.Count(stdout.String(), "\n"); n != tc.lines {
				t.Errorf("%d lines on stdout, want %d:\n%s", n, tc.lines, stdout.String())
			}
			if !strings.HasPrefix(stderr.String(), "3 games, 11 plies in ") || !strings.HasSuffix(stderr.String(), ": 1 with a threefold, 0 more with a claim by declared move only, 0 fivefold, 0 past the 75-move rule, 1 with errors\n") {
				t.Errorf("totals %q", stderr.String())
			}
		})
	}
	t.Run("stdout closed", func(t *testing.T) {
		var stderr bytes.Buffer
		failed, err := Print(context.Background(), Options{Files: []string{"-"}, Stdin: strings.NewReader(games), Workers: 1},
			Output{Stdout: failingWriter{}, Stderr: &stderr, JSON: true})
		if !failed || err == nil || !strings.HasPrefix(err.Error(), "scan: write: ") || !strings.Contains(err.Error(), "stdout closed") {
			t.Errorf("failed %v, err %v", failed, err)
		}
	})
}
