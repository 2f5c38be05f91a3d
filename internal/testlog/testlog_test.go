package testlog

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
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

func TestBufferWaitFor(t *testing.T) {
	var b Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- b.WaitFor(ctx, "ready") }()
	fmt.Fprint(&b, "not yet\n")
	fmt.Fprint(&b, "engines ready\n")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithCancel(context.Background())
	cancelShort()
	if err := b.WaitFor(short, "never written"); err == nil {
		t.Error("WaitFor returned nil for text never written")
	}
}
