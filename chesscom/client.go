// Package chesscom reads and polls the chess.com Published-Data API, politely.
//
// It reads the chess.com Published-Data API (PubAPI): a
// player's current daily games and monthly archives, a club's team matches,
// a team match and its boards, a tournament with its rounds and groups. The
// Client is polite the way chess.com asks: one request at a time per client,
// a User-Agent that carries a contact, ETag / Last-Modified revalidation
// (a 304 returns the value decoded earlier), a pause on 429, never again a
// URL that answered 410, and jittered retries on 5xx and network errors.
// Poll follows a Target (what a user pastes, see ParseTarget) and hands over
// the games whose PGN changed; replaying the PGN is the caller's job.
package chesscom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/clock"
)

// DefaultBaseURL is the public PubAPI host. Every endpoint lives under /pub/.
const DefaultBaseURL = "https://api.chess.com"

// Defaults for the zero values of Options.
const (
	DefaultRateLimitPause = 60 * time.Second
	DefaultMaxAttempts    = 5
	DefaultBackoffBase    = 1 * time.Second
	DefaultBackoffMax     = 60 * time.Second
	DefaultMaxBodyBytes   = 64 << 20
	defaultCacheEntries   = 4096
	maxRedirects          = 10
)

// Options configure a Client. Only Contact (or a UserAgent that already
// names a contact) is required. The mapstructure tags are keys of the
// chesscom: section of the config file.
type Options struct {
	// BaseURL of the PubAPI, default DefaultBaseURL. It may carry a path
	// prefix (http://127.0.0.1:8080/chesscom) so a fake or a mirror works;
	// API URLs found in payloads (https://api.chess.com/pub/...) are read
	// from this base as well.
	BaseURL string `mapstructure:"url"`
	// HTTPClient sends the requests, default a client with a 60 s timeout.
	// Its redirect policy is replaced: the Client follows 301s itself and
	// remembers permanent moves.
	HTTPClient *http.Client
	// UserAgent sent with every request, e.g. "threefold/1.0". The contact
	// is appended as " (contact: ...)" unless the UserAgent already holds it.
	UserAgent string
	// Contact (an e-mail address or a URL) chess.com can reach the operator
	// at. Required unless UserAgent contains "contact" already.
	Contact string `mapstructure:"contact"`
	// Clock for every pause (429, backoff, poll interval), default clock.Real.
	Clock clock.Clock
	// Logger, default slog.Default().
	Logger *slog.Logger
	// RateLimitPause is how long to wait after a 429 without Retry-After,
	// default 60 s.
	RateLimitPause time.Duration
	// MaxAttempts bounds the tries of one request through 5xx, network
	// errors and 429s (each counted separately), default 5.
	MaxAttempts int
	// BackoffBase and BackoffMax shape the jittered exponential backoff on
	// 5xx and network errors: attempt n waits a random duration in
	// [d/2, d] where d = min(BackoffBase<<n, BackoffMax).
	BackoffBase, BackoffMax time.Duration
	// MaxBodyBytes caps a response body, default 64 MiB.
	MaxBodyBytes int64
	// OnRateLimit, if set, is called when a 429 pauses the client, with
	// the pause, before it waits. It runs on the caller's goroutine: keep
	// it quick.
	OnRateLimit func(pause time.Duration)
}

// Client is a PubAPI client. It is safe for concurrent use; requests are
// strictly serial (one in flight per Client), as chess.com asks.
type Client struct {
	base        string // scheme://host[/prefix], no trailing slash
	hc          *http.Client
	ua          string
	clock       clock.Clock
	log         *slog.Logger
	pause       time.Duration
	maxAttempts int
	retry       backoff.Policy
	maxBody     int64
	onRateLimit func(pause time.Duration)

	sem chan struct{} // one token: the right to send a request

	mu    sync.Mutex
	cache map[string]*cacheEntry // by resolved URL
	order []string               // insertion order, for eviction
	moved map[string]string      // permanent redirects
	gone  map[string]bool        // 410: never request again

	waiting  atomic.Int64 // calls queued behind the request in flight
	decodes  atomic.Int64 // bodies decoded (tests: a 304 decodes nothing)
	requests atomic.Int64 // HTTP requests sent
}

type cacheEntry struct {
	etag    string
	lastMod string
	value   any
	meta    Meta
}

