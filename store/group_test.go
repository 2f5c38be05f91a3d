package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
)

// backends runs f on a fresh SQLite file and on a fresh PostgreSQL schema.
// f opens as many stores (connection pools: instances) on it as it likes.
func backends(t *testing.T, f func(t *testing.T, cfg Config)) {
	t.Run("sqlite", func(t *testing.T) { f(t, Config{DataDir: t.TempDir()}) })
	t.Run("postgres", func(t *testing.T) { f(t, freshPostgres(t)) })
}

func openWithClock(t *testing.T, cfg Config, c *clock.Fake) *Store {
	cfg.Now = c.Now
	return openTest(t, cfg)
}

func join(t *testing.T, s *Store, id string, budget map[string]int) *Instance {
	t.Helper()
	in, err := s.Join(context.Background(), InstanceConfig{ID: id, Host: "host-" + id, LeaseTTL: 30 * time.Second, Budget: budget})
	if err != nil {
		t.Fatalf("Join %s: %v", id, err)
	}
	return in
}

func TestLeaseLifecycle(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clock), openWithClock(t, cfg, clock)
		a, b := join(t, sa, "a", nil), join(t, sb, "b", nil)
		const src = "lichess broadcast round abcd1234"

		l, err := a.Acquire(ctx, LeaseSource, src)
		if err != nil {
			t.Fatal(err)
		}
		if l.Holder != "a" || l.Epoch != 1 || !l.ExpiresAt.Equal(epoch.Add(30*time.Second)) {
			t.Errorf("first acquire: %+v", l)
		}
		if err := a.SaveSourceState(ctx, src, []byte("cursor-1")); err != nil {
			t.Fatal(err)
		}
		_, err = b.Acquire(ctx, LeaseSource, src)
		var held *LeaseHeldError
		if !errors.As(err, &held) || !errors.Is(err, ErrLeaseHeld) || held.Holder != "a" || !held.Until.Equal(l.ExpiresAt) {
			t.Fatalf("b acquires a's lease: %v, want a *LeaseHeldError naming a", err)
		}

		clock.Advance(10 * time.Second)
		again, err := a.Acquire(ctx, LeaseSource, src)
		if err != nil || again.Epoch != 1 || !again.AcquiredAt.Equal(epoch) || !again.ExpiresAt.Equal(epoch.Add(40*time.Second)) {
			t.Fatalf("a renews by Acquire: %+v, %v", again, err)
		}
		clock.Advance(10 * time.Second)
		if lost, err := a.Heartbeat(ctx); err != nil || len(lost) != 0 {
			t.Fatalf("heartbeat: lost %v, %v", lost, err)
		}
		if !a.Holds(LeaseSource, src) {
			t.Error("a does not hold its renewed lease")
		}

		// a stops heartbeating: at its expiry (50 s) b takes over, and
		// resumes from the state a stored.
		clock.Advance(29 * time.Second)
		if _, err := b.Acquire(ctx, LeaseSource, src); !errors.Is(err, ErrLeaseHeld) {
			t.Fatalf("b takes the lease 1 s before it expires: %v", err)
		}
		clock.Advance(time.Second)
		if a.Holds(LeaseSource, src) {
			t.Error("a still holds an expired lease by its clock")
		}
		lb, err := b.Acquire(ctx, LeaseSource, src)
		if err != nil || lb.Epoch != 2 || lb.Holder != "b" {
			t.Fatalf("b takes the expired lease: %+v, %v", lb, err)
		}
		state, ok, err := sb.LoadSourceState(ctx, src)
		if err != nil || !ok || string(state) != "cursor-1" {
			t.Fatalf("b resumes from %q %v %v", state, ok, err)
		}
		// a, back from a pause, finds its lease lost and cannot write.
		if err := a.SaveSourceState(ctx, src, []byte("stale")); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("the old holder wrote the state: %v", err)
		}
		lost, err := a.Heartbeat(ctx)
		if err != nil || len(lost) != 1 || lost[0].Name != src {
			t.Errorf("a's heartbeat after the takeover: lost %v, %v", lost, err)
		}
		if err := b.SaveSourceState(ctx, src, []byte("cursor-2")); err != nil {
			t.Fatal(err)
		}
		if state, _, _ := sa.LoadSourceState(ctx, src); string(state) != "cursor-2" {
			t.Errorf("state %q after both wrote, want b's", state)
		}

		// Release hands it over at once; the next holder gets a new epoch.
		if err := a.Release(ctx, LeaseSource, src); err != nil { // not a's: nothing happens
			t.Fatal(err)
		}
		if _, err := a.Acquire(ctx, LeaseSource, src); !errors.Is(err, ErrLeaseHeld) {
			t.Fatalf("a's release freed b's lease: %v", err)
		}
		if err := b.Release(ctx, LeaseSource, src); err != nil {
			t.Fatal(err)
		}
		if b.Holds(LeaseSource, src) {
			t.Error("b holds a released lease")
		}
		la, err := a.Acquire(ctx, LeaseSource, src)
		if err != nil || la.Epoch != 3 {
			t.Fatalf("a after b released: %+v, %v", la, err)
		}

		// Finish removes the lease; another's is left alone.
		if err := b.Finish(ctx, LeaseSource, src); !errors.Is(err, ErrLeaseHeld) {
			t.Errorf("b finished a's lease: %v", err)
		}
		if err := a.Finish(ctx, LeaseSource, src); err != nil {
			t.Fatal(err)
		}
		st, err := sa.Status(ctx, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Leases) != 0 {
			t.Errorf("leases after Finish: %+v", st.Leases)
		}

		// Leave releases everything and removes the instance.
		if _, err := a.Acquire(ctx, LeaseGame, GameLeaseName("lichess", "g1")); err != nil {
			t.Fatal(err)
		}
		if err := a.Leave(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Acquire(ctx, LeaseGame, GameLeaseName("lichess", "g1")); err != nil {
			t.Errorf("b after a left: %v", err)
		}
		if _, err := a.Heartbeat(ctx); err == nil {
			t.Error("the heartbeat of an instance that left succeeded")
		}
		if _, err := a.Acquire(ctx, LeaseGame, "x"); err == nil {
			t.Error("an instance that left acquired a lease")
		}
	})
}

