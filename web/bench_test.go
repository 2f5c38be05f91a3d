package web

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/randgame"
	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/rules"
)

// benchMoves is a 160-ply game of knight shuffles and pawn moves: many
// repeated positions, as the dashboard's worst case.
func benchMoves(b *testing.B) []string {
	g := rules.NewGame(rules.StartPosition())
	var out []string
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}
	for len(out) < 160 {
		for _, m := range cycle {
			if _, err := g.PlayUCI(m); err != nil {
				b.Fatal(err)
			}
			out = append(out, m)
		}
		for i := 0; i < 2; i++ { // one pawn move each: the positions so far never recur
			pos := g.Position()
			var pawn rules.Move
			for _, m := range pos.LegalMoves(nil) {
				if pos.PieceAt(m.From()).Type() == rules.Pawn && !pos.IsCapture(m) && m.From().File() != 5 && m.From().File() != 6 {
					pawn = m
					break
				}
			}
			if pawn == rules.NoMove {
				b.Fatal("no pawn move left")
			}
			if err := g.Play(pawn); err != nil {
				b.Fatal(err)
			}
			out = append(out, pawn.UCI())
		}
	}
	return out
}

// BenchmarkHubUpdatePerPly: one update per ply, each extending the last
// (the live case); the reported time is per game of 160 plies.
func BenchmarkHubUpdatePerPly(b *testing.B) {
	moves := benchMoves(b)
	ref := threefold.GameRef{Site: "lichess", ID: "bench"}
	b.ReportAllocs()
	for b.Loop() {
		h := NewHub(HubOptions{})
		for i := 1; i <= len(moves); i++ {
			h.Update(threefold.GameState{Game: ref, Moves: moves[:i], Notation: rules.UCI})
		}
	}
}

// BenchmarkHubPush: one game update pushed to 50 index pages and 5 game
// pages.
func BenchmarkHubPush(b *testing.B) {
	moves := benchMoves(b)
	ref := threefold.GameRef{Site: "lichess", ID: "bench"}
	h := NewHub(HubOptions{})
	var clients []*client
	for i := 0; i < 55; i++ {
		c := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
		if i < 5 {
			c.focus = GameKey(ref)
		}
		h.register(c)
		clients = append(clients, c)
	}
	h.Update(threefold.GameState{Game: ref, Moves: moves, Notation: rules.UCI})
	b.ReportAllocs()
	for b.Loop() {
		h.mu.Lock()
		g := h.games[GameKey(ref)]
		g.dirty, g.dirtySince = true, h.now()
		h.dirty = append(h.dirty, g)
		h.mu.Unlock()
		h.push()
		for _, c := range clients {
			for len(c.send) > 0 {
				<-c.send
			}
		}
	}
}

// BenchmarkHubBroadcast is the dashboard's side of one live update: a
// board's state with one more ply taken in (Hub.Update: its replay and its
// view), then pushed to the pages — 10 index pages, and a game page on
// every board — with 10 and 1,000 boards followed, each at 10 and 500
// plies, on games in which no position repeats around either length
// (randgame.QuietLines). The rows are to be compared with each other: the
// cost should depend on neither. Beside ns/op it reports cpu-ns/op, the updating
// thread's CPU time (Linux), which a busy machine does not inflate, and
// sent-B/op, the bytes pushed to the pages.
func BenchmarkHubBroadcast(b *testing.B) {
	const lines = 20 // distinct random games; board i plays line i%lines
	const extra = 10 // updates per board before the boards start over
	// Lines in whose updates no position repeats at either length: the
	// rows compare the same work (see randgame.QuietLines).
	moves := randgame.QuietLines(b, lines, 500+extra, [2]int{10, 10 + extra}, [2]int{500, 500 + extra})
	for _, boards := range []int{10, 1000} {
		for _, length := range []int{10, 500} {
			b.Run(fmt.Sprintf("boards=%d/plies=%d", boards, length), func(b *testing.B) {
				state := func(i, plies int) threefold.GameState {
					return threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: strconv.Itoa(i)}, Source: "bench",
						Notation: rules.SAN, Moves: moves[i%lines][:plies], ObservedAt: time.Unix(1, 0)}
				}
				var h *Hub
				var index, pages []*client
				var next []int
				reset := func() {
					h = NewHub(HubOptions{})
					index, pages, next = nil, nil, make([]int, boards)
					for i := range boards {
						h.Update(state(i, length))
						next[i] = length + 1
					}
					h.push()
					for i := range 10 + boards {
						c := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
						if i < 10 {
							index = append(index, c)
						} else {
							c.focus = GameKey(state(i-10, 0).Game)
							pages = append(pages, c)
						}
						h.register(c)
						<-c.send // the hello
					}
				}
				sent := 0
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				reset()
				runtime.GC()
				b.ReportAllocs()
				b.ResetTimer()
				cpuStart, cpuOK := testmeasure.Now()
				var untimed time.Duration
				for n := 0; n < b.N; n++ {
					i := n % boards
					if next[i] > length+extra {
						c0, _ := testmeasure.Now()
						b.StopTimer()
						reset()
						runtime.GC()
						b.StartTimer()
						c1, _ := testmeasure.Now()
						untimed += c1 - c0
					}
					sent += hubBroadcastUpdate(h, state(i, next[i]), index, pages[i])
					next[i]++
				}
				if cpuEnd, ok := testmeasure.Now(); ok && cpuOK {
					b.ReportMetric(float64(cpuEnd-cpuStart-untimed)/float64(b.N), "cpu-ns/op")
				}
				b.ReportMetric(float64(sent)/float64(b.N), "sent-B/op")
				if h.Clients() != 10+boards {
					b.Fatalf("%d pages connected, want %d: some were dropped", h.Clients(), 10+boards)
				}
			})
		}
	}
}

// hubBroadcastUpdate is the update BenchmarkHubBroadcast times: u taken in,
// pushed, and the messages read by the index pages and the game's page;
// it returns the bytes they got. A function of its own so that callgrind
// can count it alone (bench/live-cg.sh: --toggle-collect='*hubBroadcastUpdate').
//
//go:noinline
func hubBroadcastUpdate(h *Hub, u threefold.GameState, index []*client, page *client) (sent int) {
	h.Update(u)
	h.push()
	for _, c := range index {
		for len(c.send) > 0 {
			sent += len(<-c.send)
		}
	}
	for len(page.send) > 0 {
		sent += len(<-page.send)
	}
	return sent
}
