package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// ErrTokenRequired is returned by New when the dashboard would listen
// beyond the loopback interface without an access token.
var ErrTokenRequired = errors.New("web: an access token (http.token) is required when the dashboard listens on an address other than localhost")

// Websocket timing: a ping every pingEvery; a page that answers no ping
// for pongWait, or cannot take a message for writeWait, is disconnected.
const (
	pingEvery = 20 * time.Second
	pongWait  = 45 * time.Second
	writeWait = 10 * time.Second
)

// HTTP timing: a request's headers must arrive within ReadHeaderTimeout,
// the whole request within ReadTimeout, the answer leave within
// WriteTimeout; a kept-alive connection idle for IdleTimeout is closed.
// (A websocket sets its own deadlines once upgraded.)
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 60 * time.Second
	IdleTimeout       = 60 * time.Second
)

// Default caps on connections (each costs a file descriptor) and
// websockets, in total and per client address.
const (
	DefaultMaxConnections          = 512
	DefaultMaxConnectionsPerClient = 128
	DefaultMaxWebsockets           = 64
	DefaultMaxWebsocketsPerClient  = 16
)

// Options configure a dashboard Server.
//
// The mapstructure tags are the keys of the http: section of the config
// file; DefaultOptions has their defaults.
type Options struct {
	// Addr is where to listen, host:port; "" is 127.0.0.1:8080 (but a
	// program serves no dashboard when its http.addr is ""). A port 0
	// picks a free one.
	Addr string `mapstructure:"addr"`
	// Token, when set, is required on every request: header
	// "Authorization: Bearer TOKEN" or the query parameter token=TOKEN
	// (the pages keep it in their links and websocket URL). It is
	// mandatory when Addr is not a loopback address.
	Token   string `mapstructure:"token"`
	Hub     *Hub
	Metrics *Metrics // nil: /metrics answers 404
	Logger  *slog.Logger
	// Hosts are the host names (without port) a request may name in its
	// Host header when there is no Token, besides localhost, the loopback
	// addresses and the host of Addr: a page of another site that
	// rebinds its own name to 127.0.0.1 (DNS rebinding) names its own host
	// and is refused.
	Hosts []string `mapstructure:"hosts"`
	// Caps on open connections and websockets, in total and per client
	// address (0: the defaults above). A connection beyond a cap is closed
	// at once; a websocket beyond one is refused with 503.
	MaxConnections          int `mapstructure:"max_connections" range:"8,1000000"`
	MaxConnectionsPerClient int `mapstructure:"max_connections_per_client" range:"4,1000000"`
	MaxWebsockets           int `mapstructure:"max_websockets" range:"1,100000"`
	MaxWebsocketsPerClient  int `mapstructure:"max_websockets_per_client" range:"1,100000"`
	// Lang is the pages' language when the viewer picked none and the
	// browser's Accept-Language names none of the four; "" is English.
	Lang i18n.Lang
}

// Server is the dashboard: the pages, their websocket feed, /metrics and
// /healthz.
type Server struct {
	opts     Options
	log      *slog.Logger
	upgrader websocket.Upgrader
	mux      *http.ServeMux
	conns    sync.WaitGroup // websocket connections being served

	hosts map[string]bool // the Host names accepted without a token

	mu       sync.Mutex
	active   map[*client]struct{}
	wsByAddr map[string]int // open websockets by client address
	wsTotal  int
	closing  bool
}

// DefaultOptions are the options of the http: section before the config
// file says more: the caps at their defaults, no address.
func DefaultOptions() Options {
	return Options{MaxConnections: DefaultMaxConnections, MaxConnectionsPerClient: DefaultMaxConnectionsPerClient,
		MaxWebsockets: DefaultMaxWebsockets, MaxWebsocketsPerClient: DefaultMaxWebsocketsPerClient}
}

