package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/rules"
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

	dropPages(s)
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
		OccurrenceSAN: []string{"", "Ng8", "Ng8"}, Claimant: "white", SAN: "Ng8", Game: ref, ObservedAt: time.Now(), DelayPlies: 3})
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`#alerts li.alert[data-id="a1"]`))); err != nil {
		t.Fatalf("no alert after the reconnection: %v", err)
	}
	// It says how far behind the board its source was (a Lichess
	// spectator stream: 3 plies), not a delay in seconds.
	if lag, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#alerts li.alert[data-id="a1"] .a-lag').textContent`)); err != nil || lag != "source 3 plies behind" {
		t.Errorf("the alert's lag reads %q (%v), want \"source 3 plies behind\"", lag, err)
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
	// The bot's account: its ratings and record.
	hub.SetBot(threefold.BotStatus{Account: "ThreefoldBot", Ratings: map[string]int{"bullet": 1712, "blitz": 1650, "puzzle": 2000},
		Wins: 12, Draws: 3, Losses: 5, Playing: 2})
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`#bot .rating[data-speed="blitz"]`))); err != nil {
		t.Fatalf("the bot does not show: %v", err)
	}
	botText, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(`#bot`)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ThreefoldBot", "Bullet 1712", "Blitz 1650", "+12 =3 −5", "playing 2 games"} {
		if !strings.Contains(botText, want) {
			t.Errorf("the bot shows %q, without %q", botText, want)
		}
	}
	if strings.Contains(botText, "2000") {
		t.Errorf("the bot shows %q: a rating outside the game categories", botText)
	}
	screenshot(t, bctx, "dashboard-dark-reconnected.png")
}

