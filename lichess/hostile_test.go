package lichess_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/testlog"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// bodyCatcher is a server on another host that records what reaches it.
type bodyCatcher struct {
	mu     sync.Mutex
	bodies []string
	auths  []string
}

func (b *bodyCatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	b.mu.Lock()
	b.bodies = append(b.bodies, string(body))
	b.auths = append(b.auths, r.Header.Get("Authorization"))
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{}`)
}

func (b *bodyCatcher) requests() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.bodies)
}

// A redirect to another host never takes the token along: not in the
// Authorization header, not in a body (TestToken POSTs the token itself,
// and a 307 or 308 resends a body to wherever it points).
func TestTokenNeverFollowsARedirectToAnotherHost(t *testing.T) {
	catcher := &bodyCatcher{}
	other := httptest.NewServer(catcher)
	defer other.Close()
	// "localhost" and "127.0.0.1" are different hosts to the client.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, otherURL+r.URL.Path, code)
			}))
			defer redirector.Close()
			c := lichess.NewClient(lichess.Options{BaseURL: redirector.URL, Token: fakelichess.BotToken, MaxRetries: -1,
				Logger: slog.New(slog.DiscardHandler)})
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := c.TestToken(ctx); !errors.Is(err, lichess.ErrRedirectRefused) {
				t.Errorf("TestToken: err = %v, want ErrRedirectRefused", err)
			}
			if _, err := c.Account(ctx); !errors.Is(err, lichess.ErrRedirectRefused) {
				t.Errorf("Account: err = %v, want ErrRedirectRefused", err)
			}
			if err := c.StreamEvents(ctx, func(lichess.Event) error { return nil }); !errors.Is(err, lichess.ErrRedirectRefused) {
				t.Errorf("StreamEvents: err = %v, want ErrRedirectRefused (and no retry)", err)
			}
			if n := catcher.requests(); n != 0 {
				t.Errorf("%d requests reached the other host: bodies %q", n, catcher.bodies)
			}
		})
	}
	// A redirect on the same host is followed.
	mux := http.NewServeMux()
	mux.HandleFunc("/old/api/account", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/new/api/account", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/new/api/account", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+fakelichess.BotToken {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"id":"bobby","username":"Bobby"}`)
	})
	same := httptest.NewServer(mux)
	defer same.Close()
	c := lichess.NewClient(lichess.Options{BaseURL: same.URL + "/old", Token: fakelichess.BotToken, Logger: slog.New(slog.DiscardHandler)})
	defer c.Close()
	if a, err := c.Account(context.Background()); err != nil || a.ID != "bobby" {
		t.Errorf("same-host redirect: %v %v", a, err)
	}
}

// A base URL in plain http to another machine is said once, at the start;
// https and this machine are not.
func TestPlainHTTPToARemoteHostWarns(t *testing.T) {
	tests := []struct {
		base string
		warn bool
	}{
		{"http://lichess.example.org", true},
		{"http://192.0.2.7:8080/prefix", true},
		{"https://lichess.org", false},
		{"http://127.0.0.1:9663/lichess", false},
		{"http://localhost:8080", false},
		{"http://[::1]:8080", false},
		{"http://fake.localhost", false},
	}
	for _, tc := range tests {
		t.Run(tc.base, func(t *testing.T) {
			logs := &testlog.Buffer{}
			c := lichess.NewClient(lichess.Options{BaseURL: tc.base, Token: fakelichess.BotToken, Logger: slog.New(slog.NewTextHandler(logs, nil))})
			c.Close()
			if got := strings.Contains(logs.String(), "plain http"); got != tc.warn {
				t.Errorf("warned %v, want %v:\n%s", got, tc.warn, logs.String())
			}
			if strings.Contains(logs.String(), fakelichess.BotToken) {
				t.Errorf("token in the log")
			}
		})
	}
}

// A server that answers 200 with junk and closes at once is backed off as
// one that refuses: the wait grows (1 s, 2 s, 4 s, … up to the maximum)
// since no line was understood, instead of starting again at 1 s after
// each such connection.
func TestJunkAnswersAreBackedOff(t *testing.T) {
	var served atomic.Int64
	junk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, "<html>not json</html>\n{\"type\":\n")
	}))
	defer junk.Close()
	clk := clock.NewFake(time.Time{})
	reconnecting := make(chan struct{}, 1)
	c := lichess.NewClient(lichess.Options{BaseURL: junk.URL, Token: fakelichess.BotToken, Clock: clk, Logger: slog.New(slog.DiscardHandler),
		Backoff:     lichess.Backoff{Initial: time.Second, Max: time.Minute, Rand: func() float64 { return 1 }},
		OnReconnect: func(string, error) { reconnecting <- struct{}{} }})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := run(t, func() error { return c.StreamEvents(ctx, func(lichess.Event) error { return nil }) })
	var elapsed time.Duration
	for elapsed < time.Minute {
		select {
		case <-reconnecting:
		case <-ctx.Done():
			t.Fatal("no reconnect")
		}
		// The connection is over; the only timer is the backoff's.
		if err := clk.WaitTimers(ctx, 1); err != nil {
			t.Fatal(err)
		}
		d, _ := clk.Next()
		clk.Advance(d)
		elapsed += d
	}
	if n := served.Load(); n > 8 {
		t.Errorf("%d connections in a minute to a server that answers junk, want at most 8 (1+2+4+8+16+32 s of backoff)", n)
	}
	cancel()
	wait(t, done)
}

// A request to /callback that does not carry the state of this login (a
// stray page, a probe of the port) is refused and the login goes on.
func TestLoginIgnoresAForeignCallback(t *testing.T) {
	e := newEnv(t, envOpts{})
	br := newBrowser()
	defer br.close()
	urls := make(chan string, 1)
	pr := &promptWriter{urls: urls}
	done := run(t, func() error {
		tok, err := lichess.Login(e.ctx, lichess.LoginOptions{BaseURL: e.fake.URL, Scopes: []string{lichess.ScopeStudyRead},
			Out: pr})
		if err == nil && !e.fake.TokenValid(tok.AccessToken) {
			err = errors.New("token not valid")
		}
		return err
	})
	authURL := <-urls
	redirect := authURL[strings.Index(authURL, "redirect_uri=")+len("redirect_uri="):]
	redirect, _, _ = strings.Cut(redirect, "&")
	cb, err := urlUnescape(redirect)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"?state=wrong&code=evil", "?code=evil", "?state=wrong&error=access_denied"} {
		resp, err := br.hc.Get(cb + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", q, resp.StatusCode)
		}
	}
	br.open(authURL) // the user, after the strays
	if err := wait(t, done); err != nil {
		t.Fatalf("login after stray callbacks: %v", err)
	}
}

func urlUnescape(s string) (string, error) { return url.QueryUnescape(s) }
