package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"go.uber.org/goleak"

	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/web"
)

// demoRun is `threefold demo` running in-process, its stdout read line by
// line as it comes.
type demoRun struct {
	cancel context.CancelFunc
	lines  chan string
	done   chan struct{} // closed when Main has returned
	code   int
	stderr *syncBuffer

	mu  sync.Mutex
	all []string
}

func startDemo(t *testing.T, args ...string) *demoRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	d := &demoRun{cancel: cancel, lines: make(chan string, 1024), done: make(chan struct{}), stderr: &syncBuffer{}}
	go func() {
		d.code = Main(ctx, append([]string{"demo"}, args...), strings.NewReader(""), pw, d.stderr)
		pw.Close()
		close(d.done)
	}()
	go func() {
		defer close(d.lines)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			d.mu.Lock()
			d.all = append(d.all, sc.Text())
			d.mu.Unlock()
			d.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		for range d.lines { // drain so the demo never blocks on stdout
		}
		<-d.done
		if t.Failed() {
			d.mu.Lock()
			t.Logf("demo stdout:\n%s", strings.Join(d.all, "\n"))
			d.mu.Unlock()
			t.Logf("demo stderr:\n%s", d.stderr.String())
		}
	})
	return d
}

// waitLine returns the first line (from now on) that contains all of subs.
func (d *demoRun) waitLine(t *testing.T, ctx context.Context, subs ...string) string {
	t.Helper()
	for {
		select {
		case l, ok := <-d.lines:
			if !ok {
				t.Fatalf("the demo ended before a line with %q", subs)
			}
			match := true
			for _, s := range subs {
				match = match && strings.Contains(l, s)
			}
			if match {
				return l
			}
		case <-ctx.Done():
			t.Fatalf("no line with %q: %v", subs, ctx.Err())
		}
	}
}

// stop interrupts the demo and returns its exit code and last line.
func (d *demoRun) stop(t *testing.T) (int, string) {
	t.Helper()
	d.cancel()
	last := ""
	for l := range d.lines {
		last = l
	}
	<-d.done
	return d.code, last
}

func TestDemoShowsAlertsAndStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	d := startDemo(t, "--duration", "10m", "--pace", "20ms")
	d.waitLine(t, ctx, "dashboard: http://127.0.0.1:")
	// Each part of the demo raises its alerts: the broadcast boards (for
	// arbiters), the spectated blitz game to its fifth occurrence, and the
	// bot's games (which Lichess ends at the first threefold).
	want := map[string][]string{
		"broadcast threefold":  {"[for arbiters]", "position occurred a third time", "broadcast round"},
		"broadcast claim":      {"[for arbiters]", "may claim a draw by declaring", "broadcast round"},
		"fivefold":             {"thegrinder - GandalfTheTW", "the game is drawn (FIDE 9.6.1)"},
		"bot game alert":       {"source lichess bot threefoldbot", "may claim"},
		"bot game threefold":   {"bot game botgm001", "threefold automatic"},
		"bot game second game": {"bot game botgm002", "over:"},
	}
	for len(want) > 0 {
		var l string
		select {
		case l = <-d.lines:
		case <-ctx.Done():
			t.Fatalf("alerts never seen: %v", want)
		}
		for name, subs := range want {
			all := true
			for _, s := range subs {
				all = all && strings.Contains(l, s)
			}
			if all {
				delete(want, name)
			}
		}
	}
	code, last := d.stop(t)
	if code != exitOK {
		t.Fatalf("exit code %d", code)
	}
	if !strings.HasPrefix(last, "demo over (interrupted): ") {
		t.Fatalf("last line %q", last)
	}
}

// The demo ends by itself after --duration, having stopped every goroutine
// it started (the fake server, the clients, the bot, the watcher, the
// dashboard and its connections).
func TestDemoEndsByItself(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"demo", "--duration", "1500ms", "--pace", "10ms"}, strings.NewReader(""), &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "demo over (after 1.5s)") {
		t.Fatalf("stdout:\n%s", out.String())
	}
	if errb.Len() != 0 {
		t.Fatalf("stderr:\n%s", errb.String())
	}
}

func TestDemoFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "zero duration", args: []string{"--duration", "0s"}},
		{name: "negative pace", args: []string{"--pace", "-1s"}},
		{name: "argument", args: []string{"extra"}},
		{name: "public address without token", args: []string{"--addr", "0.0.0.0:0", "--duration", "1s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := Main(context.Background(), append([]string{"demo"}, tc.args...), strings.NewReader(""), &out, &errb); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, errb.String())
			}
		})
	}
}