func TestGameResumesFromProgressAfterTakeover(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clock), openWithClock(t, cfg, clock)
		a, b := join(t, sa, "a", nil), join(t, sb, "b", nil)
		name := GameLeaseName("lichess", "q7ZvsdUF")
		if err := a.SaveProgress(ctx, "lichess", "q7ZvsdUF", 3); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("progress saved without the lease: %v", err)
		}
		if _, err := a.Acquire(ctx, LeaseGame, name); err != nil {
			t.Fatal(err)
		}
		for ply := 1; ply <= 10; ply++ {
			if err := a.SaveProgress(ctx, "lichess", "q7ZvsdUF", ply); err != nil {
				t.Fatal(err)
			}
		}
		clock.Advance(31 * time.Second) // a died
		if _, err := b.Acquire(ctx, LeaseGame, name); err != nil {
			t.Fatal(err)
		}
		ply, ok, err := sb.LoadProgress(ctx, "lichess", "q7ZvsdUF")
		if err != nil || !ok || ply != 10 {
			t.Fatalf("b resumes from ply %d %v %v, want 10", ply, ok, err)
		}
		if err := b.SaveProgress(ctx, "lichess", "q7ZvsdUF", 12); err != nil {
			t.Fatal(err)
		}
		if err := a.SaveProgress(ctx, "lichess", "q7ZvsdUF", 11); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("the old holder overwrote the progress: %v", err)
		}
		if ply, _, _ := sa.LoadProgress(ctx, "lichess", "q7ZvsdUF"); ply != 12 {
			t.Errorf("progress %d, want 12", ply)
		}
	})
}

