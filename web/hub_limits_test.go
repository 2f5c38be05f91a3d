package web

import (
	"encoding/json"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testmeasure"
	"github.com/threefold-chess/threefold/rules"
)

// TestHubForgetsFinishedGames: the hub's map of games kept every game it
// was ever told about; a finished game now leaves it after the grace
// period, and the count of games followed stays right.
func TestHubForgetsFinishedGames(t *testing.T) {
	now := time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC)
	m := NewMetrics()
	hub := NewHub(HubOptions{Metrics: m, FinishedGrace: time.Hour, Now: func() time.Time { return now }})
	game := func(id string, finished bool) threefold.GameState {
		return threefold.GameState{Game: threefold.GameRef{Site: "x", ID: id}, Notation: rules.SAN,
			Moves: []string{"e4", "e5"}, Finished: finished}
	}
	hub.Update(game("live", false))
	hub.Update(game("done", true))
	if n := len(hub.Games()); n != 2 {
		t.Fatalf("%d games", n)
	}
	now = now.Add(50 * time.Minute)
	hub.Update(game("live", false))
	if n := len(hub.Games()); n != 2 {
		t.Fatalf("%d games within the grace period, want 2", n)
	}
	now = now.Add(20 * time.Minute)
	hub.Update(game("live", false))
	if gs := hub.Games(); len(gs) != 1 || gs[0].Game.ID != "live" {
		t.Fatalf("after the grace period: %d games", len(gs))
	}
	if hub.live != 1 {
		t.Fatalf("live count %d, want 1", hub.live)
	}
}

// TestHubAttention: the dashboard marks a game the source could not read
// whole, and one longer than the plies limit, and keeps no more plies than
// the limit.
func TestHubAttention(t *testing.T) {
	hub := NewHub(HubOptions{MaxPlies: 6})
	ref := threefold.GameRef{Site: "file", ID: "1"}
	hub.Update(threefold.GameState{Game: ref, Notation: rules.SAN, Moves: []string{"e4", "e5"}, ReadError: `line 4: unexpected token "xyz"`})
	v, _ := hub.Game(GameKey(ref))
	if v.Status != "attention" || !strings.Contains(v.Attention, `line 4: unexpected token "xyz"`) {
		t.Fatalf("status %q attention %q", v.Status, v.Attention)
	}
	moves := strings.Fields(strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 5))
	hub.Update(threefold.GameState{Game: ref, Notation: rules.SAN, Moves: moves})
	v, _ = hub.Game(GameKey(ref))
	if v.Status != "attention" || v.Ply != 6 || len(v.FENs) != 7 || !strings.Contains(v.Attention, "limit pgn.max_plies") {
		t.Fatalf("status %q ply %d fens %d attention %q", v.Status, v.Ply, len(v.FENs), v.Attention)
	}
	hub.Update(threefold.GameState{Game: ref, Notation: rules.SAN, Moves: moves[:6]})
	if v, _ = hub.Game(GameKey(ref)); v.Status != "playing" {
		t.Fatalf("status %q after a state within the limit", v.Status)
	}
}

// BenchmarkMemoryHubFinishedGames: the hub is told of games one after
// another, a minute apart, each finished. live-B is what it holds after
// the last one: flat from 1,000 to 100,000 games with grace=1h; the
// baseline grace=never keeps every game, as it did before. once: the
// games of a file read by watch --once, 10 ms apart, each state its
// game's last and pushed: flat, where once-as-before (states that are not
// their game's last) keeps every game for the 2-hour grace period.
// once-unfinished: the same games without a result ("*"), which the hub
// kept to the end.
func BenchmarkMemoryHubFinishedGames(b *testing.B) {
	moves := strings.Fields("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
	for _, run := range []struct {
		name   string
		grace  time.Duration
		games  []int
		once   bool // watch --once: games 10 ms apart, each state its game's last, pushed
		result string
	}{
		{"grace=1h", time.Hour, []int{1000, 10000, 100000}, false, "1/2-1/2"},
		{"grace=never", 100000 * time.Hour, []int{1000, 10000}, false, "1/2-1/2"},
		{"once", 2 * time.Hour, []int{1000, 10000}, true, "1/2-1/2"},
		{"once-as-before", 2 * time.Hour, []int{1000, 10000}, false, "1/2-1/2"},
		{"once-unfinished", 2 * time.Hour, []int{1000, 10000}, true, "*"},
	} {
		for _, games := range run.games {
			b.Run(run.name+"/games="+strconv.Itoa(games), func(b *testing.B) {
				var live int64
				b.ReportAllocs()
				for b.Loop() {
					before := testmeasure.LiveHeap()
					now := time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC)
					hub := NewHub(HubOptions{FinishedGrace: run.grace, Now: func() time.Time { return now }})
					for i := range games {
						hub.Update(threefold.GameState{Game: threefold.GameRef{Site: "x", ID: strconv.Itoa(i)}, Notation: rules.SAN,
							Moves: moves, Result: run.result, Finished: run.result != "*", Last: run.once})
						if strings.HasPrefix(run.name, "once") {
							hub.push()
							now = now.Add(10 * time.Millisecond)
						} else {
							now = now.Add(time.Minute)
						}
					}
					live = testmeasure.LiveHeap() - before
					runtime.KeepAlive(hub)
				}
				b.ReportMetric(float64(live), "live-B")
			})
		}
	}
}