func artifactDir(t *testing.T) string {
	if d := os.Getenv("THREEFOLD_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// The acceptance test of the dashboard: a real browser opens it during a
// demo run, sees a board move live and an alert arrive, and the game page
// marks the occurrences; screenshots are kept as artifacts.
func TestDemoDashboardInBrowser(t *testing.T) {
	exe := testenv.Chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// With a token, as on a shared network: the page must keep it for
	// its websocket and its links.
	d := startDemo(t, "--duration", "10m", "--pace", "400ms", "--token", "demo-s3cret")
	line := d.waitLine(t, ctx, "dashboard: http://")
	url := strings.TrimSpace(strings.TrimPrefix(line, "dashboard: "))
	if !strings.HasSuffix(url, "/?token=demo-s3cret") {
		t.Fatalf("dashboard URL %q does not carry the token", url)
	}
	base := strings.TrimSuffix(url, "?token=demo-s3cret")
	if resp, err := http.Get(base); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET %s without the token: %v %v, want 401", base, resp, err)
	} else {
		resp.Body.Close()
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("headless", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 1000),
	)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(".card[data-key]"))); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	// A board updates live: the first card's ply moves on, pushed over the
	// websocket (the page is not reloaded).
	key, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('.card[data-key]').dataset.key`))
	if err != nil {
		t.Fatal(err)
	}
	sel := `document.querySelector('.card[data-key="` + key + `"]')`
	ply0, err := chromedp.Run(bctx, chromedp.Evaluate[string](sel+`.dataset.ply`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](sel+`.dataset.ply !== "`+ply0+`" && document.body.dataset.conn === "live"`,
		chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		t.Fatalf("the board of %s never moved past ply %s: %v", key, ply0, err)
	}
	ply1, _ := chromedp.Run(bctx, chromedp.Evaluate[string](sel+`.dataset.ply`))
	t.Logf("board %s moved live from ply %s to %s", key, ply0, ply1)

	// An alert arrives in the feed while the page is open.
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.querySelectorAll('#alerts li.alert').length >= 3`,
		chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		t.Fatalf("no alert in the feed: %v", err)
	}
	feed, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#alerts li.alert').innerText`))
	t.Logf("latest alert in the feed: %q", feed)
	if !strings.Contains(feed, "FIDE 9.") {
		t.Fatalf("alert without its article: %q", feed)
	}
	// Wait for a card with a repetition on the board, for a telling picture.
	_, _ = chromedp.Run(bctx, chromedp.Poll[bool](`document.querySelectorAll('.card.alerting').length >= 1`,
		chromedp.WithPollingTimeout(time.Minute)))
	dir := artifactDir(t)
	shot(t, bctx, filepath.Join(dir, "dashboard-index.png"))

	// The game page of the fivefold game, reached by clicking its card
	// (the link must carry the token): the move list marks occurrences.
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`.card[data-key="lichess/8dCwCGev"]`)),
		chromedp.WaitVisible(chromedp.CSS("#moves .mv"))); err != nil {
		t.Fatalf("open the game page from its card: %v", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.conn === "live"`,
		chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("the game page's feed is not live: %v", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.querySelectorAll('#moves sup.mk.o3').length >= 1`,
		chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		t.Fatalf("no third occurrence marked on the game page: %v", err)
	}
	// Click a marked move: the board shows that ply. The click is the
	// page's own (one script): the move list is redrawn as moves arrive,
	// and a node found first and clicked after may be gone by then.
	clicked, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => {
		const mv = document.querySelector('#moves .mv:has(sup.mk.o3)');
		if (mv) mv.click();
		return !!mv;
	})()`))
	if err != nil || !clicked {
		t.Fatalf("click a marked move: found %v, %v", clicked, err)
	}
	at, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('at').innerText`))
	t.Logf("game page after a click: %q", at)
	if !strings.Contains(at, "3rd of") {
		t.Fatalf("the clicked ply is not shown as a 3rd occurrence: %q", at)
	}
	shot(t, bctx, filepath.Join(dir, "dashboard-game.png"))

	// A phone-sized window still shows the board and the feed.
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(".card[data-key]"))); err != nil {
		t.Fatal(err)
	}
	shot(t, bctx, filepath.Join(dir, "dashboard-phone.png"))
}

func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

func TestDashboardRefusesPublicAddressWithoutToken(t *testing.T) {
	_, err := newDashboard(&config{HTTP: web.Options{Addr: "0.0.0.0:0"}}, slog.New(slog.DiscardHandler))
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "http.token") {
		t.Fatalf("err = %v, want a usage error naming http.token", err)
	}
}
