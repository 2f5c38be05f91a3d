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
	"github.com/threefold-chess/threefold/store"
)

// groupFixture is a store where two instances worked: a died 35 s before
// statusEpoch+35s, b is alive; a game, a source state and an unsent alert.
func groupFixture(t *testing.T) (config string, now time.Time) {
	t.Helper()
	dir := t.TempDir()
	config = filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(config, []byte("data_dir: "+dir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	clock := histEpoch
	nowf := func() time.Time { return clock }
	st, err := store.Open(ctx, store.Config{DataDir: dir, Now: nowf})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.Join(ctx, store.InstanceConfig{ID: "watch-a", Host: "alpha", LeaseTTL: 30 * time.Second, Budget: map[string]int{store.LeaseSource: 4}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Join(ctx, store.InstanceConfig{ID: "watch-b", Host: "beta", LeaseTTL: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = a.Acquire(ctx, store.LeaseSource, "lichess broadcast round 4Yuk2i2H")
	must(err)
	_, err = a.Acquire(ctx, store.LeaseGame, store.GameLeaseName("lichess", "abcdefgh"))
	must(err)
	_, err = b.Acquire(ctx, store.LeaseSource, "chess.com player hikaru")
	must(err)
	must(a.SaveSourceState(ctx, "lichess broadcast round 4Yuk2i2H", []byte(`{"cursor":1}`)))
	must(st.PutGame(ctx, store.Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "abcdefgh"}, Moves: strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6")}}))
	must(a.SaveProgress(ctx, "lichess", "abcdefgh", 4))
	g := threefold.GameRef{Site: "lichess", ID: "abcdefgh"}
	_, err = st.PutAlertOutbox(ctx, threefold.Alert{ID: threefold.AlertID(g, threefold.KindThreefold, 8, ""), Kind: threefold.KindThreefold, Ply: 8, Game: g, Source: "x"}, []string{"discord-0"})
	must(err)
	must(st.SaveSourceHealth(ctx, threefold.SourceHealth{Source: "lichess broadcast round 4Yuk2i2H", Since: histEpoch.Add(10 * time.Second),
		Failures: 3, LastError: "lichess: stream broadcast round 4Yuk2i2H: dial tcp: lookup lichess.invalid: no such host"}))
	must(st.SaveSourceHealth(ctx, threefold.SourceHealth{Source: "dgt ws://localhost:1982/api/v1.0", Connected: true, Since: histEpoch}))
	clock = clock.Add(20 * time.Second)
	_, err = b.Heartbeat(ctx)
	must(err)
	return config, histEpoch.Add(35 * time.Second)
}

func withStatusNow(t *testing.T, now time.Time) {
	old := statusNow
	statusNow = func() time.Time { return now }
	t.Cleanup(func() { statusNow = old })
}

func TestStatusText(t *testing.T) {
	config, now := groupFixture(t)
	withStatusNow(t, now)
	code, out, errs := runMain(t, "status", "--config", config)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Columns are compared with their spacing collapsed.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Store: sqlite ",
		"Instances (2, 1 alive)",
		"watch-a alpha dead 35s ago 2026-11-29 12:00:00 source 0/4",
		"watch-b beta alive 15s ago 2026-11-29 12:00:00 source 1",
		"game lichess/abcdefgh watch-a (expired) 1 5s ago",
		"source chess.com player hikaru watch-b 1 in 15s",
		"source lichess broadcast round 4Yuk2i2H watch-a (expired) 1 5s ago",
		"chess.com player hikaru watch-b never",
		"lichess broadcast round 4Yuk2i2H nobody 35s ago DOWN for 25s, 3 attempts failed: lichess: stream broadcast round 4Yuk2i2H: dial tcp: lookup",
		"dgt ws://localhost:1982/api/v1.0 nobody never connected for 35s",
		"chess.com player hikaru watch-b never -",
		"discord-0 1 0 0 35s ago 0 -",
		"lichess/abcdefgh 4 6 2 nobody 35s ago",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestStatusJSON(t *testing.T) {
	config, now := groupFixture(t)
	withStatusNow(t, now)
	code, out, errs := runMain(t, "status", "--json", "--config", config)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Backend   string `json:"backend"`
		Instances []struct {
			ID       string         `json:"id"`
			Alive    bool           `json:"alive"`
			Budget   map[string]int `json:"budget"`
			Held     map[string]int `json:"held"`
			LeaseTTL float64        `json:"lease_ttl_s"`
		} `json:"instances"`
		Leases []struct {
			Kind, Name, Holder string
			Expired            bool `json:"expired"`
		} `json:"leases"`
		Sources []struct {
			Name     string `json:"name"`
			Holder   string `json:"holder"`
			HasState bool   `json:"has_state"`
			Health   *struct {
				Connected bool   `json:"connected"`
				Failures  int    `json:"failures"`
				LastError string `json:"last_error"`
			} `json:"health"`
		} `json:"sources"`
		Outbox []struct {
			Sink    string    `json:"sink"`
			Pending int       `json:"pending"`
			Oldest  time.Time `json:"oldest"`
		} `json:"outbox"`
		Games []struct {
			ID        string `json:"id"`
			Processed int    `json:"processed"`
			Seen      int    `json:"seen"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
	if got.Backend != "sqlite" || len(got.Instances) != 2 || got.Instances[0].Alive || !got.Instances[1].Alive ||
		got.Instances[0].Budget["source"] != 4 || got.Instances[1].Held["source"] != 1 || got.Instances[0].LeaseTTL != 30 {
		t.Errorf("instances %+v", got.Instances)
	}
	if len(got.Leases) != 3 || !got.Leases[0].Expired || got.Leases[1].Holder != "watch-b" {
		t.Errorf("leases %+v", got.Leases)
	}
	if len(got.Sources) != 3 || got.Sources[2].Holder != "" || !got.Sources[2].HasState || got.Sources[0].Health != nil ||
		!got.Sources[1].Health.Connected || got.Sources[2].Health.Connected || got.Sources[2].Health.Failures != 3 ||
		!strings.Contains(got.Sources[2].Health.LastError, "no such host") {
		t.Errorf("sources %+v", got.Sources)
	}
	if len(got.Outbox) != 1 || got.Outbox[0].Pending != 1 || !got.Outbox[0].Oldest.Equal(histEpoch) {
		t.Errorf("outbox %+v", got.Outbox)
	}
	if len(got.Games) != 1 || got.Games[0].Processed != 4 || got.Games[0].Seen != 6 {
		t.Errorf("games %+v", got.Games)
	}
}

func TestStatusEmptyAndMissing(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(config, []byte("data_dir: "+dir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runMain(t, "status", "--config", config)
	if code != exitFailure || !strings.Contains(errs, "no store at") {
		t.Errorf("no store: exit %d, %s", code, errs)
	}
	st, err := store.Open(context.Background(), store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	code, out, errs := runMain(t, "status", "--json", "--config", config)
	if code != 0 || !strings.Contains(out, `"instances": []`) || !strings.Contains(out, `"games": []`) {
		t.Errorf("empty store: exit %d, %s\n%s", code, errs, out)
	}
	if code, _, _ := runMain(t, "status", "--limit", "-1", "--config", config); code != exitUsage {
		t.Errorf("--limit -1: exit %d", code)
	}
}
