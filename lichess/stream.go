package lichess

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/threefold-chess/threefold/clock"
)

// Keep-alive periods of Lichess streams, as lila sends them. Only the
// event stream's is promised by the official description (7 s); the others
// are lila's current code and may change.
const (
	KeepAliveEvents    = 7 * time.Second  // /api/stream/event (6 s in lila, 7 s in the spec)
	KeepAliveBotGame   = 7 * time.Second  // /api/bot/game/stream/{id}
	KeepAliveMoves     = 50 * time.Second // /api/stream/game/{id}, games by users/ids, TV
	KeepAliveBroadcast = 60 * time.Second // broadcast PGN streams (a single space)
)

// MaxPlausibleKeepAlive bounds the keep-alive interval of a live Lichess
// stream whose interval is not promised: lila's HTTP server closes a
// connection idle for 75 s ("play's idleTimeout = 75s"), so a stream that
// is still open has sent something within that time.
const MaxPlausibleKeepAlive = 75 * time.Second

// Silence limits: a stream that sends no byte for this long is taken as
// dead and reconnected. The event stream's keep-alive is promised, so three
// of its periods are enough; every other stream gets at least twice the
// longest plausible keep-alive, so that a real keep-alive slower than
// lila's current one never makes the watchdog reconnect a live stream over
// and over.
const (
	SilenceEvents    = 3 * KeepAliveEvents       // 21 s
	SilenceBotGame   = 2 * MaxPlausibleKeepAlive // 150 s (lila sends every 7 s)
	SilenceMoves     = 2 * MaxPlausibleKeepAlive // 150 s (lila: after 50 s idle)
	SilenceBroadcast = 3 * KeepAliveBroadcast    // 180 s (lila: after 60 s idle)
)

// MaxLineBytes is the longest stream line accepted; longer lines are logged
// and skipped.
const MaxLineBytes = 16 << 20

// errSilent is the cause given to a connection the watchdog found silent.
var errSilent = errors.New("stream silent")

// Causes a streamSpec.poll gives to a connection: the feed is over (the
// stream ends with nil), or the stream must be opened again at once (it
// does not cover what it should any more, e.g. a round that started since).
var (
	errFeedOver = errors.New("feed over")
	errResync   = errors.New("stream reopened to cover what started since")
)

// pollAction is what a streamSpec.poll decides.
type pollAction int

const (
	pollContinue pollAction = iota
	pollStop
	pollReconnect
)

// errConsumer wraps an error returned by the consumer's callback: it ends
// the stream and is returned as is.
type errConsumer struct{ err error }

func (e errConsumer) Error() string { return e.err.Error() }

// streamSpec says how to open one stream and what to do with its lines.
type streamSpec struct {
	name string // for logs and errors: "event", "bot game abc"
	req  func() request
	// keepAlive is the stream's usual keep-alive interval: a connection
	// open that long served (see connectOnce); silence is the watchdog's
	// limit (the Silence* constants).
	keepAlive, silence time.Duration
	pool               chan struct{}
	// raw: deliver every line (PGN); otherwise blank lines are keep-alives.
	raw bool
	// connected is called when a connection is up (n counts from 1),
	// before its first line. An error ends the stream (wrap consumer
	// errors in errConsumer).
	connected func(ctx context.Context, n int) error
	// line handles one line; lineNo counts from 1 per connection. It
	// returns errConsumer to stop, or any other error to have the line
	// logged as malformed and skipped.
	line func(line []byte, lineNo int) error
	// ended is called after a clean end of a connection (EOF); true ends
	// the stream with a nil error, an error (errConsumer) ends it with that
	// error.
	ended func(ctx context.Context) (bool, error)
	// poll, if set, runs every pollEvery while a connection is open: a
	// feed whose end the server may never announce (a finished broadcast
	// round whose stream stays open) is checked this way.
	poll      func(ctx context.Context) pollAction
	pollEvery time.Duration
}