// screenshot keeps the page as it is shown, in $THREEFOLD_ARTIFACTS when
// that is set.
func screenshot(t *testing.T, bctx context.Context, name string) {
	t.Helper()
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
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// startDashboard serves a hub on a free port until the test ends.
func startDashboard(t *testing.T, ctx context.Context) (*Hub, string) {
	t.Helper()
	hub, _, url := startDashboardServer(t, ctx)
	return hub, url
}

// startDashboardServer is startDashboard that also returns the server, for
// a test that drops the pages' connections (dropPages).
func startDashboardServer(t *testing.T, ctx context.Context) (*Hub, *Server, string) {
	t.Helper()
	hub := NewHub(HubOptions{})
	hctx, hcancel := context.WithCancel(ctx)
	hubDone := make(chan struct{})
	go func() { defer close(hubDone); _ = hub.Run(hctx) }()
	t.Cleanup(func() { hcancel(); <-hubDone })
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
	t.Cleanup(func() { scancel(); <-served })
	return hub, s, s.URL(ln)
}

// dropPages cuts every page's connection, as a restart or a network blip
// would; the pages reconnect by themselves.
func dropPages(s *Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.active {
		c.stop()
	}
}

// latinLeft is a script that lists every visible text of the page (the
// language menu aside, whose languages are named in their own) that still
// has Latin letters once notation (SAN, FEN, squares, rule numbers) and
// the data of the test (players, source, the product's name) are taken out.
const latinLeft = `(() => {
  const data = ['Alice', 'Bob', 'Carol', 'Dave', 'rnd12345', 'threefold', 'FIDE', 'Lichess', 'lichess'];
  const san = /(O-O(-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?)[+#]?|^[a-h]$/g;
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('select, script, style') || !el.getClientRects().length) continue;
    let s = n.textContent;
    for (const d of data) s = s.split(d).join('');
    s = s.replace(san, '');
    if (/[A-Za-z]/.test(s)) out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll('[title]')) {
    let s = el.title;
    for (const d of data) s = s.split(d).join('');
    if (el.getClientRects().length && /[A-Za-z]/.test(s.replace(san, '').replace(/Home|End/g, ''))) out.push('title: ' + el.title);
  }
  return out;
})()`

// TestDashboardLanguagesInBrowser: the pages follow the browser's
// Accept-Language; Persian is right to left with its layout mirrored and
// its boards and move list not; a viewer picks Russian in the page, and
// then every visible string is Cyrillic or notation: the source's name, a
// withdrawal's reason and the site's result too, which the feed carries in
// English.
func TestDashboardLanguagesInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := browser(t, ctx)
	hub, url := startDashboard(t, ctx)
	ref := threefold.GameRef{Site: "lichess", ID: "g1", White: "Alice", Black: "Bob"}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}
	const source = "lichess broadcast round rnd12345"
	hub.Update(threefold.GameState{Game: ref, Moves: moves, Source: source})
	hub.Update(threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "g2", White: "Carol", Black: "Dave"}, Moves: []string{"e4", "e5"},
		Source: source, Result: "1-0", SiteResult: "Time forfeit", Finished: true})
	hub.Update(threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "g3", White: "Carol", Black: "Dave"}, Moves: []string{"Nf3", "Nf6", "Qxh7"}, Source: source})
	hub.SourceStatus(source, true, nil)
	hub.Alert(threefold.Alert{ID: "a1", Kind: threefold.KindThreefold, Ply: 8, Count: 3, Occurrences: []int{0, 4, 8},
		OccurrenceSAN: []string{"", "Ng8", "Ng8"}, Claimant: "white", SAN: "Ng8", Game: ref, ObservedAt: time.Now()})
	hub.Alert(threefold.Alert{ID: "a2", Kind: threefold.KindClaimByMove, Ply: 7, Count: 3, Occurrences: []int{1, 5}, OccurrenceSAN: []string{"Nf6", "Nf6"},
		Claimant: "black", Move: "f6g8", MoveSAN: "Ng8", SAN: "Ng1", Game: ref, ObservedAt: time.Now(), Audience: "arbiters"})
	hub.Alert(threefold.Alert{ID: "a3", Kind: threefold.KindWithdrawn, Ply: 6, Claimant: "white", Game: ref, ObservedAt: time.Now(),
		Withdraws: "a0", WithdrawnKind: threefold.KindThreefold, Reason: "the source corrected the moves from ply 5"})

	acceptLanguage := func(v string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, t, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": v}})
			return err
		})
	}
	loaded := func(page string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(chromedp.Navigate(url+page), chromedp.WaitVisible(chromedp.CSS(`#alerts li.alert[data-id="a1"]`)))
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}

	// Persian, from the browser's Accept-Language.
	if err := chromedp.Do(bctx, acceptLanguage("fa-IR,fa;q=0.9,en;q=0.5"), loaded("")); err != nil {
		t.Fatal(err)
	}
	if got := eval(`document.documentElement.lang + ' ' + document.documentElement.dir + ' ' + getComputedStyle(document.body).direction`); got != "fa rtl rtl" {
		t.Errorf("lang, dir, direction: %q, want fa rtl rtl", got)
	}
	// The layout is mirrored: the brand is at the right, the feed at the left.
	if got := eval(`String(document.querySelector('.brand').getBoundingClientRect().left > document.getElementById('conn').getBoundingClientRect().left) + ' ' +
		String(document.querySelector('.feed').getBoundingClientRect().left < document.querySelector('.games-wrap').getBoundingClientRect().left)`); got != "true true" {
		t.Errorf("the layout is not mirrored (brand right of the connection, feed left of the games): %q", got)
	}
	// The board is not: the queen's rook (a1) is left of the king's (h1),
	// White's queen left of White's king.
	unmirrored := `(() => {
	  const pcs = [...document.querySelector('svg.board').querySelectorAll('text.pw')];
	  const x = (g) => pcs.filter((e) => e.textContent.startsWith(g)).map((e) => e.getBoundingClientRect().left);
	  const rooks = x('\u265C'), q = x('\u265B')[0], k = x('\u265A')[0];
	  return String(rooks.length === 2 && q < k && Math.min(...rooks) < q && Math.max(...rooks) > k);
	})()`
	if got := eval(unmirrored); got != "true" {
		t.Errorf("the card's board is mirrored in Persian")
	}
	if got := eval(`document.querySelector('#alerts li.alert[data-id="a1"] .a-claim').textContent`); !strings.Contains(got, "سفید می‌تواند ادعای تساوی کند") {
		t.Errorf("the alert is not in Persian: %q", got)
	}
	screenshot(t, bctx, "dashboard-fa.png")
	if err := chromedp.Do(bctx, chromedp.Navigate(url+"game?key=lichess%2Fg1"), chromedp.WaitVisible(chromedp.CSS(`#moves .mv[data-ply="8"]`))); err != nil {
		t.Fatal(err)
	}
	screenshot(t, bctx, "dashboard-fa-game.png")
	if got := eval(`getComputedStyle(document.getElementById('moves')).direction + ' ' + getComputedStyle(document.querySelector('.nav')).direction`); got != "ltr ltr" {
		t.Errorf("the move list and its buttons: %q, want ltr ltr inside the right-to-left page", got)
	}
	if got := eval(unmirrored); got != "true" {
		t.Errorf("the game page's board is mirrored in Persian")
	}
	if got := eval(`String(document.querySelector('#moves .mv[data-ply="1"]').getBoundingClientRect().left < document.querySelector('#moves .mv[data-ply="2"]').getBoundingClientRect().left)`); got != "true" {
		t.Errorf("1.Nf3 is not left of 1...Nf6 in the Persian move list")
	}

	// A browser that names none of the four gets English; the viewer picks
	// Russian in the page, and keeps it.
	if err := chromedp.Do(bctx, acceptLanguage("de-DE,de;q=0.9"), loaded("")); err != nil {
		t.Fatal(err)
	}
	if got := eval(`document.documentElement.lang + ' ' + document.title`); got != "en threefold — live games" {
		t.Errorf("with Accept-Language de: %q, want the English page", got)
	}
	if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById('lang'); s.value = 'ru'; s.dispatchEvent(new Event('change')); })()`)); err != nil {
		t.Fatalf("picking Russian in the page: %v", err)
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS(`html[lang="ru"] #alerts li.alert[data-id="a1"]`))); err != nil {
		t.Fatalf("the page did not come back in Russian: %v", err)
	}
	for _, page := range []string{"", "game?key=lichess%2Fg1#4"} {
		if err := chromedp.Do(bctx, loaded(page)); err != nil {
			t.Fatal(err)
		}
		if got := eval(`document.documentElement.lang + ' ' + document.documentElement.dir`); got != "ru ltr" {
			t.Errorf("%q: lang and dir %q, want ru ltr (the pick is kept)", page, got)
		}
		left, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](latinLeft))
		if err != nil {
			t.Fatal(err)
		}
		if len(left) > 0 {
			t.Errorf("page %q in Russian shows text that is neither Cyrillic nor notation: %q", page, left)
		}
		body := eval(`document.body.innerText`)
		want := []string{"Белые могут потребовать ничью", "трансляция Lichess, тур rnd12345"}
		if page == "" {
			want = append(want, "источник исправил ходы начиная с полухода 5", "lichess: просрочка времени")
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("page %q: no %q in:\n%s", page, w, body)
			}
		}
	}
	// Why a game needs attention is said in Russian too, the rules' error
	// it quotes as well.
	if err := chromedp.Do(bctx, chromedp.Navigate(url+"game?key=lichess%2Fg3"), chromedp.WaitVisible(chromedp.CSS(`.st-attention`))); err != nil {
		t.Fatal(err)
	}
	if got := eval(`document.querySelector('.st-attention').textContent`); !strings.HasPrefix(got, "ход 3 (Qxh7) невозможно сделать: невозможный ход: Qxh7 в позиции ") {
		t.Errorf("attention %q, want it in Russian", got)
	}
}

