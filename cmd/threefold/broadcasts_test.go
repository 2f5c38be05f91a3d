package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// threefold broadcasts lists what there is to watch: the official
// broadcasts with their rounds' state, the live ones, the top ones, a
// search, a user's (which needs the watch token), and one tournament's
// rounds; bad combinations are usage errors.
func TestBroadcastsCommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no token saved on this machine counts
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	srv := fakelichess.New(fakelichess.Options{})
	defer srv.Close()
	game := strings.Replace(watchGame, "[Result", "[GameURL \"https://lichess.org/broadcast/t/r/rndLive1/game0001\"]\n[Result", 1)
	srv.Broadcast("rndDone1").SetTour("tourLive").Finish()
	srv.Broadcast("rndLive1").SetTour("tourLive").SetPGN(game)
	srv.Broadcast("rndNext1").SetTour("tourLive")
	srv.DescribeTour("tourLive", fakelichess.TourSpec{Name: "World Cup 2026", Tier: 5, Official: true, Owner: "arbiter"})
	srv.Broadcast("rndOld01").SetTour("tourOld1").Finish()
	srv.DescribeTour("tourOld1", fakelichess.TourSpec{Name: "Club Open", Official: true})
	srv.Broadcast("rndUsr01").SetTour("tourUser")
	srv.DescribeTour("tourUser", fakelichess.TourSpec{Name: "Arbiter's Blitz", Owner: "arbiter"})
	config := func(token string) string {
		cfg := filepath.Join(t.TempDir(), "threefold.yaml")
		if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\nlichess:\n  url: "+srv.URL+"\n  token: "+token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	anon, watch := config(""), config(fakelichess.WatchToken)
	secret := filepath.Join(t.TempDir(), "lichess_token")
	if err := os.WriteFile(secret, []byte(fakelichess.WatchToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fromFile, missingFile := config("\"\"\n  token_file: "+secret), config("\"\"\n  token_file: "+secret+".gone")
	for _, row := range []struct {
		name     string
		args     []string
		code     int
		want     []string // in stdout (stderr for a usage error), in order
		wantNot  []string
		endpoint string // requested
	}{
		{name: "official, with rounds and their state", args: []string{"--config", anon},
			want:     []string{"World Cup 2026 (tier 5)", "Round rndDone1", "finished", "Round rndLive1", "on now", "Round rndNext1", "starts", "Club Open"},
			wantNot:  []string{"Arbiter's Blitz"},
			endpoint: "/api/broadcast"},
		{name: "live only", args: []string{"--config", anon, "--live"},
			want: []string{"World Cup 2026"}, wantNot: []string{"Club Open"}, endpoint: "/api/broadcast"},
		{name: "top", args: []string{"--config", anon, "--top"},
			want: []string{"On now:", "World Cup 2026", "Round rndLive1: on now", "Past:", "Club Open", "finished"}, endpoint: "/api/broadcast/top"},
		{name: "search", args: []string{"--config", anon, "--search", "blitz"},
			want: []string{"Arbiter's Blitz"}, wantNot: []string{"World Cup"}, endpoint: "/api/broadcast/search"},
		{name: "a user's, with the watch token", args: []string{"--config", watch, "--user", "arbiter"},
			want: []string{"World Cup 2026", "Arbiter's Blitz"}, wantNot: []string{"Club Open"}, endpoint: "/api/broadcast/by/arbiter"},
		{name: "a user's, with the watch token from lichess.token_file", args: []string{"--config", fromFile, "--user", "arbiter"},
			want: []string{"World Cup 2026", "Arbiter's Blitz"}, endpoint: "/api/broadcast/by/arbiter"},
		{name: "a user's, lichess.token_file not there", args: []string{"--config", missingFile, "--user", "arbiter"}, code: 1,
			want: []string{"lichess.token_file", secret + ".gone"}},
		{name: "a user's, without a token", args: []string{"--config", anon, "--user", "arbiter"}, code: 2,
			want: []string{"study:read", "threefold login --for watch"}},
		{name: "a tournament's rounds", args: []string{"--config", anon, srv.URL + "/broadcast/world-cup/tourLive"},
			want: []string{"World Cup 2026", "Round rndDone1", "finished", "Round rndLive1", "on now"}, wantNot: []string{"Club Open"},
			endpoint: "/api/broadcast/tourLive"},
		{name: "a round's address names its tournament", args: []string{"--config", anon, srv.URL + "/broadcast/world-cup/round-2/rndLive1"},
			want: []string{"World Cup 2026", "Round rndNext1"}, endpoint: "/api/broadcast/tourLive"},
		{name: "two choices", args: []string{"--config", anon, "--top", "--search", "x"}, code: 2, want: []string{"one of"}},
		{name: "live with a search", args: []string{"--config", anon, "--live", "--search", "x"}, code: 2, want: []string{"--live"}},
		{name: "a game address", args: []string{"--config", anon, srv.URL + "/abcdefgh"}, code: 2, want: []string{"not a broadcast"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			before := 0
			if row.endpoint != "" {
				before = len(srv.RequestsTo("GET", row.endpoint))
			}
			code, out, errs := runMain(t, append([]string{"broadcasts"}, row.args...)...)
			if code != row.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, row.code, out, errs)
			}
			text := out
			t.Logf("stdout:\n%s", out)
			if code != 0 {
				text = errs
			}
			at := 0
			for _, w := range row.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("%q not found (in order) in:\n%s", w, text)
				}
				at += i + len(w)
			}
			for _, w := range row.wantNot {
				if strings.Contains(text, w) {
					t.Errorf("%q in:\n%s", w, text)
				}
			}
			if row.endpoint != "" && len(srv.RequestsTo("GET", row.endpoint)) == before {
				t.Errorf("%s not requested", row.endpoint)
			}
		})
	}
}
