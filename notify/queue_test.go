package notify

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
)

// TestQueueGrowsWithUse: a large size costs nothing up front (10^8 ran out
// of memory, 10^12 panicked); the buffer grows as alerts wait, keeps their
// order across growth, and still drops the oldest at the size.
func TestQueueGrowsWithUse(t *testing.T) {
	sink := &blockingSink{release: make(chan struct{}), started: make(chan string, 100)}
	q := NewQueue("slow", sink, 50, nil)
	if len(q.buf) > 16 {
		t.Fatalf("a queue of 50 holds %d slots before any alert", len(q.buf))
	}
	var want []string
	for i := 0; i < 60; i++ {
		id := fmt.Sprint(i)
		q.Send(context.Background(), threefold.Alert{ID: id})
		if i == 0 {
			<-sink.started // the worker holds 0
		}
	}
	for i := 0; i < 60; i++ {
		if i == 0 || i >= 10 {
			want = append(want, fmt.Sprint(i))
		}
	}
	if q.Dropped() != 9 || len(q.buf) != 50 {
		t.Errorf("dropped %d, buffer %d; want 9 and 50", q.Dropped(), len(q.buf))
	}
	close(sink.release)
	q.Close(context.Background())
	if got := strings.Join(sink.got, ","); got != strings.Join(want, ",") {
		t.Errorf("delivered %s\nwant      %s", got, strings.Join(want, ","))
	}
	big := NewQueue("big", sink, 1e12, nil)
	defer big.Close(context.Background())
	if len(big.buf) > 16 {
		t.Fatalf("a queue of 10^12 holds %d slots", len(big.buf))
	}
}
