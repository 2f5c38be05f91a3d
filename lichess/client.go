package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/clock"
)

// DefaultBaseURL is the real Lichess.
const DefaultBaseURL = "https://lichess.org"

// Defaults of Options.
const (
	DefaultMaxPGNBytes    = 32 << 20 // as pgn.DefaultMaxGameBytes
	DefaultRateLimitPause = time.Minute
	// MaxRateLimitPause caps the pause a 429's ratelimit.seconds may ask
	// for: the whole account waits, its games included, so a server (or a
	// proxy) asking for years must not stop it for good.
	MaxRateLimitPause     = time.Hour
	DefaultMaxRetries     = 3
	DefaultRequestTimeout = 30 * time.Second
)

// ErrClosed is returned by calls made after Close.
var ErrClosed = errors.New("lichess: client closed")

// Backoff is the jittered exponential backoff between reconnects and
// retries: the n-th wait (from 0) is a random duration in
// [d/2, d] with d = min(Initial·2ⁿ, Max) (defaults 1 s and 60 s). It
// resets after a success.
type Backoff = backoff.Policy

// Options configure a Client. Only Token (or TokenSource) is needed for
// authenticated calls; everything else has a default.
type Options struct {
	// BaseURL of Lichess, default DefaultBaseURL. It may carry a path
	// prefix (the fake server is mounted under one). The mapstructure tags
	// are the keys of the lichess: section of the config file.
	BaseURL string `mapstructure:"url"`
	// Token is a personal access or OAuth token. TokenSource, if set, wins.
	Token string `mapstructure:"token"`
	// TokenFile names a file holding the token (a container's secret,
	// a file `threefold login --token-file` wrote), read by TokenFor when
	// Token is empty.
	TokenFile   string `mapstructure:"token_file"`
	TokenSource oauth2.TokenSource
	// HTTPClient is used for every request. Its Timeout is ignored
	// (streams run for hours); calls get RequestTimeout instead. Default: a
	// client with its own transport, whose idle connections Close closes.
	HTTPClient *http.Client
	// UserAgent, default "threefold/<Version> user:<Account>", the form
	// Lichess knows bots by (lichess-bot sends "lichess-bot/<version>
	// user:<account>"); without an Account the account of the token is put in
	// once CheckScopes has learned it. Lichess keys the bot game stream by
	// User-Agent.
	UserAgent string
	// Version of the program, for the User-Agent ("" leaves it out).
	Version string
	// Account is the Lichess user id, used in the User-Agent and logs.
	Account string
	Clock   clock.Clock  // default clock.Real
	Logger  *slog.Logger // default slog.Default()
	Backoff Backoff
	// Streams is the per-IP stream budget. Share one between all clients of
	// a process; nil gives this client its own.
	Streams *StreamBudget
	// MaxRetries is how often a call is sent again after a 5xx or a
	// network error (default DefaultMaxRetries; negative: never).
	MaxRetries int
	// RequestTimeout bounds each non-stream call (default 30 s).
	RequestTimeout time.Duration
	// RateLimitPause is the pause after a 429 without a longer ratelimit
	// body (default one minute, as Lichess asks).
	RateLimitPause time.Duration
	// MaxPGNBytes bounds the text of one broadcast game that is kept
	// (default DefaultMaxPGNBytes): a longer game is cut just past it,
	// so that the PGN reader, with the same limit, reports it.
	MaxPGNBytes int
	// OnReconnect, if set, is called each time a stream was lost (or could
	// not be opened, or went silent) and is about to be opened again, with
	// the stream's name ("event", "game ID", "broadcast round ID", …) and
	// the reason. It runs on the stream's goroutine: keep it quick.
	OnReconnect func(stream string, err error)
	// OnRateLimit, if set, is called when a 429 pauses the account, with
	// the pause. It runs on the caller's goroutine: keep it quick.
	OnRateLimit func(pause time.Duration)
}

