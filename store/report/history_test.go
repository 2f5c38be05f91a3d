package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/store"
)

// historyStore is a SQLite store with three alerts (two of one game, one of
// another) and two games.
func historyStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, store.Config{DataDir: t.TempDir(), Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := threefold.GameRef{Site: "lichess", ID: "abcdefgh", White: "Alice", Black: "Bob"}
	b := threefold.GameRef{Site: "file", ID: "round1.pgn#1", White: "Carol", Black: "Dan"}
	for _, g := range []threefold.GameRef{a, b} {
		if err := st.PutGame(ctx, store.Game{GameState: threefold.GameState{Game: g, Source: g.Site + " source"}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, al := range []threefold.Alert{
		{Kind: threefold.KindThreefold, Ply: 8, Game: a},
		{Kind: threefold.KindFivefold, Ply: 16, Game: a},
		{Kind: threefold.KindThreefold, Ply: 12, Game: b},
	} {
		al.ID = threefold.AlertID(al.Game, al.Kind, al.Ply, "")
		al.Source = al.Game.Site + " source"
		al.ObservedAt = clock.Add(time.Duration(i) * time.Minute)
		if _, err := st.PutAlert(ctx, al); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// TestReadHistory: what each query lists, and the totals the titles give
// when the limit cut a list.
func TestReadHistory(t *testing.T) {
	st := historyStore(t)
	for _, tc := range []struct {
		name           string
		q              Query
		alerts, games  int
		titles, absent []string
	}{
		{"all", Query{}, 3, 2, []string{"Alerts (3, newest first)", "Games (2, most recently updated first)"}, nil},
		{"cut by the limit", Query{Limit: 1}, 1, 1,
			[]string{"Alerts (1 of 3, newest first; --limit 0 lists all)", "Games (1 of 2, most recently updated first; --limit 0 lists all)"}, nil},
		{"exactly the limit", Query{Limit: 3}, 3, 2, []string{"Alerts (3, newest first)", "Games (2, most recently updated first)"}, nil},
		{"a kind lists alerts only", Query{Kind: threefold.KindThreefold, Limit: 1}, 1, 0,
			[]string{"Alerts (1 of 2, newest first; --limit 0 lists all)"}, []string{"Games"}},
		{"a kind, games asked for", Query{Kind: threefold.KindThreefold, GamesOnly: true}, 0, 2, []string{"Games (2,"}, []string{"Alerts"}},
		{"alerts only", Query{AlertsOnly: true}, 3, 0, []string{"Alerts (3,"}, []string{"Games"}},
		{"a player", Query{Player: "carol"}, 1, 1, []string{"Alerts (1,", "Games (1,"}, nil},
		{"a source", Query{Source: "lichess"}, 2, 1, []string{"Alerts (2,", "Games (1,"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ReadHistory(context.Background(), st, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Alerts) != tc.alerts || len(h.Games) != tc.games {
				t.Errorf("%d alerts and %d games, want %d and %d", len(h.Alerts), len(h.Games), tc.alerts, tc.games)
			}
			var b bytes.Buffer
			h.WriteText(i18n.For(i18n.English), &b)
			for _, want := range tc.titles {
				if !strings.Contains(b.String(), want) {
					t.Errorf("missing %q in\n%s", want, b.String())
				}
			}
			for _, not := range tc.absent {
				if strings.Contains(b.String(), not) {
					t.Errorf("%q in\n%s", not, b.String())
				}
			}
		})
	}
}

// TestHistoryJSONHasNoNulls: lists not asked for are [], as history
// --json always wrote them.
func TestHistoryJSONHasNoNulls(t *testing.T) {
	h, err := ReadHistory(context.Background(), historyStore(t), Query{AlertsOnly: true, Player: "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"alerts":[],"games":[]}` {
		t.Errorf("JSON %s", out)
	}
}
