package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
)

// groupLeaseTTL is the lease lifetime of the failover test's instances.
const groupLeaseTTL = 2 * time.Second

// startGroupWatch starts one instance of the group: the real binary,
// `watch --group --json` on the given sources.
func startGroupWatch(t *testing.T, bin, cfg string, sources []string) *watchProcess {
	t.Helper()
	p := &watchProcess{stdout: &safeBuffer{}, stderr: &safeBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append([]string{"watch", "--group", "--json", "--config", cfg}, sources...)...)
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
			t.Logf("instance %d stderr:\n%s", p.cmd.Process.Pid, p.stderr.String())
		}
	})
	return p
}

// waitStatus polls the group's state until ok says yes.
func waitStatus(ctx context.Context, t *testing.T, st *store.Store, what string, ok func(store.GroupStatus) bool) store.GroupStatus {
	t.Helper()
	for {
		gs, err := st.Status(ctx, time.Now())
		if err == nil && ok(gs) {
			return gs
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v (last error %v)\nstatus: %+v", what, ctx.Err(), err, gs)
		case <-time.After(20 * time.Millisecond): // polling, not an assertion
		}
	}
}

// The failover acceptance test of issue 7: three `threefold watch --group`
// processes on one PostgreSQL database follow six broadcast rounds (six
// sources, so the leases spread: two each); the one holding the most
// leases is killed with SIGKILL mid-round, while the rounds go on. Its
// rounds must be followed again by the others within the lease time
// (measured: from the kill to the first snapshot of each of its games
// recorded by the taker), and every alert the rules package finds in the
// real games must reach the webhook exactly once (by alert id, and
// counting raw requests). The kill comes when the outbox is empty (every
// alert so far sent and marked): the window between a webhook's 2xx and
// the mark, where a repeat is allowed (see package store), is not in play
// here; a relay dying with claims is tested in store/delivery.
//
// In the subtest "sending", the kill instead comes while the victim's relay
// is sending an alert that the webhook holds unanswered (never accepted):
// the instance died between detecting and sending, with outbox rows
// claimed. Its claims run out after watch.outbox_hold and another
// instance sends them; the held alert reaches the webhook twice as a raw
// request and is accepted once.
func TestGroupFailover(t *testing.T) {
	pg := testenv.PostgresDSN(t)
	bin := buildThreefold(t)
	t.Run("quiet", func(t *testing.T) { groupFailover(t, bin, freshSchema(t, pg), false) })
	t.Run("sending", func(t *testing.T) { groupFailover(t, bin, freshSchema(t, pg), true) })
}

// hookAddrs records the client address of each alert's last request, so
// that the process that sent a request can be found.
type hookAddrs struct {
	next http.Handler
	mu   sync.Mutex
	addr map[string]string // alert id → remote address
}

func (h *hookAddrs) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var a threefold.Alert
	if json.Unmarshal(body, &a) == nil {
		h.mu.Lock()
		h.addr[a.ID] = r.RemoteAddr
		h.mu.Unlock()
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.next.ServeHTTP(w, r)
}

// pidOfClient finds which of pids owns the TCP connection whose local end
// is addr (the receiver's RemoteAddr): its socket inode from
// /proc/net/tcp, then the process holding that socket.
func pidOfClient(t *testing.T, addr string, pids []int64) int64 {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(":%04X", p)
	inode := ""
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) > 9 && strings.HasSuffix(fs[1], want) {
				inode = fs[9]
			}
		}
	}
	if inode == "" {
		t.Fatalf("no socket with local address %s in /proc/net/tcp", addr)
	}
	for _, pid := range pids {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && l == "socket:["+inode+"]" {
				return pid
			}
		}
	}
	t.Fatalf("no instance owns socket %s (%s)", inode, addr)
	return 0
}

// groupStatusOut is what the test reads of `threefold status --json`.
type groupStatusOut struct {
	Instances []struct {
		ID    string         `json:"id"`
		PID   int64          `json:"pid"`
		Alive bool           `json:"alive"`
		Held  map[string]int `json:"held"`
	} `json:"instances"`
	Leases []struct {
		Kind    string `json:"kind"`
		Name    string `json:"name"`
		Holder  string `json:"holder"`
		Expired bool   `json:"expired"`
	} `json:"leases"`
	Sources []struct {
		Name   string `json:"name"`
		Holder string `json:"holder"`
	} `json:"sources"`
}

