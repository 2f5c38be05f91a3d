package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/web"
)

func botConfigFile(t *testing.T, fake *fakelichess.Server, token, extra string) (file, dataDir string) {
	t.Helper()
	dir := t.TempDir()
	dataDir = filepath.Join(dir, "data")
	body := "data_dir: " + dataDir + "\nlichess:\n  url: " + fake.URL + "\n  token: " + token + "\n" + extra
	file = filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return file, dataDir
}

func TestBotCommandPlaysAndStops(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	file, dataDir := botConfigFile(t, fake, fakelichess.BotToken, "bot:\n  chat:\n    min_interval: 0s\n  engine:\n    max_move_time: 50ms\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- Main(ctx, []string{"--config", file, "bot"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	}()

	// The opponent (white) plays e4, the bot answers, the opponent resigns.
	g := fake.MustNewGame(fakelichess.GameSpec{White: fakelichess.Opponent, Black: fakelichess.BotUser, ClockInitial: 60000,
		Script: []fakelichess.Step{{Move: "e2e4"}, {Resign: true}}})
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	records := filepath.Join(dataDir, "games.jsonl")
	var recs []threefold.BotRecord
	err := fake.WaitFor(wctx, func() bool {
		recs, _ = bot.ReadRecords(records)
		return len(recs) == 1
	})
	if err != nil {
		t.Fatalf("no record: %v\nstderr:\n%s", err, stderr.String())
	}
	if st := g.State(); st.Status != lichess.StatusResign || st.Ply != 2 {
		t.Errorf("game %+v", st)
	}
	if r := recs[0]; r.GameID != g.ID() || r.Termination != threefold.TermResignation || r.Result != "0-1" || r.BotColor != "black" {
		t.Errorf("record %+v", r)
	}
	cancel() // SIGTERM
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit code %d\nstderr:\n%s", c, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("threefold bot did not stop")
	}
	if strings.Contains(stderr.String(), fakelichess.BotToken) {
		t.Error("the token reached the log")
	}
}

func TestBotCommandBadStart(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	fake.AddToken("lip_noBotScope", fakelichess.BotUser, "challenge:read")
	tests := []struct {
		name, token, extra string
		code               int
		want               string
	}{
		{"unknown key", fakelichess.BotToken, "bot:\n  engine:\n    pth: /usr/games/stockfish\n", exitUsage, "bot.engine.pth"},
		{"bad value", fakelichess.BotToken, "bot:\n  on_stop: explode\n", exitUsage, "explode"},
		{"bad engine option", fakelichess.BotToken, "bot:\n  engine:\n    options: [Hash]\n", exitUsage, "Name=Value"},
		{"missing engine binary", fakelichess.BotToken, "bot:\n  engine:\n    path: /nonexistent/engine\n", exitFailure, "/nonexistent/engine"},
		{"token without bot:play", "lip_noBotScope", "", exitFailure, "bot:play"},
		{"no token", "", "", exitUsage, "THREEFOLD_LICHESS_TOKEN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file, _ := botConfigFile(t, fake, tc.token, tc.extra)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var stderr bytes.Buffer
			code := Main(ctx, []string{"--config", file, "bot"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr.String(), tc.code, tc.want)
			}
		})
	}
	if n := len(fake.RequestsTo("GET", "/api/stream/event")); n != 0 {
		t.Errorf("the event stream was opened %d times by a bot that should not have started", n)
	}
}