// Meta describes the response a value came from.
type Meta struct {
	URL string // the URL finally read (after redirects)
	// NotModified: the value is the one decoded before, after a 304, or
	// served from the client's cache without a request (Fresh).
	NotModified bool
	// Fresh: no request was sent, because the copy held was still within
	// the max-age chess.com gave it.
	Fresh        bool
	ETag         string        // as sent by the server (chess.com sends weak ETags, W/"…")
	LastModified time.Time     // zero if absent or unreadable (see parseHTTPTime)
	Date         time.Time     // the server's Date header, zero if absent
	MaxAge       time.Duration // Cache-Control max-age, 0 if absent
	Age          time.Duration // the Age header (time spent in a cache), 0 if absent
	FetchedAt    time.Time     // Clock.Now() when the response arrived
}

// RefreshBound is how late the PubAPI says its data may be: "endpoints
// refresh at most once every 12 hours" (chess.com's PubAPI documentation).
const RefreshBound = 12 * time.Hour

// Delay is the known bound on how old the data of the response may be
// when it arrived. The data is at least as new as its Last-Modified, so it
// is at most the time from Last-Modified to its arrival (FetchedAt, on the
// client's clock); and never more than RefreshBound. Without a readable
// Last-Modified it is RefreshBound: chess.com data may be hours old, and
// this says how many.
func (m Meta) Delay() time.Duration {
	if m.LastModified.IsZero() {
		return RefreshBound
	}
	return min(max(m.FetchedAt.Sub(m.LastModified), 0), RefreshBound)
}