// runStream runs spec until ctx is done, the consumer returns an error, the
// stream ends for good, or Lichess refuses it (auth, not found, bad
// request). Everything else (network errors, 5xx, 429, silence, cut
// connections) is retried with jittered backoff that resets on success.
func (c *Client) runStream(ctx context.Context, spec streamSpec) error {
	ctx, done, err := c.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	attempt := 0
	for n := 1; ; n++ {
		useful, err := c.connectOnce(ctx, spec, n)
		var ce errConsumer
		switch {
		case errors.As(err, &ce):
			return ce.err
		case errors.Is(err, errFeedOver):
			c.log.Info("lichess: stream ended: its feed is over", "stream", spec.name)
			return nil
		case errors.Is(err, errResync) && ctx.Err() == nil:
			c.log.Info("lichess: stream reopened", "stream", spec.name, "reason", err.Error())
			if c.onReconnect != nil {
				c.onReconnect(spec.name, err)
			}
			attempt = 0
			continue
		case ctx.Err() != nil:
			return fmt.Errorf("lichess: stream %s: %w", spec.name, ctx.Err())
		case err == nil:
			if spec.ended != nil {
				done, err := spec.ended(ctx)
				if errors.As(err, &ce) {
					return ce.err
				}
				if done {
					return nil
				}
				if ctx.Err() != nil { // stopped during the check
					return fmt.Errorf("lichess: stream %s: %w", spec.name, ctx.Err())
				}
			}
			err = errors.New("closed by server")
		case fatal(err):
			return fmt.Errorf("lichess: stream %s: %w", spec.name, err)
		}
		if useful {
			attempt = 0 // the backoff starts again only after a connection that served
		}
		d := c.backoff.Delay(attempt)
		attempt++
		c.log.Info("lichess: stream reconnecting", "stream", spec.name, "account", c.accountName(), "wait", d, "reason", c.redact(err.Error()))
		if c.onReconnect != nil {
			c.onReconnect(spec.name, err)
		}
		streamObserved(ctx, false, err)
		if err := clock.Sleep(ctx, c.clk, d); err != nil {
			return fmt.Errorf("lichess: stream %s: %w", spec.name, err)
		}
	}
}

// fatal reports whether a stream must give up: Lichess refused it for a
// reason that will not change by itself.
func fatal(err error) bool {
	var a *AuthError
	var p *APIError
	return errors.As(err, &a) || (errors.As(err, &p) && !p.Temporary()) || errors.Is(err, ErrTokenMissing) || errors.Is(err, ErrRedirectRefused)
}

// errIncomplete is returned by a streamSpec.line that took a line but has
// nothing to deliver yet (a PGN stream between two games): not an error,
// not progress either.
var errIncomplete = errors.New("incomplete")