// checkGroupStatus runs `threefold status --json` (the real binary) and
// checks that it shows alive instances alive and dead dead, and every
// round leased to an alive instance other than dead, held as the
// instances' counts say.
func checkGroupStatus(t *testing.T, bin, cfg string, rounds int, alive []int64, dead string) {
	t.Helper()
	cmd := exec.Command(bin, "status", "--json", "--config", cfg)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("threefold status: %v", err)
	}
	var gs groupStatusOut
	if err := json.Unmarshal(out, &gs); err != nil {
		t.Fatalf("threefold status --json: %v\n%s", err, out)
	}
	live := map[string]bool{}
	pids := map[int64]bool{}
	for _, in := range gs.Instances {
		switch {
		case in.ID == dead && in.Alive:
			t.Errorf("status: the killed instance %s shown alive", in.ID)
		case in.ID != dead && !in.Alive:
			t.Errorf("status: instance %s shown dead", in.ID)
		case in.Alive:
			live[in.ID] = true
			pids[in.PID] = true
		}
	}
	for _, pid := range alive {
		if !pids[pid] {
			t.Errorf("status: instance of pid %d not shown alive\n%s", pid, out)
		}
	}
	held := map[string]int{}
	n := 0
	for _, l := range gs.Leases {
		if l.Kind != store.LeaseSource {
			continue
		}
		n++
		if l.Expired || !live[l.Holder] {
			t.Errorf("status: %s held by %q (expired %v), want an alive instance", l.Name, l.Holder, l.Expired)
		}
		held[l.Holder]++
	}
	if n != rounds || len(gs.Sources) != rounds {
		t.Errorf("status: %d source leases and %d sources, want %d\n%s", n, len(gs.Sources), rounds, out)
	}
	for _, in := range gs.Instances {
		if in.Alive && in.Held[store.LeaseSource] != held[in.ID] {
			t.Errorf("status: instance %s holds %d sources, its leases say %d", in.ID, in.Held[store.LeaseSource], held[in.ID])
		}
	}
}

