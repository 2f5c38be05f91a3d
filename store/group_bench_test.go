package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
)

// BenchmarkLeaseAcquire: one instance takes a new lease (the cost of
// following one more game).
func BenchmarkLeaseAcquire(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		in, err := s.Join(ctx, InstanceConfig{ID: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; b.Loop(); i++ {
			if _, err := in.Acquire(ctx, LeaseGame, fmt.Sprint("lichess/g", i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLeaseContended: another instance holds the lease (the answer
// every other instance gets).
func BenchmarkLeaseContended(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		holder, err := s.Join(ctx, InstanceConfig{ID: "holder", LeaseTTL: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		other, err := s.Join(ctx, InstanceConfig{ID: "other"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := holder.Acquire(ctx, LeaseSource, "src"); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := other.Acquire(ctx, LeaseSource, "src"); err == nil {
				b.Fatal("acquired a held lease")
			}
		}
	})
}

// BenchmarkHeartbeat100: one heartbeat of an instance holding 100 leases
// (renews all of them in one statement).
func BenchmarkHeartbeat100(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		in, err := s.Join(ctx, InstanceConfig{ID: "bench", LeaseTTL: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 100; i++ {
			if _, err := in.Acquire(ctx, LeaseGame, fmt.Sprint("lichess/g", i)); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			if lost, err := in.Heartbeat(ctx); err != nil || len(lost) != 0 {
				b.Fatal(lost, err)
			}
		}
	})
}

// BenchmarkOutbox: one alert through the outbox to two sinks: stored with
// its rows, claimed, marked sent, by 4 claimers side by side; ns/op is per
// alert, so 1e9/ns-per-op is alerts per second through the whole outbox.
func BenchmarkOutbox(b *testing.B) {
	benchBackends(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		sinks := []string{"w0", "w1"}
		const claimers = 4
		i := 0
		for b.Loop() {
			if _, err := s.PutAlertOutbox(ctx, testAlert("lichess", "bench", threefold.KindThreefold, i, epoch), sinks); err != nil {
				b.Fatal(err)
			}
			i++
			if i%64 != 0 {
				continue
			}
			var wg sync.WaitGroup
			for c := 0; c < claimers; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						items, err := s.ClaimOutbox(ctx, fmt.Sprint("c", c), time.Minute, 16)
						if err != nil {
							b.Error(err)
							return
						}
						if len(items) == 0 {
							return
						}
						for _, it := range items {
							if err := s.MarkSent(ctx, it); err != nil {
								b.Error(err)
								return
							}
						}
					}
				}()
			}
			wg.Wait()
		}
	})
}