func TestBotUpgrade(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	fake.AddUser("newbie", "Newbie", "")
	fake.AddToken("lip_newbieToken", "newbie", "bot:play")
	file, _ := botConfigFile(t, fake, "lip_newbieToken", "")
	ctx := context.Background()
	run := func(stdin string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(ctx, append([]string{"--config", file, "bot", "upgrade"}, args...), strings.NewReader(stdin), &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := run("no\n"); code == 0 || !strings.Contains(out, "not confirmed") {
		t.Fatalf("declined: exit %d, %q", code, out)
	}
	if code, out := run(""); code == 0 || !strings.Contains(out, "not confirmed") {
		t.Fatalf("no answer: exit %d, %q", code, out)
	}
	if n := len(fake.RequestsTo("POST", "/api/bot/account/upgrade")); n != 0 {
		t.Fatalf("upgraded without confirmation (%d requests)", n)
	}
	if code, out := run("yes\n"); code != 0 || !strings.Contains(out, "Newbie is now a BOT account") {
		t.Fatalf("confirmed: exit %d, %q", code, out)
	}
	if code, out := run("", "--yes"); code != 0 || !strings.Contains(out, "already a BOT account") {
		t.Fatalf("again: exit %d, %q", code, out)
	}
}

func TestBotConfigDefaultsMatchPackage(t *testing.T) {
	got, err := defaultBotConfig().toBot("")
	if err != nil {
		t.Fatal(err)
	}
	want := bot.DefaultConfig()
	if got.Engine.Threads != want.Engine.Threads || got.Policy != want.Policy || got.Chat != want.Chat || got.Draws != want.Draws ||
		got.Takebacks != want.Takebacks || !reflect.DeepEqual(got.Matchmaking, want.Matchmaking) ||
		got.OnStop != want.OnStop || got.Challenge.MaxGames != want.Challenge.MaxGames ||
		strings.Join(got.Challenge.Variants, ",") != strings.Join(want.Challenge.Variants, ",") {
		t.Errorf("config section defaults differ from bot.DefaultConfig:\n%+v\n%+v", got, want)
	}
}

// threefold bot with http.addr: the game shows on the dashboard while it is
// played, and its record goes to the store as well as to games.jsonl.
func TestBotCommandStoreAndDashboard(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	file, dataDir := botConfigFile(t, fake, fakelichess.BotToken,
		"http:\n  addr: 127.0.0.1:0\nbot:\n  chat:\n    min_interval: 0s\n  engine:\n    max_move_time: 50ms\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- Main(ctx, []string{"--config", file, "bot"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	}()
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	var base string
	if err := poll(wctx, func() bool {
		_, rest, ok := strings.Cut(stderr.String(), "msg=dashboard url=")
		if ok {
			base, _, _ = strings.Cut(rest, "?")
			base = strings.TrimSpace(strings.TrimSuffix(strings.Fields(base)[0], "/"))
		}
		return ok && fake.Streams("event") > 0
	}); err != nil {
		t.Fatalf("no dashboard: %v\n%s", err, stderr.String())
	}
	g := fake.MustNewGame(fakelichess.GameSpec{White: fakelichess.Opponent, Black: fakelichess.BotUser, ClockInitial: 60000,
		Script: []fakelichess.Step{{Move: "e2e4"}, {Resign: true}}})
	var h web.Health
	var st *store.Store
	var recs []threefold.BotRecord
	err := poll(wctx, func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if json.NewDecoder(resp.Body).Decode(&h) != nil || h.Games != 1 {
			return false
		}
		if st == nil {
			if st, err = store.Open(wctx, store.Config{DataDir: dataDir}); err != nil {
				st = nil
				return false
			}
		}
		recs, _ = st.BotRecords(wctx, store.BotRecordFilter{})
		jl, _ := bot.ReadRecords(filepath.Join(dataDir, "games.jsonl")) // written after the store
		return len(recs) == 1 && len(jl) == 1
	})
	if st != nil {
		defer st.Close()
	}
	if err != nil {
		t.Fatalf("health %+v, %d records: %v\n%s", h, len(recs), err, stderr.String())
	}
	if r := recs[0]; r.GameID != g.ID() || r.Termination != threefold.TermResignation || len(r.Moves) != 2 {
		t.Errorf("stored record %+v", r)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit code %d\nstderr:\n%s", c, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("threefold bot did not stop")
	}
	// The record goes to the store first, then to games.jsonl: the file is
	// read once the bot has stopped (every record written by then).
	if jl, _ := bot.ReadRecords(filepath.Join(dataDir, "games.jsonl")); len(jl) != 1 {
		t.Errorf("%d records in games.jsonl, want 1", len(jl))
	}
}

func TestBotChallengeCommand(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	file, _ := botConfigFile(t, fake, fakelichess.BotToken, "")
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"--config", file, "bot", "challenge"}, args...), strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, errOut := run(fakelichess.Opponent, "--clock", "3+2", "--color", "white", "--rated")
	if code != 0 || !strings.Contains(out, "3+2 rated, colour white") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	ids := fake.ChallengesFrom(fakelichess.BotUser)
	if len(ids) != 1 {
		t.Fatalf("challenges %v", ids)
	}
	spec, _ := fake.ChallengeInfo(ids[0])
	if spec.To != fakelichess.Opponent || spec.ClockLimit != 180 || spec.ClockIncrement != 2 || spec.Color != "white" || !spec.Rated {
		t.Errorf("challenge as the fake got it: %+v", spec)
	}
	if code, out, errOut := run("--cancel", ids[0]); code != 0 || !strings.Contains(out, "cancelled") {
		t.Fatalf("cancel: exit %d\n%s\n%s", code, out, errOut)
	}
	if st, _ := fake.ChallengeStatus(ids[0]); st != "canceled" {
		t.Errorf("status %s", st)
	}
	for _, bad := range [][]string{{fakelichess.Opponent, "--clock", "1+0", "--days", "3"}, {fakelichess.Opponent, "--clock", "100s"},
		{fakelichess.Opponent, "--days", "4"}, {}, {fakelichess.Opponent, "--cancel", "x"}} {
		if code, _, _ := run(bad...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage)", bad, code)
		}
	}
	for _, r := range fake.Requests() {
		if r.Token != "" && !strings.HasPrefix(r.UserAgent, "threefold/") {
			t.Errorf("User-Agent %q", r.UserAgent)
		}
	}
}