// Client talks to Lichess for one account. Its methods are safe for
// concurrent use. Close stops every stream and waits for them.
type Client struct {
	base      *url.URL
	ts        oauth2.TokenSource
	http      *http.Client
	ua        string
	account   string
	clk       clock.Clock
	log       *slog.Logger
	backoff   Backoff
	budget    *StreamBudget
	retries   int
	timeout   time.Duration
	pause     time.Duration
	maxPGN    int
	gov       *governor
	ctx       context.Context
	cancel    context.CancelFunc
	mu        sync.Mutex
	closed    bool
	wg        sync.WaitGroup
	idStreams map[string]*idSet
	lastToken string
	version   string
	uaFixed   bool // UserAgent given: never rewritten

	onReconnect func(stream string, err error)
	onRateLimit func(pause time.Duration)
}

// NewClient returns a client for one account. A BaseURL that does not parse
// is reported by the first call.
func NewClient(opts Options) *Client {
	c := &Client{
		ts:        opts.TokenSource,
		http:      opts.HTTPClient,
		ua:        opts.UserAgent,
		uaFixed:   opts.UserAgent != "",
		version:   opts.Version,
		account:   opts.Account,
		clk:       opts.Clock,
		log:       opts.Logger,
		backoff:   opts.Backoff,
		budget:    opts.Streams,
		retries:   opts.MaxRetries,
		timeout:   opts.RequestTimeout,
		pause:     opts.RateLimitPause,
		maxPGN:    opts.MaxPGNBytes,
		idStreams: map[string]*idSet{},

		onReconnect: opts.OnReconnect,
		onRateLimit: opts.OnRateLimit,
	}
	if c.maxPGN <= 0 {
		c.maxPGN = DefaultMaxPGNBytes
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		u = nil
	}
	c.base = u
	if c.ts == nil && opts.Token != "" {
		c.ts = oauth2.StaticTokenSource(&oauth2.Token{AccessToken: opts.Token, TokenType: "Bearer"})
	}
	if c.http == nil {
		c.http = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	} else {
		// A copy: a client timeout would cut every stream (calls get
		// RequestTimeout instead), and the redirect guard is ours.
		hc := *c.http
		hc.Timeout = 0
		c.http = &hc
	}
	guardRedirects(c.http)
	if c.ua == "" {
		c.ua = defaultUserAgent(c.version, c.account)
	}
	if c.clk == nil {
		c.clk = clock.Real
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	warnInsecure(c.log, c.base)
	if c.budget == nil {
		c.budget = NewStreamBudget(0, 0)
	}
	if c.retries == 0 {
		c.retries = DefaultMaxRetries
	}
	if c.timeout <= 0 {
		c.timeout = DefaultRequestTimeout
	}
	if c.pause <= 0 {
		c.pause = DefaultRateLimitPause
	}
	c.gov = &governor{clk: c.clk, slot: make(chan struct{}, 1)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c
}

// defaultUserAgent is "threefold/VERSION user:ACCOUNT": the program and
// the account, in the form of Lichess's own bot bridge (lichess-bot), so
// Lichess can tell who runs what.
func defaultUserAgent(version, account string) string {
	ua := "threefold"
	if version != "" {
		ua += "/" + version
	}
	if account != "" {
		ua += " user:" + account
	}
	return ua
}

// learnAccount puts the token's account in the default User-Agent once it
// is known.
func (c *Client) learnAccount(account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.account != "" || account == "" {
		return
	}
	c.account = account
	if !c.uaFixed {
		c.ua = defaultUserAgent(c.version, account)
	}
}

func (c *Client) accountName() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.account
}

// UserAgent returns the User-Agent the client sends now.
func (c *Client) UserAgent() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ua
}

// Close cancels every call and stream of the client, waits until they have
// returned and closes idle connections. It is safe to call twice.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
	c.http.CloseIdleConnections()
	return nil
}

// PausedUntil returns the end of the current rate-limit pause of the
// account (zero or in the past when none).
func (c *Client) PausedUntil() time.Time { return c.gov.pausedUntil() }

// begin registers a running method: the returned context is also cancelled
// by Close, and done must be called when the method returns.
func (c *Client) begin(ctx context.Context) (context.Context, func(), error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil, ErrClosed
	}
	c.wg.Add(1)
	c.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(c.ctx, cancel)
	return ctx, func() { stop(); cancel(); c.wg.Done() }, nil
}

