package listener

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
)

// newFakeClock returns a fake clock at 2026-07-07 12:00 UTC.
func newFakeClock() *clock.Fake {
	return clock.NewFake(time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC))
}

// waitSleep waits until the source under test begins its next wait on clk
// and returns how long it is.
func waitSleep(t *testing.T, clk *clock.Fake) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard, not a timed assertion
	defer cancel()
	d, err := clk.NextWait(ctx)
	if err != nil {
		t.Fatal("nothing went to sleep on the fake clock")
	}
	return d
}

// collector gathers snapshots and the alerts a watcher raises from them.
type collector struct {
	mu     sync.Mutex
	snaps  []threefold.GameState
	alerts []threefold.Alert
	ids    map[string]int
	w      *Watcher
	notify chan struct{}
}

func newCollector() *collector {
	c := &collector{ids: map[string]int{}, notify: make(chan struct{}, 4096)}
	c.w = NewWatcher(WatcherOptions{Alert: func(a threefold.Alert) {
		c.mu.Lock()
		c.alerts = append(c.alerts, a)
		c.ids[a.ID]++
		c.mu.Unlock()
	}})
	return c
}

func (c *collector) emit(s threefold.GameState) error {
	c.w.Apply(s)
	c.mu.Lock()
	c.snaps = append(c.snaps, s)
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
	return nil
}

// waitFor waits until cond holds over the collected state.
func (c *collector) waitFor(t *testing.T, what string, cond func(c *collector) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second) // a hang guard, not a timed assertion
	for {
		c.mu.Lock()
		ok := cond(c)
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

func (c *collector) kinds(gameID string) map[threefold.AlertKind][]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[threefold.AlertKind][]int{}
	for _, a := range c.alerts {
		if gameID == "" || a.Game.ID == gameID {
			out[a.Kind] = append(out[a.Kind], a.Ply)
		}
	}
	return out
}

func (c *collector) duplicates() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var d []string
	for id, n := range c.ids {
		if n > 1 {
			d = append(d, id)
		}
	}
	return d
}

func (c *collector) alertCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.alerts)
}

// runSource runs src in the background; stop cancels it and returns its
// error.
func runSource(src Source, emit Emit) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, emit) }()
	return func() error {
		cancel()
		return <-done
	}
}

// anandMoves is game 0 of the corpus (Anand - Martin del Campo, Sharjah
// 1985): a claim by declared move at ply 51, the third occurrence at 52.
var anandMoves = []string{"e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be2", "e5", "Nb3", "Be7",
	"O-O", "O-O", "Be3", "Be6", "Qd2", "Nbd7", "a4", "Rc8", "a5", "Qc7", "Rfc1", "Qc6", "Bf3", "Bc4", "Ra4", "Rfe8",
	"Rb4", "Qc7", "Nd5", "Nxd5", "exd5", "Nf6", "Bb6", "Qd7", "Nc5", "dxc5", "Rxc4", "Bd6", "Re1", "Qf5", "Be4", "Qh5",
	"Bf3", "Qf5", "Be4", "Qh5", "Bf3", "Qf5"}

const anandPGNHead = `[Event "Wch U20"]
[Site "Sharjah"]
[White "Anand, Viswanathan"]
[Black "Martin del Campo, Roberto"]
`

// pgnOf writes a game's PGN with the given tags and moves.
func pgnOf(head string, moves []string, result string) string {
	s := head + "[Result \"" + result + "\"]\n\n"
	for i, m := range moves {
		if i%2 == 0 {
			s += strconv.Itoa(i/2+1) + ". "
		}
		s += m + " "
	}
	return s + result + "\n\n"
}
