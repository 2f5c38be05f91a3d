package web

import (
	"testing"

	"github.com/threefold-chess/threefold"
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
		h.dirty[GameKey(ref)] = h.now()
		h.mu.Unlock()
		h.push()
		for _, c := range clients {
			for len(c.send) > 0 {
				<-c.send
			}
		}
	}
}