// New returns a Client. It fails when the base URL is not an absolute
// http(s) URL or when no contact is given.
func New(opts Options) (*Client, error) {
	base := strings.TrimRight(opts.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	bu, err := url.Parse(base)
	if err != nil || (bu.Scheme != "http" && bu.Scheme != "https") || bu.Host == "" {
		return nil, fmt.Errorf("chesscom: base URL %q: want an absolute http(s) URL such as %s", opts.BaseURL, DefaultBaseURL)
	}
	ua := strings.TrimSpace(opts.UserAgent)
	contact := strings.TrimSpace(opts.Contact)
	switch {
	case contact != "" && !strings.Contains(ua, contact):
		if ua == "" {
			ua = "threefold"
		}
		ua += " (contact: " + contact + ")"
	case contact == "" && !strings.Contains(strings.ToLower(ua), "contact"):
		return nil, errors.New("chesscom: a contact (e-mail or URL) for the User-Agent is required: chess.com asks for one so it can reach the operator instead of blocking")
	}
	hc := &http.Client{Timeout: 60 * time.Second}
	if opts.HTTPClient != nil {
		cp := *opts.HTTPClient
		hc = &cp
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c := &Client{
		base:        base,
		hc:          hc,
		ua:          ua,
		clock:       opts.Clock,
		log:         opts.Logger,
		pause:       opts.RateLimitPause,
		maxAttempts: opts.MaxAttempts,
		retry:       backoff.Policy{Initial: opts.BackoffBase, Max: opts.BackoffMax},
		maxBody:     opts.MaxBodyBytes,
		onRateLimit: opts.OnRateLimit,
		sem:         make(chan struct{}, 1),
		cache:       make(map[string]*cacheEntry),
		moved:       make(map[string]string),
		gone:        make(map[string]bool),
	}
	if c.clock == nil {
		c.clock = clock.Real
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if c.pause <= 0 {
		c.pause = DefaultRateLimitPause
	}
	if c.maxAttempts <= 0 {
		c.maxAttempts = DefaultMaxAttempts
	}
	if c.retry.Initial <= 0 {
		c.retry.Initial = DefaultBackoffBase
	}
	if c.retry.Max <= 0 {
		c.retry.Max = DefaultBackoffMax
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodyBytes
	}
	return c, nil
}

// BaseURL returns the base the client reads from, without a trailing slash.
func (c *Client) BaseURL() string { return c.base }

// UserAgent returns the User-Agent header the client sends.
func (c *Client) UserAgent() string { return c.ua }

// Errors. Match them with errors.Is / errors.As.
var (
	// ErrNotFound: the server answered 404 (no such player, club, match…).
	ErrNotFound = errors.New("chesscom: not found")
	// ErrGone: the server answered 410 for this URL at some time; no data
	// will ever be available there, and the client never asks again.
	ErrGone = errors.New("chesscom: gone")
)

// GoneError is returned for a URL that answered 410. errors.Is(err, ErrGone)
// holds for it.
type GoneError struct{ URL string }

func (e *GoneError) Error() string {
	return fmt.Sprintf("chesscom: %s: 410 gone, never to be requested again", e.URL)
}

// Is reports whether target is ErrGone.
func (e *GoneError) Is(target error) bool { return target == ErrGone }

// RateLimitError is returned when 429s persisted through MaxAttempts waits.
type RateLimitError struct {
	URL        string
	RetryAfter time.Duration // the last wait asked for (or the default pause)
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("chesscom: %s: still 429 Too Many Requests after waiting (last wait %s)", e.URL, e.RetryAfter)
}

// StatusError is an HTTP status the client does not handle otherwise
// (including a 5xx that persisted through every retry).
type StatusError struct {
	URL    string
	Status int
	Body   string // the start of the body, for the message
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("chesscom: %s: HTTP %d", e.URL, e.Status)
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// DecodeError says that a body was not the JSON shape expected.
type DecodeError struct {
	URL string
	Err error
}

func (e *DecodeError) Error() string { return fmt.Sprintf("chesscom: decode %s: %v", e.URL, e.Err) }
func (e *DecodeError) Unwrap() error { return e.Err }

// URL returns the absolute URL of a PubAPI path ("/pub/player/x") or of an
// API URL found in a payload, on the configured base: an
// https://api.chess.com/pub/... URL is moved onto the base, so a mirror or
// a fake serves the links its own payloads hold.
func (c *Client) URL(ref string) string {
	ref = strings.TrimSpace(ref)
	if strings.HasPrefix(ref, "/") {
		return c.base + ref
	}
	u, err := url.Parse(ref)
	if err != nil || u.Host == "" {
		return c.base + "/" + strings.TrimLeft(ref, "/")
	}
	if strings.EqualFold(u.Host, "api.chess.com") || strings.EqualFold(u.Host, "www.api.chess.com") {
		p := u.EscapedPath()
		if u.RawQuery != "" {
			p += "?" + u.RawQuery
		}
		return c.base + p
	}
	return ref
}

// rawResponse is what do returns: a 200 body or a 304.
type rawResponse struct {
	body        []byte
	notModified bool
	meta        Meta
	etag        string
	lastMod     string
}

// fetch reads ref and decodes it with decode, revalidating with the cached
// validators: a 304 returns the value decoded before without decoding.
func fetch[T any](ctx context.Context, c *Client, ref string, decode func([]byte) (T, error)) (T, Meta, error) {
	var zero T
	u := c.URL(ref)
	if v, m, ok := cached[T](c, u); ok {
		return v, m, nil
	}
	raw, err := c.do(ctx, u)
	if err != nil {
		return zero, Meta{}, err
	}
	key := raw.meta.URL
	if raw.notModified {
		c.mu.Lock()
		e := c.cache[key]
		var v T
		ok := false
		if e != nil {
			v, ok = e.value.(T)
			if ok {
				e.meta.Date, e.meta.Age, e.meta.MaxAge, e.meta.FetchedAt = raw.meta.Date, raw.meta.Age, raw.meta.MaxAge, raw.meta.FetchedAt
				if raw.meta.ETag != "" {
					e.meta.ETag = raw.meta.ETag
				}
			}
		}
		var m Meta
		if ok {
			m = e.meta
		}
		c.mu.Unlock()
		if ok {
			m.NotModified = true
			return v, m, nil
		}
		// A 304 for something we hold no value for (a cache entry of
		// another type under the same URL): forget it and ask again.
		c.forget(key)
		raw, err = c.do(ctx, u)
		if err != nil {
			return zero, Meta{}, err
		}
		if raw.notModified {
			return zero, Meta{}, &StatusError{URL: key, Status: http.StatusNotModified, Body: "304 without a request for one"}
		}
		key = raw.meta.URL
	}
	c.decodes.Add(1)
	v, err := decode(raw.body)
	if err != nil {
		return zero, Meta{}, &DecodeError{URL: key, Err: err}
	}
	if raw.etag != "" || raw.lastMod != "" {
		c.store(key, &cacheEntry{etag: raw.etag, lastMod: raw.lastMod, value: v, meta: raw.meta})
	}
	return v, raw.meta, nil
}

// cached returns the value held for u when it is still fresh: fetched less
// than its max-age ago (chess.com sends 5 s for what changes with every
// move and 3600 s for what changes rarely). Reading it again sooner would
// only get the same copy.
func cached[T any](c *Client, u string) (T, Meta, bool) {
	var zero T
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.moved[u]; ok {
		u = m
	}
	e := c.cache[u]
	if e == nil || e.meta.MaxAge <= 0 || !now.Before(e.meta.FetchedAt.Add(e.meta.MaxAge)) {
		return zero, Meta{}, false
	}
	v, ok := e.value.(T)
	if !ok {
		return zero, Meta{}, false
	}
	m := e.meta
	m.NotModified, m.Fresh = true, true
	return v, m, true
}

func (c *Client) store(key string, e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cache[key]; !ok {
		c.order = append(c.order, key)
	}
	c.cache[key] = e
	for len(c.cache) > defaultCacheEntries && len(c.order) > 0 {
		delete(c.cache, c.order[0])
		c.order = c.order[1:]
	}
	if len(c.order) > 2*defaultCacheEntries { // compact keys already evicted
		kept := c.order[:0]
		for _, k := range c.order {
			if _, ok := c.cache[k]; ok {
				kept = append(kept, k)
			}
		}
		c.order = kept
	}
}

func (c *Client) forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.cache, key)
}

// Gone reports whether ref answered 410 before (and so is never requested).
func (c *Client) Gone(ref string) bool {
	u := c.URL(ref)
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.moved[u]; ok {
		u = m
	}
	return c.gone[u]
}

// do sends one logical GET of u, serially, through redirects, 429 pauses
// and retries.
func (c *Client) do(ctx context.Context, u string) (*rawResponse, error) {
	c.waiting.Add(1)
	select {
	case c.sem <- struct{}{}:
		c.waiting.Add(-1)
	case <-ctx.Done():
		c.waiting.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()

	c.mu.Lock()
	if m, ok := c.moved[u]; ok {
		u = m
	}
	c.mu.Unlock()

	failures, limited, hops := 0, 0, 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.gone[u] {
			c.mu.Unlock()
			return nil, &GoneError{URL: u}
		}
		var etag, lastMod string
		if e := c.cache[u]; e != nil {
			etag, lastMod = e.etag, e.lastMod
		}
		c.mu.Unlock()

		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, fmt.Errorf("chesscom: request %s: %w", u, err)
		}
		req.Header.Set("User-Agent", c.ua)
		req.Header.Set("Accept", "application/json")
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		if lastMod != "" {
			req.Header.Set("If-Modified-Since", lastMod)
		}
		c.requests.Add(1)
		resp, err := c.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			failures++
			if failures >= c.maxAttempts {
				return nil, fmt.Errorf("chesscom: get %s: %w (after %d attempts)", u, err, failures)
			}
			if err := c.backoff(ctx, u, failures, err.Error()); err != nil {
				return nil, err
			}
			continue
		}
		status := resp.StatusCode
		switch {
		case status == http.StatusOK:
			body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
			resp.Body.Close()
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				failures++
				if failures >= c.maxAttempts {
					return nil, fmt.Errorf("chesscom: read %s: %w (after %d attempts)", u, err, failures)
				}
				if err := c.backoff(ctx, u, failures, err.Error()); err != nil {
					return nil, err
				}
				continue
			}
			if int64(len(body)) > c.maxBody {
				return nil, fmt.Errorf("chesscom: %s: body larger than %d bytes", u, c.maxBody)
			}
			return &rawResponse{body: body, meta: c.meta(u, resp), etag: resp.Header.Get("ETag"), lastMod: resp.Header.Get("Last-Modified")}, nil
		case status == http.StatusNotModified:
			drain(resp)
			if etag == "" && lastMod == "" {
				return nil, &StatusError{URL: u, Status: status, Body: "304 to an unconditional request"}
			}
			return &rawResponse{notModified: true, meta: c.meta(u, resp)}, nil
		case status == http.StatusMovedPermanently || status == http.StatusFound || status == http.StatusSeeOther ||
			status == http.StatusTemporaryRedirect || status == http.StatusPermanentRedirect:
			loc := resp.Header.Get("Location")
			drain(resp)
			hops++
			if loc == "" || hops > maxRedirects {
				return nil, &StatusError{URL: u, Status: status, Body: "redirect without a usable Location (or too many)"}
			}
			next, err := resp.Request.URL.Parse(loc)
			if err != nil {
				return nil, &StatusError{URL: u, Status: status, Body: "bad Location " + strconv.Quote(loc)}
			}
			to := c.URL(next.String())
			if status == http.StatusMovedPermanently || status == http.StatusPermanentRedirect {
				c.mu.Lock()
				c.moved[u] = to
				c.mu.Unlock()
			}
			c.log.Debug("chesscom: redirect", "from", u, "to", to, "status", status)
			u = to
		case status == http.StatusNotFound:
			drain(resp)
			return nil, fmt.Errorf("chesscom: %s: %w", u, ErrNotFound)
		case status == http.StatusGone:
			drain(resp)
			c.mu.Lock()
			c.gone[u] = true
			delete(c.cache, u)
			c.mu.Unlock()
			c.log.Warn("chesscom: 410 gone; never requesting it again", "url", u)
			return nil, &GoneError{URL: u}
		case status == http.StatusTooManyRequests:
			wait, ok := retryAfter(resp.Header.Get("Retry-After"), c.clock.Now())
			if !ok {
				wait = c.pause
			}
			drain(resp)
			limited++
			if limited >= c.maxAttempts {
				return nil, &RateLimitError{URL: u, RetryAfter: wait}
			}
			c.log.Warn("chesscom: 429 too many requests; waiting", "url", u, "wait", wait)
			if c.onRateLimit != nil {
				c.onRateLimit(wait)
			}
			if err := clock.Sleep(ctx, c.clock, wait); err != nil {
				return nil, err
			}
		case status >= 500:
			body := snippet(resp)
			failures++
			if failures >= c.maxAttempts {
				return nil, &StatusError{URL: u, Status: status, Body: body}
			}
			if err := c.backoff(ctx, u, failures, fmt.Sprintf("HTTP %d", status)); err != nil {
				return nil, err
			}
		default:
			return nil, &StatusError{URL: u, Status: status, Body: snippet(resp)}
		}
	}
}

