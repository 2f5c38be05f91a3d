package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
)

// TestGameNumbersAgree: a game of a PGN file has one number, counted from
// 1, in everything a person reads — scan's text, watch's game ids (and so
// history and export) — while scan --json keeps the 0-based "id" of the
// reference annotations.
func TestGameNumbersAgree(t *testing.T) {
	pgnPath := "../../examples/lichess-repetitions.pgn"
	code, out, errs := runMain(t, "scan", "--all", pgnPath)
	if code != 0 {
		t.Fatalf("scan: exit %d: %s", code, errs)
	}
	players := map[string]string{} // number -> "white - black"
	for _, m := range regexp.MustCompile(`(?m)^#(\d+) (.+?) \(`).FindAllStringSubmatch(out, -1) {
		players[m[1]] = m[2]
	}
	if len(players) != 10 || players["1"] != "paspaspas - female_supremacy" || players["5"] != "zacnick - klut" {
		t.Fatalf("scan numbers the games %v, want 1 to 10 from paspaspas to chroneus", players)
	}

	code, out, errs = runMain(t, "scan", "--json", pgnPath)
	if code != 0 {
		t.Fatalf("scan --json: exit %d: %s", code, errs)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	var g struct {
		ID    int    `json:"id"`
		White string `json:"white"`
	}
	if err := json.Unmarshal([]byte(first), &g); err != nil || g.ID != 0 || g.White != "paspaspas" {
		t.Fatalf("scan --json's first game %s: want id 0 (the reference annotations' numbering)", first)
	}

	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runMain(t, "watch", "--once", "--json", "--config", cfg, pgnPath)
	if code != 0 {
		t.Fatalf("watch: exit %d: %s", code, errs)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a threefold.Alert
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		_, n, _ := strings.Cut(a.Game.ID, "#")
		if want := players[n]; a.Game.White+" - "+a.Game.Black != want {
			t.Errorf("watch calls %s - %s game %s (%s); scan calls game %s %s", a.Game.White, a.Game.Black, n, a.Game.ID, n, want)
		}
		seen++
	}
	if seen == 0 {
		t.Fatal("watch raised no alert")
	}
}
