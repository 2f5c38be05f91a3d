package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

var histEpoch = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// storeFixture is a data directory with a store holding a few alerts and
// games, and a config file that points at it.
type storeFixture struct {
	dir, config string
	alerts      []threefold.Alert
}

func newStoreFixture(t *testing.T) *storeFixture {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+dir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	clock := histEpoch
	st, err := store.Open(ctx, store.Config{DataDir: dir, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lich := threefold.GameRef{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"}
	file := threefold.GameRef{Site: "file", ID: "round1.pgn#1", White: "Anand, Viswanathan", Black: "Martin del Campo, Roberto"}
	games := []store.Game{
		{
			GameState: threefold.GameState{
				Game:        lich,
				Source:      "lichess game abcdefgh",
				Event:       "Casual blitz",
				Notation:    rules.UCI,
				Moves:       []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
				Result:      "1/2-1/2",
				Termination: "threefold_claimed",
				Finished:    true,
			},
		},
		{
			GameState: threefold.GameState{
				Game:     file,
				Source:   "file round1.pgn",
				Event:    "Wch U20",
				Notation: rules.SAN,
				Moves:    strings.Fields(fixtureSAN),
				Result:   "1/2-1/2",
				Audience: "arbiters",
			},
		},
	}
	for _, g := range games {
		if err := st.PutGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	mk := func(g threefold.GameRef, src string, kind threefold.AlertKind, ply, count int, occ []int, at time.Time, move, moveSAN string) threefold.Alert {
		return threefold.Alert{ID: threefold.AlertID(g, kind, ply, move), Kind: kind, Ply: ply, Count: count, Occurrences: occ,
			Claimant: "white", Move: move, MoveSAN: moveSAN, Game: g, Source: src, ObservedAt: at}
	}
	f := &storeFixture{dir: dir, config: cfg}
	f.alerts = []threefold.Alert{
		mk(file, "file round1.pgn", threefold.KindClaimByMove, 51, 2, []int{43, 47}, histEpoch.Add(-3*time.Hour), "h5f5", "Qf5"),
		mk(file, "file round1.pgn", threefold.KindThreefold, 52, 3, []int{44, 48, 52}, histEpoch.Add(-3*time.Hour+time.Second), "", ""),
		mk(lich, "lichess game abcdefgh", threefold.KindThreefold, 8, 3, []int{0, 4, 8}, histEpoch.Add(-time.Hour), "", ""),
	}
	for _, a := range f.alerts {
		if _, err := st.PutAlert(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// fixtureSAN is a game whose start position after 1.e4 e5 comes back twice.
const fixtureSAN = "e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8"

func TestHistoryText(t *testing.T) {
	f := newStoreFixture(t)
	code, out, errs := runMain(t, "history", "--config", f.config)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Alerts (3, newest first)",
		"threefold      lichess/abcdefgh",
		"3rd occurrence (plies 0, 4, 8): white may claim",
		"white may claim by declaring Qf5 (position of plies 43, 47)",
		"Games (2, most recently updated first)",
		"Alice - Bob",
		"1/2-1/2 threefold_claimed",
		"(going on)",
		"https://lichess.org/abcdefgh",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// Newest first: the lichess alert (an hour ago) before the file ones.
	if strings.Index(out, "lichess/abcdefgh") > strings.Index(out, "file/round1.pgn#1") {
		t.Errorf("alerts not newest first:\n%s", out)
	}
}

func TestHistoryFilters(t *testing.T) {
	f := newStoreFixture(t)
	histNow = func() time.Time { return histEpoch }
	t.Cleanup(func() { histNow = time.Now })
	for _, tc := range []struct {
		name       string
		args       []string
		alerts     []int // indexes into f.alerts, in output order
		games      []string
		wantsGames bool
	}{
		{"all", nil, []int{2, 1, 0}, []string{"round1.pgn#1", "abcdefgh"}, true},
		{"kind selects alerts only", []string{"--kind", "claim_by_move"}, []int{0}, nil, false},
		{"source site", []string{"--source", "lichess"}, []int{2}, []string{"abcdefgh"}, true},
		{"source name part", []string{"--source", "round1"}, []int{1, 0}, []string{"round1.pgn#1"}, true},
		{"player", []string{"--player", "anand, viswanathan"}, []int{1, 0}, []string{"round1.pgn#1"}, true},
		{"since a duration", []string{"--since", "2h"}, []int{2}, []string{"round1.pgn#1", "abcdefgh"}, true},
		{"since a date and time", []string{"--since", "2026-11-29T10:00:00Z"}, []int{2}, []string{"round1.pgn#1", "abcdefgh"}, true},
		{"since days", []string{"--since", "1d"}, []int{2, 1, 0}, []string{"round1.pgn#1", "abcdefgh"}, true},
		{"limit", []string{"--limit", "1"}, []int{2}, []string{"round1.pgn#1"}, true},
		{"alerts only", []string{"--alerts"}, []int{2, 1, 0}, nil, false},
		{"games only", []string{"--games"}, nil, []string{"round1.pgn#1", "abcdefgh"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"history", "--json", "--config", f.config}, tc.args...)
			code, out, errs := runMain(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got struct {
				Alerts []threefold.Alert `json:"alerts"`
				Games  []store.Game      `json:"games"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			var gotA, wantA, gotG []string
			for _, a := range got.Alerts {
				gotA = append(gotA, a.ID)
			}
			for _, i := range tc.alerts {
				wantA = append(wantA, f.alerts[i].ID)
			}
			for _, g := range got.Games {
				gotG = append(gotG, g.Game.ID)
			}
			if strings.Join(gotA, ",") != strings.Join(wantA, ",") {
				t.Errorf("alerts %v, want %v", gotA, wantA)
			}
			if strings.Join(gotG, ",") != strings.Join(tc.games, ",") {
				t.Errorf("games %v, want %v", gotG, tc.games)
			}
		})
	}
}

func TestHistoryErrors(t *testing.T) {
	f := newStoreFixture(t)
	empty := t.TempDir()
	emptyCfg := filepath.Join(empty, "threefold.yaml")
	if err := os.WriteFile(emptyCfg, []byte("data_dir: "+filepath.Join(empty, "data")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown kind", []string{"--config", f.config, "--kind", "twofold"}, exitUsage, `--kind "twofold"`},
		{"bad since", []string{"--config", f.config, "--since", "yesterday"}, exitUsage, `--since "yesterday"`},
		{"negative limit", []string{"--config", f.config, "--limit", "-1"}, exitUsage, "--limit -1"},
		{"both only flags", []string{"--config", f.config, "--alerts", "--games"}, exitUsage, "--alerts and --games"},
		{"no store yet", []string{"--config", emptyCfg}, exitFailure, "no store at " + filepath.Join(empty, "data", store.FileName)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runMain(t, append([]string{"history"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(empty, "data", store.FileName)); err == nil {
		t.Error("history created an empty store")
	}
}

// TestHistorySaysWhatTheLimitLeftOut: a list cut by --limit (20 by
// default) says how many there are and how to see them all.
func TestHistorySaysWhatTheLimitLeftOut(t *testing.T) {
	f := newStoreFixture(t)
	for _, tc := range []struct {
		name  string
		args  []string
		wants []string
	}{
		{"cut", []string{"--limit", "2"}, []string{"Alerts (2 of 3, newest first; --limit 0 lists all)", "Games (2, most recently updated first)"}},
		{"cut games", []string{"--limit", "1"}, []string{"Alerts (1 of 3, newest first; --limit 0 lists all)", "Games (1 of 2, most recently updated first; --limit 0 lists all)"}},
		{"exactly the limit", []string{"--limit", "3"}, []string{"Alerts (3, newest first)", "Games (2, most recently updated first)"}},
		{"all", []string{"--limit", "0"}, []string{"Alerts (3, newest first)"}},
		{"cut, filtered", []string{"--limit", "1", "--kind", "threefold"}, []string{"Alerts (1 of 2, newest first; --limit 0 lists all)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runMain(t, append([]string{"history", "--config", f.config}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, want := range tc.wants {
				if !strings.Contains(out, want) {
					t.Errorf("missing %q in\n%s", want, out)
				}
			}
		})
	}
}