// A threefold in the bot's own game takes the routes of watch's alerts:
// it is in history, reaches the webhook and the dashboard's alert feed,
// each exactly once, for the operator; the dashboard counts the draw in
// the bot's record.
func TestBotGameAlertsTakeEveryRoute(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	var mu sync.Mutex
	var hooked []threefold.Alert
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var a threefold.Alert
		if err := json.NewDecoder(r.Body).Decode(&a); err == nil {
			mu.Lock()
			hooked = append(hooked, a)
			mu.Unlock()
		}
	}))
	defer hook.Close()
	file, _ := botConfigFile(t, fake, fakelichess.BotToken, "http:\n  addr: 127.0.0.1:0\nwatch:\n  webhooks:\n    - kind: json\n      url: "+hook.URL+"\n"+
		"bot:\n  chat:\n    min_interval: 0s\n  engine:\n    max_move_time: 50ms\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- Main(ctx, []string{"--config", file, "bot"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	}()
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	var base string
	if err := poll(wctx, func() bool {
		_, rest, ok := strings.Cut(stderr.String(), "msg=dashboard url=")
		if ok {
			base, _, _ = strings.Cut(rest, "?")
			base = strings.TrimSpace(strings.TrimSuffix(strings.Fields(base)[0], "/"))
		}
		return ok && fake.Streams("event") > 0
	}); err != nil {
		t.Fatalf("no dashboard: %v\n%s", err, stderr.String())
	}
	// The knights have shuffled; the opponent's f6g8 makes the start
	// position occur the third time, and Lichess draws the BOT's game.
	g := fake.MustNewGame(fakelichess.GameSpec{White: fakelichess.BotUser, Black: fakelichess.Opponent, ClockInitial: 60000,
		Moves:  strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"),
		Script: []fakelichess.Step{{Wait: 500 * time.Millisecond}, {Move: "f6g8"}}})
	threefolds := func(as []threefold.Alert) (n int, last threefold.Alert) {
		for _, a := range as {
			if a.Kind == threefold.KindThreefold {
				n, last = n+1, a
			}
		}
		return n, last
	}
	var feed struct {
		Alerts []threefold.Alert    `json:"alerts"`
		Bot    *threefold.BotStatus `json:"bot"`
	}
	err := poll(wctx, func() bool {
		resp, err := http.Get(base + "/api/state")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if json.NewDecoder(resp.Body).Decode(&feed) != nil {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		n, _ := threefolds(feed.Alerts)
		m, _ := threefolds(hooked)
		return n > 0 && m > 0 && lichess.Finished(g.State().Status) && feed.Bot != nil && feed.Bot.Draws == 1 && feed.Bot.Playing == 0
	})
	if err != nil {
		t.Fatalf("the threefold did not reach the dashboard and the webhook, or the dashboard did not count the draw (bot %+v): %v\n%s", feed.Bot, err, stderr.String())
	}
	if b := feed.Bot; b.Account != "ThreefoldBot" || b.Wins != 0 || b.Losses != 0 {
		t.Errorf("the dashboard shows the bot as %+v, want ThreefoldBot +0 =1 -0", b)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit code %d\nstderr:\n%s", c, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("threefold bot did not stop")
	}
	var out, errb bytes.Buffer
	if c := Main(context.Background(), []string{"--config", file, "history", "--json", "--kind", "threefold"}, strings.NewReader(""), &out, &errb); c != 0 {
		t.Fatalf("history: exit %d: %s", c, errb.String())
	}
	var hist struct {
		Alerts []threefold.Alert `json:"alerts"`
	}
	if err := json.Unmarshal(out.Bytes(), &hist); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out.String())
	}
	mu.Lock()
	defer mu.Unlock()
	for _, route := range []struct {
		name   string
		alerts []threefold.Alert
	}{{"history", hist.Alerts}, {"webhook", hooked}, {"dashboard feed", feed.Alerts}} {
		n, a := threefolds(route.alerts)
		if n != 1 || a.Ply != 8 || a.Game.ID != g.ID() || a.Audience != threefold.AudienceOperator || fmt.Sprint(a.Occurrences) != "[0 4 8]" {
			t.Errorf("%s: %d threefold alerts, the last %+v; want one at ply 8 for the operator", route.name, n, a)
		}
	}
}

// The bot of a config that sets nothing is the bot package's default bot.
func TestBotConfigLoadedDefaults(t *testing.T) {
	isolateConfig(t)
	t.Setenv("THREEFOLD_LANG", "en")
	cfg, err := (&environment{}).loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	got, err := cfg.Bot.toBot("")
	if err != nil {
		t.Fatal(err)
	}
	want := bot.DefaultConfig()
	want.Chat.Lang = i18n.English // the chat's language resolved: lang, here en
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the bot of the default config:\n%+v\nwant bot.DefaultConfig:\n%+v", got, want)
	}
}
