package lichess_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// browser follows the authorisation URL as a browser would (the fake
// approves at once and redirects to the local listener).
type browser struct {
	wg     sync.WaitGroup
	hc     *http.Client
	opened []string
	mu     sync.Mutex
}

func newBrowser() *browser { return &browser{hc: &http.Client{Transport: &http.Transport{}}} }

func (b *browser) open(u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		resp, err := b.hc.Get(u)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

func (b *browser) close() {
	b.wg.Wait()
	b.hc.CloseIdleConnections()
}

func TestLoginPKCE(t *testing.T) {
	e := newEnv(t, envOpts{})
	br := newBrowser()
	defer br.close()
	var out strings.Builder
	tok, err := lichess.Login(e.ctx, lichess.LoginOptions{BaseURL: e.fake.URL, Scopes: []string{lichess.ScopeBotPlay}, OpenBrowser: br.open, Out: &out})
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	if !e.fake.TokenValid(tok.AccessToken) || strings.Join(e.fake.TokenScopes(tok.AccessToken), " ") != "bot:play" {
		t.Errorf("token not valid with bot:play: scopes %v", e.fake.TokenScopes(tok.AccessToken))
	}
	u, err := url.Parse(br.opened[0])
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Path != strings.TrimPrefix(e.fake.URL, "http://"+u.Host)+"/oauth" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" ||
		q.Get("client_id") != lichess.DefaultClientID || q.Get("scope") != "bot:play" || !strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("authorisation URL %s", br.opened[0])
	}
	ex := e.fake.RequestsTo(http.MethodPost, "/api/token")
	if len(ex) != 1 {
		t.Fatalf("%d token exchanges", len(ex))
	}
	form, _ := url.ParseQuery(ex[0].Body)
	if form.Get("grant_type") != "authorization_code" || form.Get("code_verifier") == "" || form.Get("client_id") != lichess.DefaultClientID {
		t.Errorf("exchange form %v", form)
	}
	if !strings.Contains(out.String(), br.opened[0]) {
		t.Errorf("instructions lack the URL:\n%s", out.String())
	}
	c := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: tok.AccessToken})
	defer c.Close()
	if _, err := c.CheckScopes(e.ctx, lichess.ScopeBotPlay); err != nil {
		t.Errorf("the new token: %v", err)
	}
}

// With no browser, the user opens the printed URL; Login waits.
func TestLoginWithoutBrowser(t *testing.T) {
	e := newEnv(t, envOpts{})
	br := newBrowser()
	defer br.close()
	urls := make(chan string, 1)
	pr := &promptWriter{urls: urls}
	done := run(t, func() error {
		_, err := lichess.Login(e.ctx, lichess.LoginOptions{BaseURL: e.fake.URL, Scopes: []string{lichess.ScopeStudyRead},
			OpenBrowser: func(string) error { return errors.New("no display") }, Out: pr})
		return err
	})
	br.open(<-urls) // the user
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pr.String(), "could not open a browser") {
		t.Errorf("output:\n%s", pr.String())
	}
}

func TestLoginCancelled(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	if _, err := lichess.Login(ctx, lichess.LoginOptions{BaseURL: e.fake.URL}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

// promptWriter hands the first URL it sees to urls.
type promptWriter struct {
	mu   sync.Mutex
	b    strings.Builder
	urls chan string
	sent bool
}

func (p *promptWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.b.Write(b)
	if !p.sent {
		for _, f := range strings.Fields(p.b.String()) {
			if strings.HasPrefix(f, "http") && strings.Contains(f, "/oauth?") {
				p.urls <- f
				p.sent = true
				break
			}
		}
	}
	return len(b), nil
}

func (p *promptWriter) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.String()
}

var _ = fakelichess.BotToken