// checkToken refuses a token (its space around taken off) with a space, a
// control or a non-ASCII character inside: it says where, never what, for
// the token must not reach a message.
func checkToken(tok string) error {
	if i := strings.IndexFunc(tok, func(r rune) bool { return r <= ' ' || r >= 0x7f }); i >= 0 {
		return fmt.Errorf("%w (at byte %d of %d): check lichess.token, THREEFOLD_LICHESS_TOKEN or the token file",
			ErrTokenMalformed, i+1, len(tok))
	}
	return nil
}

// token returns the access token, or an error that does not contain it.
func (c *Client) token() (string, error) {
	if c.ts == nil {
		return "", ErrTokenMissing
	}
	t, err := c.ts.Token()
	if err != nil {
		// The source's message could quote a token we do not know: only
		// its type is kept.
		return "", fmt.Errorf("lichess: the token source failed (%T)", err)
	}
	if t == nil {
		return "", ErrTokenMissing
	}
	// The space around a token is not part of it: a line break or a CR a
	// token file, an environment variable or a YAML block kept.
	tok := strings.TrimSpace(t.AccessToken)
	if tok == "" {
		return "", ErrTokenMissing
	}
	if err := checkToken(tok); err != nil {
		return "", err
	}
	c.mu.Lock()
	c.lastToken = tok
	c.mu.Unlock()
	return tok, nil
}

// redact removes the last token used from s, whatever s is.
func (c *Client) redact(s string) string {
	c.mu.Lock()
	tok := c.lastToken
	c.mu.Unlock()
	if len(tok) < 4 {
		return s
	}
	return strings.ReplaceAll(s, tok, "[token]")
}

// request describes one HTTP request relative to the base URL.
type request struct {
	op          string // for errors: "move", "stream events"
	method      string
	path        string // already escaped, starting with /
	query       url.Values
	body        string
	contentType string
	accept      string
	auth        bool   // send the token (fails without one)
	optAuth     bool   // send the token if there is one
	stream      bool   // a stream: the governor is released once the headers are in
	onSend      func() // called when the governor lets the request go
}

// releasingBody releases the governor when a call's answer has been read
// and closed, so calls never overlap.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// send acquires the governor, sends r and returns the response of a 2xx
// answer; any other answer is turned into a typed error (429 pauses the
// account). The governor is released when the caller closes the body of a
// call, and once the headers are in for a stream.
func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	if c.base == nil {
		return nil, &APIError{Op: r.op, Message: "invalid base URL"}
	}
	u := *c.base
	u.Path = c.base.Path + r.path
	u.RawPath = ""
	if strings.Contains(r.path, "%") {
		u.RawPath = c.base.EscapedPath() + r.path
	}
	if len(r.query) > 0 {
		u.RawQuery = r.query.Encode()
	}
	var body io.Reader
	if r.body != "" || r.method == http.MethodPost {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("lichess: %s: %w", r.op, err)
	}
	c.mu.Lock()
	req.Header.Set("User-Agent", c.ua)
	c.mu.Unlock()
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.accept != "" {
		req.Header.Set("Accept", r.accept)
	}
	if r.auth || r.optAuth {
		tok, err := c.token()
		// A malformed token fails a call that could go without one as
		// well: sent without it, the call would hide the mistake.
		if err != nil && (r.auth || errors.Is(err, ErrTokenMalformed)) {
			return nil, &AuthError{Op: r.op, Message: err.Error()}
		}
		if err == nil {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
	}
	if err := c.gov.acquire(ctx); err != nil {
		return nil, err
	}
	if r.onSend != nil {
		r.onSend()
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.gov.release()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if errors.Is(err, ErrRedirectRefused) {
			return nil, fmt.Errorf("lichess: %s: %w", r.op, errors.Unwrap(err)) // the *url.Error's cause: ours
		}
		return nil, &netError{op: r.op, msg: c.redact(err.Error())}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if r.stream {
			c.gov.release()
		} else {
			resp.Body = &releasingBody{ReadCloser: resp.Body, release: c.gov.release}
		}
		return resp, nil
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	msg, rl := parseErrorBody(data)
	msg = c.redact(msg)
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		pause := c.pause
		if rl.Seconds > 0 {
			asked := MaxRateLimitPause
			if rl.Seconds < int64(MaxRateLimitPause/time.Second) {
				asked = time.Duration(rl.Seconds) * time.Second
			}
			pause = max(pause, asked)
		}
		pause = min(pause, max(c.pause, MaxRateLimitPause))
		c.gov.pauseFor(pause)
		c.gov.release()
		c.log.Warn("lichess: rate limited, pausing account", "op", r.op, "account", c.accountName(), "pause", pause, "key", rl.Key)
		if c.onRateLimit != nil {
			c.onRateLimit(pause)
		}
		return nil, &RateLimitError{Op: r.op, Pause: pause, Key: rl.Key, Message: msg}
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		c.gov.release()
		ae := &AuthError{Op: r.op, Status: resp.StatusCode, Message: msg}
		if resp.StatusCode == http.StatusForbidden {
			ae.Scope = missingScope(msg, resp.Header.Get("X-Accepted-OAuth-Scopes"))
		}
		return nil, ae
	default:
		c.gov.release()
		return nil, &APIError{Op: r.op, Status: resp.StatusCode, Message: msg}
	}
}