// New checks the options and returns the dashboard.
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:8080"
	}
	if opts.Hub == nil {
		return nil, errors.New("web: no hub")
	}
	loop, err := IsLoopback(opts.Addr)
	if err != nil {
		return nil, err
	}
	if !loop && opts.Token == "" {
		return nil, ErrTokenRequired
	}
	s := &Server{opts: opts, log: opts.Logger, active: make(map[*client]struct{}), wsByAddr: make(map[string]int)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	setDefault := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setDefault(&s.opts.MaxConnections, DefaultMaxConnections)
	setDefault(&s.opts.MaxConnectionsPerClient, DefaultMaxConnectionsPerClient)
	setDefault(&s.opts.MaxWebsockets, DefaultMaxWebsockets)
	setDefault(&s.opts.MaxWebsocketsPerClient, DefaultMaxWebsocketsPerClient)
	s.hosts = map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}
	if host, _, err := net.SplitHostPort(opts.Addr); err == nil && host != "" {
		s.hosts[strings.ToLower(host)] = true
	}
	for _, h := range opts.Hosts {
		s.hosts[strings.ToLower(strings.TrimSuffix(h, "."))] = true
	}
	s.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 16 << 10, CheckOrigin: SameOrigin}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.page(indexPage()))
	s.mux.HandleFunc("GET /game", s.page(gamePage()))
	s.mux.HandleFunc("GET /ws", s.serveWS)
	s.mux.HandleFunc("GET /api/state", s.serveState)
	s.mux.HandleFunc("GET /api/claim", s.serveClaim)
	s.mux.HandleFunc("GET /healthz", s.serveHealth)
	if opts.Metrics != nil {
		s.mux.Handle("GET /metrics", opts.Metrics.Handler())
	}
	return s, nil
}