// TestHubForgetsGamesAfterTheirLastState: a game whose state is its
// source's last (a file read once) is pushed to the pages, then
// forgotten, not kept for the grace period (finished) or to the end
// (without a result); a finished game that may still be corrected stays,
// and so does one that goes on.
func TestHubForgetsGamesAfterTheirLastState(t *testing.T) {
	hub := NewHub(HubOptions{})
	page := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	hub.register(page)
	<-page.send // the hello
	game := func(id string, finished, last bool) threefold.GameState {
		return threefold.GameState{Game: threefold.GameRef{Site: "file", ID: id}, Notation: rules.SAN,
			Moves: []string{"e4", "e5"}, Result: map[bool]string{true: "1-0", false: "*"}[finished], Finished: finished, Last: last}
	}
	steps := []struct {
		name  string
		state threefold.GameState
		held  []string // the games the hub holds after the push
	}{
		{"a's last state", game("a", true, true), nil},
		{"b finished, may be corrected", game("b", true, false), []string{"file/b"}},
		{"c goes on", game("c", false, false), []string{"file/b", "file/c"}},
		{"c's last state", game("c", true, true), []string{"file/b"}},
		{"d goes on", game("d", false, false), []string{"file/b", "file/d"}},
		{"d's last state, without a result", game("d", false, true), []string{"file/b"}},
		{"e's only state, without a result", game("e", false, true), []string{"file/b"}},
	}
	for _, st := range steps {
		hub.Update(st.state)
		hub.push()
		if len(page.send) != 1 || !strings.Contains(string(<-page.send), `"id":"`+st.state.Game.ID+`"`) {
			t.Errorf("%s: the index page was not sent the game", st.name)
		}
		var held []string
		for _, g := range hub.Games() {
			held = append(held, g.Key)
		}
		if !slices.Equal(held, st.held) {
			t.Errorf("%s: the hub holds %v, want %v", st.name, held, st.held)
		}
	}
	if hub.live != 0 {
		t.Errorf("live count %d, want 0", hub.live)
	}
}

// TestHubPushesEachChangedGameOnce: a push sends the index pages each game
// that changed since the last one, once however often it changed, and
// not a game forgotten meanwhile (finished beyond the grace period).
func TestHubPushesEachChangedGameOnce(t *testing.T) {
	now := time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC)
	hub := NewHub(HubOptions{FinishedGrace: time.Hour, Now: func() time.Time { return now }})
	page := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	hub.register(page)
	<-page.send // the hello
	state := func(id string, moves []string, finished bool) threefold.GameState {
		return threefold.GameState{Game: threefold.GameRef{Site: "x", ID: id}, Notation: rules.SAN, Moves: moves, Finished: finished}
	}
	hub.Update(state("gone", []string{"e4"}, true))
	hub.Update(state("a", []string{"e4"}, false))
	hub.Update(state("b", []string{"d4"}, false))
	hub.Update(state("a", []string{"e4", "e5"}, false))
	now = now.Add(2 * time.Hour) // "gone" is forgotten at the next update
	hub.Update(state("b", []string{"d4", "d5"}, false))
	hub.push()
	var got []string
	for len(page.send) > 0 {
		var m message
		if err := json.Unmarshal(<-page.send, &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m.Game.Game.ID+":"+strconv.Itoa(m.Game.Ply))
	}
	if want := []string{"x/a", "x/b"}; len(got) != 2 || got[0] != "a:2" || got[1] != "b:2" {
		t.Fatalf("pushed %v, want the last state of each of %v", got, want)
	}
	hub.Update(state("a", []string{"e4", "e5", "Nf3"}, false))
	hub.push()
	if len(page.send) != 1 {
		t.Fatalf("%d messages after one more change, want 1", len(page.send))
	}
}
