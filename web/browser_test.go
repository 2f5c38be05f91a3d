package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testenv"
)

// browser starts headless Chromium (testenv.Chromium: skipped when it is not
// installed, unless CI is set).
func browser(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	exe := testenv.Chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("headless", true), chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// The page reconnects by itself when its feed drops, gets the state again
// and goes on updating; shown in the dark colour scheme.
func TestPageReconnectsInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := browser(t, ctx)

	hub := NewHub(HubOptions{})
	hctx, hcancel := context.WithCancel(ctx)
	hubDone := make(chan struct{})
	go func() { defer close(hubDone); _ = hub.Run(hctx) }()
	defer func() { hcancel(); <-hubDone }()
	s, err := New(Options{Addr: "127.0.0.1:0", Hub: hub})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sctx, scancel := context.WithCancel(ctx)
	served := make(chan struct{})
	go func() { defer close(served); _ = s.Serve(sctx, ln) }()
	defer func() { scancel(); <-served }()

	ref := threefold.GameRef{Site: "lichess", ID: "g1", White: "Alice", Black: "Bob"}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}
	hub.Update(threefold.GameState{Game: ref, Moves: moves[:4], Source: "test source"})
	hub.SourceStatus("test source", true, nil)

	dark := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	})
	live := chromedp.Poll[bool](`document.body.dataset.conn === "live"`, chromedp.WithPollingTimeout(time.Minute))
	if err := chromedp.Do(bctx, dark, chromedp.Navigate(s.URL(ln)), chromedp.WaitVisible(chromedp.CSS(`.card[data-ply="4"]`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, live); err != nil {
		t.Fatal(err)
	}

	// Drop every page's connection, as a restart or a network blip would.
	s.mu.Lock()
	for c := range s.active {
		c.stop()
	}
	s.mu.Unlock()
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.conn !== "live"`,
		chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("the page did not notice the drop: %v", err)
	}
	hub.Update(threefold.GameState{Game: ref, Moves: moves, Source: "test source"}) // while it is away
	if _, err := chromedp.Run(bctx, live); err != nil {
		t.Fatalf("the page did not reconnect: %v", err)
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`.card[data-ply="8"].alerting`))); err != nil {
		t.Fatalf("the page did not get the state again: %v", err)
	}
	hub.Alert(threefold.Alert{ID: "a1", Kind: threefold.KindThreefold, Ply: 8, Count: 3, Occurrences: []int{0, 4, 8},
		OccurrenceSAN: []string{"", "Ng8", "Ng8"}, Claimant: "white", SAN: "Ng8", Game: ref, ObservedAt: time.Now()})
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`#alerts li.alert[data-id="a1"]`))); err != nil {
		t.Fatalf("no alert after the reconnection: %v", err)
	}
	// Its withdrawal shows, and strikes it out.
	hub.Alert(threefold.Alert{ID: "w1", Kind: threefold.KindWithdrawn, Ply: 8, Occurrences: []int{}, Claimant: "white",
		SAN: "Ng8", Game: ref, ObservedAt: time.Now(), Withdraws: "a1", WithdrawnKind: threefold.KindThreefold,
		Reason: "the source corrected the moves from ply 8"})
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`#alerts li.alert.k-withdrawn[data-id="w1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#alerts li.alert.withdrawn[data-id="a1"]`))); err != nil {
		t.Fatalf("the withdrawal does not show: %v", err)
	}
	// The e-boards of a source: one well, one LiveChess refuses.
	hub.SourceBoards("test source", []threefold.BoardStatus{
		{Serial: "7425", Board: 1, State: "ACTIVE", Followed: true, Game: "g1", Placement: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"},
		{Serial: "7426", Board: 2, State: "ACTIVE", Failing: "LiveChess refused to follow it: EBoard 7426 is in use"}})
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`.eboard.ok[data-serial="7425"] svg`)),
		chromedp.WaitVisible(chromedp.CSS(`.eboard.failing[data-serial="7426"] .eboard-why`))); err != nil {
		t.Fatalf("the boards' health does not show: %v", err)
	}
	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("THREEFOLD_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "dashboard-dark-reconnected.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
