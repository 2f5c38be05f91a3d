package pgnexport

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
)

// selectStore holds a Lichess game, a file game, a DGT game with the
// Lichess game's id, updated in that order.
func selectStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, store.Config{DataDir: t.TempDir(), Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, g := range []threefold.GameRef{
		{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"},
		{Site: "file", ID: "round1.pgn#1", White: "Carol", Black: "Dan"},
		{Site: "dgt", ID: "abcdefgh"},
	} {
		if err := st.PutGame(ctx, store.Game{GameState: threefold.GameState{Game: g, Moves: []string{"e4"}}}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestSelect(t *testing.T) {
	st := selectStore(t)
	popts := listener.ParseOptions{LichessBase: "https://lichess.org"}
	for _, tc := range []struct {
		name      string
		args      []string
		filter    store.GameFilter
		want      []string // site/id, in order
		ambiguous bool
		err       string
	}{
		{"site/id", []string{"lichess/abcdefgh"}, store.GameFilter{}, []string{"lichess/abcdefgh"}, false, ""},
		{"an id of one game", []string{"round1.pgn#1"}, store.GameFilter{}, []string{"file/round1.pgn#1"}, false, ""},
		{"the URL", []string{"https://lichess.org/abcdefgh"}, store.GameFilter{}, []string{"lichess/abcdefgh"}, false, ""},
		{"a URL with a ply", []string{"https://lichess.org/abcdefgh#12"}, store.GameFilter{}, []string{"lichess/abcdefgh"}, false, ""},
		{"a URL with a side", []string{"https://lichess.org/abcdefgh/black"}, store.GameFilter{}, []string{"lichess/abcdefgh"}, false, ""},
		{"a player's URL without scheme", []string{"lichess.org/abcdefghWXYZ"}, store.GameFilter{}, []string{"lichess/abcdefgh"}, false, ""},
		{"in the order given", []string{"round1.pgn#1", "dgt/abcdefgh"}, store.GameFilter{}, []string{"file/round1.pgn#1", "dgt/abcdefgh"}, false, ""},
		{"an id of two games", []string{"abcdefgh"}, store.GameFilter{}, nil, true, `export: "abcdefgh" names 2 games: `},
		{"no such game", []string{"zzzzzzzz"}, store.GameFilter{}, nil, false, `export: no stored game "zzzzzzzz" (threefold history --games lists them)`},
		{"a filter, oldest update first", nil, store.GameFilter{}, []string{"lichess/abcdefgh", "file/round1.pgn#1", "dgt/abcdefgh"}, false, ""},
		{"a filter matching nothing", nil, store.GameFilter{Player: "nobody"}, nil, false, "export: no stored game matches"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, err := Select(context.Background(), st, tc.args, tc.filter, popts)
			var ae *AmbiguousError
			if errors.As(err, &ae) != tc.ambiguous {
				t.Errorf("error %v: ambiguous %v, want %v", err, !tc.ambiguous, tc.ambiguous)
			}
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range games {
				got = append(got, g.Game.Site+"/"+g.Game.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("selected %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWriteAllGoesOnAfterABadMove: a game whose moves stop being legal is
// written up to there and reported; the next game is written too.
func TestWriteAllGoesOnAfterABadMove(t *testing.T) {
	games := []store.Game{
		{GameState: threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "broken"}, Event: "Broken", Moves: []string{"e4", "e5", "Ke3"}, Result: "1-0"}},
		{GameState: threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "fine"}, Event: "Fine", Moves: []string{"d4"}}},
	}
	var b bytes.Buffer
	var bad []string
	if err := WriteAll(&b, games, func(me *MoveError) { bad = append(bad, me.ID+" "+me.Token) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bad, []string{"broken Ke3"}) {
		t.Errorf("reported %v", bad)
	}
	if out := b.String(); !strings.Contains(out, `[Event "Broken"]`) || !strings.Contains(out, `[Event "Fine"]`) || !strings.Contains(out, "1. d4") {
		t.Errorf("written:\n%s", out)
	}
}
