package web

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// serveReal serves a dashboard with Serve on a real loopback listener
// (the caps and timeouts are Serve's) and returns its address.
func serveReal(t *testing.T, opts Options) string {
	t.Helper()
	hub := NewHub(HubOptions{})
	opts.Hub = hub
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := s.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { _ = hub.Run(ctx); done <- struct{}{} }()
	go func() { _ = s.Serve(ctx, ln); done <- struct{}{} }()
	t.Cleanup(func() { cancel(); <-done; <-done })
	return ln.Addr().String()
}

func getHost(t *testing.T, addr, host, path string) (*http.Response, error) {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

// TestHostHeaderChecked: without a token, a request that names another
// host (a site whose name was rebound to 127.0.0.1: DNS rebinding) is
// refused; loopback addresses, localhost, the listen host and the names
// of http.hosts are served. With a token, the token is the check.
func TestHostHeaderChecked(t *testing.T) {
	addr := serveReal(t, Options{Hosts: []string{"Dashboard.club.example"}})
	_, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
		{"dashboard.club.example:" + port, http.StatusOK},
		{"dashboard.club.example.", http.StatusOK},
		{"evil.example:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.1.evil.example", http.StatusMisdirectedRequest},
	} {
		t.Run(tc.host, func(t *testing.T) {
			resp, err := getHost(t, addr, tc.host, "/api/state")
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.want {
				t.Fatalf("Host %s: %d, want %d", tc.host, resp.StatusCode, tc.want)
			}
		})
	}
	tokenAddr := serveReal(t, Options{Addr: "127.0.0.1:0", Token: "s3cret"})
	if resp, err := getHost(t, tokenAddr, "dashboard.elsewhere.example", "/healthz?token=s3cret"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("with the token: %v %v", resp, err)
	}
}

// TestPagesRefuseFraming: no other site may frame the dashboard.
func TestPagesRefuseFraming(t *testing.T) {
	addr := serveReal(t, Options{})
	for _, path := range []string{"/", "/game?key=a/b", "/api/state"} {
		resp, err := getHost(t, addr, addr, path)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: X-Frame-Options %q", path, resp.Header.Get("X-Frame-Options"))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); path != "/api/state" && !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
	}
}

// TestWebsocketCaps: 5,000 websockets from one client were all accepted;
// beyond the cap per client (and in total) one is refused with 503, and a
// place given back can be taken again.
func TestWebsocketCaps(t *testing.T) {
	addr := serveReal(t, Options{MaxWebsocketsPerClient: 3, MaxWebsockets: 4})
	dial := func() (*websocket.Conn, int) {
		c, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
		if err != nil {
			if resp == nil {
				t.Fatal(err)
			}
			return nil, resp.StatusCode
		}
		return c, http.StatusSwitchingProtocols
	}
	var open []*websocket.Conn
	for i := 0; i < 3; i++ {
		c, code := dial()
		if c == nil {
			t.Fatalf("websocket %d refused: %d", i+1, code)
		}
		c.ReadMessage() // the hello: the page is registered
		open = append(open, c)
	}
	if c, code := dial(); c != nil || code != http.StatusServiceUnavailable {
		t.Fatalf("a 4th websocket from the same client: %d, want 503", code)
	}
	open[0].Close()
	deadline := time.Now().Add(30 * time.Second) // a hang guard: the server sees the close asynchronously
	for {
		c, code := dial()
		if c != nil {
			c.Close()
			break
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("after a close: %d", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, c := range open[1:] {
		c.Close()
	}
}

// TestConnectionCaps: 20,000 idle connections used up the file
// descriptors; beyond the cap a connection is closed at once, and a
// place given back serves again.
func TestConnectionCaps(t *testing.T) {
	addr := serveReal(t, Options{MaxConnections: 4, MaxConnectionsPerClient: 4})
	var idle []net.Conn
	for i := 0; i < 4; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	extra.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hang guard
	if _, err := extra.Read(make([]byte, 1)); err == nil {
		t.Fatal("a connection over the cap was kept open")
	}
	extra.Close()
	idle[0].Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := getHost(t, addr, addr, "/healthz")
		if err == nil && resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no place given back: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, c := range idle[1:] {
		c.Close()
	}
}

// TestServerTimeouts: idle, read and write timeouts are set, besides the
// header timeout.
func TestServerTimeouts(t *testing.T) {
	s, err := New(Options{Hub: NewHub(HubOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	srv := s.httpServer(context.Background())
	if srv.ReadHeaderTimeout == 0 || srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 {
		t.Fatalf("timeouts: header %v read %v write %v idle %v", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout)
	}
}
