package fakelichess

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Fault is a failure injected into the next matching requests. A fault with
// Status answers that status (and Body) instead of serving the request. A
// stream fault (Disconnect, Silent or Truncate) lets the stream open and
// strikes after AfterLines data lines (keep-alives not counted):
//
//   - Disconnect cuts the connection mid-stream (the client sees an
//     unexpected EOF);
//   - Silent stops sending anything, keep-alives included, while keeping
//     the connection open;
//   - Truncate sends the first half of the next line as a line of its own,
//     then the line itself, so the client sees one malformed line and loses
//     nothing.
type Fault struct {
	Method string // "" matches any method
	Path   string // below the prefix; "*" matches one segment; "" any path
	Times  int    // how many requests it strikes (0 means 1, negative: every one)

	Status int
	Body   string

	// Hold delays the answer until the channel is closed.
	Hold <-chan struct{}

	AfterLines int
	Disconnect bool
	Silent     bool
	Truncate   bool
}

type faultRec struct {
	Fault
	left int
}

type faultKey struct{}

// Inject adds a fault. Faults are matched in the order they were added.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := f.Times
	if left == 0 {
		left = 1
	}
	s.faults = append(s.faults, &faultRec{Fault: f, left: left})
}

// ClearFaults removes every fault not yet used up.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFaultLocked (mu held) returns a copy of the first fault matching
// the request, counting the strike.
func (s *Server) takeFaultLocked(method, path string) *faultRec {
	for i, f := range s.faults {
		if (f.Method == "" || f.Method == method) && pathMatch(f.Path, path) {
			if f.left > 0 {
				f.left--
				if f.left == 0 {
					s.faults = append(s.faults[:i], s.faults[i+1:]...)
				}
			}
			cp := *f
			return &cp
		}
	}
	return nil
}

// RateLimited is a fault answering 429 to the next request on path. With
// seconds > 0 the body carries {"ratelimit":{"key":...,"seconds":N}} as
// Lichess's bot-vs-bot daily limit does.
func RateLimited(path string, seconds int) Fault {
	body := `{"error":"Too many requests. Try again later."}`
	if seconds > 0 {
		body = fmt.Sprintf(`{"error":"Too many games against bots today","ratelimit":{"key":"bot.vsBot.day","seconds":%d}}`, seconds)
	}
	return Fault{Path: path, Status: http.StatusTooManyRequests, Body: body}
}

// ServerErrors is a fault answering 503 to the next n requests on path.
func ServerErrors(path string, n int) Fault {
	return Fault{Path: path, Status: http.StatusServiceUnavailable, Times: n}
}

// keepAlive says how a stream keeps itself alive.
type keepAlive struct {
	every time.Duration
	idle  bool   // only after that long without data (else periodic)
	text  string // "\n" or " "
}

// conn is one open stream. Lines are queued without blocking and written by
// the request's goroutine.
type conn struct {
	kind, key, ua string
	// rounds a tournament or group broadcast stream covers (the rounds
	// under way when it opened, as on Lichess); nil for other streams.
	rounds  map[string]bool
	mu      sync.Mutex
	queue   []string
	closed  bool // lines sent after close are not this stream's
	wake    chan struct{}
	end     chan struct{} // closed: finish cleanly after the queue
	endOnce sync.Once
}

func newConn(kind, key, ua string) *conn {
	return &conn{kind: kind, key: key, ua: ua, wake: make(chan struct{}, 1), end: make(chan struct{})}
}

// send queues a line; once the stream is closed it drops it, as Lichess
// does not write to a stream it has ended (a reconnect gets the line).
func (c *conn) send(line string) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.queue = append(c.queue, line)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// close ends the stream cleanly: the lines queued so far are written, no
// later one is.
func (c *conn) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.endOnce.Do(func() { close(c.end) })
}

func (c *conn) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue
	c.queue = nil
	return q
}

// serveStream answers a streaming request with conn c, which the caller
// has registered (with its first lines queued) under s.mu.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, c *conn, ka keepAlive, contentType string) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.notify()
		s.mu.Unlock()
	}()
	f, _ := r.Context().Value(faultKey{}).(*faultRec)
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	if fl != nil {
		fl.Flush()
	}
	s.streamStarted(r)
	if s.opts.SlowKeepAlive > 0 && c.kind != "event" {
		ka.every = s.opts.SlowKeepAlive
	}
	timer := s.clk.NewTimer(ka.every)
	defer timer.Stop()
	// rearm schedules the next keep-alive ka.every after a write made at
	// from. It counts from the write, not from when this goroutine gets
	// round to rearming: a fake clock advanced in between must not push
	// the keep-alive back by the advance (the tick would be lost, and a
	// client waiting for it would wait for ever). It runs before the
	// write, so that once the client has the bytes the next keep-alive is
	// armed: a test that sees the client's watchdog reset may advance the
	// clock at once without outrunning this goroutine.
	rearm := func(from time.Time) { timer.Reset(from.Add(ka.every).Sub(s.clk.Now())) }
	dataLines := 0
	silent := false
	write := func(text string) bool {
		if _, err := io.WriteString(w, text); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	for {
		for _, line := range c.take() {
			if f != nil && dataLines >= f.AfterLines && (f.Disconnect || f.Silent || f.Truncate) {
				switch {
				case f.Disconnect:
					panic(http.ErrAbortHandler)
				case f.Silent:
					silent = true
				case f.Truncate:
					if !write(line[:len(line)/2] + "\n") {
						return
					}
					f = nil
				}
			}
			if silent {
				break
			}
			if ka.idle {
				rearm(s.clk.Now())
			}
			if !write(line) {
				return
			}
			dataLines++
		}
		if f != nil && f.Silent && dataLines >= f.AfterLines {
			silent = true
		}
		if silent {
			timer.Stop()
			select {
			case <-r.Context().Done():
			case <-s.closing:
			}
			return
		}
		select {
		case <-c.wake:
		case at := <-timer.C():
			rearm(at)
			if !write(ka.text) {
				return
			}
		case <-c.end:
			for _, line := range c.take() {
				if !write(line) {
					return
				}
			}
			return
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		}
	}
}

// open registers a stream (mu held) after checking the per-IP limit of its
// pool; it returns nil (and has answered 429) when the pool is full.
func (s *Server) openConn(w http.ResponseWriter, kind, key, ua string, poolKinds []string, limit int) *conn {
	if limit > 0 {
		n := 0
		for c := range s.conns {
			for _, k := range poolKinds {
				if c.kind == k {
					n++
				}
			}
		}
		if n >= limit {
			writeError(w, http.StatusTooManyRequests, fmt.Sprintf("Please only run %d request(s) at a time", limit))
			return nil
		}
	}
	if s.closed {
		writeError(w, http.StatusServiceUnavailable, "shutting down")
		return nil
	}
	c := newConn(kind, key, ua)
	s.wg.Add(1) // done by serveStream
	s.conns[c] = true
	s.notify()
	return c
}

var eventsPool = []string{"games-by-users", "games-by-ids", "broadcast"}

func ndjson(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(err)
	}
	return strings.TrimRight(string(b), "\n") + "\n"
}
