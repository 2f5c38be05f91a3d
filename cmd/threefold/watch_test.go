package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/web"
)

// watchGame is the start of game 0 of the shared corpus: 25...Qh5 26. Bf3
// Qf5 makes the third occurrence at ply 52; 26...Qf5 could be declared at
// ply 51.
const watchGame = `[Event "Wch U20"]
[Site "Sharjah"]
[White "Anand, Viswanathan"]
[Black "Martin del Campo, Roberto"]
[Result "1/2-1/2"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2 e5 7. Nb3 Be7 8. O-O
O-O 9. Be3 Be6 10. Qd2 Nbd7 11. a4 Rc8 12. a5 Qc7 13. Rfc1 Qc6 14. Bf3 Bc4 15.
Ra4 Rfe8 16. Rb4 Qc7 17. Nd5 Nxd5 18. exd5 Nf6 19. Bb6 Qd7 20. Nc5 dxc5 21.
Rxc4 Bd6 22. Re1 Qf5 23. Be4 Qh5 24. Bf3 Qf5 25. Be4 Qh5 26. Bf3 Qf5 1/2-1/2
`

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func writeWatchFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "round.pgn")
	if err := os.WriteFile(p, []byte(watchGame), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWatchFileJSON(t *testing.T) {
	p := writeWatchFile(t)
	code, out, errs := runMain(t, "watch", "--json", "--once", "--config", emptyConfig(t), p)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a threefold.Alert
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("not an alert JSON line: %q: %v", line, err)
		}
		kinds = append(kinds, string(a.Kind)+"@"+itoa(a.Ply))
		if a.Audience != "arbiters" || a.Game.White != "Anand, Viswanathan" {
			t.Errorf("alert %+v: want audience arbiters and the players", a)
		}
	}
	if strings.Join(kinds, ",") != "claim_by_move@51,threefold@52" {
		t.Errorf("alerts %v, want claim_by_move@51,threefold@52", kinds)
	}
}