// connectOnce runs one connection. It returns nil on a clean EOF, and
// whether the connection was useful: at least one line understood (a
// keep-alive, junk or a partial PGN game is not), or open for a whole
// keep-alive period. A server that answers 200 with junk and closes is so
// backed off like one that refuses the connection.
func (c *Client) connectOnce(ctx context.Context, spec streamSpec, n int) (useful bool, err error) {
	understood := false
	var openedAt time.Time
	defer func() {
		useful = understood || (!openedAt.IsZero() && c.clk.Now().Sub(openedAt) >= spec.keepAlive)
	}()
	if err := acquirePool(ctx, spec.pool); err != nil {
		return false, err
	}
	defer releasePool(spec.pool)
	connCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The watchdog: no byte for spec.silence (the wait for the headers
	// included, from the moment the governor lets the request go) cancels
	// the connection. Reads reset it.
	limit := spec.silence
	var timer clock.Timer
	watchDone := make(chan struct{})
	req := spec.req()
	req.stream = true
	req.onSend = func() {
		timer = c.clk.NewTimer(limit)
		go func() {
			defer close(watchDone)
			select {
			case <-timer.C():
				c.log.Warn("lichess: stream silent, reconnecting", "stream", spec.name, "silent_for", limit)
				cancel(errSilent)
			case <-connCtx.Done():
			}
		}()
	}
	defer func() {
		if timer != nil {
			timer.Stop()
			cancel(nil)
			<-watchDone
		}
	}()
	resp, err := c.send(connCtx, req)
	if err != nil {
		if errors.Is(context.Cause(connCtx), errSilent) {
			return false, errSilent
		}
		return false, err
	}
	defer resp.Body.Close()
	openedAt = c.clk.Now()
	timer.Reset(limit)
	if spec.connected != nil {
		if err := spec.connected(connCtx, n); err != nil {
			return false, err
		}
	}
	c.log.Debug("lichess: stream connected", "stream", spec.name, "connection", n)
	streamObserved(ctx, true, nil)
	if spec.poll != nil && spec.pollEvery > 0 {
		polled := make(chan struct{})
		t := c.clk.NewTimer(spec.pollEvery) // armed now: the first check is pollEvery from the connection
		go c.pollWhileConnected(connCtx, cancel, spec, t, polled)
		defer func() {
			cancel(nil)
			<-polled
		}()
	}

	body := &activityReader{r: resp.Body, onRead: func() { timer.Reset(limit) }}
	br := bufio.NewReaderSize(body, 64<<10)
	var buf []byte
	lineNo := 0
	for {
		buf = buf[:0]
		tooLong := false
		var rerr error
		for {
			chunk, e := br.ReadSlice('\n')
			if len(buf)+len(chunk) <= MaxLineBytes {
				buf = append(buf, chunk...)
			} else {
				tooLong = true
			}
			if e == bufio.ErrBufferFull {
				continue
			}
			rerr = e
			break
		}
		if len(buf) > 0 || tooLong {
			lineNo++
			line := bytes.TrimRight(buf, "\r\n")
			switch {
			case tooLong:
				c.log.Warn("lichess: stream line too long, skipped", "stream", spec.name, "line", lineNo, "max_bytes", MaxLineBytes)
			case rerr != nil && rerr != io.EOF:
				// A partial line cut by a broken connection: drop it, the
				// reconnect resumes.
			case !spec.raw && len(bytes.TrimSpace(line)) == 0:
				// keep-alive
			default:
				err := spec.line(line, lineNo)
				switch {
				case err == nil:
					understood = true
				case errors.Is(err, errIncomplete):
				case errors.As(err, new(errConsumer)):
					understood = true
					return false, err
				default:
					c.log.Warn("lichess: malformed stream line skipped", "stream", spec.name, "line", lineNo, "err", c.redact(err.Error()), "text", c.redact(excerpt(line)))
				}
			}
		}
		if rerr == io.EOF {
			return false, nil
		}
		if rerr != nil {
			if cause := context.Cause(connCtx); errors.Is(cause, errSilent) || errors.Is(cause, errFeedOver) || errors.Is(cause, errResync) {
				return false, cause
			}
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			return false, &netError{op: "stream " + spec.name, msg: c.redact(rerr.Error())}
		}
	}
}

// pollWhileConnected runs spec.poll every spec.pollEvery until the
// connection ends, and ends the connection with errFeedOver or errResync
// when the poll says so. It closes done when it returns.
func (c *Client) pollWhileConnected(connCtx context.Context, cancel context.CancelCauseFunc, spec streamSpec, t clock.Timer, done chan<- struct{}) {
	defer close(done)
	defer t.Stop()
	for {
		select {
		case <-connCtx.Done():
			return
		case <-t.C():
		}
		switch spec.poll(connCtx) {
		case pollStop:
			cancel(errFeedOver)
			return
		case pollReconnect:
			cancel(errResync)
			return
		}
		t.Reset(spec.pollEvery)
	}
}

func excerpt(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// activityReader calls onRead whenever bytes arrive.
type activityReader struct {
	r      io.Reader
	onRead func()
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.onRead()
	}
	return n, err
}

// streamObserverKey is the context key of WithStreamObserver.
type streamObserverKey struct{}

// WithStreamObserver returns a context that makes every stream opened with
// it report its connection state to fn: connected (err nil) each time the
// stream's answer arrives, disconnected with the reason each time it is lost
// and about to be opened again. A stream that ends (its feed is over, ctx is
// cancelled, a fatal error) reports nothing more: the caller sees Run
// return. fn runs on the stream's goroutine: keep it quick. A nil fn hides
// the observer of the parent context (for streams a source opens on behalf
// of others).
func WithStreamObserver(ctx context.Context, fn func(connected bool, err error)) context.Context {
	return context.WithValue(ctx, streamObserverKey{}, fn)
}

func streamObserved(ctx context.Context, connected bool, err error) {
	if fn, _ := ctx.Value(streamObserverKey{}).(func(bool, error)); fn != nil {
		fn(connected, err)
	}
}
