package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/rules"
)

// newDB makes a fresh, empty database for one test and returns the Config
// that opens it; it removes the database when the test ends.
type newDB func(t *testing.T) Config

var epoch = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func openTest(t *testing.T, cfg Config) *Store {
	t.Helper()
	s, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testAlert(site, id string, kind threefold.AlertKind, ply int, at time.Time) threefold.Alert {
	g := threefold.GameRef{Site: site, ID: id, URL: "https://" + site + "/" + id, White: "Alice", Black: "Bob"}
	return threefold.Alert{
		ID:            threefold.AlertID(g, kind, ply, ""),
		Kind:          kind,
		Ply:           ply,
		Count:         3,
		Occurrences:   []int{ply - 8, ply - 4, ply},
		OccurrenceSAN: []string{"Ng1", "Ng1", "Ng1"},
		FEN:           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
		Claimant:      "white",
		SAN:           "Ng1",
		Game:          g,
		Source:        site + " game " + id,
		ObservedAt:    at,
		DelayS:        1.5,
	}
}

func alertIDs(as []threefold.Alert) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

func sameJSON(t *testing.T, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("got  %s\nwant %s", g, w)
	}
}

// runContract is the behaviour every backend must have.
func runContract(t *testing.T, fresh newDB) {
	ctx := context.Background()
	open := func(t *testing.T) *Store {
		cfg := fresh(t)
		clk := clock.NewFake(epoch)
		clk.SetStep(time.Second) // every timestamp distinct
		cfg.Now = clk.Now
		return openTest(t, cfg)
	}

	t.Run("PutAlertOnce", func(t *testing.T) {
		s := open(t)
		a := testAlert("lichess", "abcdefgh", threefold.KindThreefold, 26, epoch)
		for i, want := range []bool{true, false, false} {
			isNew, err := s.PutAlert(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			if isNew != want {
				t.Errorf("put #%d: new = %v, want %v", i+1, isNew, want)
			}
		}
		got, err := s.Alert(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, got, a)
		if !got.ObservedAt.Equal(a.ObservedAt) {
			t.Errorf("observed_at %v, want %v", got.ObservedAt, a.ObservedAt)
		}
		if _, err := s.Alert(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown alert: %v, want ErrNotFound", err)
		}
		if _, err := s.PutAlert(ctx, threefold.Alert{}); err == nil {
			t.Error("an alert without id was stored")
		}
	})

	t.Run("InvalidUTF8FromTheNetwork", func(t *testing.T) {
		// Names and tags come from the network; PostgreSQL refuses invalid
		// UTF-8 and NUL bytes in text, so the store repairs them.
		s := open(t)
		a := testAlert("lichess", "bad\xffid", threefold.KindThreefold, 12, epoch)
		a.Game.White, a.Game.Black = "Caf\xe9", "nul\x00byte"
		if isNew, err := s.PutAlert(ctx, a); err != nil || !isNew {
			t.Fatalf("put: new %v, err %v", isNew, err)
		}
		g := Game{GameState: threefold.GameState{Game: a.Game, Source: a.Source, Event: "Open \xff", Moves: []string{"e4"}}}
		if err := s.PutGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateGame(ctx, GameUpdate{Site: g.Game.Site, ID: g.Game.ID, Moves: []string{"e4", "e5"}}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Game(ctx, g.Game.Site, g.Game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Game.White != "Caf\uFFFD" || got.Game.Black != "nul\uFFFDbyte" || len(got.Moves) != 2 {
			t.Fatalf("stored game %+v", got)
		}
		if err := s.SaveProgress(ctx, g.Game.Site, g.Game.ID, 2); err != nil {
			t.Fatal(err)
		}
		if ply, ok, err := s.LoadProgress(ctx, g.Game.Site, g.Game.ID); err != nil || !ok || ply != 2 {
			t.Fatalf("progress %d %v %v", ply, ok, err)
		}
	})

	t.Run("ConcurrentPutAlertStoresOnce", func(t *testing.T) {
		s := open(t)
		a := testAlert("lichess", "concurrent", threefold.KindFivefold, 40, epoch)
		const n = 8
		var (
			wg    sync.WaitGroup
			fresh atomic.Int32
			errs  = make(chan error, n)
			start = make(chan struct{})
		)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				isNew, err := s.PutAlert(ctx, a)
				if err != nil {
					errs <- err
					return
				}
				if isNew {
					fresh.Add(1)
				}
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if got := fresh.Load(); got != 1 {
			t.Errorf("%d callers were told the alert was new, want 1", got)
		}
		all, err := s.Alerts(ctx, AlertFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 1 {
			t.Errorf("%d alerts stored, want 1", len(all))
		}
	})

	t.Run("Deliveries", func(t *testing.T) {
		s := open(t)
		old := testAlert("lichess", "old", threefold.KindThreefold, 10, epoch)
		if _, err := s.PutAlert(ctx, old); err != nil {
			t.Fatal(err)
		}
		// A sink seen for the first time starts after the alerts stored so far.
		for _, sink := range []string{"discord", "stdout"} {
			got, err := s.Undelivered(ctx, sink, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 0 {
				t.Errorf("new sink %s gets the history: %v", sink, alertIDs(got))
			}
		}
		var as []threefold.Alert
		for i := 0; i < 3; i++ {
			a := testAlert("lichess", fmt.Sprintf("g%d", i), threefold.KindThreefold, 20+i, epoch.Add(-time.Duration(i)*time.Minute))
			as = append(as, a)
			if _, err := s.PutAlert(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Undelivered(ctx, "discord", 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := alertIDs(as); !reflect.DeepEqual(alertIDs(got), want) {
			t.Errorf("undelivered %v, want %v (in the order stored)", alertIDs(got), want)
		}
		for i := 0; i < 2; i++ { // marking twice is fine
			if err := s.MarkDelivered(ctx, as[1].ID, "discord"); err != nil {
				t.Fatal(err)
			}
		}
		got, err = s.Undelivered(ctx, "discord", 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{as[0].ID, as[2].ID}; !reflect.DeepEqual(alertIDs(got), want) {
			t.Errorf("after marking the 2nd: undelivered %v, want %v", alertIDs(got), want)
		}
		got, err = s.Undelivered(ctx, "discord", 1)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{as[0].ID}; !reflect.DeepEqual(alertIDs(got), want) {
			t.Errorf("limit 1: %v, want %v", alertIDs(got), want)
		}
		got, err = s.Undelivered(ctx, "stdout", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 {
			t.Errorf("another sink's marks leak: stdout has %d undelivered, want 3", len(got))
		}
		for _, tc := range []struct {
			id, sink string
			want     bool
		}{{as[1].ID, "discord", true}, {as[0].ID, "discord", false}, {as[1].ID, "stdout", false}} {
			d, err := s.Delivered(ctx, tc.id, tc.sink)
			if err != nil || d != tc.want {
				t.Errorf("Delivered(%s, %s) = %v, %v; want %v", tc.id, tc.sink, d, err, tc.want)
			}
		}
		if err := s.MarkDelivered(ctx, "no-such-alert", "discord"); !errors.Is(err, ErrNotFound) {
			t.Errorf("marking an unknown alert: %v, want ErrNotFound", err)
		}
	})

	t.Run("AlertFilters", func(t *testing.T) {
		s := open(t)
		a1 := testAlert("lichess", "aaaa", threefold.KindThreefold, 26, epoch.Add(-3*time.Hour))
		a1.Source = "lichess broadcast round 4Yuk2i2H"
		a2 := testAlert("lichess", "bbbb", threefold.KindFivefold, 40, epoch.Add(-1*time.Hour))
		a2.Game.White, a2.Game.Black = "Carol", "ÖDÖN Ádám"
		a2.Source = "lichess broadcast Ünterhaching Open"
		a3 := testAlert("chess.com", "cccc", threefold.KindClaimByMove, 31, epoch)
		a3.Move, a3.MoveSAN = "d1d5", "Qd5"
		a3.ID = threefold.AlertID(a3.Game, a3.Kind, a3.Ply, a3.Move)
		a3.Source = "chess.com player x_y"
		for _, a := range []threefold.Alert{a1, a2, a3} {
			if _, err := s.PutAlert(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			name string
			f    AlertFilter
			want []threefold.Alert
		}{
			{"all, newest first", AlertFilter{}, []threefold.Alert{a3, a2, a1}},
			{"source is a site", AlertFilter{Source: "LICHESS"}, []threefold.Alert{a2, a1}},
			{"source is part of a name", AlertFilter{Source: "round 4yuk"}, []threefold.Alert{a1}},
			{"underscore is no wildcard", AlertFilter{Source: "x_y"}, []threefold.Alert{a3}},
			{"underscore does not match other text", AlertFilter{Source: "player_x"}, nil},
			{"kind", AlertFilter{Kind: threefold.KindFivefold}, []threefold.Alert{a2}},
			{"player either side, any case, not only ASCII", AlertFilter{Player: "ödön ádám"}, []threefold.Alert{a2}},
			{"source part, not only ASCII", AlertFilter{Source: "ÜNTERHACHING"}, []threefold.Alert{a2}},
			{"player on every game", AlertFilter{Player: "alice"}, []threefold.Alert{a3, a1}},
			{"since", AlertFilter{Since: epoch.Add(-2 * time.Hour)}, []threefold.Alert{a3, a2}},
			{"limit", AlertFilter{Limit: 1}, []threefold.Alert{a3}},
			{"site and game", AlertFilter{Site: "chess.com", GameID: "cccc"}, []threefold.Alert{a3}},
			{"nothing", AlertFilter{Kind: threefold.KindFiftyMoves}, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.Alerts(ctx, tc.f)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(alertIDs(got), alertIDs(tc.want)) {
					t.Errorf("got %v, want %v", alertIDs(got), alertIDs(tc.want))
				}
				wantCount := len(tc.want)
				if tc.f.Limit > 0 {
					wantCount = 3 // the limit aside
				}
				if n, err := s.CountAlerts(ctx, tc.f); err != nil || n != wantCount {
					t.Errorf("CountAlerts = %d, %v; want %d", n, err, wantCount)
				}
			})
		}
	})

	t.Run("Games", func(t *testing.T) {
		s := open(t)
		g := Game{
			GameState: threefold.GameState{
				Game:     threefold.GameRef{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"},
				Source:   "lichess game abcdefgh",
				Event:    "Rated blitz game",
				Notation: rules.UCI,
				Moves:    []string{"g1f3", "g8f6"},
				Result:   "*",
			},
			StartedAt: epoch.Add(-time.Hour),
		}
		if err := s.PutGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		got, err := s.Game(ctx, "lichess", "abcdefgh")
		if err != nil {
			t.Fatal(err)
		}
		if got.UpdatedAt.IsZero() {
			t.Error("updated_at not set")
		}
		g.UpdatedAt = got.UpdatedAt
		sameJSON(t, got, g)

		// A later snapshot without names keeps them; moves are replaced.
		next := Game{
			GameState: threefold.GameState{
				Game:     threefold.GameRef{Site: "lichess", ID: "abcdefgh"},
				Notation: rules.UCI,
				Moves:    []string{"g1f3", "g8f6", "f3g1"},
				Result:   "*",
			},
		}
		if err := s.PutGame(ctx, next); err != nil {
			t.Fatal(err)
		}
		got, err = s.Game(ctx, "lichess", "abcdefgh")
		if err != nil {
			t.Fatal(err)
		}
		if got.Game != g.Game || got.Event != g.Event || got.Source != g.Source || !got.StartedAt.Equal(g.StartedAt) {
			t.Errorf("PutGame without names lost them: %+v", got)
		}
		if !reflect.DeepEqual(got.Moves, next.Moves) || !got.UpdatedAt.After(g.UpdatedAt) {
			t.Errorf("moves %v updated %v, want %v after %v", got.Moves, got.UpdatedAt, next.Moves, g.UpdatedAt)
		}

		up := GameUpdate{Site: "lichess", ID: "abcdefgh", Moves: []string{"g1f3", "g8f6", "f3g1", "f6g8"},
			Result: "1/2-1/2", Termination: "threefold_claimed", SiteResult: "Game drawn by repetition", Finished: true}
		if err := s.UpdateGame(ctx, up); err != nil {
			t.Fatal(err)
		}
		got, err = s.Game(ctx, "lichess", "abcdefgh")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Moves, up.Moves) || got.Result != up.Result || got.Termination != up.Termination ||
			got.SiteResult != up.SiteResult || !got.Finished || got.Game.White != "Alice" {
			t.Errorf("after UpdateGame: %+v", got)
		}
		if err := s.UpdateGame(ctx, GameUpdate{Site: "lichess", ID: "nope"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("UpdateGame of an unknown game: %v, want ErrNotFound", err)
		}
		if _, err := s.Game(ctx, "lichess", "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Game of an unknown game: %v, want ErrNotFound", err)
		}
		if err := s.PutGame(ctx, Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "lichess"}}}); err == nil {
			t.Error("a game without id was stored")
		}

		g2 := Game{
			GameState: threefold.GameState{
				Game:     threefold.GameRef{Site: "file", ID: "round1.pgn#2", White: "Carol", Black: "Émile"},
				Source:   "file round1.pgn",
				Event:    "Club Championship 2026 – Ürümqi",
				Moves:    nil,
				Audience: "arbiters",
				StartFEN: "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
				Tags:     []threefold.Tag{{Name: "Event", Value: "Club Championship 2026 – Ürümqi"}, {Name: "Round", Value: "3.2"}, {Name: "WhiteElo", Value: "1987"}},
			},
		}
		if err := s.PutGame(ctx, g2); err != nil {
			t.Fatal(err)
		}
		// A later snapshot without tags keeps them.
		again := g2
		again.Tags = nil
		if err := s.PutGame(ctx, again); err != nil {
			t.Fatal(err)
		}
		ids := func(gs []Game) []string {
			out := []string{}
			for _, g := range gs {
				out = append(out, g.Game.ID)
			}
			return out
		}
		for _, tc := range []struct {
			name string
			f    GameFilter
			want []string
		}{
			{"all, newest first", GameFilter{}, []string{"round1.pgn#2", "abcdefgh"}},
			{"url", GameFilter{URL: "https://lichess.org/abcdefgh"}, []string{"abcdefgh"}},
			{"id on any site", GameFilter{ID: "round1.pgn#2"}, []string{"round1.pgn#2"}},
			{"source site", GameFilter{Source: "file"}, []string{"round1.pgn#2"}},
			{"event part", GameFilter{Event: "championship"}, []string{"round1.pgn#2"}},
			{"event part, not only ASCII", GameFilter{Event: "ÜRÜMQI"}, []string{"round1.pgn#2"}},
			{"player, not only ASCII", GameFilter{Player: "émile"}, []string{"round1.pgn#2"}},
			{"player", GameFilter{Player: "BOB"}, []string{"abcdefgh"}},
			{"since", GameFilter{Since: epoch.Add(1000 * time.Second)}, []string{}},
			{"limit", GameFilter{Limit: 1}, []string{"round1.pgn#2"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.Games(ctx, tc.f)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(ids(got), tc.want) {
					t.Errorf("got %v, want %v", ids(got), tc.want)
				}
				wantCount := len(tc.want)
				if tc.f.Limit > 0 {
					wantCount = 2 // the limit aside
				}
				if n, err := s.CountGames(ctx, tc.f); err != nil || n != wantCount {
					t.Errorf("CountGames = %d, %v; want %d", n, err, wantCount)
				}
			})
		}
		gs, err := s.Games(ctx, GameFilter{ID: "round1.pgn#2"})
		if err != nil || len(gs) != 1 {
			t.Fatal(gs, err)
		}
		if gs[0].Moves == nil || len(gs[0].Moves) != 0 || gs[0].StartFEN != g2.StartFEN || gs[0].Audience != "arbiters" || gs[0].Notation != rules.SAN ||
			!reflect.DeepEqual(gs[0].Tags, g2.Tags) {
			t.Errorf("stored %+v", gs[0])
		}
	})

	t.Run("BotRecords", func(t *testing.T) {
		s := open(t)
		r := threefold.BotRecord{
			Site: "lichess", GameID: "botgame1", URL: "https://lichess.org/botgame1",
			White:    threefold.BotPlayer{ID: "threefold-bot", Name: "threefold-bot", Title: "BOT"},
			Black:    threefold.BotPlayer{ID: "alice", Name: "Alice", Rating: 1500},
			BotColor: "white", Variant: "standard", Speed: "blitz", Rated: true, InitialFEN: "startpos",
			Moves: []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			SAN:   []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}, Plies: 8,
			FinalFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
			Status:   "draw", Result: "1/2-1/2", Termination: "threefold_claimed", Occurrences: []int{0, 4, 8},
			Claims: []threefold.BotClaim{{Ply: 8, How: "draw_yes"}}, Engine: "builtin",
			StartedAt: epoch.Add(-10 * time.Minute), EndedAt: epoch, RulesUsed: map[string]int{"avoid": 2},
		}
		before := r
		before.Result = "*"
		if err := s.PutBotRecord(ctx, before); err != nil {
			t.Fatal(err)
		}
		if err := (BotRecordSink{s}).WriteRecord(ctx, r); err != nil { // replacing is fine, also through the bot's sink
			t.Fatal(err)
		}
		got, err := s.BotRecords(ctx, BotRecordFilter{Player: "alice"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%d records, want 1", len(got))
		}
		sameJSON(t, got[0], r)
		if got, err := s.BotRecords(ctx, BotRecordFilter{Since: epoch.Add(time.Second)}); err != nil || len(got) != 0 {
			t.Errorf("since after the end: %d records, %v", len(got), err)
		}
		g, err := s.Game(ctx, "lichess", "botgame1")
		if err != nil {
			t.Fatal(err)
		}
		if g.Source != SourceBot || g.Event != "Rated blitz game" || g.Notation != rules.UCI || !reflect.DeepEqual(g.Moves, r.Moves) || g.StartFEN != "" ||
			g.Game.Black != "Alice" || g.Termination != "threefold_claimed" || !g.Finished {
			t.Errorf("the bot's game as stored: %+v", g)
		}
	})

	t.Run("ResumeState", func(t *testing.T) {
		s := open(t)
		if _, ok, err := s.LoadSourceState(ctx, "lichess users a,b"); ok || err != nil {
			t.Errorf("state before any save: %v, %v", ok, err)
		}
		blob := []byte{0, 1, 2, 0xff, '\'', 0}
		for _, state := range [][]byte{[]byte(`{"cursor":"x"}`), blob} {
			if err := s.SaveSourceState(ctx, "lichess users a,b", state); err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.LoadSourceState(ctx, "lichess users a,b")
			if err != nil || !ok || string(got) != string(state) {
				t.Errorf("state %q, %v, %v; want %q", got, ok, err, state)
			}
		}
		if _, ok, err := s.LoadProgress(ctx, "lichess", "g"); ok || err != nil {
			t.Errorf("progress before any save: %v, %v", ok, err)
		}
		for _, ply := range []int{12, 40, 7} { // a correction may move it back
			if err := s.SaveProgress(ctx, "lichess", "g", ply); err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.LoadProgress(ctx, "lichess", "g")
			if err != nil || !ok || got != ply {
				t.Errorf("progress %d, %v, %v; want %d", got, ok, err, ply)
			}
		}
	})

	t.Run("SourceHealth", func(t *testing.T) {
		s := open(t)
		down := threefold.SourceHealth{Source: "lichess game abcdEFGH", Since: epoch.Add(time.Minute), Failures: 3,
			LastError: "dial tcp 127.0.0.1:1: connection refused \x00\xff"}
		up := threefold.SourceHealth{Source: "dgt ws://board", Connected: true, Since: epoch}
		for _, h := range []threefold.SourceHealth{{Source: down.Source, Connected: true, Since: epoch}, down, up} {
			if err := s.SaveSourceHealth(ctx, h); err != nil {
				t.Fatal(err)
			}
		}
		st, err := s.Status(ctx, epoch.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]threefold.SourceHealth{}
		for _, src := range st.Sources {
			if src.Health != nil {
				got[src.Name] = *src.Health
			}
		}
		down.LastError = "dial tcp 127.0.0.1:1: connection refused \uFFFD\uFFFD" // stored as valid UTF-8
		for _, want := range []threefold.SourceHealth{down, up} {
			h := got[want.Source]
			if h.Connected != want.Connected || !h.Since.Equal(want.Since) || h.Failures != want.Failures || h.LastError != want.LastError {
				t.Errorf("health of %s: %+v, want %+v", want.Source, h, want)
			}
		}
		if len(got) != 2 {
			t.Errorf("health of %d sources, want 2: %v", len(got), got)
		}
	})

	t.Run("MigrationsIdempotent", func(t *testing.T) {
		cfg := fresh(t)
		migs, err := loadMigrations(migrationFiles)
		if err != nil {
			t.Fatal(err)
		}
		a := testAlert("lichess", "kept", threefold.KindThreefold, 30, epoch)
		for i := 0; i < 3; i++ {
			s, err := Open(ctx, cfg)
			if err != nil {
				t.Fatalf("open #%d: %v", i+1, err)
			}
			v, err := s.SchemaVersion(ctx)
			if err != nil || v != migs[len(migs)-1].version {
				t.Errorf("open #%d: schema version %d, %v; want %d", i+1, v, err, migs[len(migs)-1].version)
			}
			var rows int
			if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_version").Scan(&rows); err != nil || rows != len(migs) {
				t.Errorf("open #%d: %d schema_version rows, %v; want %d", i+1, rows, err, len(migs))
			}
			isNew, err := s.PutAlert(ctx, a)
			if err != nil || isNew != (i == 0) {
				t.Errorf("open #%d: alert new = %v, %v", i+1, isNew, err)
			}
			s.Close()
		}
	})

	t.Run("ConcurrentOpenMigratesOnce", func(t *testing.T) {
		cfg := fresh(t)
		const n = 4
		var wg sync.WaitGroup
		stores := make([]*Store, n)
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stores[i], errs[i] = Open(ctx, cfg)
			}()
		}
		wg.Wait()
		for i := 0; i < n; i++ {
			if errs[i] != nil {
				t.Errorf("open #%d: %v", i, errs[i])
				continue
			}
			defer stores[i].Close()
		}
		if t.Failed() {
			return
		}
		var rows int
		if err := stores[0].db.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_version").Scan(&rows); err != nil {
			t.Fatal(err)
		}
		migs, _ := loadMigrations(migrationFiles)
		if rows != len(migs) {
			t.Errorf("%d schema_version rows after %d concurrent opens, want %d", rows, n, len(migs))
		}
	})

	t.Run("NewerSchemaIsAnError", func(t *testing.T) {
		cfg := fresh(t)
		s := openTest(t, cfg)
		if _, err := s.db.ExecContext(ctx, s.q("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"), 9999, "9999_future.sql", 1); err != nil {
			t.Fatal(err)
		}
		s.Close()
		_, err := Open(ctx, cfg)
		var tooNew *SchemaTooNewError
		if !errors.As(err, &tooNew) || tooNew.Have != 9999 {
			t.Fatalf("open of a newer database: %v, want a SchemaTooNewError with version 9999", err)
		}
		t.Logf("the error reads: %v", err)
	})
}