// emptyConfig is a config file with no settings, so that a config file of
// the user running the tests is not read.
func emptyConfig(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(p, []byte("log:\n  level: info\ndata_dir: "+filepath.Join(dir, "data")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestWatchTextAndWebhooks(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.URL.Path+" "+string(b))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hook.Close()
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	t.Setenv("TEST_THREEFOLD_HOOK", hook.URL+"/json/SECRET2")
	conf := "data_dir: " + t.TempDir() + "\nwatch:\n  webhooks:\n    - kind: discord\n      url: " + hook.URL + "/discord/SECRET1\n    - kind: json\n      url_env: TEST_THREEFOLD_HOOK\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runMain(t, "watch", "--once", "--config", cfg, writeWatchFile(t))
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, "ply 44 (22...Qf5), ply 48 (24...Qf5), ply 52 (26...Qf5)") || !strings.Contains(out, "black may claim a draw by declaring Qf5") {
		t.Errorf("text output lacks the proof:\n%s", out)
	}
	if strings.Contains(errs, "SECRET") {
		t.Errorf("a webhook URL reached the log:\n%s", errs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 4 {
		t.Fatalf("%d webhook posts, want 4 (2 alerts × 2 hooks): %v", len(bodies), bodies)
	}
	var toJSON int
	for _, b := range bodies {
		if strings.HasPrefix(b, "/json/SECRET2 ") {
			toJSON++
		}
	}
	if toJSON != 2 {
		t.Errorf("%d posts to the url_env webhook, want 2", toJSON)
	}
}

func TestWatchBadInput(t *testing.T) {
	none := emptyConfig(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no source", []string{"watch", "--config", none}, exitUsage, "no source given"},
		{"unknown form", []string{"watch", "--config", none, "gopher://example.org/x"}, exitUsage, "accepted forms"},
		{"other site", []string{"watch", "--config", none, "https://example.org/game/1"}, exitUsage, "lichess.org/@/USER"},
		{"missing file", []string{"watch", "--config", none, "/nonexistent/round.pgn"}, exitUsage, "no such file"},
		{"bad lichess path", []string{"watch", "--config", none, "https://lichess.org/broadcast/x"}, exitUsage, "round id"},
		{"chess.com without contact", []string{"watch", "--config", none, "https://www.chess.com/member/someone"}, exitUsage, "chesscom.contact"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runMain(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

func TestWatchHelpListsForms(t *testing.T) {
	code, out, _ := runMain(t, "watch", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, form := range []string{"lichess.org/GAMEID", "lichess.org/@/USER", "lichess.org/tv", "/broadcast/SLUG/ROUND/ROUNDID",
		"/broadcast/SLUG/TOURID", "chess.com/member/NAME", "ws://localhost:1982/api/v1.0", "FOLDER"} {
		if !strings.Contains(out, form) {
			t.Errorf("--help lacks %q", form)
		}
	}
}

// An unreachable Lichess is reported and retried while the file source goes
// on and alerts.
func TestWatchUnreachableHostOthersGoOn(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	base := dead.URL
	dead.Close()
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\nlichess:\n  url: "+base+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"watch", "--once", "--config", cfg, base + "/abcdEFGH", writeWatchFile(t)}, strings.NewReader(""), &out, &errb)
	}()
	for i := 0; !(strings.Count(out.String(), "\n") >= 2 && strings.Contains(errb.String(), "reconnecting")); i++ {
		if i > 3000 {
			t.Fatalf("gave up; stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, not a timed assertion
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after cancel; stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "abcdEFGH") {
		t.Errorf("the failing game is not named in the log:\n%s", errb.String())
	}
}

// A broadcast round on the configured lichess.url (the fake), followed to
// its end through the command line.
func TestWatchBroadcastOnConfiguredBase(t *testing.T) {
	srv := fakelichess.New(fakelichess.Options{})
	defer srv.Close()
	game := strings.Replace(watchGame, "[Result", "[GameURL \"https://lichess.org/broadcast/wch-u20/round-2/rnd00002/game0001\"]\n[Result", 1)
	b := srv.Broadcast("rnd00002")
	b.SetPGN(game)
	b.Finish()
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\nlichess:\n  url: "+srv.URL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runMain(t, "watch", "--json", "--config", cfg, srv.URL+"/broadcast/wch-u20/round-2/rnd00002")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a threefold.Alert
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		kinds = append(kinds, string(a.Kind)+"@"+itoa(a.Ply))
		if a.Audience != "arbiters" || a.DelayS != 3600 || !strings.HasSuffix(a.Game.URL, "/game0001") {
			t.Errorf("alert %+v", a)
		}
	}
	if strings.Join(kinds, ",") != "claim_by_move@51,threefold@52" {
		t.Errorf("alerts %v", kinds)
	}
}

// dashboardURL waits for the log line of the dashboard's address.
func dashboardURL(t *testing.T, ctx context.Context, stderr *syncBuffer) string {
	t.Helper()
	for {
		if _, rest, ok := strings.Cut(stderr.String(), "msg=dashboard url="); ok {
			return strings.TrimSuffix(strings.Fields(rest)[0], "/")
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no dashboard address in the log:\n%s", stderr.String())
		case <-time.After(10 * time.Millisecond): // polling a condition, not a timed assertion
		}
	}
}

// poll re-checks cond until it holds or ctx ends. For conditions outside
// the fake Lichess, whose WaitFor wakes only on its own changes.
func poll(ctx context.Context, cond func() bool) error {
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond): // polling a condition, not a timed assertion
		}
	}
	return nil
}

func getBody(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// watch with http.addr: /healthz says a quiet broadcast round is connected
// before it has any game, /metrics counts the stream's reconnect (the
// client's hook), and watch ends with the round, dashboard and all.
func TestWatchServesDashboard(t *testing.T) {
	srv := fakelichess.New(fakelichess.Options{})
	defer srv.Close()
	round := srv.Broadcast("dashRnd1")
	srv.Inject(fakelichess.Fault{Path: "/api/stream/broadcast/round/*", Disconnect: true, AfterLines: 1})
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	conf := "data_dir: " + t.TempDir() + "\nlichess:\n  url: " + srv.URL + "\nhttp:\n  addr: 127.0.0.1:0\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"watch", "--json", "--config", cfg, srv.URL + "/broadcast/wch-u20/round-2/dashRnd1"}, strings.NewReader(""), &out, &errb)
	}()
	base := dashboardURL(t, ctx, &errb)
	var health web.Health
	if err := poll(ctx, func() bool {
		code, body := getBody(t, base+"/healthz")
		return code == http.StatusOK && json.Unmarshal([]byte(body), &health) == nil && len(health.Sources) == 1
	}); err != nil {
		t.Fatalf("healthz never said the quiet round is connected: %v", err)
	}
	if !health.OK || health.Games != 0 || !health.Sources[0].Connected || health.Sources[0].Name != "lichess broadcast round dashRnd1" {
		t.Errorf("health %+v", health)
	}
	game := strings.Replace(watchGame, "[Result", "[GameURL \"https://lichess.org/broadcast/wch-u20/round-2/dashRnd1/game0001\"]\n[Result", 1)
	round.SetPGN(game)
	if err := round.AppendMove("game0001", "Be4"); err != nil { // the second line: cut
		t.Fatal(err)
	}
	want := `threefold_stream_reconnects_total{stream="broadcast round dashRnd1"} 1`
	if err := poll(ctx, func() bool {
		_, body := getBody(t, base+"/metrics")
		return strings.Contains(body, want)
	}); err != nil {
		_, body := getBody(t, base+"/metrics")
		t.Fatalf("metrics lack %s:\n%s", want, body)
	}
	round.Finish()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errb.String())
		}
	case <-ctx.Done():
		t.Fatal("watch did not end with the round")
	}
	if !strings.Contains(out.String(), `"kind":"threefold"`) {
		t.Errorf("no threefold alert:\n%s", out.String())
	}
}

// watch --once with http.addr ends when the files are read: the dashboard
// does not keep it running.
func TestWatchOnceWithDashboardEnds(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\nhttp:\n  addr: 127.0.0.1:0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := writeWatchFile(t)
	code, out, errs := runMain(t, "watch", "--once", "--json", "--config", cfg, file)
	if code != 0 || strings.Count(out, "\n") != 2 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// Run again on the same store: both alerts were stored by the first
	// run, so nothing is reported twice.
	code, out, errs = runMain(t, "watch", "--once", "--json", "--config", cfg, file)
	if code != 0 || out != "" {
		t.Fatalf("second run: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// A watcher of a broadcast round checks its token first: a bot's token
// (bot:play, no study:read) ends watch at once with what is missing and
// how to get it, before any stream is opened; a watch token follows the
// round to its end, which Lichess announces by finishedAt alone (no
// "finished" flag).
func TestWatchBroadcastChecksTheTokenScope(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no token saved on this machine counts
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	srv := fakelichess.New(fakelichess.Options{})
	defer srv.Close()
	game := strings.Replace(watchGame, "[Result", "[GameURL \"https://lichess.org/broadcast/wch-u20/round-2/rndScop1/game0001\"]\n[Result", 1)
	b := srv.Broadcast("rndScop1")
	b.SetPGN(game)
	url := srv.URL + "/broadcast/wch-u20/round-2/rndScop1"
	config := func(token string) string {
		cfg := filepath.Join(t.TempDir(), "threefold.yaml")
		if err := os.WriteFile(cfg, []byte("data_dir: "+t.TempDir()+"\nlichess:\n  url: "+srv.URL+"\n  token: "+token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return cfg
	}

	code, _, errs := runMain(t, "watch", "--json", "--config", config(fakelichess.BotToken), url)
	if code == 0 {
		t.Fatalf("watch with a bot:play token exited 0:\n%s", errs)
	}
	for _, want := range []string{"study:read", "threefold login --for watch"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
	if n := len(srv.RequestsTo("", "/api/stream/broadcast/round/*")); n != 0 {
		t.Errorf("%d stream requests with a token that cannot read broadcasts", n)
	}
	if strings.Contains(errs, fakelichess.BotToken) {
		t.Error("the token is in the output")
	}

	b.Finish() // finishedAt, no finished flag
	code, out, errs := runMain(t, "watch", "--json", "--config", config(fakelichess.WatchToken), url)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, `"kind":"threefold"`) {
		t.Errorf("no threefold alert:\n%s", out)
	}
	for _, r := range srv.RequestsTo("", "/api/stream/broadcast/round/*") {
		if r.Token != fakelichess.WatchToken {
			t.Errorf("stream request without the watch token")
		}
	}
}

// A store that cannot be opened (data_dir is a file) stops watch with one
// line that names the file and the cause, each part said once.
func TestWatchStoreThatCannotBeOpened(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	notADir := filepath.Join(dir, "data")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(cfg, []byte("data_dir: "+notADir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runMain(t, "--config", cfg, "watch", "--once", writeWatchFile(t))
	want := "watch: store: open " + filepath.Join(notADir, "threefold.db") + ": "
	if code != exitFailure || !strings.Contains(stderr, want) || strings.Contains(stderr, "store: store:") {
		t.Errorf("exit %d, stderr %q; want exit %d and %q once", code, stderr, exitFailure, want)
	}
}
