package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
)

// oracleFields are the fields of the reference annotations that scan
// --json must reproduce exactly.
var oracleFields = []string{"id", "plies", "max_occurrences", "threefold_plies", "fivefold_ply", "claimable_plies", "final_fen", "start_fen"}

// TestScanMatchesReferenceAnnotations runs `threefold scan --json` on the
// repository's reference games and, with $THREEFOLD_CORPUS, on the shared
// data (every game that repeats; the whole corpus, gzip), and compares every
// game, field by field, with the reference annotations: zero differences
// allowed.
func TestScanMatchesReferenceAnnotations(t *testing.T) {
	refgames.Run(t, refgames.All, func(t *testing.T, set refgames.Set) {
		pgnPath := set.PGNPath
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), []string{"scan", "--json", pgnPath}, nil, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var want []map[string]any
		for _, line := range set.AnnotationLines(t) {
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatal(err)
			}
			want = append(want, m)
		}
		got := readJSONLinesFrom(t, &stdout)
		if len(got) != len(want) {
			t.Fatalf("%d games scanned, the reference has %d", len(got), len(want))
		}
		diffs := 0
		for i := range want {
			if skipped, _ := want[i]["skipped"].(bool); skipped {
				continue
			}
			for _, f := range oracleFields {
				if !reflect.DeepEqual(got[i][f], want[i][f]) {
					diffs++
					if diffs <= 10 {
						t.Errorf("game %d: %s = %v, reference %v", i, f, got[i][f], want[i][f])
					}
				}
			}
			if _, hasErr := got[i]["error"]; hasErr != (want[i]["error"] != nil) {
				diffs++
				t.Errorf("game %d: error = %v, reference %v", i, got[i]["error"], want[i]["error"])
			}
		}
		if diffs > 0 {
			t.Fatalf("%d differences in %d games", diffs, len(want))
		}
		t.Logf("%d games, zero differences; %s", len(want), strings.TrimSpace(stderr.String()))
	})
}

func readJSONLinesFrom(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScanBadInput: a file with a truncated game, binary garbage, a FEN
// with impossible castling rights, an ambiguous and an illegal SAN move:
// each bad game gets a clear error naming the ply and the move, the good
// games around them are still reported, and the exit code says some games
// failed.
func TestScanBadInput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"scan", "--json", "testdata/bad.pgn"}, nil, &stdout, &stderr)
	if code != exitSomeGames {
		t.Fatalf("exit %d, want %d; stderr: %s", code, exitSomeGames, stderr.String())
	}
	games := readJSONLinesFrom(t, &stdout)
	byWhite := map[string]map[string]any{}
	for _, g := range games {
		w, _ := g["white"].(string)
		byWhite[w] = g
	}
	for _, tc := range []struct {
		name, white, errPart string
		plies                float64
	}{
		{"good game before the bad ones", "Good1", "", 8},
		{"illegal move", "Illegal", "ply 5 (3. Ke4)", 4},
		{"ambiguous move", "Ambiguous", "ambiguous", 4},
		{"unreadable move", "Unreadable", "Qxyz", 2},
		{"void castling rights are a note, not an error", "VoidCastling", "", 4},
		{"good game after the bad ones", "Good2", "", 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := byWhite[tc.white]
			if !ok {
				t.Fatalf("game %s not reported; got %v", tc.white, games)
			}
			errText, _ := g["error"].(string)
			if tc.errPart == "" && errText != "" {
				t.Fatalf("unexpected error %q", errText)
			}
			if !strings.Contains(errText, tc.errPart) {
				t.Fatalf("error %q does not contain %q", errText, tc.errPart)
			}
			if g["plies"].(float64) != tc.plies {
				t.Fatalf("plies = %v, want %v", g["plies"], tc.plies)
			}
		})
	}
	if g := byWhite["VoidCastling"]; g != nil && g["notes"] == nil {
		t.Errorf("void castling right not noted: %v", g)
	}
	// Binary garbage and a truncated game at the end: reported, no panic.
	if !strings.Contains(stderr.String(), "with errors") {
		t.Errorf("totals missing: %s", stderr.String())
	}
}

// TestScanTextOutput: the readable form names the ply, the occurrences and
// who may claim.
func TestScanTextOutput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"scan", "testdata/knights.pgn"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"#1 Knight - Dancer",
		"threefold at ply 8 after 4...Ng8 (plies 0, 4, 8), White may claim",
		"claim by declared move from ply 7: Black may declare 4...Ng8",
		"FIFTH occurrence at ply 16 after 8...Ng8",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "1 game, 16 plies") { // plural forms per language: "1 game"
		t.Errorf("totals: %s", stderr.String())
	}
}

// TestScanStdinAndCompression: "-" reads stdin; gzip is detected from the
// content.
func TestScanStdinAndCompression(t *testing.T) {
	data, err := os.ReadFile("testdata/knights.pgn")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(data)
	w.Close()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"scan", "--json", "-"}, &gz, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	g := readJSONLinesFrom(t, &stdout)
	if len(g) != 1 || g[0]["fivefold_ply"].(float64) != 16 {
		t.Fatalf("got %v", g)
	}
}

// TestScanInterrupted: a scan stopped by a signal (its context ends) did
// not read every game, so it does not exit 0, which says it did; it says
// why, and the totals of what it read are still written.
func TestScanInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := Main(ctx, []string{"scan", "testdata/knights.pgn"}, nil, &stdout, &stderr)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d; stderr: %s", code, exitFailure, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped before the end of the input") || !strings.Contains(stderr.String(), "0 games") {
		t.Errorf("stderr %q: want the reason and the totals", stderr.String())
	}
}

// TestScanWorkersBounds: --workers below 1 or above maxScanWorkers is bad
// usage, said before anything is read or set aside (10,000,000 took 12 GB).
func TestScanWorkersBounds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		workers string
		code    int
	}{
		{name: "none", workers: "0", code: exitUsage},
		{name: "negative", workers: "-3", code: exitUsage},
		{name: "one", workers: "1", code: 0},
		{name: "the most", workers: strconv.Itoa(maxScanWorkers), code: 0},
		{name: "one too many", workers: strconv.Itoa(maxScanWorkers + 1), code: exitUsage},
		{name: "a typo's ten million", workers: "10000000", code: exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), []string{"scan", "--workers", tc.workers, "testdata/knights.pgn"}, nil, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if tc.code == exitUsage && !strings.Contains(stderr.String(), "--workers") {
				t.Errorf("stderr %q: want it to name --workers", stderr.String())
			}
		})
	}
}
