package rules

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestFIDECases replays every worked case of testdata/fide-cases.txt
// (id|start|UCI moves|count of the final position|claimable) as a table
// test with one named row per case; Notable is checked on every ply.
func TestFIDECases(t *testing.T) {
	f, err := os.Open("testdata/fide-cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "|")
		if len(fields) != 5 {
			t.Fatalf("malformed case line %q", line)
		}
		n++
		id, start, moves := fields[0], fields[1], strings.Fields(fields[2])
		wantCount, _ := strconv.Atoi(fields[3])
		wantClaim := fields[4] == "1"
		t.Run(id, func(t *testing.T) {
			pos := StartPosition()
			if start != "startpos" {
				var err error
				if pos, err = ParseFEN(start); err != nil {
					t.Fatal(err)
				}
			}
			g := NewGame(pos)
			if err := checkNotable(g); err != nil {
				t.Fatal(err)
			}
			for i, mv := range moves {
				if _, err := g.PlayUCI(mv); err != nil {
					t.Fatalf("ply %d: %v", i+1, err)
				}
				if err := checkNotable(g); err != nil {
					t.Fatal(err)
				}
			}
			if got := g.Count(); got != wantCount {
				t.Errorf("count of the final position = %d, want %d (occurrences %v)", got, wantCount, g.Occurrences())
			}
			if got := g.CanClaimRepetition(); got != wantClaim {
				t.Errorf("may claim = %v, want %v (claim moves %v)", got, wantClaim, g.ClaimMoves(nil))
			}
			v := g.Verdict()
			if v.Count != wantCount || (v.Threefold || len(v.ClaimMoves) > 0) != wantClaim {
				t.Errorf("Verdict disagrees with Count/CanClaimRepetition: %+v", v)
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d cases read", n)
	}
}
