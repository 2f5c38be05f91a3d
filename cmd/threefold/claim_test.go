package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// TestClaimCommand: the answer, its JSON contract and the exit status
// (0 correct, 1 not, 2 bad input), from a PGN file and from moves in SAN.
func TestClaimCommand(t *testing.T) {
	shuffle := "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
	tests := []struct {
		name     string
		args     []string
		code     int
		rule     any // string or nil
		claimant string
		occ      []int
	}{
		{"third occurrence, the current position", []string{shuffle}, 0, "9.2.2", "white", []int{0, 4, 8}},
		{"second occurrence", []string{shuffle, "--ply", "4"}, 1, nil, "white", []int{0, 4}},
		{"by a declared move", []string{shuffle, "--ply", "7", "--move", "Ng8"}, 0, "9.2.1", "black", []int{0, 4, 8}},
		{"a near repetition", []string{"../../examples/same-position.pgn", "--game", "3"}, 1, nil, "white", []int{4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runMain(t, append([]string{"--config", emptyConfig(t), "claim", "--json"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s %s", code, tt.code, out, errs)
			}
			var r struct {
				Valid       bool   `json:"valid"`
				Rule        any    `json:"rule"`
				Claimant    string `json:"claimant"`
				Occurrences []int  `json:"occurrences"`
				Reason      string `json:"reason"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if r.Valid != (tt.code == 0) || r.Rule != tt.rule || r.Claimant != tt.claimant || !slices.Equal(r.Occurrences, tt.occ) || r.Reason == "" {
				t.Errorf("%s", out)
			}
		})
	}
	// The text says the same.
	code, out, _ := runMain(t, "--config", emptyConfig(t), "claim", "../../examples/same-position.pgn", "--game", "3")
	if code != 1 || !strings.Contains(out, "White claims a draw at ply 4 (after 2...Nb8): the claim is not correct.") ||
		!strings.Contains(out, "the rook left h1 at ply 1 (1.Rh2)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestClaimBadInput(t *testing.T) {
	pgnFile := "../../examples/same-position.pgn"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no source", nil, "give one SOURCE"},
		{"ply beyond the game", []string{pgnFile, "--ply", "9"}, "the game has 6 plies"},
		{"an illegal declared move", []string{pgnFile, "--ply", "0", "--move", "Nf6"}, "--move Nf6 at ply 0"},
		{"an unreadable declared move", []string{pgnFile, "--move", "Zz9"}, "--move Zz9"},
		{"no such game", []string{pgnFile, "--game", "9"}, "no game 9 (it has 5)"},
		{"a record that stops, no --ply", []string{"1. e4 e5 2. Ke3"}, "give --ply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runMain(t, append([]string{"--config", emptyConfig(t), "claim"}, tt.args...)...)
			if code != exitUsage || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, exitUsage, tt.want)
			}
		})
	}
}

// TestClaimLichessGame: a claim in a Lichess game, as far as it has been
// played.
func TestClaimLichessGame(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	fake.SetExport("abcdefgh", "{}", "[Event \"x\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n")
	file, _ := botConfigFile(t, fake, "", "")
	code, out, errs := runMain(t, "--config", file, "claim", fake.URL+"/abcdefgh")
	if code != 0 || !strings.Contains(out, "White claims a draw at ply 8 (after 4...Ng8): the claim is correct (FIDE 9.2.2).") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestClaimREADME: the README's examples of claim are the program's
// output, word for word.
func TestClaimREADME(t *testing.T) {
	for _, ex := range readmeExamples(t, "claim") {
		_, out, errs := runMain(t, append([]string{"--config", emptyConfig(t)}, ex.args...)...)
		if out != ex.output {
			t.Errorf("README.md:%d: threefold %s\nwrites:\n%s\nstderr: %s\nthe README says:\n%s", ex.line, strings.Join(ex.args, " "), out, errs, ex.output)
		}
	}
}
