package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// The acceptance test of issue 6: `threefold watch` is killed with SIGKILL
// in the middle of a busy broadcast and started again; no alert is lost,
// none is stored twice, none is accepted twice by the webhook.
//
// What is guaranteed, precisely (see delivery.Durable): every alert is stored
// before any sink sees it, so an alert seen again after the restart (same
// stable id) is neither stored nor passed to a sink again; an alert stored
// but not accepted by the webhook when the process died is sent at the
// next start; an accepted alert is marked right after its acceptance, and
// the webhook's queue starts the next request only after that mark is
// committed. The one window left is between the webhook's 2xx and the
// mark's commit: an alert accepted there is sent again after the restart,
// with the same Idempotency-Key. This test removes that window on
// purpose: the receiver holds a request without answering and the kill
// comes while it is held, so every earlier alert is accepted and marked,
// the held one is not accepted, and the webhook must accept each alert
// exactly once: zero duplicates, asserted deterministically. The held
// request is a raw delivery that was never accepted; it is sent again
// after the restart, which the test checks too.
func TestWatchSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it twice")
	}
	bin := buildThreefold(t)
	t.Run("sqlite", func(t *testing.T) {
		crashTest(t, bin, "sqlite:"+filepath.Join(t.TempDir(), "threefold.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		crashTest(t, bin, freshSchema(t, testenv.PostgresDSN(t)))
	})
}

// buildThreefold builds the real binary into a temporary directory.
func buildThreefold(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "threefold")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freshSchema makes a schema of its own in the test database (dropped at
// the end) and returns a DSN that uses it.
func freshSchema(t *testing.T, dsn string) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	schema := "crash_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(store.RedactDSN(err.Error()))
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %s", store.RedactDSN(err.Error()))
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema
}

// crashBoard is one board of the round: a real game, its first plies
// already on the board when the round starts, the rest played move by move.
type crashBoard struct {
	chapter, url string
	white, black string
	san          []string
	result       string
	start        int // plies on the board at tick 0
}

// crashBoards picks real games of the reference set that raise at least
// two alerts and end soon after the first one.
func crashBoards(t *testing.T, round string) []*crashBoard {
	t.Helper()
	games, err := pgn.ParseGames(refgames.ReferencePGN())
	if err != nil {
		t.Fatal(err)
	}
	var boards []*crashBoard
	for _, g := range games {
		if _, ok := g.StartFEN(); ok || g.Err != nil {
			continue
		}
		first, n := -1, 0
		tr, err := g.Replay(func(ply int, _ string, tr *rules.Game) {
			if tr.Count() >= 3 || tr.CanClaimRepetition() {
				if first < 0 {
					first = ply
				}
				n++
			}
		})
		if err != nil || tr == nil || n < 2 || len(g.Moves)-first > 30 {
			continue
		}
		b := &crashBoard{chapter: fmt.Sprintf("board%03d", len(boards)+1), result: g.Result, start: max(0, first-14)}
		b.url = "https://lichess.org/broadcast/crash-test/round-1/" + round + "/" + b.chapter
		b.white, _ = g.Tag("White")
		b.black, _ = g.Tag("Black")
		pos := tr.Start()
		for _, m := range tr.Moves() {
			b.san = append(b.san, pos.SAN(m))
			pos.Play(m)
		}
		boards = append(boards, b)
		if len(boards) == 6 {
			break
		}
	}
	if len(boards) < 6 {
		t.Fatalf("only %d suitable games in the reference set", len(boards))
	}
	return boards
}

// pgnAt is the board's game with its first ply moves, as a broadcast
// serves it.
func (b *crashBoard) pgnAt(ply int, result string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[Event \"crash test\"]\n[Site %q]\n[White %q]\n[Black %q]\n[Result \"*\"]\n[GameURL %q]\n\n", b.url, b.white, b.black, b.url)
	for p := 0; p < ply; p++ {
		if p%2 == 0 {
			fmt.Fprintf(&sb, "%d. ", p/2+1)
		}
		sb.WriteString(b.san[p] + " ")
	}
	sb.WriteString(result + "\n\n")
	return sb.String()
}

// expectedAlert is an alert the round must raise, computed from the rules
// package alone (not the listener): at every ply from 0, the third (or
// later) occurrence, else a claim by declared move (the first claim move
// the rules give), the fifth occurrence, and the first ply of the 50- and
// 75-move rules.
type expectedAlert struct {
	id   string
	tick int // when the board reaches its ply
	desc string
}

func expectedAlerts(t *testing.T, boards []*crashBoard) []expectedAlert {
	t.Helper()
	var out []expectedAlert
	for _, b := range boards {
		ref := threefold.GameRef{Site: "lichess", ID: listener.BroadcastGameID(b.url)}
		g := rules.NewGame(rules.StartPosition())
		prevFifty, prevSeventy := false, false
		for ply := 0; ply <= len(b.san); ply++ {
			if ply > 0 {
				if _, err := g.PlaySAN(b.san[ply-1]); err != nil {
					t.Fatal(err)
				}
			}
			v := g.Verdict()
			add := func(kind threefold.AlertKind, move string) {
				out = append(out, expectedAlert{id: threefold.AlertID(ref, kind, ply, move), tick: max(0, ply-b.start),
					desc: fmt.Sprintf("%s %s@%d", b.chapter, kind, ply)})
			}
			// A fifth occurrence or the 75-move rule ends the game: no
			// claim there, nothing after.
			drawn := v.Count == 5 || (v.SeventyFiveMoves && !prevSeventy)
			switch {
			case drawn:
			case v.Count >= 3:
				add(threefold.KindThreefold, "")
			case len(v.ClaimMoves) > 0:
				add(threefold.KindClaimByMove, v.ClaimMoves[0].UCI())
			}
			if v.Count == 5 {
				add(threefold.KindFivefold, "")
			}
			if v.FiftyMoves && !prevFifty && !drawn {
				add(threefold.KindFiftyMoves, "")
			}
			if v.SeventyFiveMoves && !prevSeventy {
				add(threefold.KindSeventyFiveMoves, "")
			}
			prevFifty, prevSeventy = v.FiftyMoves, v.SeventyFiveMoves
			if drawn {
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].tick < out[j].tick })
	return out
}

// receiver is the webhook: it records every request (raw deliveries) and
// which were accepted (answered 2xx). Request number holdAt is held
// unanswered until its connection dies.
type receiver struct {
	t      *testing.T
	mu     sync.Mutex
	raw    []rawDelivery // every request, in arrival order
	holdAt int           // 1-based request number to hold; 0: none
	held   chan struct{}
}

type rawDelivery struct {
	id       string
	accepted bool
	at       time.Time
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var a threefold.Alert
	if err := json.Unmarshal(body, &a); err != nil || a.ID == "" {
		rc.t.Errorf("webhook body is not an alert: %q", body)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if k := r.Header.Get(notify.IdempotencyHeader); k != a.ID {
		rc.t.Errorf("idempotency key %q, want the alert id %q", k, a.ID)
	}
	rc.mu.Lock()
	rc.raw = append(rc.raw, rawDelivery{id: a.ID, at: time.Now()})
	n := len(rc.raw)
	hold := n == rc.holdAt
	rc.mu.Unlock()
	if hold {
		close(rc.held)
		<-r.Context().Done() // the process that sent it is killed
		return
	}
	rc.mu.Lock()
	rc.raw[n-1].accepted = true
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) accepted() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := 0
	for _, d := range rc.raw {
		if d.accepted {
			n++
		}
	}
	return n
}

// watchProcess is one run of the binary.
type watchProcess struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan error
}