// IsLoopback reports whether a listen address binds the loopback interface
// only ("localhost", 127.0.0.0/8, ::1). An empty host binds every
// interface, so it is not.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("web: listen address %q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// SameOrigin is the websocket origin check: a request without an Origin
// header (not from a browser) passes; one from a browser passes only when
// the page's origin has the same host (and port) as the request.
func SameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// ServeHTTP checks the Host header (without a token) and the token, then
// serves the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token == "" && !s.knownHost(r.Host) {
		http.Error(w, "misdirected request: this dashboard answers only to its own host names (http.hosts)", http.StatusMisdirectedRequest)
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="threefold"`)
		http.Error(w, "unauthorized: an access token is needed (Authorization: Bearer, or ?token=)", http.StatusUnauthorized)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer") // the token may be in the URL
	w.Header().Set("X-Frame-Options", "DENY")        // no page of another site may frame it
	s.mux.ServeHTTP(w, r)
}

// knownHost reports whether the Host header names this dashboard: an IP
// address of the loopback interface, or a name it was given.
func (s *Server) knownHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	return s.hosts[host]
}

func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	got := r.URL.Query().Get("token")
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		got = strings.TrimSpace(h[len("Bearer "):])
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

func (s *Server) page(pages map[i18n.Lang][]byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := pages[pageLang(r, s.opts.Lang)]
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Vary", "Accept-Language, Cookie")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-ancestors 'none'")
		_, _ = w.Write(body)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// serveState answers the page's state as JSON: the hello message
// (?game=KEY for one game in full).
func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	h := s.opts.Hub
	h.mu.Lock()
	m := h.state(r.URL.Query().Get("game"))
	b := encode(m)
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// Health is the /healthz answer.
type Health struct {
	OK      bool          `json:"ok"` // every source is connected
	Sources []SourceState `json:"sources"`
	Games   int           `json:"games"`
	Pages   int           `json:"pages"` // dashboard pages connected
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	h := s.opts.Hub
	hl := Health{OK: true, Sources: h.Sources(), Games: len(h.Games()), Pages: h.Clients()}
	for _, src := range hl.Sources {
		if !src.Connected {
			hl.OK = false
		}
	}
	status := http.StatusOK
	if !hl.OK {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, hl)
}

// client is one page connected over the websocket.
type client struct {
	focus  string // the game key of a game page, "" for the index
	remote string
	send   chan []byte
	quit   chan struct{}
	once   sync.Once
}

func (c *client) stop() { c.once.Do(func() { close(c.quit) }) }

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	addr := clientAddr(r.RemoteAddr)
	s.mu.Lock()
	if s.wsTotal >= s.opts.MaxWebsockets || s.wsByAddr[addr] >= s.opts.MaxWebsocketsPerClient {
		s.mu.Unlock()
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many dashboard pages open (http.max_websockets, http.max_websockets_per_client)", http.StatusServiceUnavailable)
		return
	}
	s.wsByAddr[addr]++ // reserved before the upgrade, so that no burst gets past the cap
	s.wsTotal++
	s.mu.Unlock()
	release := func() {
		s.mu.Lock()
		s.wsTotal--
		if s.wsByAddr[addr]--; s.wsByAddr[addr] <= 0 {
			delete(s.wsByAddr, addr)
		}
		s.mu.Unlock()
	}
	defer release()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered (403 for a foreign origin)
	}
	c := &client{focus: r.URL.Query().Get("game"), remote: r.RemoteAddr,
		send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		_ = conn.Close()
		return
	}
	s.conns.Add(1)
	s.active[c] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.active, c)
		s.mu.Unlock()
		s.conns.Done()
	}()
	if !s.opts.Hub.register(c) {
		_ = conn.Close()
		return
	}
	defer s.opts.Hub.unregister(c)

	readDone := make(chan struct{})
	go func() { // reader: pongs and the close handshake; pages send nothing else
		defer close(readDone)
		defer c.stop()
		conn.SetReadLimit(4096)
		_ = conn.SetReadDeadline(time.Now().Add(pongWait))
		conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(pongWait)) })
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	s.writeLoop(conn, c)
	_ = conn.Close() // ends the reader
	<-readDone
}

// writeLoop is the connection's only writer.
func (s *Server) writeLoop(conn *websocket.Conn, c *client) {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case b := <-c.send:
			_ = conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := conn.WriteMessage(websocket.TextMessage, b); err != nil {
				return
			}
		case <-ping.C:
			_ = conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		case <-c.quit:
			_ = conn.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.CloseGoingAway, "bye"), time.Now().Add(time.Second))
			return
		}
	}
}

// Listen opens the listening socket of Options.Addr.
func (s *Server) Listen(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", s.opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("web: listen on %s: %w", s.opts.Addr, err)
	}
	return ln, nil
}

// URL returns the address of the index page on ln, with the token.
func (s *Server) URL(ln net.Listener) string {
	host := ln.Addr().String()
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		host = net.JoinHostPort("localhost", fmt.Sprint(tcp.Port))
	}
	u := "http://" + host + "/"
	if s.opts.Token != "" {
		u += "?token=" + url.QueryEscape(s.opts.Token)
	}
	return u
}

// httpServer is the HTTP server of Serve, with its timeouts.
func (s *Server) httpServer(ctx context.Context) *http.Server {
	return &http.Server{Handler: s, ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout,
		WriteTimeout: WriteTimeout, IdleTimeout: IdleTimeout, MaxHeaderBytes: 64 << 10,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
}

// Serve serves the dashboard on ln until ctx is done, then shuts down:
// it stops accepting, closes the websocket connections and waits for them
// and for requests in flight (up to five seconds).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := s.httpServer(ctx)
	ln = &cappedListener{Listener: ln, max: s.opts.MaxConnections, perClient: s.opts.MaxConnectionsPerClient, byAddr: map[string]int{}, log: s.log}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-errc
	s.mu.Lock()
	s.closing = true
	for c := range s.active {
		c.stop()
	}
	s.mu.Unlock()
	s.conns.Wait()
	if err != nil {
		return fmt.Errorf("web: shutdown: %w", err)
	}
	return nil
}

// clientAddr is the client's address without its port.
func clientAddr(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// cappedListener closes, as soon as they are accepted, the connections
// beyond its caps (in total and per client address), so that no client
// can use up the process's file descriptors.
type cappedListener struct {
	net.Listener
	max, perClient int
	log            *slog.Logger

	mu      sync.Mutex
	open    int
	byAddr  map[string]int
	refused int
}

func (l *cappedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := clientAddr(c.RemoteAddr().String())
		l.mu.Lock()
		if l.open >= l.max || l.byAddr[addr] >= l.perClient {
			l.refused++
			n := l.refused
			l.mu.Unlock()
			_ = c.Close()
			if n&(n-1) == 0 { // the 1st, 2nd, 4th, 8th... refusal
				l.log.Warn("dashboard: connection refused, over the cap (http.max_connections, http.max_connections_per_client)",
					"remote", addr, "refused_total", n)
			}
			continue
		}
		l.open++
		l.byAddr[addr]++
		l.mu.Unlock()
		return &cappedConn{Conn: c, l: l, addr: addr}, nil
	}
}

func (l *cappedListener) release(addr string) {
	l.mu.Lock()
	l.open--
	if l.byAddr[addr]--; l.byAddr[addr] <= 0 {
		delete(l.byAddr, addr)
	}
	l.mu.Unlock()
}

// cappedConn gives its place back when it is closed.
type cappedConn struct {
	net.Conn
	l    *cappedListener
	addr string
	once sync.Once
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.addr) })
	return err
}