func groupFailover(t *testing.T, bin, dsn string, sending bool) {

	var rb [4]byte
	rand.Read(rb[:])
	prefix := "gf" + hex.EncodeToString(rb[:])[:5]
	base := crashBoards(t, prefix+"x")
	type roundOf struct {
		id    string
		board *crashBoard
	}
	var rounds []roundOf
	for i, b := range base {
		id := fmt.Sprintf("%s%d", prefix, i)
		b.url = strings.Replace(b.url, prefix+"x", id, 1)
		rounds = append(rounds, roundOf{id: id, board: b})
	}
	want := expectedAlerts(t, base)
	lastTick := 0
	for _, b := range base {
		lastTick = max(lastTick, len(b.san)-b.start+1)
	}
	// The kill comes after the tick of the alert a third of the way.
	killTick := want[len(want)/3].tick

	// The three instances share 127.0.0.1 here, where a group's
	// instances have an address each: the fake's per-address limit of 4
	// round streams is lifted, each instance's budget (4) stays.
	fake := fakelichess.New(fakelichess.Options{EventStreams: 100})
	defer fake.Close()
	rc := &receiver{t: t, held: make(chan struct{})}
	if sending {
		rc.holdAt = len(want) / 3
		killTick = want[rc.holdAt-1].tick
	}
	addrs := &hookAddrs{next: rc, addr: map[string]string{}}
	hook := httptest.NewServer(addrs)
	defer hook.Close()

	dir := t.TempDir()
	cfg := filepath.Join(dir, "threefold.yaml")
	conf := fmt.Sprintf(`data_dir: %s
log:
  level: debug
lichess:
  url: %s
store:
  dsn: %q
watch:
  lease_ttl: %s
  outbox_hold: 4s
  webhooks:
    - kind: json
      url: %s/hook
`, filepath.Join(dir, "data"), fake.URL, dsn, groupLeaseTTL, hook.URL)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	var sources []string
	bcs := map[string]*fakelichess.Broadcast{}
	for _, r := range rounds {
		bc := fake.Broadcast(r.id)
		bc.SetPGN(r.board.pgnAt(r.board.start, "*"))
		bcs[r.id] = bc
		sources = append(sources, fake.URL+"/broadcast/failover/round-1/"+r.id)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, store.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	procs := map[int64]*watchProcess{}
	for range 3 {
		p := startGroupWatch(t, bin, cfg, sources)
		procs[int64(p.cmd.Process.Pid)] = p
	}
	// The group settles: three live instances, two rounds each.
	waitStatus(ctx, t, st, "the leases to spread", func(gs store.GroupStatus) bool {
		if len(gs.Instances) != 3 {
			return false
		}
		for _, in := range gs.Instances {
			if !in.Alive || in.Held[store.LeaseSource] != 2 {
				return false
			}
		}
		return true
	})
	var pids []int64
	for pid := range procs {
		pids = append(pids, pid)
	}
	checkGroupStatus(t, bin, cfg, len(rounds), pids, "")

	// The broadcast: one move on every board per tick.
	pace := 15 * time.Millisecond
	play := func(tick int) {
		for _, r := range rounds {
			b := r.board
			ply := b.start + tick
			var err error
			switch {
			case ply <= len(b.san):
				err = bcs[r.id].AppendMove(b.chapter, b.san[ply-1])
			case ply == len(b.san)+1:
				err = bcs[r.id].SetResult(b.chapter, b.result)
			}
			if err != nil {
				t.Fatalf("%s: %v", b.chapter, err)
			}
		}
		time.Sleep(pace) // the pace of the broadcast, not an assertion
	}
	for tick := 1; tick <= killTick; tick++ {
		play(tick)
	}
	var victim store.InstanceStatus
	var gs store.GroupStatus
	if sending {
		// The victim: the instance whose relay sent the held request.
		select {
		case <-rc.held:
		case <-ctx.Done():
			t.Fatalf("no request held: %d requests", len(rc.raw))
		}
		rc.mu.Lock()
		heldID := rc.raw[rc.holdAt-1].id
		rc.mu.Unlock()
		addrs.mu.Lock()
		addr := addrs.addr[heldID]
		addrs.mu.Unlock()
		var pids []int64
		for pid := range procs {
			pids = append(pids, pid)
		}
		pid := pidOfClient(t, addr, pids)
		var err error
		if gs, err = st.Status(ctx, time.Now()); err != nil {
			t.Fatal(err)
		}
		for _, in := range gs.Instances {
			if in.PID == pid {
				victim = in
			}
		}
	} else {
		// Quiet: every alert so far accepted, the outbox empty; the
		// victim is the instance holding the most rounds.
		before := 0
		for _, a := range want {
			if a.tick <= killTick {
				before++
			}
		}
		gs = waitStatus(ctx, t, st, "the alerts before the kill", func(gs store.GroupStatus) bool {
			if rc.accepted() < before {
				return false
			}
			for _, o := range gs.Outbox {
				if o.Pending > 0 {
					return false
				}
			}
			return true
		})
		for _, in := range gs.Instances {
			if in.Held[store.LeaseSource] > victim.Held[store.LeaseSource] {
				victim = in
			}
		}
	}
	var victimRounds []string
	for _, l := range gs.Leases {
		if l.Holder == victim.ID && !l.Expired {
			victimRounds = append(victimRounds, l.Name)
		}
	}
	vp := procs[victim.PID]
	if vp == nil || len(victimRounds) == 0 {
		t.Fatalf("victim %s (pid %d) holds %v; processes %v", victim.ID, victim.PID, victimRounds, procs)
	}
	killAt := time.Now()
	if err := vp.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-vp.done; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("victim: %v, want killed", err)
	}
	vp.done <- nil // for the cleanup
	delete(procs, victim.PID)
	t.Logf("killed instance %s at tick %d of %d holding %v, after %d of %d alerts", victim.ID, killTick, lastTick,
		victimRounds, rc.accepted(), len(want))

	// The rounds go on while the others take the victim's over, slower,
	// so that the takers follow moves live as well as from the snapshot.
	pace = 120 * time.Millisecond
	var driver sync.WaitGroup
	driver.Add(1)
	go func() {
		defer driver.Done()
		for tick := killTick + 1; tick <= lastTick; tick++ {
			play(tick)
		}
	}()

	// Failover: every game of the victim's rounds recorded again by a
	// taker after the kill.
	victimGames := map[string]bool{}
	for _, r := range rounds {
		for _, name := range victimRounds {
			if strings.Contains(name, r.id) {
				victimGames[listener.BroadcastGameID(r.board.url)] = true
			}
		}
	}
	if len(victimGames) != len(victimRounds) {
		t.Fatalf("victim rounds %v match games %v", victimRounds, victimGames)
	}
	var failover time.Duration
	for url := range victimGames {
		for {
			g, err := st.Game(ctx, "lichess", url)
			if err == nil && g.UpdatedAt.After(killAt) {
				failover = max(failover, g.UpdatedAt.Sub(killAt))
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("game %s not followed again after the kill", url)
			case <-time.After(10 * time.Millisecond): // polling
			}
		}
	}
	// Settled: the victim's rounds taken over, and every round held by a
	// live instance. A taker that took more than its share gives one
	// back (holder "" until another takes it): the check below must not
	// catch that moment.
	gs = waitStatus(ctx, t, st, "the victim's leases taken over", func(gs store.GroupStatus) bool {
		alive := map[string]bool{}
		for _, in := range gs.Instances {
			alive[in.ID] = in.Alive && in.ID != victim.ID
		}
		taken := 0
		for _, l := range gs.Leases {
			if l.Kind != store.LeaseSource {
				continue
			}
			if l.Expired || !alive[l.Holder] {
				return false
			}
			if slices.Contains(victimRounds, l.Name) {
				taken++
			}
		}
		return taken == len(victimRounds)
	})
	pids = pids[:0]
	for pid := range procs {
		pids = append(pids, pid)
	}
	checkGroupStatus(t, bin, cfg, len(rounds), pids, victim.ID)
	t.Logf("failover: %v from the SIGKILL to the last of the victim's %d games processed by a taker (lease TTL %v, heartbeat %v)",
		failover, len(victimGames), groupLeaseTTL, groupLeaseTTL/3)
	// Within the lease time: the victim's leases expire at most a TTL
	// after its last heartbeat, a taker's pass comes within a heartbeat
	// period, then it connects; a loaded machine gets one TTL of slack.
	if limit := 2*groupLeaseTTL + groupLeaseTTL/3; failover > limit {
		t.Errorf("failover took %v, more than %v", failover, limit)
	}

	driver.Wait()
	for _, bc := range bcs {
		bc.Finish()
	}
	// The survivors end with the rounds.
	for pid, p := range procs {
		select {
		case err := <-p.done:
			p.done <- err
			if err != nil {
				t.Errorf("instance %d: %v", pid, err)
			}
		case <-ctx.Done():
			t.Fatalf("instance %d did not end with the rounds\nstderr:\n%s", pid, p.stderr.String())
		}
	}

	// Every expected alert accepted exactly once, and no request repeated.
	wantIDs := map[string]string{}
	for _, a := range want {
		wantIDs[a.id] = a.desc
	}
	rc.mu.Lock()
	raw := append([]rawDelivery(nil), rc.raw...)
	rc.mu.Unlock()
	got := map[string]int{}
	for i, d := range raw {
		if sending && i == rc.holdAt-1 {
			continue // held, never accepted: sent again by another instance
		}
		if !d.accepted {
			t.Errorf("request for %s not accepted", d.id)
		}
		got[d.id]++
	}
	for id, desc := range wantIDs {
		if got[id] != 1 {
			t.Errorf("alert %s (%s) reached the webhook %d times, want once", id, desc, got[id])
		}
	}
	for id, n := range got {
		if _, ok := wantIDs[id]; !ok {
			t.Errorf("alert %s reached the webhook %d times, not expected", id, n)
		}
	}
	if extra := len(raw) - len(want); sending && (extra != 1 || raw[rc.holdAt-1].accepted) || !sending && extra != 0 {
		t.Errorf("%d requests for %d alerts (sending %v)", len(raw), len(want), sending)
	}
	// The store: each alert once, every game to its end, every round
	// finished and its lease gone.
	stored, err := st.Alerts(ctx, store.AlertFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(want) {
		t.Errorf("store holds %d alerts, want %d", len(stored), len(want))
	}
	for _, r := range rounds {
		b := r.board
		g, err := st.Game(ctx, "lichess", listener.BroadcastGameID(b.url))
		if err != nil {
			t.Errorf("%s: %v", b.chapter, err)
			continue
		}
		if len(g.Moves) != len(b.san) || !g.Finished || g.Result != b.result {
			t.Errorf("%s stored with %d plies, finished %v, result %q; want %d, true, %q",
				b.chapter, len(g.Moves), g.Finished, g.Result, len(b.san), b.result)
		}
	}
	gs, err = st.Status(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, l := range gs.Leases {
		if !l.Expired {
			left = append(left, l.Kind+" "+l.Name+" "+l.Holder)
		}
	}
	sort.Strings(left)
	if len(left) > 0 {
		t.Errorf("leases still held after the end: %v", left)
	}
}
