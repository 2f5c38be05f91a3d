package notify

import (
	"context"
	"log/slog"
	"sync"

	"github.com/threefold-chess/threefold"
)

// Queue puts a sink behind a bounded buffer served by one goroutine, so
// that Send never waits for the sink. When the buffer is full the oldest
// queued alert is dropped, counted and logged (at the 1st, 10th, 100th, …
// drop): a webhook that is down or rate limited loses its oldest alerts,
// never the watcher's time.
type Queue struct {
	name string
	sink Sink
	log  *slog.Logger
	size int

	mu      sync.Mutex
	buf     []threefold.Alert // ring; it grows up to size as alerts wait, so an unused size costs nothing
	head, n int
	dropped int
	closed  bool
	wake    chan struct{}

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

// NewQueue starts a queue of the given size (at least 1) in front of sink.
// Memory follows the alerts waiting, not size. The worker stops when Close
// is called.
func NewQueue(name string, sink Sink, size int, log *slog.Logger) *Queue {
	if size < 1 {
		size = 1
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	q := &Queue{name: name, sink: sink, log: log, size: size, buf: make([]threefold.Alert, min(size, 16)),
		wake: make(chan struct{}, 1), ctx: ctx, cancel: cancel, done: make(chan struct{})}
	go q.run()
	return q
}

// Send implements Sink: it queues a and returns at once.
func (q *Queue) Send(_ context.Context, a threefold.Alert) error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	dropped := 0
	if q.n == len(q.buf) && q.n < q.size {
		grown := make([]threefold.Alert, min(2*len(q.buf), q.size))
		copy(grown, q.buf[q.head:])
		copy(grown[len(q.buf)-q.head:], q.buf[:q.head])
		q.buf, q.head = grown, 0
	}
	if q.n == q.size {
		q.buf[q.head] = threefold.Alert{}
		q.head = (q.head + 1) % len(q.buf)
		q.n--
		q.dropped++
		dropped = q.dropped
	}
	q.buf[(q.head+q.n)%len(q.buf)] = a
	q.n++
	q.mu.Unlock()
	if dropped > 0 && isPowerOfTen(dropped) {
		q.log.Warn("alert queue full: dropped the oldest alert", "sink", q.name, "dropped_total", dropped)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// Dropped is how many alerts were dropped so far.
func (q *Queue) Dropped() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dropped
}

// Close stops taking alerts, lets the worker deliver what is queued until
// ctx is done, then stops it and waits for it.
func (q *Queue) Close(ctx context.Context) {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	select {
	case <-q.done:
	case <-ctx.Done():
		q.cancel()
		<-q.done
	}
	q.cancel()
}

func (q *Queue) run() {
	defer close(q.done)
	for {
		q.mu.Lock()
		if q.n == 0 {
			closed := q.closed
			q.mu.Unlock()
			if closed {
				return
			}
			select {
			case <-q.wake:
			case <-q.ctx.Done():
				return
			}
			continue
		}
		a := q.buf[q.head]
		q.buf[q.head] = threefold.Alert{}
		q.head = (q.head + 1) % len(q.buf)
		q.n--
		q.mu.Unlock()
		if err := q.sink.Send(q.ctx, a); err != nil {
			if q.ctx.Err() != nil {
				return
			}
			q.log.Error("alert not delivered", "sink", q.name, "alert", a.ID, "err", err)
		}
	}
}

func isPowerOfTen(n int) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1
}
