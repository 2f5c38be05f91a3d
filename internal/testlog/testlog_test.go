package testlog

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

func TestBufferConcurrentWriters(t *testing.T) {
	tests := []struct {
		name              string
		writers, perWrite int
	}{
		{"one writer", 1, 100},
		{"many writers", 8, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b Buffer
			log := slog.New(slog.NewTextHandler(&b, nil))
			var wg sync.WaitGroup
			for w := range tc.writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range tc.perWrite {
						log.Info("line", "w", w, "i", i)
						_ = b.String() // a reader while others write
					}
				}()
			}
			wg.Wait()
			out := b.String()
			if n := strings.Count(out, "\n"); n != tc.writers*tc.perWrite {
				t.Fatalf("%d lines, want %d", n, tc.writers*tc.perWrite)
			}
			for w := range tc.writers {
				if !strings.Contains(out, fmt.Sprintf("w=%d i=%d\n", w, tc.perWrite-1)) {
					t.Errorf("writer %d's last line missing", w)
				}
			}
		})
	}
}