// netError is a transport failure; it is retried.
type netError struct{ op, msg string }

func (e *netError) Error() string { return fmt.Sprintf("lichess: %s: %s", e.op, e.msg) }

type rateLimitBody struct {
	Key     string `json:"key"`
	Seconds int64  `json:"seconds"`
}

func parseErrorBody(data []byte) (string, rateLimitBody) {
	var b struct {
		Error     any           `json:"error"`
		Message   string        `json:"message"`
		RateLimit rateLimitBody `json:"ratelimit"`
	}
	if json.Unmarshal(data, &b) == nil {
		switch e := b.Error.(type) {
		case string:
			return e, b.RateLimit
		case nil:
			if b.Message != "" {
				return b.Message, b.RateLimit
			}
		default:
			if j, err := json.Marshal(e); err == nil {
				return string(j), b.RateLimit
			}
		}
	}
	s := strings.TrimSpace(string(data))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s, rateLimitBody{}
}

// retryable reports whether a call may be sent again.
func retryable(err error) bool {
	var ne *netError
	var ae *APIError
	return errors.As(err, &ne) || (errors.As(err, &ae) && ae.Temporary())
}

// call sends a non-stream request, retrying 5xx and network errors with
// backoff, and decodes a JSON answer into out (if not nil).
func (c *Client) call(ctx context.Context, r request, out any) error {
	ctx, done, err := c.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	for attempt := 0; ; attempt++ {
		err = c.callOnce(ctx, r, out)
		if err == nil || !retryable(err) || attempt >= c.retries || ctx.Err() != nil {
			break
		}
		d := c.backoff.Delay(attempt)
		c.log.Info("lichess: retrying", "op", r.op, "attempt", attempt+1, "wait", d, "err", c.redact(err.Error()))
		if err := clock.Sleep(ctx, c.clk, d); err != nil {
			return fmt.Errorf("lichess: %s: %w", r.op, err)
		}
	}
	if err != nil && ctx.Err() != nil && !isTyped(err) {
		return fmt.Errorf("lichess: %s: %w", r.op, ctx.Err())
	}
	return err
}

func isTyped(err error) bool {
	var a *AuthError
	var r *RateLimitError
	var p *APIError
	return errors.As(err, &a) || errors.As(err, &r) || errors.As(err, &p)
}

func (c *Client) callOnce(ctx context.Context, r request, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch o := out.(type) {
	case nil:
		_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	case *string:
		var b strings.Builder
		_, err = io.Copy(&b, io.LimitReader(resp.Body, 64<<20))
		*o = b.String()
	default:
		err = json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(out)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("lichess: %s: %w", r.op, ctx.Err())
		}
		return &netError{op: r.op, msg: "read answer: " + c.redact(err.Error())}
	}
	return nil
}
