package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/threefold-chess/threefold"
)

// benchBackends runs a benchmark on a fresh SQLite file and, when a server
// is given, a fresh PostgreSQL schema.
func benchBackends(b *testing.B, fn func(b *testing.B, s *Store)) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := Open(context.Background(), Config{DataDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		fn(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		cfg := freshPostgres(b)
		s, err := Open(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		fn(b, s)
	})
}

// BenchmarkPutAlert: one new alert, committed (the cost the watcher pays
// per alert before it is sent).
func BenchmarkPutAlert(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		for i := 0; b.Loop(); i++ {
			if _, err := s.PutAlert(ctx, testAlert("lichess", "bench", threefold.KindThreefold, i, epoch)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPutAlertReplayed: an alert already stored (a restart replaying
// a game).
func BenchmarkPutAlertReplayed(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		a := testAlert("lichess", "bench", threefold.KindThreefold, 1, epoch)
		if _, err := s.PutAlert(ctx, a); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if isNew, err := s.PutAlert(ctx, a); err != nil || isNew {
				b.Fatal(isNew, err)
			}
		}
	})
}

// BenchmarkAlertsQuery: the 20 newest alerts of a player among 10,000.
func BenchmarkAlertsQuery(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 10000; i++ {
			a := testAlert("lichess", fmt.Sprintf("g%d", i%500), threefold.KindThreefold, i, epoch)
			if i%10 == 0 {
				a.Game.White = "Carol"
			}
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO alerts (id, kind, source, site, game_id, white, black, white_key, black_key, source_key, ply, observed_at, stored_at, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), a.ID, string(a.Kind), a.Source, a.Game.Site, a.Game.ID, a.Game.White, a.Game.Black,
				key(a.Game.White), key(a.Game.Black), key(a.Source), a.Ply, int64(i), int64(i), "{}"); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			as, err := s.Alerts(ctx, AlertFilter{Player: "carol", Limit: 20})
			if err != nil || len(as) != 20 {
				b.Fatal(len(as), err)
			}
		}
	})
}