func startWatch(t *testing.T, bin, cfg, roundURL string) *watchProcess {
	t.Helper()
	p := &watchProcess{stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "watch", "--json", "--config", cfg, roundURL)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	p.cmd.Env = append(os.Environ(), "THREEFOLD_LICHESS_TOKEN=", "HOME="+t.TempDir())
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("watch stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

func crashTest(t *testing.T, bin, dsn string) {
	var rb [4]byte
	rand.Read(rb[:])
	round := "crash" + hex.EncodeToString(rb[:])[:3]
	boards := crashBoards(t, round)
	want := expectedAlerts(t, boards)
	if len(want) < 6 {
		t.Fatalf("only %d expected alerts", len(want))
	}
	// The kill comes while the webhook holds the request of the alert a
	// third of the way through; the broadcast waits at that alert's tick
	// until the kill, so the kill is always mid-round.
	holdAt := len(want) / 3
	killTick := want[holdAt-1].tick
	lastTick := 0
	for _, b := range boards {
		lastTick = max(lastTick, len(b.san)-b.start+1)
	}

	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	rc := &receiver{t: t, holdAt: holdAt, held: make(chan struct{})}
	hook := httptest.NewServer(rc)
	defer hook.Close()

	dir := t.TempDir()
	cfg := filepath.Join(dir, "threefold.yaml")
	conf := fmt.Sprintf("data_dir: %s\nlog:\n  level: debug\nlichess:\n  url: %s\nstore:\n  dsn: %q\nwatch:\n  webhooks:\n    - kind: json\n      url: %s/hook\n",
		filepath.Join(dir, "data"), fake.URL, dsn, hook.URL)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	bc := fake.Broadcast(round)
	var all strings.Builder
	for _, b := range boards {
		all.WriteString(b.pgnAt(b.start, "*"))
	}
	bc.SetPGN(all.String())
	roundURL := fake.URL + "/broadcast/crash-test/round-1/" + round

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	first := startWatch(t, bin, cfg, roundURL)
	killed := make(chan struct{})
	var second *watchProcess
	restarted := make(chan struct{})

	// The broadcast: one move on every board per tick.
	var tickMu sync.Mutex
	tickAt := map[int]time.Time{0: time.Now()}
	driverDone := make(chan error, 1)
	go func() {
		driverDone <- func() error {
			for tick := 1; tick <= lastTick; tick++ {
				if tick == killTick+1 {
					select {
					case <-killed:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				if tick == killTick+4 { // three ticks were played while it was down
					select {
					case <-restarted:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				tickMu.Lock()
				tickAt[tick] = time.Now()
				tickMu.Unlock()
				for _, b := range boards {
					ply := b.start + tick
					switch {
					case ply <= len(b.san):
						if err := bc.AppendMove(b.chapter, b.san[ply-1]); err != nil {
							return fmt.Errorf("%s: %w", b.chapter, err)
						}
					case ply == len(b.san)+1:
						if err := bc.SetResult(b.chapter, b.result); err != nil {
							return fmt.Errorf("%s: %w", b.chapter, err)
						}
					}
				}
				time.Sleep(15 * time.Millisecond) // the pace of the broadcast, not an assertion
			}
			select {
			case <-restarted:
			case <-ctx.Done():
				return ctx.Err()
			}
			bc.Finish()
			return nil
		}()
	}()

	select {
	case <-rc.held:
	case err := <-first.done:
		t.Fatalf("watch ended before the kill: %v\nstderr:\n%s", err, first.stderr.String())
	case <-ctx.Done():
		t.Fatalf("no request held: %d raw deliveries\nstderr:\n%s", len(rc.raw), first.stderr.String())
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-first.done; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("first run: %v, want killed", err)
	}
	first.done <- nil // for the cleanup
	acceptedBefore := rc.accepted()
	close(killed)
	t.Logf("killed at tick %d of %d, after %d of %d alerts were accepted", killTick, lastTick, acceptedBefore, len(want))

	second = startWatch(t, bin, cfg, roundURL)
	if err := fake.WaitFor(ctx, func() bool { return fake.Streams("broadcast") > 0 }); err != nil {
		t.Fatal(err)
	}
	close(restarted)
	select {
	case err := <-second.done:
		second.done <- err
		if err != nil {
			t.Fatalf("second run: %v\nstderr:\n%s", err, second.stderr.String())
		}
	case <-ctx.Done():
		t.Fatalf("second run did not end with the round\nstderr:\n%s", second.stderr.String())
	}
	if err := <-driverDone; err != nil {
		t.Fatalf("broadcast: %v", err)
	}

	// The webhook accepted every expected alert exactly once, and nothing
	// else; the only repeat is the held (never accepted) request.
	wantIDs := map[string]string{}
	for _, a := range want {
		wantIDs[a.id] = a.desc
	}
	accepted := map[string]int{}
	rawCount := map[string]int{}
	rc.mu.Lock()
	raw := append([]rawDelivery(nil), rc.raw...)
	rc.mu.Unlock()
	for _, d := range raw {
		rawCount[d.id]++
		if d.accepted {
			accepted[d.id]++
		}
	}
	for id, n := range accepted {
		if n != 1 {
			t.Errorf("alert %s (%s) accepted %d times", id, wantIDs[id], n)
		}
		if _, ok := wantIDs[id]; !ok {
			t.Errorf("alert %s accepted but not expected", id)
		}
	}
	for id, desc := range wantIDs {
		if accepted[id] != 1 {
			t.Errorf("alert %s (%s) accepted %d times, want once", id, desc, accepted[id])
		}
	}
	heldID := raw[holdAt-1].id
	if raw[holdAt-1].accepted || rawCount[heldID] != 2 || len(raw) != len(want)+1 {
		t.Errorf("raw deliveries: %d for %d alerts; held %s delivered %d times; want one more delivery than alerts, the held one twice",
			len(raw), len(want), heldID, rawCount[heldID])
	}

	// The latency from the move to the webhook's request (stored durably
	// in between), for the alerts raised live (not at a start, not held).
	tickOf := map[string]int{}
	for _, a := range want {
		tickOf[a.id] = a.tick
	}
	var lat []time.Duration
	tickMu.Lock()
	for i, d := range raw {
		tk := tickOf[d.id]
		if tk == 0 || i >= holdAt-1 && tk <= killTick+3 {
			continue
		}
		if at, ok := tickAt[tk]; ok {
			lat = append(lat, d.at.Sub(at))
		}
	}
	tickMu.Unlock()
	if len(lat) > 0 {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Logf("move → webhook request (alert stored before): median %v, max %v over %d alerts", lat[len(lat)/2], lat[len(lat)-1], len(lat))
	}

	// The store holds each alert exactly once, and marks each delivered.
	st, err := store.Open(ctx, store.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored, err := st.Alerts(ctx, store.AlertFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, a := range stored {
		seen[a.ID]++
	}
	if len(stored) != len(want) || len(seen) != len(want) {
		t.Errorf("store holds %d alerts (%d ids), want %d", len(stored), len(seen), len(want))
	}
	for id, desc := range wantIDs {
		if seen[id] != 1 {
			t.Errorf("alert %s (%s) stored %d times", id, desc, seen[id])
		}
		if ok, err := st.Delivered(ctx, id, "json webhook 1"); err != nil || !ok {
			t.Errorf("alert %s (%s) not marked delivered: %v", id, desc, err)
		}
	}
	// Every game is recorded to its end.
	for _, b := range boards {
		g, err := st.Game(ctx, "lichess", listener.BroadcastGameID(b.url))
		if err != nil {
			t.Errorf("%s: %v", b.chapter, err)
			continue
		}
		if len(g.Moves) != len(b.san) || !g.Finished || g.Result != b.result || g.Game.White != b.white {
			t.Errorf("%s stored with %d plies, finished %v, result %q, white %q; want %d, true, %q, %q",
				b.chapter, len(g.Moves), g.Finished, g.Result, g.Game.White, len(b.san), b.result, b.white)
		}
		if ply, ok, err := st.LoadProgress(ctx, "lichess", listener.BroadcastGameID(b.url)); err != nil || !ok || ply != len(b.san) {
			t.Errorf("%s progress %d %v %v, want %d", b.chapter, ply, ok, err, len(b.san))
		}
	}
	// stdout: no alert printed twice across the two runs (the first run's
	// last stored alerts may be missing: stdout is not durable).
	printed := map[string]int{}
	for _, out := range []string{first.stdout.String(), second.stdout.String()} {
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var a threefold.Alert
			if line == "" || json.Unmarshal([]byte(line), &a) != nil {
				continue
			}
			printed[a.ID]++
			if printed[a.ID] > 1 {
				t.Errorf("alert %s printed twice", a.ID)
			}
		}
	}
	if !bytes.Contains([]byte(second.stderr.String()), []byte("sent the alerts an earlier run left unsent")) {
		t.Errorf("the second run did not resume the webhook")
	}
}