// TestGamePageNearAndClaimInBrowser: the game page lists the plies whose
// pieces stand as before in another position, beside the occurrences, and
// checks a claim at the ply the arbiter enters, with a declared move or not.
func TestGamePageNearAndClaimInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := browser(t, ctx)
	hub, url := startDashboard(t, ctx)
	ref := threefold.GameRef{Site: "lichess", ID: "near", White: "Alice", Black: "Bob"}
	hub.Update(threefold.GameState{Game: ref, StartFEN: kingsFEN, Moves: kingsShuffle[:10], Source: "test source"})
	if err := chromedp.Do(bctx, chromedp.Navigate(url+"game?key=lichess%2Fnear#4"), chromedp.WaitVisible(chromedp.CSS(`#near li a[data-ply="9"]`))); err != nil {
		t.Fatal(err)
	}
	text := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	if got := text(`document.getElementById('at').innerText`); !strings.Contains(got, "the pieces stand as at ply 0, with the same side to move, but it is another position: other castling rights") {
		t.Errorf("beside the occurrences of ply 4: %q", got)
	}
	check := func(ply, move, want string) string {
		t.Helper()
		set := `(() => { document.getElementById('claim-ply').value = '` + ply + `'; document.getElementById('claim-move').value = '` + move + `';
		  document.getElementById('claim-out').className = 'claim-out'; document.getElementById('claim-go').click(); })()`
		if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](set), chromedp.WaitVisible(chromedp.CSS(`#claim-out.`+want))); err != nil {
			t.Fatalf("claim at ply %s %s: %v", ply, move, err)
		}
		return text(`document.getElementById('claim-out').innerText`)
	}
	if got := check("8", "", "invalid"); !strings.Contains(got, "has occurred twice") || !strings.Contains(got, "the king moved at ply 1 (1.Kf1)") {
		t.Errorf("the claim at ply 8: %q", got)
	}
	if got := check("9", "Kf8", "valid"); !strings.Contains(got, "declaring 5...Kf8: the claim is correct (FIDE 9.2.1)") {
		t.Errorf("the claim at ply 9 declaring Kf8: %q", got)
	}
	if got := check("9", "Ke1", "invalid"); !strings.Contains(got, "The check failed") {
		t.Errorf("an illegal declared move: %q", got)
	}
	screenshot(t, bctx, "dashboard-claim.png")
}

