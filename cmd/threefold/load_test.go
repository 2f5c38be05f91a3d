package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

// The load test of issue 7: one watcher instance (the wiring of runWatch:
// store, delivery.Gate, the game recorder, a json webhook behind its
// queue) follows, on the fake Lichess over loopback, a 500-board broadcast
// round and 2,000 simultaneously moving games, all real games of the
// shared corpus played one ply per tick on every board and game at once.
//
// Lichess allows 8 spectator streams per IP, and the listener follows a
// Lichess game through its spectator stream (games-by-users/ids carry game
// starts and ends, not moves): so 8 of the 2,000 games come over HTTP as
// lichess.org/GAMEID sources, and the other 1,992 are fed through the
// listener's public API (listener.Watcher.Apply with snapshots, as a
// source would emit them). The broadcast is one stream (the 500 boards).
//
// It lives in package main, not a package of its own, because it runs the
// wiring of runWatch (delivery.Durable, store.Recorder), which a load
// test outside the command could only imitate.
//
//	THREEFOLD_LOADTEST=1 go test -run TestLoad -v -timeout 20m ./cmd/threefold/
//
// (with THREEFOLD_TEST_POSTGRES_DSN set, PostgreSQL is measured as well).
// THREEFOLD_LOADTEST_GAMES and THREEFOLD_LOADTEST_BOARDS change the sizes;
// THREEFOLD_LOADTEST_PLIES caps the plies played per game (default 120).
func TestLoad(t *testing.T) {
	if os.Getenv("THREEFOLD_LOADTEST") != "1" {
		t.Skip("set THREEFOLD_LOADTEST=1 to run the load test")
	}
	nGames := envInt("THREEFOLD_LOADTEST_GAMES", 2000)
	nBoards := envInt("THREEFOLD_LOADTEST_BOARDS", 500)
	maxPlies := envInt("THREEFOLD_LOADTEST_PLIES", 120)
	games := loadCorpus(t, nGames+nBoards, maxPlies)
	var rows []string
	t.Run("sqlite", func(t *testing.T) {
		rows = append(rows, runLoad(t, "sqlite:"+filepath.Join(t.TempDir(), "threefold.db"), games[:nBoards], games[nBoards:], maxPlies))
	})
	t.Run("postgres", func(t *testing.T) {
		rows = append(rows, runLoad(t, postgresDSN(t), games[:nBoards], games[nBoards:], maxPlies))
	})
	// For the README ("Running several instances").
	fmt.Printf("\nOne `threefold watch` instance, %d games moving at once (%d boards of one broadcast round + %d games), %d CPU cores (%s/%s):\n\n",
		nGames+nBoards, nBoards, nGames, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Println("| store | games followed | moves processed/s | alert latency p50 | alert latency p99 | CPU per game | heap per game | webhook queue overflow |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Printf("\nMoves/s: plies of every board and game taken in (parsed, replayed, checked, the game recorded) per second of wall time. "+
		"Latency: from the move arriving (the snapshot's observed_at) to the alert committed in the store. CPU and heap: of the whole test "+
		"process, fake Lichess and feeders included (an upper bound). The %d broadcast boards come over one HTTP stream and 8 games over "+
		"spectator streams (Lichess's per-IP limit); the other games are fed through listener.Watcher.Apply.\n", nBoards)
	fmt.Printf("\nReproduce: `THREEFOLD_LOADTEST=1 THREEFOLD_TEST_POSTGRES_DSN=... go test -run TestLoad -v -timeout 20m ./cmd/threefold/`\n")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// loadGame is one game of the load: its moves and the alerts it raises.
type loadGame struct {
	white, black string
	san, uci     []string
	alerts       int      // expected alerts over its plies (package rules alone)
	kinds        []string // them, as kind@ply
}

func loadCorpus(t *testing.T, n, maxPlies int) []*loadGame {
	t.Helper()
	parsed, err := pgn.ParseGames(refgames.Repetitions(t).Text(t))
	if err != nil {
		t.Fatal(err)
	}
	var out []*loadGame
	for _, g := range parsed {
		if _, ok := g.StartFEN(); ok || g.Err != nil {
			continue
		}
		tr, err := g.Replay(func(int, string, *rules.Game) {})
		if err != nil || tr == nil || len(tr.Moves()) < 10 {
			continue
		}
		lg := &loadGame{}
		lg.white, _ = g.Tag("White")
		lg.black, _ = g.Tag("Black")
		pos := tr.Start()
		for i, m := range tr.Moves() {
			if i == maxPlies {
				break
			}
			lg.san = append(lg.san, pos.SAN(m))
			lg.uci = append(lg.uci, m.UCI())
			pos.Play(m)
		}
		lg.kinds = expectedKinds(t, lg.san)
		lg.alerts = len(lg.kinds)
		out = append(out, lg)
		if len(out) == n {
			return out
		}
	}
	if len(out) < n {
		t.Fatalf("only %d usable games in the corpus, want %d", len(out), n)
	}
	return out
}

// expectedKinds lists the alerts of a game as expectedAlerts computes them,
// up to the ply where the game is drawn by 9.6 (fivefold, 75 moves): the
// corpus has games played on after it, and the watcher raises nothing there.
func expectedKinds(t *testing.T, san []string) []string {
	g := rules.NewGame(rules.StartPosition())
	var out []string
	prevFifty, prevSeventy := false, false
	for ply := 0; ply <= len(san); ply++ {
		if ply > 0 {
			if _, err := g.PlaySAN(san[ply-1]); err != nil {
				t.Fatal(err)
			}
		}
		v := g.Verdict()
		drawn := v.Count >= 5 || v.SeventyFiveMoves // no claim where the game ends
		switch {
		case drawn:
		case v.Count >= 3:
			out = append(out, fmt.Sprintf("%s@%d", threefold.KindThreefold, ply))
		case len(v.ClaimMoves) > 0:
			out = append(out, fmt.Sprintf("%s@%d", threefold.KindClaimByMove, ply))
		}
		if v.Count == 5 {
			out = append(out, fmt.Sprintf("%s@%d", threefold.KindFivefold, ply))
		}
		if v.FiftyMoves && !prevFifty && !drawn {
			out = append(out, fmt.Sprintf("%s@%d", threefold.KindFiftyMoves, ply))
		}
		if v.SeventyFiveMoves && !prevSeventy {
			out = append(out, fmt.Sprintf("%s@%d", threefold.KindSeventyFiveMoves, ply))
		}
		prevFifty, prevSeventy = v.FiftyMoves, v.SeventyFiveMoves
		if v.Count >= 5 || v.SeventyFiveMoves {
			break // the game is drawn (9.6): nothing is raised after
		}
	}
	return out
}

// timedStore measures, for every alert stored, the time from the move
// arriving (the snapshot's ObservedAt, carried by the alert) to the alert
// being durable (PutAlert returned: committed with synchronous=FULL on
// SQLite, committed on PostgreSQL).
type timedStore struct {
	*store.Store
	mu  sync.Mutex
	lat []time.Duration
}

func (s *timedStore) PutAlert(ctx context.Context, a threefold.Alert) (bool, error) {
	ok, err := s.Store.PutAlert(ctx, a)
	if err == nil && ok {
		d := time.Since(a.ObservedAt)
		s.mu.Lock()
		s.lat = append(s.lat, d)
		s.mu.Unlock()
	}
	return ok, err
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// runLoad runs one load and returns its row of the README table.
func runLoad(t *testing.T, dsn string, boards, games []*loadGame, maxPlies int) string {
	const spectated = 8 // Lichess's spectator streams per IP
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	round := "load0001"
	bc := fake.Broadcast(round)
	cbs := make([]*crashBoard, len(boards))
	var initial []byte
	for i, g := range boards {
		cb := &crashBoard{chapter: fmt.Sprintf("b%04d", i), white: g.white, black: g.black, san: g.san}
		cb.url = "https://lichess.org/broadcast/load/round-1/" + round + "/" + cb.chapter
		cbs[i] = cb
		initial = append(initial, cb.pgnAt(0, "*")...)
	}
	bc.SetPGN(string(initial))
	spec := make([]*fakelichess.Spectated, spectated)
	var more []string
	for i := range spec {
		id := fmt.Sprintf("ld%06d", i)
		spec[i] = fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: id, White: games[i].white, Black: games[i].black})
		more = append(more, fake.URL+"/"+id)
	}
	applied := games[spectated:]

	rc, hs := newHook(t, nil)
	log, logBuf := safeLog()
	defer func() {
		if dir := os.Getenv("THREEFOLD_FAULT_LOGS"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, "load-"+filepath.Base(t.Name())+".log"), []byte(logBuf.String()), 0o644)
		}
	}()
	ts := &timedStore{}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	ready := make(chan *listener.Watcher, 1)
	wc := wiring{lichessURL: fake.URL, roundURL: fake.URL + "/broadcast/load/round-1/" + round, more: more, dsn: dsn,
		hookURL: hs.URL + "/hook", hookTimeout: 10 * time.Second, out: discard{}, log: log, catchUp: time.Minute,
		gate:    func(st *store.Store) delivery.Store { ts.Store = st; return ts },
		started: func(w *listener.Watcher, _ *store.Store) { ready <- w }}
	done := make(chan error, 1)
	go func() { done <- wc.run(ctx) }()
	var w *listener.Watcher
	select {
	case w = <-ready:
	case err := <-done:
		t.Fatalf("watch ended: %v", err)
	}
	if err := fake.WaitFor(ctx, func() bool { return fake.Streams("broadcast") == 1 && fake.Streams("game") == spectated }); err != nil {
		t.Fatal(err)
	}

	heap0, cpu0, start := heapInUse(), cpuTime(), time.Now()
	totalPlies := 0
	for _, g := range boards {
		totalPlies += len(g.san)
	}
	for _, g := range games {
		totalPlies += len(g.san)
	}
	// The ticks: every board and game plays its next ply.
	const workers = 2
	for tick := 1; tick <= maxPlies; tick++ {
		var wg sync.WaitGroup
		for k := 0; k < workers; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := k; i < len(applied); i += workers {
					g := applied[i]
					if tick > len(g.san) {
						continue
					}
					id := fmt.Sprintf("https://lichess.org/ap%06d", i)
					w.Apply(threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: id, URL: id, White: g.white, Black: g.black},
						Source: "applied", Notation: rules.SAN, Moves: g.san[:tick], Result: "*", ObservedAt: time.Now()})
				}
			}()
		}
		for i, cb := range cbs {
			if tick <= len(cb.san) {
				if err := bc.AppendMove(cb.chapter, cb.san[tick-1]); err != nil {
					t.Fatalf("board %d: %v", i, err)
				}
			}
		}
		for i, sg := range spec {
			if tick <= len(games[i].uci) {
				if err := sg.Move(games[i].uci[tick-1]); err != nil {
					t.Fatalf("spectated %d: %v", i, err)
				}
			}
		}
		wg.Wait()
	}
	// Wait until the watcher has every ply of every game.
	for {
		n := 0
		for _, s := range w.Status() {
			n += s.Ply
		}
		if n >= totalPlies {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("watch ended: %v", err)
		case <-ctx.Done():
			t.Fatalf("the watcher has %d of %d plies after %v", n, totalPlies, time.Since(start))
		case <-time.After(5 * time.Millisecond): // polling a condition, not a timed assertion
		}
	}
	elapsed := time.Since(start)
	t.Logf("the watcher had every ply %v after the first tick", elapsed.Round(time.Millisecond))
	cpu := cpuTime() - cpu0
	heap1 := heapInUse()
	followed := len(boards) + len(games)
	wantAlerts := 0
	for _, g := range boards {
		wantAlerts += g.alerts
	}
	for _, g := range games {
		wantAlerts += g.alerts
	}
	// The webhook gets every alert too (not timed: it is not the durable
	// point).
	// Every alert is stored by now (the Gate stores before apply returns);
	// the webhook gets each of them too (not timed: not the durable point).
	ts.mu.Lock()
	storedNow := len(ts.lat)
	ts.mu.Unlock()
	hookWait, stopHookWait := context.WithTimeout(ctx, 3*time.Minute) // the catch-up runs every minute
	defer stopHookWait()
	var accepted map[string]int
	for {
		_, accepted = rc.snapshot()
		if len(accepted) >= storedNow || hookWait.Err() != nil {
			break
		}
		select {
		case <-hookWait.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
	hookTime := time.Since(start)
	cancel()
	<-done
	if len(accepted) < storedNow {
		st, err := store.Open(context.Background(), store.Config{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := st.Alerts(context.Background(), store.AlertFilter{})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		missing := 0
		for _, a := range stored {
			if accepted[a.ID] == 0 {
				if missing < 5 {
					t.Logf("stored, not at the webhook: %s %s@%d %s", a.ID, a.Kind, a.Ply, a.Game.ID)
				}
				missing++
			}
		}
		t.Errorf("the webhook has %d of %d alerts stored (%d of them not at the webhook)", len(accepted), len(stored), missing)
	}
	t.Logf("webhook had every alert %v after the first tick", hookTime.Round(time.Millisecond))

	if len(ts.lat) != wantAlerts {
		// Which games differ, and how.
		byGame := map[string][]string{}
		want := map[string][]string{}
		for i, cb := range cbs {
			want[listener.BroadcastGameID(cb.url)] = boards[i].kinds
		}
		for i := range spec {
			want[spec[i].ID()] = games[i].kinds
		}
		for i, g := range applied {
			want[fmt.Sprintf("https://lichess.org/ap%06d", i)] = g.kinds
		}
		st, err := store.Open(context.Background(), store.Config{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := st.Alerts(context.Background(), store.AlertFilter{})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range stored {
			byGame[a.Game.ID] = append(byGame[a.Game.ID], fmt.Sprintf("%s@%d", a.Kind, a.Ply))
		}
		shown := 0
		for id, w := range want {
			got := byGame[id]
			sort.Strings(got)
			ws := slices.Clone(w)
			sort.Strings(ws)
			if !slices.Equal(got, ws) && shown < 8 {
				t.Logf("game %s: alerts %v, want %v", id, got, ws)
				shown++
			}
		}
	}
	ts.mu.Lock()
	lat := slices.Clone(ts.lat)
	ts.mu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) != wantAlerts {
		t.Errorf("%d alerts stored, want %d", len(lat), wantAlerts)
	}
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	backend := "SQLite"
	if store.IsPostgres(dsn) {
		backend = "PostgreSQL"
	}
	var heapPer float64
	if heap1 > heap0 {
		heapPer = float64(heap1-heap0) / float64(followed)
	}
	t.Logf("load (%s): %d games followed (%d broadcast boards on 1 stream, %d spectated over HTTP, %d through Watcher.Apply), %d plies, %d alerts",
		backend, followed, len(boards), spectated, len(applied), totalPlies, len(lat))
	// The queue logs its drops at 1, 10, 100, … (dropped_total).
	drops := 0
	for _, m := range regexp.MustCompile(`alert queue full.*dropped_total=(\d+)`).FindAllStringSubmatch(logBuf.String(), -1) {
		n, _ := strconv.Atoi(m[1])
		drops = max(drops, n)
	}
	overflow := "none"
	if drops > 0 {
		overflow = fmt.Sprintf("≥%d of %d alerts dropped by the queue (size 1000), sent from the store by the catch-up: all at the webhook %v after the first move",
			drops, len(lat), hookTime.Round(time.Second))
	}
	return fmt.Sprintf("| %s | %d | %.0f | %v | %v | %.1f ms | %.1f KiB | %s |", backend, followed,
		float64(totalPlies)/elapsed.Seconds(), pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond),
		float64(cpu.Microseconds())/1000/float64(followed), heapPer/1024, overflow)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
