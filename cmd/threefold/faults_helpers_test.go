package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

// The fault matrix runs the watch wiring of runWatch (store → delivery.Gate
// → stdout and a durable json webhook behind its queue; the game recorder
// around the source) with the two things the command line cannot inject:
// the Lichess client's clock, shared with the fake Lichess so that
// backoff, 429 pauses, keep-alives and the watchdog run on fake time, and
// the webhook's HTTP timeout and retry sleep. Everything else is the code
// runWatch runs (delivery.Durable, store.Recorder, delivery.Gate,
// notify.Queue, listener.Sources).

// wiring is one run of the watch wiring against one broadcast round.
type wiring struct {
	lichessURL, roundURL string
	clk                  clock.Clock
	dsn                  string
	hookURL              string
	hookTimeout          time.Duration
	out                  io.Writer
	log                  *slog.Logger
	// catchUp is the period of the webhook's catch-up from the store
	// (runWatch: catchUpPeriod); 0: none, what was refused waits for the
	// next start.
	catchUp time.Duration
	// started, if set, is called once the watcher and the store exist.
	started func(*listener.Watcher, *store.Store)
	// more are further targets (URLs) followed besides roundURL.
	more []string
	// gate, if set, wraps the store the alerts are stored in (to time it).
	gate func(*store.Store) delivery.Store
}

// run mirrors runWatch for one Lichess target and one json webhook.
func (wc wiring) run(ctx context.Context) error {
	log := wc.log
	lc := lichess.NewClient(lichess.Options{BaseURL: wc.lichessURL, Clock: wc.clk, Logger: log})
	defer lc.Close()
	var targets []listener.Target
	for _, u := range append([]string{wc.roundURL}, wc.more...) {
		target, err := listener.ParseTarget(u, listener.ParseOptions{LichessBase: wc.lichessURL})
		if err != nil {
			return err
		}
		targets = append(targets, target)
	}
	sources, err := listener.Sources(targets, listener.Deps{LichessBase: wc.lichessURL, Lichess: lc, Logger: log})
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Config{DSN: wc.dsn})
	if err != nil {
		return fmt.Errorf("watch: store: %w", err)
	}
	defer st.Close()

	hook := &notify.Webhook{Kind: notify.JSON, URL: wc.hookURL, Name: "json webhook 1", Logger: log,
		Client: &http.Client{Timeout: wc.hookTimeout},
		Clock:  clock.NewAutoFake(time.Time{})}
	deliverCtx, stopDeliver := context.WithCancel(context.WithoutCancel(ctx))
	defer stopDeliver()
	dw, err := delivery.NewDurable(ctx, st, hook, delivery.DurableConfig{Name: hook.Name, QueueSize: 1000, CatchUp: wc.catchUp, Log: log})
	if err != nil {
		return err
	}
	dw.Start(deliverCtx)
	sinks := notify.Fanout{notify.NewJSONLines(wc.out), dw}
	var gated delivery.Store = st
	if wc.gate != nil {
		gated = wc.gate(st)
	}
	w := listener.NewWatcher(listener.WatcherOptions{Logger: log,
		Alert: delivery.Gate(ctx, gated, log, func(a threefold.Alert) {
			if err := sinks.Send(ctx, a); err != nil {
				log.Error("alert not written", "alert", a.ID, "err", err)
			}
		})})
	if wc.started != nil {
		wc.started(w, st)
	}
	rec := store.NewRecorder(st, log)
	for i, src := range sources {
		sources[i] = listener.AfterTaken(src, rec.Record, rec.Flush)
	}
	runErr := w.Run(ctx, sources...)
	drain, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dw.Close(drain)
	return runErr
}

// hookAction is what the receiver does with one request.
type hookAction int

const (
	hookAccept hookAction = iota
	hookFail              // 500
	hookHang              // no answer until the client gives up
)

// idReceiver is the json webhook: it counts, by alert id, the requests it
// accepted (answered 2xx). policy decides by request number (from 1).
type idReceiver struct {
	t      *testing.T
	policy func(n int) hookAction

	mu       sync.Mutex
	raw      int
	accepted map[string]int
	order    []string
	changed  chan struct{}
}

func newIDReceiver(t *testing.T, policy func(int) hookAction) *idReceiver {
	if policy == nil {
		policy = func(int) hookAction { return hookAccept }
	}
	return &idReceiver{t: t, policy: policy, accepted: map[string]int{}, changed: make(chan struct{}, 1)}
}

