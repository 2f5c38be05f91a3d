package listener

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// A quiet broadcast round (no game yet) is reported connected as soon as
// its stream is open, and disconnected with the reason when the stream is
// lost; the games of a users source do not speak for the source.
func TestSourcesReportTheirState(t *testing.T) {
	srv, client := newLichess(t)
	round := srv.Broadcast("quietRnd")
	var mu sync.Mutex
	var got []string
	changed := make(chan struct{}, 16)
	deps := Deps{Lichess: client, OnSourceState: func(name string, connected bool, err error) {
		mu.Lock()
		s := name + " connected"
		if !connected {
			s = name + " down"
			if err == nil {
				s += " without a reason"
			}
		}
		got = append(got, s)
		mu.Unlock()
		changed <- struct{}{}
	}}
	srcs, err := Sources([]Target{{Kind: TargetLichessRound, ID: "quietRnd"}}, deps)
	if err != nil {
		t.Fatal(err)
	}
	// The stream is cut at its second line.
	srv.Inject(fakelichess.Fault{Path: "/api/stream/broadcast/round/*", Disconnect: true, AfterLines: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srcs[0].Run(ctx, func(threefold.GameState) error { return nil }) }()
	<-changed // connected, before any game
	round.SetPGN("[Event \"x\"]\n[GameURL \"https://lichess.org/broadcast/x/r/quietRnd/g1\"]\n[Result \"*\"]\n\n1. e4 *\n")
	if err := round.AppendMove("g1", "e5"); err != nil {
		t.Fatal(err)
	}
	<-changed
	<-changed
	round.Finish()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := "lichess broadcast round quietRnd connected; lichess broadcast round quietRnd down; lichess broadcast round quietRnd connected"
	if s := strings.Join(got, "; "); s != want {
		t.Errorf("states\n  %s\nwant\n  %s", s, want)
	}
}
