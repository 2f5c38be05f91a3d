package group

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/testlog"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
)

const ttl = 30 * time.Second

func TestFairShare(t *testing.T) {
	tests := []struct {
		name                       string
		live, alive, budget, share int
	}{
		{name: "alone takes all", live: 5, alive: 1, share: 5},
		{name: "even split", live: 6, alive: 3, share: 2},
		{name: "rounded up", live: 7, alive: 3, share: 3},
		{name: "more instances than sources", live: 2, alive: 5, share: 1},
		{name: "budget caps", live: 9, alive: 2, budget: 4, share: 4},
		{name: "budget above the share", live: 4, alive: 2, budget: 8, share: 2},
		{name: "no live instance counted", live: 3, alive: 0, share: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FairShare(tt.live, tt.alive, tt.budget); got != tt.share {
				t.Errorf("FairShare(%d, %d, %d) = %d, want %d", tt.live, tt.alive, tt.budget, got, tt.share)
			}
		})
	}
}

// fakeSource follows nothing: it runs until stopped, or ends by itself
// when end is closed.
type fakeSource struct {
	name string
	end  chan struct{}
}

func (f *fakeSource) Name() string { return f.name }

func (f *fakeSource) Run(ctx context.Context, _ listener.Emit) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-f.end:
		return nil
	}
}

// group is a test's group: members on one SQLite file and one fake clock,
// each offering the same sources.
type testGroup struct {
	t       *testing.T
	ctx     context.Context
	clk     *clock.Fake
	dir     string
	sources []string
	ends    map[string]chan struct{}
	log     *testlog.Buffer
	members map[string]*Member
	wg      sync.WaitGroup
}

func newTestGroup(t *testing.T, sources ...string) *testGroup {
	ctx, cancel := context.WithCancel(context.Background())
	g := &testGroup{t: t, ctx: ctx, clk: clock.NewFake(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)), dir: t.TempDir(),
		sources: sources, ends: map[string]chan struct{}{}, log: &testlog.Buffer{}, members: map[string]*Member{}}
	for _, s := range sources {
		g.ends[s] = make(chan struct{})
	}
	t.Cleanup(func() { cancel(); g.wg.Wait() })
	return g
}

// join adds instance id with a budget of sources (0: none) and runs its
// wrapped sources (they wait for their lease).
func (g *testGroup) join(id string, budget int) *Member {
	g.t.Helper()
	st, err := store.Open(g.ctx, store.Config{DataDir: g.dir, Now: g.clk.Now})
	if err != nil {
		g.t.Fatal(err)
	}
	g.t.Cleanup(func() { st.Close() })
	in, err := st.Join(g.ctx, store.InstanceConfig{ID: id, LeaseTTL: ttl, Budget: map[string]int{store.LeaseSource: budget}, Now: g.clk.Now})
	if err != nil {
		g.t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(g.log, nil)).With("instance", id)
	m := NewMember(st, in, Options{Log: log, Clock: g.clk, Intn: func(n int) int { return 0 }})
	for _, name := range g.sources {
		l := m.Wrap(&fakeSource{name: name, end: g.ends[name]}, store.LeaseSource)
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			_ = l.Run(g.ctx, func(threefold.GameState) error { return nil })
		}()
	}
	if err := in.Offer(g.ctx, store.LeaseSource, g.sources...); err != nil {
		g.t.Fatal(err)
	}
	g.members[id] = m
	return m
}

// pass runs one balance pass of each member, in order of id.
func (g *testGroup) pass(ids ...string) {
	for _, id := range ids {
		g.members[id].balance(g.ctx)
	}
}

// heartbeat renews the leases of members ids, as their KeepAlive would.
func (g *testGroup) heartbeat(ids ...string) {
	g.t.Helper()
	for _, id := range ids {
		if _, err := g.members[id].in.Heartbeat(g.ctx); err != nil {
			g.t.Fatal(err)
		}
	}
}

// running returns, by member, the sources it runs now.
func (g *testGroup) running() map[string][]string {
	out := map[string][]string{}
	for id, m := range g.members {
		for _, l := range m.srcs {
			if r, _ := l.state(); r {
				out[id] = append(out[id], l.name)
			}
		}
		sort.Strings(out[id])
	}
	return out
}

// check fails unless every source not ended runs on exactly one member and
// each member runs as many as counts says.
func (g *testGroup) check(counts map[string]int) {
	g.t.Helper()
	run := g.running()
	seen := map[string]string{}
	for id, names := range run {
		for _, n := range names {
			if other, dup := seen[n]; dup {
				g.t.Errorf("%s runs on %s and %s", n, other, id)
			}
			seen[n] = id
		}
	}
	for id, want := range counts {
		if len(run[id]) != want {
			g.t.Errorf("%s runs %v, want %d sources (all: %v)", id, run[id], want, run)
		}
	}
}