func (rc *idReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var a threefold.Alert
	if err := json.Unmarshal(body, &a); err != nil || a.ID == "" {
		rc.t.Errorf("webhook body is not an alert: %.200q", body)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if k := r.Header.Get(notify.IdempotencyHeader); k != a.ID {
		rc.t.Errorf("idempotency key %q, want the alert id %q", k, a.ID)
	}
	rc.mu.Lock()
	rc.raw++
	act := rc.policy(rc.raw)
	rc.mu.Unlock()
	switch act {
	case hookFail:
		w.WriteHeader(http.StatusInternalServerError)
		return
	case hookHang:
		<-r.Context().Done() // the client's timeout
		return
	}
	rc.mu.Lock()
	rc.accepted[a.ID]++
	rc.order = append(rc.order, a.ID)
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (rc *idReceiver) snapshot() (raw int, accepted map[string]int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	cp := make(map[string]int, len(rc.accepted))
	for k, v := range rc.accepted {
		cp[k] = v
	}
	return rc.raw, cp
}

// faultRound is a broadcast round of real boards from the shared corpus on
// the fake Lichess, with the alerts it must raise (computed by package
// rules alone, see expectedAlerts).
type faultRound struct {
	t        *testing.T
	fake     *fakelichess.Server
	clk      *clock.Fake
	bc       *fakelichess.Broadcast
	id       string
	url      string
	boards   []*crashBoard
	want     []expectedAlert
	lastTick int
	// extra is PGN text added to the round at the start (games that
	// raise no alert, used to carry hostile lines).
	extra string
	// edit, if set, rewrites a board's initial PGN (hostile tags).
	edit func(b *crashBoard, pgn string) string
}

func newFaultRound(t *testing.T, name string) *faultRound {
	t.Helper()
	clk := clock.NewFake(time.Time{})
	fake := fakelichess.New(fakelichess.Options{Clock: clk})
	t.Cleanup(fake.Close)
	id := "fault001"
	boards := crashBoards(t, id)
	r := &faultRound{t: t, fake: fake, clk: clk, id: id, boards: boards, want: expectedAlerts(t, boards)}
	r.url = fake.URL + "/broadcast/crash-test/round-1/" + id
	for _, b := range boards {
		r.lastTick = max(r.lastTick, len(b.san)-b.start+1)
	}
	return r
}

// publish puts the boards (at their starting plies) and extra on the round.
func (r *faultRound) publish() {
	r.bc = r.fake.Broadcast(r.id)
	var all strings.Builder
	for i, b := range r.boards {
		text := b.pgnAt(b.start, "*")
		if r.edit != nil {
			text = r.edit(b, text)
		}
		all.WriteString(text)
		if i == len(r.boards)/2 && r.extra != "" {
			all.WriteString(r.extra)
		}
	}
	r.bc.SetPGN(all.String())
}

// boardPly is how many plies board b has at tick.
func (b *crashBoard) plyAt(tick int) int { return min(len(b.san), b.start+tick) }

// tick plays one move on every board (or its result, past the last move).
func (r *faultRound) tick(tick int) error {
	for _, b := range r.boards {
		ply := b.start + tick
		switch {
		case ply <= len(b.san):
			if err := r.bc.AppendMove(b.chapter, b.san[ply-1]); err != nil {
				return fmt.Errorf("%s: %w", b.chapter, err)
			}
		case ply == len(b.san)+1:
			if err := r.bc.SetResult(b.chapter, b.result); err != nil {
				return fmt.Errorf("%s: %w", b.chapter, err)
			}
		}
	}
	return nil
}

// caughtUp reports whether the watcher has every board at its ply of tick.
func (r *faultRound) caughtUp(w *listener.Watcher, tick int) bool {
	plies := map[string]int{}
	for _, s := range w.Status() {
		plies[s.Game.ID] = s.Ply
	}
	for _, b := range r.boards {
		if p, ok := plies[listener.BroadcastGameID(b.url)]; !ok || p < b.plyAt(tick) {
			return false
		}
	}
	return true
}

// waitFor waits for cond, polling. While nothing changes, fake time goes
// on: after every few idle polls the fake clock is advanced to its next
// timer (a backoff, a 429 pause, a keep-alive or the watchdog), so a test
// never waits for real minutes and never advances time under a busy
// client. It fails after a real-time deadline.
func (r *faultRound) waitFor(ctx context.Context, what string, cond func() bool) error {
	idle := 0
	for !cond() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(2 * time.Millisecond): // polling a condition, not a timed assertion
		}
		idle++
		if idle%10 == 0 {
			if d, ok := r.clk.Next(); ok {
				r.clk.Advance(d)
			}
		}
	}
	return nil
}

// safeLog is a logger writing text to a buffer the test reads.
func safeLog() (*slog.Logger, *syncBuffer) {
	var b syncBuffer
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

// sqliteDSN is a fresh SQLite file for one run.
func sqliteDSN(t *testing.T) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "threefold.db")
}

// newHook starts the receiver.
func newHook(t *testing.T, policy func(int) hookAction) (*idReceiver, *httptest.Server) {
	rc := newIDReceiver(t, policy)
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv
}

// textsStreamer is a Lichess whose broadcast round stream delivers the
// given PGN texts, as the client hands them to the listener, and ends.
type textsStreamer struct{ texts []string }

func (s textsStreamer) StreamGame(context.Context, string, func(lichess.SpectatorEvent) error) error {
	return nil
}

func (s textsStreamer) StreamGamesByUsers(context.Context, []string, func(lichess.GameSummary) error) error {
	return nil
}

func (s textsStreamer) StreamTV(context.Context, string, func(lichess.TVEvent) error) error {
	return nil
}

func (s textsStreamer) CurrentGame(context.Context, string) (*lichess.ExportedGame, error) {
	return nil, lichess.ErrNotFound
}

func (s textsStreamer) StreamBroadcastTour(context.Context, string, func(string) error) error {
	return nil
}

func (s textsStreamer) StreamBroadcastRound(ctx context.Context, _ string, fn func(string) error) error {
	for _, t := range s.texts {
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}