func TestLeaseBudget(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clock), openWithClock(t, cfg, clock)
		a := join(t, sa, "a", map[string]int{LeaseSource: 2})
		b := join(t, sb, "b", nil)
		if a.Budget(LeaseSource) != 2 || a.Budget(LeaseGame) != 0 {
			t.Errorf("budgets %d %d", a.Budget(LeaseSource), a.Budget(LeaseGame))
		}
		for _, n := range []string{"s1", "s2"} {
			if _, err := a.Acquire(ctx, LeaseSource, n); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.Acquire(ctx, LeaseSource, "s3"); !errors.Is(err, ErrBudget) {
			t.Fatalf("third source over a budget of 2: %v", err)
		}
		if _, err := a.Acquire(ctx, LeaseSource, "s2"); err != nil {
			t.Errorf("renewing a held lease at the budget: %v", err)
		}
		for i := 0; i < 5; i++ { // games have no budget
			if _, err := a.Acquire(ctx, LeaseGame, fmt.Sprint("g", i)); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := a.AcquireFree(ctx, LeaseSource, 0); err != nil || len(got) != 0 {
			t.Errorf("AcquireFree at the budget: %v %v", got, err)
		}

		if err := b.Offer(ctx, LeaseSource, "s3", "s4", "s5", "s6"); err != nil {
			t.Fatal(err)
		}
		if err := a.Release(ctx, LeaseSource, "s1"); err != nil {
			t.Fatal(err)
		}
		got, err := a.AcquireFree(ctx, LeaseSource, 0)
		if err != nil || len(got) != 1 || got[0].Name != "s1" {
			t.Fatalf("AcquireFree with room for one: %+v %v", got, err)
		}
		got, err = b.AcquireFree(ctx, LeaseSource, 3)
		if err != nil || len(got) != 3 || got[0].Name != "s3" || got[2].Name != "s5" {
			t.Fatalf("b takes 3 of the free: %+v %v", got, err)
		}
		// A lease expired while its holder was away no longer counts.
		clock.Advance(20 * time.Second)
		if _, err := b.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Advance(11 * time.Second) // a's leases expired, b's not
		if _, err := a.Acquire(ctx, LeaseSource, "s6"); err != nil {
			t.Errorf("a after its leases expired: %v", err)
		}
		got, err = b.AcquireFree(ctx, LeaseSource, 0)
		if err != nil || len(got) != 2 || got[0].Name != "s1" || got[1].Name != "s2" {
			t.Fatalf("b takes a's expired sources: %+v %v", got, err)
		}
		lost, err := a.Heartbeat(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(lost) != 7 { // s1, s2 and the five games
			t.Errorf("a lost %d leases, want 7: %+v", len(lost), lost)
		}
		if h := a.Held(""); len(h) != 1 || h[0].Name != "s6" {
			t.Errorf("a holds %+v, want s6", h)
		}
	})
}

// TestConcurrentBudget: many goroutines of one instance acquiring at once
// never take it over its budget.
func TestConcurrentBudget(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		s := openWithClock(t, cfg, clock)
		in := join(t, s, "a", map[string]int{LeaseSource: 3})
		names := make([]string, 20)
		for i := range names {
			names[i] = fmt.Sprintf("src%02d", i)
		}
		if err := in.Offer(ctx, LeaseSource, names[10:]...); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 40)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := g; i < 10; i += 8 {
					if _, err := in.Acquire(ctx, LeaseSource, names[i]); err != nil && !errors.Is(err, ErrBudget) {
						errs <- err
					}
				}
				if _, err := in.AcquireFree(ctx, LeaseSource, 2); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		st, err := s.Status(ctx, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Instances) != 1 || st.Instances[0].Held[LeaseSource] != 3 {
			t.Errorf("held %+v, want exactly the budget of 3", st.Instances)
		}
		if h := in.Held(LeaseSource); len(h) != 3 {
			t.Errorf("the instance believes it holds %d", len(h))
		}
	})
}

// grant is one interval during which an instance believed it held a
// lease: from the clock reading after the write that granted or renewed it
// returned, to the expiry that write stored, cut short by a release.
type grant struct {
	holder   string
	epoch    int64
	from, to time.Time
}

