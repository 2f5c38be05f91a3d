package listener

import (
	"context"
	"strconv"
	"strings"
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

// The Chess960 game of the variant tests: from start position 124 (X-FEN,
// as Lichess, chess.com and LiveChess write it; king on c1 between rooks on
// b1 and g1) the g-file rooks, which hold castling rights, step aside and
// back between knight shuffles. Under Chess960 those rights are lost and
// the placements before are new positions: the first third occurrence is
// at ply 14; a standard reading (where the rights were void) says ply 10.
const (
	chess960Start         = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1"
	chess960StartShredder = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"
)

var chess960SAN = strings.Fields("Ng3 Ng6 Rh1 Rh8 Rg1 Rg8 Nh1 Nh8 Ng3 Ng6 Nh1 Nh8 Ng3 Ng6 Nh1 Nh8")

// checkChess960Alerts checks the alerts of that game: the first threefold
// at ply 14, and every alert saying Chess960.
func checkChess960Alerts(t *testing.T, c *collector, id string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var first int
	for _, a := range c.alerts {
		if a.Game.ID != id {
			continue
		}
		if a.Kind == threefold.KindThreefold && first == 0 {
			first = a.Ply
		}
		if a.Variant != "chess960" {
			t.Errorf("alert at ply %d: variant %q, want chess960", a.Ply, a.Variant)
		}
	}
	if first != 14 {
		t.Errorf("the first threefold at ply %d, want 14 (Chess960 rights lost)", first)
	}
}
