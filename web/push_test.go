package web

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/threefold-chess/threefold"
)

// completeView is what the game page's script does with a "game" message
// (game.js, complete): the part of the view after the plies the page has,
// and the repeated positions worked out from the groups.
func completeView(have *GameView, m message) (*GameView, bool) {
	v := m.Game
	if m.From == 0 {
		w := *v
		w.Repeated = RepeatedOf(w.Group)
		return &w, true
	}
	if have == nil || have.Key != v.Key || len(have.FENs) < m.From {
		return nil, false
	}
	w := *v
	w.UCI = append(slices.Clone(have.UCI[:m.From]), v.UCI...)
	w.SAN = append(slices.Clone(have.SAN[:m.From]), v.SAN...)
	w.FENs = append(slices.Clone(have.FENs[:m.From]), v.FENs...)
	w.Occ = append(slices.Clone(have.Occ[:m.From]), v.Occ...)
	w.Group = append(slices.Clone(have.Group[:m.GroupFrom]), v.Group...)
	w.NearRepetitions = nil
	for _, n := range have.NearRepetitions {
		if n.Ply < m.From {
			w.NearRepetitions = append(w.NearRepetitions, n)
		}
	}
	w.NearRepetitions = append(w.NearRepetitions, v.NearRepetitions...)
	w.Repeated = RepeatedOf(w.Group)
	return &w, true
}

// A game's page is sent the plies that are new since the last push, and
// the whole game when it started over (a takeback, a correction) or when
// an earlier ply's group changed only its groups whole; never the plies of
// the repeated positions, which the groups say. Completed as the page's
// script does, what it has is the hub's view of the game, at every step,
// for a page there from the start and for one that came between two
// pushes.
func TestGamePagePushesWhatChanged(t *testing.T) {
	ref := threefold.GameRef{Site: "lichess", ID: "near", White: "Alice", Black: "Bob"}
	key := GameKey(ref)
	state := func(moves []string, result string) threefold.GameState {
		return threefold.GameState{Game: ref, StartFEN: kingsFEN, Moves: moves, Source: "test source", Result: result, Finished: result != ""}
	}
	corrected := append(slices.Clone(kingsShuffle[:5]), "Kd8", "Ke1", "Ke8")
	steps := []struct {
		name    string
		updates []threefold.GameState
		newPage bool // a page comes after the updates, before the push
		from    int  // the message's From: 0 the whole view
		whole   bool // Group sent whole
	}{
		{"first", []threefold.GameState{state(kingsShuffle[:2], "")}, false, 0, true},
		{"one more ply", []threefold.GameState{state(kingsShuffle[:3], "")}, false, 3, false},
		{"the pieces back, castling lost", []threefold.GameState{state(kingsShuffle[:4], "")}, false, 4, false},
		{"two updates, one push: a repetition", []threefold.GameState{state(kingsShuffle[:5], ""), state(kingsShuffle[:7], "")}, false, 5, true},
		{"a page comes between", []threefold.GameState{state(kingsShuffle[:9], "")}, true, 8, true},
		{"third occurrences: no new group", []threefold.GameState{state(kingsShuffle[:12], "")}, false, 10, false},
		{"the result only", []threefold.GameState{state(kingsShuffle[:12], "1/2-1/2")}, false, 13, false},
		{"a takeback", []threefold.GameState{state(kingsShuffle[:6], "")}, false, 0, true},
		{"a correction in the middle", []threefold.GameState{state(corrected, "")}, false, 0, true},
		{"one more after it", []threefold.GameState{state(append(slices.Clone(corrected), "Kf1"), "")}, false, 9, true},
	}
	h := NewHub(HubOptions{})
	type page struct {
		c    *client
		have *GameView
	}
	newPage := func() *page {
		p := &page{c: &client{focus: key, send: make(chan []byte, clientBuffer), quit: make(chan struct{})}}
		if !h.register(p.c) {
			t.Fatal("not registered")
		}
		var hello message
		if err := json.Unmarshal(<-p.c.send, &hello); err != nil {
			t.Fatal(err)
		}
		p.have = hello.Game
		return p
	}
	pages := []*page{newPage()}
	for _, st := range steps {
		for _, u := range st.updates {
			h.Update(u)
		}
		if st.newPage {
			pages = append(pages, newPage())
		}
		h.push()
		want, _ := h.Game(key)
		wantJSON, _ := json.Marshal(want)
		for i, p := range pages {
			if len(p.c.send) != 1 {
				t.Fatalf("%s: page %d got %d messages, want 1", st.name, i, len(p.c.send))
			}
			data := <-p.c.send
			var m message
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m.Game.Repeated != nil {
				t.Errorf("%s: the repeated positions sent (%s): the groups say them", st.name, data)
			}
			if m.From != st.from || (m.GroupFrom == 0) != st.whole {
				t.Errorf("%s: from %d, group from %d; want from %d, group whole %v", st.name, m.From, m.GroupFrom, st.from, st.whole)
			}
			if m.From > 0 && len(m.Game.FENs) != len(want.FENs)-m.From {
				t.Errorf("%s: %d positions sent, want the %d new ones", st.name, len(m.Game.FENs), len(want.FENs)-m.From)
			}
			got, ok := completeView(p.have, m)
			if !ok {
				t.Fatalf("%s: page %d cannot complete the part from ply %d", st.name, i, m.From)
			}
			p.have = got
			if gotJSON, _ := json.Marshal(got); string(gotJSON) != string(wantJSON) {
				t.Errorf("%s: page %d has\n%s\nwant\n%s", st.name, i, gotJSON, wantJSON)
			}
		}
	}
}