func sourceNames(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("lichess broadcast round r%d", i))
	}
	return out
}

// Three instances started together share six sources two by two, each
// source on one instance.
func TestBalanceFairShare(t *testing.T) {
	g := newTestGroup(t, sourceNames(6)...)
	g.join("a", 0)
	g.join("b", 0)
	g.join("c", 0)
	g.pass("a", "b", "c")
	g.check(map[string]int{"a": 2, "b": 2, "c": 2})
	g.pass("a", "b", "c") // a settled group stays as it is
	g.check(map[string]int{"a": 2, "b": 2, "c": 2})
}

// An instance that joins later gets its share: the others give back what
// they hold beyond theirs, one source per pass.
func TestBalanceSpreadsWhenAnInstanceJoins(t *testing.T) {
	g := newTestGroup(t, sourceNames(6)...)
	g.join("a", 0)
	g.join("b", 0)
	g.pass("a", "b")
	g.check(map[string]int{"a": 3, "b": 3})
	g.join("c", 0)
	g.pass("a", "b") // each gives one back
	g.check(map[string]int{"a": 2, "b": 2})
	g.pass("c")
	g.check(map[string]int{"a": 2, "b": 2, "c": 2})
	if n := strings.Count(g.log.String(), "lease given back to spread the work"); n != 2 {
		t.Errorf("%d leases given back, want 2\n%s", n, g.log)
	}
}

// Budgets cap the share: an instance never runs more than its budget, even
// when sources are left without an instance.
func TestBalanceBudget(t *testing.T) {
	g := newTestGroup(t, sourceNames(5)...)
	g.join("a", 1)
	g.join("b", 2)
	g.pass("a", "b", "a", "b")
	g.check(map[string]int{"a": 1, "b": 2})
}

// When an instance dies its leases run out; another instance takes its
// sources over and says from whom and after how long.
func TestBalanceTakeover(t *testing.T) {
	g := newTestGroup(t, sourceNames(4)...)
	g.join("a", 0)
	g.join("b", 0)
	g.pass("a", "b")
	g.check(map[string]int{"a": 2, "b": 2})
	g.clk.Advance(ttl / 3)
	g.heartbeat("a", "b")
	// b dies now: its last renewal is at +10s, its leases run out at +40s.
	g.clk.Advance(ttl + time.Second)
	g.heartbeat("a")
	g.pass("a")
	run := g.running()
	if len(run["a"]) != 4 {
		t.Fatalf("a runs %v after b died, want all four sources", run)
	}
	logs := g.log.String()
	if n := strings.Count(logs, "took over a source"); n != 2 || !strings.Contains(logs, "from=b") || !strings.Contains(logs, "gap=31s") {
		t.Errorf("takeovers logged %d times, want 2 from b with a gap of 31s:\n%s", n, logs)
	}
}

// A source that ended is recorded as ended: the instance that ran it
// gives up its lease for good and no other instance starts it.
func TestBalanceSourceThatEnded(t *testing.T) {
	names := sourceNames(2)
	g := newTestGroup(t, names...)
	a := g.join("a", 0)
	g.pass("a")
	g.check(map[string]int{"a": 2})
	close(g.ends[names[0]])
	<-a.byKey[[2]string{store.LeaseSource, names[0]}].finished // its end is recorded, its lease finished
	data, ok, err := a.st.LoadSourceState(g.ctx, names[0])
	if err != nil || !ok || !Ended(data) {
		t.Fatalf("state of the ended source: %q %v %v", data, ok, err)
	}
	b := g.join("b", 0)
	g.pass("b", "a", "b")
	g.check(map[string]int{"a": 1, "b": 0})
	for _, l := range b.srcs {
		if _, done := l.state(); done != (l.name == names[0]) {
			t.Errorf("b: %s done = %v", l.name, done)
		}
	}
	gs, err := a.st.Status(g.ctx, g.clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range gs.Leases {
		if l.Name == names[0] && !l.Expired {
			t.Errorf("the ended source is held: %+v", l)
		}
	}
}

// An instance dead for ForgetAfter lease lifetimes is no longer listed.
func TestBalanceForgetsDeadInstances(t *testing.T) {
	g := newTestGroup(t, sourceNames(1)...)
	a := g.join("a", 0)
	g.join("b", 0)
	g.pass("a", "b")
	step := ttl / 3
	for range 3 * ForgetAfter { // b is dead from the start
		g.clk.Advance(step)
		g.heartbeat("a")
	}
	g.clk.Advance(step)
	g.heartbeat("a")
	g.pass("a")
	gs, err := a.st.Status(g.ctx, g.clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, i := range gs.Instances {
		ids = append(ids, i.ID)
	}
	if !slices.Equal(ids, []string{"a"}) {
		t.Errorf("instances %v after b was dead for %d lease lifetimes, want only a", ids, ForgetAfter)
	}
}
