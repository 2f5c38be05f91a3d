package delivery

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/store"
)

// groupDB is the database a test's instances share: a SQLite file (the
// store's tests run the outbox on both backends; here the relay's logic is
// the point).
func groupDB(t *testing.T) store.Config {
	return store.Config{DataDir: t.TempDir()}
}

func openAt(t *testing.T, cfg store.Config, c *clock.Fake) *store.Store {
	t.Helper()
	cfg.Now = c.Now
	s, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func relay(st OutboxStore, claimer string, c *clock.Fake, sinks map[string]Sink) *Relay {
	return NewRelay(st, RelayConfig{Claimer: claimer, Sinks: sinks, Hold: time.Minute, Clock: c,
		Backoff: func(int) time.Duration { return 10 * time.Second }})
}

func TestRelayDeliversEachAlertToEachSinkOnce(t *testing.T) {
	ctx := context.Background()
	cfg := groupDB(t)
	c := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	w0, w1 := &fakeSink{}, &fakeSink{}
	sinks := map[string]Sink{"w0": w0, "w1": w1}
	ra := relay(openAt(t, cfg, c), "a", c, sinks)
	rb := relay(openAt(t, cfg, c), "b", c, sinks)
	var local []string
	ga := ra.Gate(ctx, func(a threefold.Alert) { local = append(local, a.ID) })
	gb := rb.Gate(ctx, func(a threefold.Alert) { local = append(local, a.ID) })
	// Both instances see the same events (a takeover replays a game).
	for i := 1; i <= 3; i++ {
		ga(alert(i))
		gb(alert(i))
	}
	if fmt.Sprint(local) != fmt.Sprint(ids(alert(1), alert(2), alert(3))) {
		t.Errorf("local sinks got %v", local)
	}
	if n, err := rb.Once(ctx); err != nil || n != 6 {
		t.Fatalf("b's pass: %d %v", n, err)
	}
	if n, err := ra.Once(ctx); err != nil || n != 0 {
		t.Fatalf("a's pass after b sent everything: %d %v", n, err)
	}
	for name, s := range map[string]*fakeSink{"w0": w0, "w1": w1} {
		if got, want := s.accepted(), ids(alert(1), alert(2), alert(3)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s got %v, want %v", name, got, want)
		}
	}
}

func TestRelayRetriesARefusingSinkInOrder(t *testing.T) {
	ctx := context.Background()
	cfg := groupDB(t)
	c := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	up, flaky := &fakeSink{}, &fakeSink{refuse: map[string]bool{alert(2).ID: true}}
	r := relay(openAt(t, cfg, c), "a", c, map[string]Sink{"up": up, "flaky": flaky})
	gate := r.Gate(ctx, func(threefold.Alert) {})
	for i := 1; i <= 4; i++ {
		gate(alert(i))
	}
	if _, err := r.Once(ctx); err != nil {
		t.Fatal(err)
	}
	if got := flaky.accepted(); fmt.Sprint(got) != fmt.Sprint(ids(alert(1))) {
		t.Fatalf("flaky got %v before its refusal", got)
	}
	if n, _ := r.Once(ctx); n != 0 {
		t.Errorf("refused alerts claimed again before their retry time: %d", n)
	}
	flaky.mu.Lock()
	flaky.refuse = nil
	flaky.mu.Unlock()
	c.Advance(10 * time.Second)
	if n, err := r.Once(ctx); err != nil || n != 3 {
		t.Fatalf("retry pass: %d %v", n, err)
	}
	want := ids(alert(1), alert(2), alert(3), alert(4))
	if got := flaky.accepted(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("flaky got %v, want %v in order", got, want)
	}
	if got := up.accepted(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("up got %v, want %v", got, want)
	}
}

// TestRelayTakesOverADeadClaimer: an instance claimed rows and died before
// sending; after the claim runs out another instance sends them, once.
func TestRelayTakesOverADeadClaimer(t *testing.T) {
	ctx := context.Background()
	cfg := groupDB(t)
	c := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	dead := openAt(t, cfg, c)
	w := &fakeSink{}
	rb := relay(openAt(t, cfg, c), "b", c, map[string]Sink{"w": w})
	gate := rb.Gate(ctx, func(threefold.Alert) {})
	gate(alert(1))
	gate(alert(2))
	if items, err := dead.ClaimOutbox(ctx, "dead", time.Minute, 0); err != nil || len(items) != 2 {
		t.Fatalf("the doomed claim: %v %v", items, err)
	}
	if n, _ := rb.Once(ctx); n != 0 {
		t.Fatalf("b took rows claimed by a live instance: %d", n)
	}
	c.Advance(time.Minute)
	if n, err := rb.Once(ctx); err != nil || n != 2 {
		t.Fatalf("b after the claim ran out: %d %v", n, err)
	}
	if n, _ := rb.Once(ctx); n != 0 || len(w.accepted()) != 2 {
		t.Errorf("sent %v", w.accepted())
	}
}

// outboxBroken fails to store; the rest is a real store.
type outboxBroken struct{ OutboxStore }

func (outboxBroken) PutAlertOutbox(context.Context, threefold.Alert, []string) (bool, error) {
	return false, errDiskFull
}

func TestRelaySendsDirectlyWhatTheStoreRefused(t *testing.T) {
	ctx := context.Background()
	c := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	w := &fakeSink{}
	r := relay(outboxBroken{openAt(t, groupDB(t), c)}, "a", c, map[string]Sink{"w": w})
	var local int
	r.Gate(ctx, func(threefold.Alert) { local++ })(alert(1))
	if local != 1 {
		t.Error("an alert the store refused was held back from the local sinks")
	}
	if _, err := r.Once(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Once(ctx); err != nil {
		t.Fatal(err)
	}
	if got := w.accepted(); fmt.Sprint(got) != fmt.Sprint(ids(alert(1))) {
		t.Errorf("the webhook got %v, want the alert once", got)
	}
}

// notifySink tells a channel about each alert it accepts.
type notifySink struct{ got chan string }

func (n notifySink) Send(_ context.Context, a threefold.Alert) error {
	n.got <- a.ID
	return nil
}

func TestRelayRunIsWokenAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	s := notifySink{got: make(chan string, 1)}
	r := NewRelay(openAt(t, groupDB(t), c), RelayConfig{Claimer: "a", Sinks: map[string]Sink{"n": s}, Poll: time.Hour, Clock: c})
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	r.Gate(ctx, func(threefold.Alert) {})(alert(7))
	if got := <-s.got; got != alert(7).ID {
		t.Errorf("got %s", got)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run returned %v", err)
	}
}

// postgresGroup makes a schema of its own in the test server
// (THREEFOLD_TEST_POSTGRES_DSN; skipped without it outside CI) and returns
// the store config that uses it.
func postgresGroup(t *testing.T) store.Config {
	dsn := testenv.PostgresDSN(t)
	var b [6]byte
	rand.Read(b[:])
	schema := "d_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(store.RedactDSN(err.Error()))
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		t.Fatal(store.RedactDSN(err.Error()))
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return store.Config{DSN: dsn + sep + "search_path=" + schema}
}

// countingSink counts what it accepted, by alert id.
type countingSink struct {
	mu  sync.Mutex
	got map[string]int
}

func (c *countingSink) Send(_ context.Context, a threefold.Alert) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.got == nil {
		c.got = map[string]int{}
	}
	c.got[a.ID]++
	return nil
}