// TestGamePageLiveInBrowser: a game page that follows a game live — sent
// the new plies of each update, the whole game after a takeback or a
// correction, never the plies of the repeated positions (it works them
// out from the groups) — shows what a page opened afterwards shows: the
// moves with their marks, the repeated positions, the near repetitions,
// the state; also after a long game of take-backs with many repeated
// positions, its connection dropped in the middle, and the line corrected
// near its start. The repeated positions it lists are the hub's.
func TestGamePageLiveInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := browser(t, ctx)
	hub, srv, url := startDashboardServer(t, ctx)
	ref := threefold.GameRef{Site: "lichess", ID: "live", White: "Alice", Black: "Bob"}
	state := func(moves []string, result string) threefold.GameState {
		return threefold.GameState{Game: ref, StartFEN: kingsFEN, Moves: moves, Source: "test source", Result: result, Finished: result != ""}
	}
	page := url + "game?key=lichess%2Flive"
	shows := func(plies int) {
		t.Helper()
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelectorAll('#moves .mv').length === %d`, plies+1),
			chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatalf("the page does not show %d plies: %v", plies, err)
		}
	}
	seen := func() string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`['moves', 'now', 'repeated', 'near', 'at'].map((id) => document.getElementById(id).innerHTML).join('\n')`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// listsHubsRepeated: the plies the page lists under the repeated
	// positions are the hub's Repeated, which the hub works out itself.
	listsHubsRepeated := func(name string) {
		t.Helper()
		got, err := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify([...document.querySelectorAll('#repeated li')].filter((li) => !li.classList.contains('empty')).map((li) => [...li.querySelectorAll('[data-ply]')].map((a) => +a.dataset.ply)))`))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := hub.Game(GameKey(ref))
		want, _ := json.Marshal(v.Repeated)
		if got != string(want) {
			t.Errorf("%s: the page lists the repeated positions %s, the hub %s", name, got, want)
		}
	}
	corrected := append(slices.Clone(kingsShuffle[:5]), "Kd8", "Ke1", "Ke8")
	// A long game of take-backs (kings and rooks), with many repeated
	// positions, sent a few plies at a time; then corrected from ply 7 on.
	long := shuffleSAN(t, kingsFEN, nil, 160, 1)
	var growing []threefold.GameState
	for n := 10; n < len(long); n += 7 {
		growing = append(growing, state(long[:n], ""))
	}
	growing = append(growing, state(long, ""))
	var longCorrected []string
	for seed := uint64(2); longCorrected == nil || longCorrected[6] == long[6]; seed++ {
		longCorrected = shuffleSAN(t, kingsFEN, long[:6], 30, seed)
	}
	oneMore := shuffleSAN(t, kingsFEN, longCorrected, 1, 3)
	rounds := []struct {
		name    string
		updates []threefold.GameState
		dropAt  int // drop the page's connection before this update (0: never)
	}{
		{"new plies", []threefold.GameState{state(kingsShuffle[:3], ""), state(kingsShuffle[:5], ""), state(kingsShuffle[:9], ""),
			state(kingsShuffle[:12], ""), state(kingsShuffle[:12], "1/2-1/2")}, 0},
		{"a takeback, a correction", []threefold.GameState{state(kingsShuffle[:6], ""), state(corrected, ""), state(append(slices.Clone(corrected), "Kf1"), "")}, 0},
		{"many moves, a reconnection", growing, len(growing) / 2},
		{"the long line corrected near its start", []threefold.GameState{state(longCorrected, ""), state(oneMore, "")}, 0},
	}
	hub.Update(state(kingsShuffle[:2], ""))
	if err := chromedp.Do(bctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	shows(2)
	for _, r := range rounds {
		for i, u := range r.updates {
			if i > 0 && i == r.dropAt {
				dropPages(srv)
				if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.conn !== "live"`, chromedp.WithPollingTimeout(time.Minute))); err != nil {
					t.Fatalf("%s: the page did not notice the drop: %v", r.name, err)
				}
			}
			hub.Update(u)
			if u.Result == "" {
				shows(len(u.Moves))
			}
		}
		last := r.updates[len(r.updates)-1]
		if last.Result != "" {
			if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`!!document.querySelector('#now .st-finished')`, chromedp.WithPollingTimeout(time.Minute))); err != nil {
				t.Fatalf("%s: the result does not show: %v", r.name, err)
			}
		}
		listsHubsRepeated(r.name)
		live := seen()
		if err := chromedp.Do(bctx, chromedp.Navigate(page)); err != nil {
			t.Fatal(err)
		}
		shows(len(last.Moves))
		if fresh := seen(); fresh != live {
			t.Errorf("%s: the page that followed shows\n%s\nwhere a page opened now shows\n%s", r.name, live, fresh)
		}
	}
}

// shuffleSAN plays the moves of prefix (SAN) from fen, then up to plies
// random moves, two in three of them take-backs (randgame.Shuffle, the
// same for the same seed), and returns the whole line in SAN.
func shuffleSAN(t *testing.T, fen string, prefix []string, plies int, seed uint64) []string {
	t.Helper()
	p, err := rules.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, san := range prefix {
		m, err := p.ParseSAN(san)
		if err != nil {
			t.Fatalf("%s: %v", san, err)
		}
		p.Play(m)
	}
	out := slices.Clone(prefix)
	for _, m := range randgame.Shuffle(rand.New(rand.NewPCG(seed, 7)), p, plies) {
		out = append(out, p.SAN(m))
		p.Play(m)
	}
	return out
}