// TestLeaseNeverHeldByTwo: several instances, each on its own connection
// pool, acquire, renew, release and fall silent over a few leases while a
// clock moves under them. Every grant is recorded; no two grants of one
// lease to different holders overlap, and an epoch belongs to one holder.
func TestLeaseNeverHeldByTwo(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		const (
			instances = 4
			rounds    = 60
		)
		leases := []string{"L0", "L1", "L2"}
		type rel struct {
			epoch int64
			at    time.Time
		}
		var (
			mu       sync.Mutex
			grants   = map[string][]grant{}
			releases = map[string][]rel{}
		)
		record := func(l Lease, at time.Time) {
			mu.Lock()
			grants[l.Name] = append(grants[l.Name], grant{l.Holder, l.Epoch, at, l.ExpiresAt})
			mu.Unlock()
		}
		ins := make([]*Instance, instances)
		for i := range ins {
			ins[i] = join(t, openWithClock(t, cfg, clock), fmt.Sprint("i", i), nil)
		}
		stop := make(chan struct{})
		var tick sync.WaitGroup
		tick.Add(1)
		go func() { // the clock: moves 0-9 s at a time while the instances work
			defer tick.Done()
			r := rand.New(rand.NewPCG(1, 2))
			for {
				select {
				case <-stop:
					return
				default:
				}
				clock.Advance(time.Duration(r.IntN(10)) * time.Second)
				time.Sleep(200 * time.Microsecond)
			}
		}()
		var wg sync.WaitGroup
		errs := make(chan error, instances)
		for i, in := range ins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(i), 7))
				for round := 0; round < rounds; round++ {
					name := leases[r.IntN(len(leases))]
					switch op := r.IntN(10); {
					case op < 5:
						l, err := in.Acquire(ctx, LeaseSource, name)
						if err == nil {
							record(l, clock.Now())
						} else if !errors.Is(err, ErrLeaseHeld) {
							errs <- err
							return
						}
					case op < 8:
						if _, err := in.Heartbeat(ctx); err != nil {
							errs <- err
							return
						}
						at := clock.Now()
						for _, l := range in.Held(LeaseSource) {
							record(l, at)
						}
					case op < 9:
						l, held := in.lease(LeaseSource, name)
						at := clock.Now()
						if err := in.Release(ctx, LeaseSource, name); err != nil {
							errs <- err
							return
						}
						if held {
							mu.Lock()
							releases[name] = append(releases[name], rel{l.Epoch, at})
							mu.Unlock()
						}
					default: // fall silent for a while: a pause, a partition
					}
				}
			}()
		}
		wg.Wait()
		close(stop)
		tick.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		total := 0
		for name, gs := range grants {
			total += len(gs)
			owner := map[int64]string{}
			span := map[int64][2]time.Time{}
			for _, g := range gs {
				if o, ok := owner[g.epoch]; ok && o != g.holder {
					t.Errorf("%s epoch %d granted to %s and %s", name, g.epoch, o, g.holder)
				}
				owner[g.epoch] = g.holder
				sp, ok := span[g.epoch]
				if !ok || g.from.Before(sp[0]) {
					sp[0] = g.from
				}
				if g.to.After(sp[1]) {
					sp[1] = g.to
				}
				span[g.epoch] = sp
			}
			for _, r := range releases[name] {
				if sp, ok := span[r.epoch]; ok && r.at.Before(sp[1]) {
					sp[1] = r.at
					span[r.epoch] = sp
				}
			}
			var epochs []int64
			for e := range span {
				epochs = append(epochs, e)
			}
			sort.Slice(epochs, func(i, j int) bool { return epochs[i] < epochs[j] })
			for k := 1; k < len(epochs); k++ {
				prev, cur := span[epochs[k-1]], span[epochs[k]]
				if cur[0].Before(prev[1]) && owner[epochs[k-1]] != owner[epochs[k]] {
					t.Errorf("%s: epoch %d (%s) held until %v, epoch %d (%s) from %v",
						name, epochs[k-1], owner[epochs[k-1]], prev[1], epochs[k], owner[epochs[k]], cur[0])
				}
			}
		}
		if total < instances*rounds/5 {
			t.Errorf("only %d grants: the test exercised too little", total)
		}
		t.Logf("%d grants checked", total)
	})
}