func (c *Client) backoff(ctx context.Context, u string, failures int, why string) error {
	wait := c.retry.Delay(failures - 1)
	c.log.Warn("chesscom: request failed; retrying", "url", u, "error", why, "attempt", failures, "wait", wait)
	return clock.Sleep(ctx, c.clock, wait)
}

func (c *Client) meta(u string, resp *http.Response) Meta {
	m := Meta{URL: u, ETag: resp.Header.Get("ETag"), FetchedAt: c.clock.Now()}
	if t, ok := parseHTTPTime(resp.Header.Get("Last-Modified")); ok {
		m.LastModified = t
	}
	if t, ok := parseHTTPTime(resp.Header.Get("Date")); ok {
		m.Date = t
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(resp.Header.Get("Age")), 10, 64); err == nil && n > 0 {
		m.Age = time.Duration(n) * time.Second
	}
	for _, d := range strings.Split(resp.Header.Get("Cache-Control"), ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(d), "=")
		if ok && strings.EqualFold(k, "max-age") {
			if n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64); err == nil && n > 0 {
				m.MaxAge = time.Duration(n) * time.Second
			}
		}
	}
	return m
}

// chessComTime is the Last-Modified chess.com sends: a full weekday, a
// four-digit year and a numeric offset after GMT ("Friday, 18-Oct-2024
// 09:12:33 GMT+0000"), which is none of HTTP's three date formats.
const chessComTime = "Monday, 02-Jan-2006 15:04:05 GMT-0700"

// parseHTTPTime reads an HTTP date in any of the standard formats, or in
// chess.com's own.
func parseHTTPTime(h string) (time.Time, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return time.Time{}, false
	}
	if t, err := http.ParseTime(h); err == nil {
		return t, true
	}
	if t, err := time.Parse(chessComTime, h); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// retryAfter parses a Retry-After header: delta seconds or an HTTP date.
func retryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(h, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 24*3600)) * time.Second, true
	}
	if t, ok := parseHTTPTime(h); ok {
		d := t.Sub(now)
		return max(d, 0), true
	}
	return 0, false
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

func snippet(resp *http.Response) string {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	drain(resp)
	s := strings.TrimSpace(strings.ToValidUTF8(string(b), "?"))
	return strings.Join(strings.Fields(s), " ")
}