// TestRelayGroupOnPostgres: three instances on one PostgreSQL see the same
// 60 alerts (a game followed again after a takeover replays them) and
// relay the outbox side by side, while a fourth claims a batch and dies;
// after its claims run out, every alert has reached each of two webhooks
// exactly once.
func TestRelayGroupOnPostgres(t *testing.T) {
	cfg := postgresGroup(t)
	ctx := context.Background()
	c := clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	w0, w1 := &countingSink{}, &countingSink{}
	sinks := map[string]Sink{"w0": w0, "w1": w1}
	var relays []*Relay
	for i := 0; i < 3; i++ {
		relays = append(relays, relay(openAt(t, cfg, c), fmt.Sprint("i", i), c, sinks))
	}
	const n = 60
	var wg sync.WaitGroup
	for _, r := range relays {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gate := r.Gate(ctx, func(threefold.Alert) {})
			for i := 0; i < n; i++ {
				gate(alert(i))
			}
		}()
	}
	wg.Wait()
	dead := openAt(t, cfg, c)
	if items, err := dead.ClaimOutbox(ctx, "dead", time.Minute, 10); err != nil || len(items) != 10 {
		t.Fatalf("the doomed claim: %d %v", len(items), err)
	}
	drain := func() {
		var wg sync.WaitGroup
		for _, r := range relays {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k, err := r.Once(ctx)
					if err != nil {
						t.Error(err)
						return
					}
					if k == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	drain()
	c.Advance(time.Minute) // the dead instance's claims run out
	drain()
	for name, s := range map[string]*countingSink{"w0": w0, "w1": w1} {
		if len(s.got) != n {
			t.Errorf("%s got %d alerts, want %d", name, len(s.got), n)
		}
		for id, k := range s.got {
			if k != 1 {
				t.Errorf("%s got %s %d times", name, id, k)
			}
		}
	}
}