func TestStatus(t *testing.T) {
	backends(t, func(t *testing.T, cfg Config) {
		ctx := context.Background()
		clock := clock.NewFake(epoch)
		sa, sb := openWithClock(t, cfg, clock), openWithClock(t, cfg, clock)
		a := join(t, sa, "a", map[string]int{LeaseSource: 4})
		b := join(t, sb, "b", nil)
		if _, err := a.Acquire(ctx, LeaseSource, "lichess tv"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Acquire(ctx, LeaseGame, GameLeaseName("lichess", "g1")); err != nil {
			t.Fatal(err)
		}
		if err := b.Offer(ctx, LeaseSource, "chess.com player hikaru"); err != nil {
			t.Fatal(err)
		}
		if err := sa.PutGame(ctx, Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "g1"}, Moves: []string{"e4", "e5", "Nf3", "Nc6"}}}); err != nil {
			t.Fatal(err)
		}
		if err := sa.PutGame(ctx, Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "done"}, Moves: []string{"e4"}, Finished: true}}); err != nil {
			t.Fatal(err)
		}
		if err := a.SaveProgress(ctx, "lichess", "g1", 2); err != nil {
			t.Fatal(err)
		}
		if err := a.SaveSourceState(ctx, "lichess tv", []byte("x")); err != nil {
			t.Fatal(err)
		}
		al := testAlert("lichess", "g1", threefold.KindThreefold, 12, epoch)
		if _, err := sa.PutAlertOutbox(ctx, al, []string{"webhook-0"}); err != nil {
			t.Fatal(err)
		}
		clock.Advance(20 * time.Second)
		if _, err := b.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Advance(15 * time.Second) // a is dead, b alive
		st, err := sb.Status(ctx, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Instances) != 2 || st.Instances[0].Alive || !st.Instances[1].Alive || st.Instances[0].Budget[LeaseSource] != 4 ||
			st.Instances[0].Host != "host-a" || !st.Instances[1].LastSeen.Equal(epoch.Add(20*time.Second)) {
			t.Errorf("instances %+v", st.Instances)
		}
		if st.Instances[0].Held[LeaseSource] != 0 {
			t.Errorf("a dead instance is counted as holding %v", st.Instances[0].Held)
		}
		if len(st.Leases) != 3 || !st.Leases[0].Expired || st.Leases[0].Holder != "a" {
			t.Errorf("leases %+v", st.Leases)
		}
		if len(st.Sources) != 2 || st.Sources[0].Name != "chess.com player hikaru" || st.Sources[1].Holder != "" || !st.Sources[1].HasState {
			t.Errorf("sources %+v", st.Sources)
		}
		if len(st.Outbox) != 1 || st.Outbox[0].Pending != 1 || !st.Outbox[0].Oldest.Equal(epoch) {
			t.Errorf("outbox %+v", st.Outbox)
		}
		if len(st.Games) != 1 || st.Games[0].Processed != 2 || st.Games[0].Seen != 4 || st.Games[0].Holder != "" {
			t.Errorf("games %+v", st.Games)
		}
		if n, err := sb.ForgetInstances(ctx, clock.Now().Add(-31*time.Second)); err != nil || n != 1 {
			t.Errorf("forget dead instances: %d %v", n, err)
		}
	})
}

func TestKeepAlive(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	clock := clock.NewFake(epoch)
	cfg := Config{DataDir: t.TempDir()}
	sa, sb := openWithClock(t, cfg, clock), openWithClock(t, cfg, clock)
	a, b := join(t, sa, "a", nil), join(t, sb, "b", nil)
	if _, err := a.Acquire(ctx, LeaseGame, "lichess/g1"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Acquire(ctx, LeaseGame, "lichess/g2"); err != nil {
		t.Fatal(err)
	}
	// Heartbeats every 10 s keep a's leases for a minute. (Called directly:
	// through KeepAlive the test could not know when one has ended.)
	for i := 0; i < 6; i++ {
		clock.Advance(10 * time.Second)
		if lost, err := a.Heartbeat(ctx); err != nil || len(lost) != 0 {
			t.Fatalf("heartbeat %d: lost %v, err %v", i+1, lost, err)
		}
	}
	if _, err := b.Acquire(ctx, LeaseGame, "lichess/g1"); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("b took a lease a kept alive: %v", err)
	}
	// a misses its heartbeats (a long pause); b takes g1; a's next
	// heartbeat, run by KeepAlive on its tick, reports both lost.
	clock.Advance(31 * time.Second)
	if _, err := b.Acquire(ctx, LeaseGame, "lichess/g1"); err != nil {
		t.Fatal(err)
	}
	tick := make(chan time.Time)
	lostCh := make(chan []Lease, 1)
	done := make(chan error)
	go func() {
		done <- a.KeepAlive(ctx, tick, func(l []Lease) { lostCh <- l }, func(err error) { t.Error(err) })
	}()
	tick <- clock.Now()
	lost := <-lostCh
	if len(lost) != 2 || lost[0].Name != "lichess/g1" || lost[1].Name != "lichess/g2" {
		t.Errorf("lost %+v", lost)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("KeepAlive returned %v", err)
	}
}
