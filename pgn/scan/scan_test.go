package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/pgn"
)

const shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 "

func TestAnalyse(t *testing.T) {
	tests := []struct {
		name                     string
		pgn                      string
		plies, max               int
		threefold, claimable     []int
		fivefold, firstClaimPly  int // -1: none
		firstClaimRule, errorSub string
	}{
		{name: "third occurrence", pgn: "[White \"A\"]\n[Black \"B\"]\n\n" + shuffle + "*\n",
			plies: 8, max: 3, threefold: []int{8}, claimable: []int{7, 8}, fivefold: -1, firstClaimPly: 7, firstClaimRule: "9.2.1"},
		{name: "fifth occurrence", pgn: "\n" + shuffle + "5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 *\n",
			plies: 16, max: 5, threefold: []int{8, 9, 10, 11, 12, 13, 14, 15, 16}, claimable: []int{7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
			fivefold: 16, firstClaimPly: 7, firstClaimRule: "9.2.1"},
		{name: "an illegal move", pgn: "\n1. e4 e5 2. Ke3 *\n", plies: 2, max: 1, threefold: []int{}, claimable: []int{},
			fivefold: -1, firstClaimPly: -1, errorSub: "ply 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := pgn.ParseGames(tt.pgn)
			if err != nil || len(games) != 1 {
				t.Fatalf("parse: %v, %d games", err, len(games))
			}
			r := Analyse(games[0], "f.pgn")
			if r.Plies != tt.plies || r.MaxOccurrences != tt.max || !slices.Equal(r.ThreefoldPlies, tt.threefold) || !slices.Equal(r.ClaimablePlies, tt.claimable) {
				t.Errorf("plies %d max %d threefold %v claimable %v", r.Plies, r.MaxOccurrences, r.ThreefoldPlies, r.ClaimablePlies)
			}
			if got := ptr(r.FivefoldPly); got != tt.fivefold {
				t.Errorf("fivefold %d, want %d", got, tt.fivefold)
			}
			if c := r.FirstClaim; (c == nil) != (tt.firstClaimPly < 0) || c != nil && (c.Ply != tt.firstClaimPly || c.Rule != tt.firstClaimRule) {
				t.Errorf("first claim %+v, want ply %d rule %s", c, tt.firstClaimPly, tt.firstClaimRule)
			}
			if !strings.Contains(r.Error, tt.errorSub) || (tt.errorSub == "") != (r.Error == "") {
				t.Errorf("error %q, want %q", r.Error, tt.errorSub)
			}
		})
	}
}

// Run hands the reports back in input order whatever the workers, and
// says when a file could not be read.
func TestRunInOrder(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := range 40 {
		if i%3 == 0 {
			text.WriteString("\n" + shuffle + "*\n\n")
		} else {
			text.WriteString("\n1. e4 e5 *\n\n")
		}
	}
	name := filepath.Join(dir, "games.pgn")
	if err := os.WriteFile(name, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	var ids []int
	var out bytes.Buffer
	w := Writer{Out: &out, JSON: true}
	readFailed, err := Run(context.Background(), Options{Files: []string{name, filepath.Join(dir, "nosuch.pgn")}, Workers: 4,
		ReadError: func(m string) { msgs = append(msgs, m) }}, func(r *Report) error {
		ids = append(ids, r.ID)
		if r.File != name {
			t.Errorf("file %q, want %q (two files named)", r.File, name)
		}
		return w.Write(r)
	})
	if err != nil || !readFailed || len(msgs) != 1 || !strings.Contains(msgs[0], "nosuch.pgn") {
		t.Fatalf("err %v, readFailed %v, messages %v", err, readFailed, msgs)
	}
	for i, id := range ids {
		if id != i {
			t.Fatalf("ids %v: not in input order", ids)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var first Report
	if len(lines) != 40 || json.Unmarshal([]byte(lines[0]), &first) != nil || len(first.ThreefoldPlies) != 1 {
		t.Errorf("%d JSON lines; first %q", len(lines), lines[0])
	}
}

func ptr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
