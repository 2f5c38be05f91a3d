package scan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
)

// encodingJSON is what scan --json wrote before appendJSON: encoding/json
// with HTML escaping off, without the newline.
func encodingJSON(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// awkward are strings encoding/json escapes in every way it has.
var awkward = []string{
	"", "plain", `quote " and backslash \`, "tab\tnew line\ncarriage\rback\bfeed\f", "\x00\x01\x1f\x7f",
	"<html> & 'x'", "Ñandú 中文 😀 e\u0301", "line sep \u2028 para sep \u2029", "bad \xff\xfe utf8 \xc3", "\xe2\x80",
}

// TestAppendJSONMatchesEncodingJSON: appendJSON writes the bytes
// encoding/json writes, for reports with every field set or unset, nil or
// empty, and for every report of the reference games.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	one, seven := 1, 7
	fen := "8/8/8/8/8/8/8/K6k w - - 0 1"
	full := Report{
		File: "a.pgn", ID: 3, Plies: 12, MaxOccurrences: 5, ThreefoldPlies: []int{8, 9}, FivefoldPly: &seven,
		ClaimablePlies: []int{7, 8, 9}, FinalFEN: fen, StartFEN: &fen, Error: "line 3: bad", Variant: "chess960",
		Line: 40, White: "W", Black: "B", Event: "E", Date: "2024.01.01", Result: "1/2-1/2",
		FirstThreefold:      &Repetition{Ply: 8, Claimant: "white", Rule: "9.2.2", Occurrences: []int{0, 4, 8}},
		FirstClaim:          &Repetition{Ply: 7, Claimant: "black", Rule: "9.2.1", Moves: []string{"Ng8", "Nh6"}},
		FiftyMovesPly:       &one,
		SeventyFiveMovesPly: &seven,
		PliesAfterFivefold:  2,
		FinalStatus:         "checkmate",
		Notes:               []string{"a note", "another"},
		NearRepetitions: []NearRepetition{
			{Ply: 5, SamePlacementAs: []int{1, 3}, Differences: []string{"castling"}},
			{Ply: 6},
		},
	}
	rows := []struct {
		name   string
		report Report
	}{
		{"zero", Report{}},
		{"every field", full},
		{"empty slices", Report{ThreefoldPlies: []int{}, ClaimablePlies: []int{}, Notes: []string{}, NearRepetitions: []NearRepetition{}}},
		{"repetitions without occurrences or moves", Report{
			FirstThreefold: &Repetition{Occurrences: []int{}}, FirstClaim: &Repetition{Moves: []string{}}}},
		{"negative numbers", Report{ID: -1, Plies: -2, PliesAfterFivefold: -3, FivefoldPly: new(int)}},
	}
	for _, s := range awkward {
		rows = append(rows, struct {
			name   string
			report Report
		}{"string " + s, Report{File: s, FinalFEN: s, StartFEN: &s, White: s, Event: s, Notes: []string{s},
			FirstClaim: &Repetition{Claimant: s, Moves: []string{s}}, NearRepetitions: []NearRepetition{{Differences: []string{s}}}}})
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			if got, want := string(row.report.appendJSON(nil)), encodingJSON(t, &row.report); got != want {
				t.Errorf("appendJSON:\n%s\nencoding/json:\n%s", got, want)
			}
		})
	}
	t.Run("reference games", func(t *testing.T) {
		games, err := pgn.ParseGames(refgames.Reference(t).Text(t))
		if err != nil {
			t.Fatal(err)
		}
		var a Analyser
		for _, g := range games {
			r := a.Analyse(g, "")
			if got, want := string(r.appendJSON(nil)), encodingJSON(t, r); got != want {
				t.Fatalf("game %d: appendJSON:\n%s\nencoding/json:\n%s", g.Index, got, want)
			}
		}
	})
}

// FuzzAppendJSONString: any string is written as encoding/json writes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString(nil, s)), encodingJSON(t, s); got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

// TestPlainWords: a run of 8 bytes is skipped exactly when each of its
// bytes is plain, for every byte value at every place among plain ones.
func TestPlainWords(t *testing.T) {
	for pos := range 8 {
		for c := range 256 {
			w := []byte("abcdefgh" + "ijklmnop" + "qrs")
			w[8+pos] = byte(c)
			want := 16
			if c >= 0x80 || !jsonPlain[c] {
				want = 8
			}
			if got := plainWords(string(w), 0); got != want {
				t.Errorf("%q: plainWords %d, want %d", w, got, want)
			}
		}
	}
}

// BenchmarkAppendJSON writes the JSON lines of the reference games.
func BenchmarkAppendJSON(b *testing.B) {
	games, err := pgn.ParseGames(refgames.Reference(b).Text(b))
	if err != nil {
		b.Fatal(err)
	}
	var a Analyser
	reports := make([]*Report, len(games))
	for i, g := range games {
		reports[i] = a.Analyse(g, "")
	}
	var line []byte
	for b.Loop() {
		for _, r := range reports {
			line = r.appendJSON(line[:0])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reports)), "ns/report")
}
