package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// readmeExample is one console block of the README: a threefold command
// and its output.
type readmeExample struct {
	line   int
	args   []string
	output string
}

// readmeExamples returns the console blocks of README.md whose command is
// threefold SUBCOMMAND, with the paths of examples/ made relative to this
// package.
func readmeExamples(t *testing.T, subcommand string) []readmeExample {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []readmeExample
	var cur *readmeExample
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "$ threefold "+subcommand+" "):
			cur = &readmeExample{line: n, args: splitArgs(strings.TrimPrefix(line, "$ threefold "))}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.output += line + "\n"
		}
	}
	if len(out) == 0 {
		t.Fatalf("no example of threefold %s in README.md", subcommand)
	}
	return out
}

// splitArgs splits a command line at spaces, keeping "quoted text" whole,
// and points examples/ at the repository's.
func splitArgs(s string) []string {
	var args []string
	for s != "" {
		s = strings.TrimLeft(s, " ")
		var a string
		if strings.HasPrefix(s, `"`) {
			end := strings.Index(s[1:], `"`) + 1
			a, s = s[1:end], s[end+1:]
		} else {
			a, s, _ = strings.Cut(s, " ")
		}
		if strings.HasPrefix(a, "examples/") {
			a = "../../" + a
		}
		args = append(args, a)
	}
	return args
}

// TestExplainREADME: the README's examples of explain are the program's
// output, word for word.
func TestExplainREADME(t *testing.T) {
	for _, ex := range readmeExamples(t, "explain") {
		_, out, errs := runMain(t, append([]string{"--config", emptyConfig(t)}, ex.args...)...)
		if out != ex.output {
			t.Errorf("README.md:%d: threefold %s\nwrites:\n%s\nstderr: %s\nthe README says:\n%s", ex.line, strings.Join(ex.args, " "), out, errs, ex.output)
		}
	}
}

func TestExplainFENsAndSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "diff.svg")
	code, out, errs := runMain(t, "--config", emptyConfig(t), "explain", "--json", "--svg", svg,
		"--fen", "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1", "--fen", "4k3/8/8/3pP3/8/8/8/4K2R b - - 0 1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Same        bool  `json:"same"`
		Plies       []int `json:"plies"`
		Differences []struct {
			Kind string `json:"kind"`
		} `json:"differences"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var kinds []string
	for _, d := range r.Differences {
		kinds = append(kinds, d.Kind)
	}
	if r.Same || r.Plies != nil || strings.Join(kinds, ",") != "side_to_move,castling,en_passant" {
		t.Errorf("%s", out)
	}
	b, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(b), "<svg") || !strings.Contains(string(b), "marker-end") {
		t.Errorf("the SVG drawing: %v %.100s", err, b)
	}
}

func TestExplainBadInput(t *testing.T) {
	pgnFile := "../../examples/same-position.pgn"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no plies", []string{pgnFile}, "--plies"},
		{"one ply", []string{pgnFile, "--plies", "3"}, "want two plies"},
		{"ply beyond the game", []string{pgnFile, "--plies", "0,9"}, "the game has 6 plies"},
		{"game 0", []string{pgnFile, "--game", "0", "--plies", "0,1"}, "numbered from 1"},
		{"no such game", []string{pgnFile, "--game", "9", "--plies", "0,1"}, "no game 9 (it has 5)"},
		{"one FEN", []string{"--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, "two --fen"},
		{"bad FEN", []string{"--fen", "4k3/8/8 w", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, "bad FEN"},
		{"not a source", []string{"nowhere.pgn", "--plies", "0,1"}, "nowhere.pgn"},
		{"many games", []string{"https://lichess.org/@/someone", "--plies", "0,1"}, "give one game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runMain(t, append([]string{"--config", emptyConfig(t), "explain"}, tt.args...)...)
			if code != exitUsage || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, exitUsage, tt.want)
			}
		})
	}
}

// TestExplainLichessGame: a Lichess game URL is read through the export.
func TestExplainLichessGame(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	fake.SetExport("abcdefgh", "{}", "[Event \"x\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 *\n")
	file, _ := botConfigFile(t, fake, "", "")
	code, out, errs := runMain(t, "--config", file, "explain", fake.URL+"/abcdefgh", "--plies", "0,4")
	if code != 0 || !strings.Contains(out, "Same position: ply 0 (the start position) and ply 4 (after 2...Ng8)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
