package chesscomtest_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
	"github.com/threefold-chess/threefold/rules"
)

var (
	reComment = regexp.MustCompile(`\{[^}]*\}`)
	reMoveNum = regexp.MustCompile(`^\d+\.+`)
)

// sans returns the main-line SAN moves of a single-game PGN without
// variations (what the recorded payloads hold).
func sans(pgn string) []string {
	var text strings.Builder
	for line := range strings.Lines(pgn) {
		if !strings.HasPrefix(strings.TrimSpace(line), "[") {
			text.WriteString(line)
			text.WriteString(" ")
		}
	}
	var out []string
	for _, tok := range strings.Fields(reComment.ReplaceAllString(text.String(), " ")) {
		tok = reMoveNum.ReplaceAllString(tok, "")
		switch tok {
		case "", "*", "1-0", "0-1", "1/2-1/2":
			continue
		}
		out = append(out, tok)
	}
	return out
}

func placement(fen string) string { return strings.Fields(fen + " ")[0] }

// TestRecordedGamesRepeat: every recorded in-progress game replays legally
// to the FEN chess.com states, allows no repetition claim yet, and reaches
// one with its real continuation, ending on the real final position.
func TestRecordedGamesRepeat(t *testing.T) {
	s := chesscomtest.New("")
	defer s.Close()
	conts, err := chesscomtest.Continuations()
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]chesscom.Game{}
	for _, p := range s.Paths() {
		if gs, err := chesscom.DecodeGames(s.Body(p)); err == nil {
			for _, g := range gs {
				if g.PGN != "" {
					byURL[g.URL] = g
				}
			}
		}
	}
	for url, c := range conts {
		t.Run(url[strings.LastIndex(url, "/")+1:], func(t *testing.T) {
			g, ok := byURL[url]
			if !ok {
				t.Fatalf("no PGN for %s in any payload", url)
			}
			moves := sans(g.PGN)
			if len(moves) != c.PliesNow {
				t.Fatalf("%d moves in the PGN, continuation says %d", len(moves), c.PliesNow)
			}
			rg := rules.NewGame(rules.StartPosition())
			for i, san := range moves {
				if _, err := rg.PlaySAN(san); err != nil {
					t.Fatalf("ply %d %s: %v", i+1, san, err)
				}
				if v := rg.Verdict(); v.Threefold || len(v.ClaimMoves) > 0 {
					t.Fatalf("a claim is already possible at ply %d of the recorded part", i+1)
				}
			}
			pos := rg.Position()
			if placement(pos.FEN()) != placement(g.FEN) {
				t.Errorf("replayed %q, payload fen %q", pos.FEN(), g.FEN)
			}
			claim := 0
			for i, san := range c.RestSANs {
				if _, err := rg.PlaySAN(san); err != nil {
					t.Fatalf("continuation ply %d %s: %v", c.PliesNow+i+1, san, err)
				}
				if v := rg.Verdict(); claim == 0 && (v.Threefold || len(v.ClaimMoves) > 0) {
					claim = rg.Ply()
				}
			}
			if claim == 0 {
				t.Error("the continuation never allows a repetition claim")
			}
			pos = rg.Position()
			if placement(pos.FEN()) != placement(c.FinalFEN) {
				t.Errorf("final %q, want %q", pos.FEN(), c.FinalFEN)
			}
		})
	}
}
