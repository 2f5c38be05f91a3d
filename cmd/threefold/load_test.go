package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/lichess/lichesstest"
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
// wiring of runWatch (newDurableWebhook, newGameRecorder), which a load
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
	t.Run("sqlite", func(t *testing.T) {
		runLoad(t, "sqlite:"+filepath.Join(t.TempDir(), "threefold.db"), games[:nBoards], games[nBoards:], maxPlies)
	})
	t.Run("postgres", func(t *testing.T) {
		runLoad(t, postgresDSN(t), games[:nBoards], games[nBoards:], maxPlies)
	})
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
	alerts       int // expected alerts over its plies (package rules alone)
}

func loadCorpus(t *testing.T, n, maxPlies int) []*loadGame {
	t.Helper()
	data, err := os.ReadFile("/work/shared/data/pgn/repetitions.pgn")
	if err != nil {
		t.Skipf("shared corpus not available: %v", err)
	}
	parsed, err := pgn.ParseGames(string(data))
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
		lg.alerts = countAlerts(t, lg.san)
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

// countAlerts counts the alerts of a game as expectedAlerts computes them.
func countAlerts(t *testing.T, san []string) int {
	g := rules.NewGame(rules.StartPosition())
	n := 0
	prevFifty, prevSeventy := false, false
	for ply := 0; ply <= len(san); ply++ {
		if ply > 0 {
			if _, err := g.PlaySAN(san[ply-1]); err != nil {
				t.Fatal(err)
			}
		}
		v := g.Verdict()
		if v.Count >= 3 || len(v.ClaimMoves) > 0 {
			n++
		}
		if v.Count == 5 {
			n++
		}
		if v.FiftyMoves && !prevFifty {
			n++
		}
		if v.SeventyFiveMoves && !prevSeventy {
			n++
		}
		prevFifty, prevSeventy = v.FiftyMoves, v.SeventyFiveMoves
	}
	return n
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

func runLoad(t *testing.T, dsn string, boards, games []*loadGame, maxPlies int) {
	const spectated = 8 // Lichess's spectator streams per IP
	fake := lichesstest.New(lichesstest.Options{})
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
	spec := make([]*lichesstest.Spectated, spectated)
	var more []string
	for i := range spec {
		id := fmt.Sprintf("ld%06d", i)
		spec[i] = fake.MustSpectatorGame(lichesstest.SpectatorSpec{ID: id, White: games[i].white, Black: games[i].black})
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
					w.Apply(listener.Snapshot{Game: threefold.GameRef{Site: "lichess", ID: id, URL: id, White: g.white, Black: g.black},
						Source: "applied", Notation: listener.SAN, Moves: g.san[:tick], Result: "*", ObservedAt: time.Now()})
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
	hookWait, stopHookWait := context.WithTimeout(ctx, 3*time.Minute) // the catch-up runs every minute
	defer stopHookWait()
	var accepted map[string]int
	for {
		_, accepted = rc.snapshot()
		if len(accepted) >= wantAlerts || hookWait.Err() != nil {
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
	if len(accepted) < wantAlerts {
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
		t.Errorf("the webhook has %d of %d alerts (%d stored, %d of them not at the webhook)", len(accepted), wantAlerts, len(stored), missing)
	}
	t.Logf("webhook had every alert %v after the first tick", hookTime.Round(time.Millisecond))

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
	fmt.Printf("| %s | %d | %.0f | %v | %v | %.2f ms | %.1f KiB |\n", backend, followed,
		float64(totalPlies)/elapsed.Seconds(), pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond),
		float64(cpu.Microseconds())/1000/float64(followed), heapPer/1024)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
