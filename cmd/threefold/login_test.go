package main

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// fakeBrowser follows the authorisation URL as a browser would; the fake
// Lichess approves at once and redirects to login's local listener.
type fakeBrowser struct {
	wg     sync.WaitGroup
	hc     *http.Client
	mu     sync.Mutex
	opened []string
}

func (b *fakeBrowser) open(u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		if resp, err := b.hc.Get(u); err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// loginEnv isolates the user's directories and installs a fake browser.
func loginEnv(t *testing.T) (*fakelichess.Server, *fakeBrowser, string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("THREEFOLD_LICHESS_URL", "")
	fake := fakelichess.New(fakelichess.Options{})
	b := &fakeBrowser{hc: &http.Client{Transport: &http.Transport{}}}
	saved := openBrowser
	openBrowser = b.open
	t.Cleanup(func() {
		openBrowser = saved
		b.wg.Wait()
		b.hc.CloseIdleConnections()
		fake.Close()
	})
	return fake, b, home
}

func runLogin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut syncBuffer
	code := Main(ctx, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestLoginSavesATokenWithTheModeScope(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		env   bool // pass the URL through THREEFOLD_LICHESS_URL instead of --lichess-url
		scope string
		file  string // where the token is kept
	}{
		{name: "bot", args: []string{"--for", "bot"}, scope: "bot:play challenge:read", file: "token-bot"},
		{name: "watch", args: []string{"--for", "watch"}, scope: "study:read", file: "token-watch"},
		{name: "url from the environment", args: nil, env: true, scope: "bot:play challenge:read", file: "token-bot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake, b, home := loginEnv(t)
			args := append([]string{"login"}, tc.args...)
			if tc.env {
				t.Setenv("THREEFOLD_LICHESS_URL", fake.URL)
			} else {
				args = append(args, "--lichess-url", fake.URL)
			}
			code, out, errOut := runLogin(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s%s", code, out, errOut)
			}
			file := filepath.Join(home, "config", "threefold", tc.file)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tok := strings.TrimSpace(string(data))
			if !fake.TokenValid(tok) || strings.Join(fake.TokenScopes(tok), " ") != tc.scope {
				t.Errorf("saved token scopes %v, want %s", fake.TokenScopes(tok), tc.scope)
			}
			if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("token file mode %v (%v)", st.Mode(), err)
			}
			if st, err := os.Stat(filepath.Dir(file)); err != nil || st.Mode().Perm() != 0o700 {
				t.Errorf("token dir mode %v (%v)", st.Mode(), err)
			}
			if strings.Contains(out+errOut, tok) {
				t.Error("the token was printed")
			}
			if !strings.Contains(out, "Logged in to Lichess as ThreefoldBot") || !strings.Contains(out, file) {
				t.Errorf("output:\n%s", out)
			}
			u, _ := url.Parse(b.opened[0])
			if u.Query().Get("code_challenge_method") != "S256" || u.Query().Get("scope") != tc.scope {
				t.Errorf("authorisation URL %s", b.opened[0])
			}
			ex := fake.RequestsTo(http.MethodPost, "/api/token")
			form, _ := url.ParseQuery(ex[0].Body)
			if len(ex) != 1 || form.Get("code_verifier") == "" {
				t.Errorf("code exchange %+v", ex)
			}
		})
	}
}

func TestLoginWithoutBrowserPrintsTheAddress(t *testing.T) {
	fake, b, home := loginEnv(t)
	openBrowser = func(string) error { return errors.New("no graphical display") }
	file := filepath.Join(home, "elsewhere", "tok")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"login", "--lichess-url", fake.URL, "--token-file", file}, strings.NewReader(""), &out, &errOut)
	}()
	// The user reads the address and opens it.
	var addr string
	for addr == "" {
		select {
		case code := <-done:
			t.Fatalf("login ended (%d) before the user came: %s%s", code, out.String(), errOut.String())
		case <-time.After(10 * time.Millisecond):
		}
		for _, f := range strings.Fields(out.String()) {
			if strings.Contains(f, "/oauth?") {
				addr = f
			}
		}
	}
	b.open(addr)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "could not open a browser") {
		t.Errorf("output:\n%s", out.String())
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v %v", st, err)
	}
}

func TestLogoutRevokesAndDeletes(t *testing.T) {
	fake, _, home := loginEnv(t)
	file := filepath.Join(home, "tok")
	if code, out, errOut := runLogin(t, "login", "--lichess-url", fake.URL, "--token-file", file); code != 0 {
		t.Fatalf("login: %d %s%s", code, out, errOut)
	}
	tok, err := lichess.ReadTokenFile(file)
	if err != nil || tok == "" {
		t.Fatalf("saved token: %q %v", tok, err)
	}
	code, out, errOut := runLogin(t, "logout", "--lichess-url", fake.URL, "--token-file", file)
	if code != 0 {
		t.Fatalf("logout: %d %s%s", code, out, errOut)
	}
	if fake.TokenValid(tok) {
		t.Error("token still valid after logout")
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("token file still there: %v", err)
	}
	if len(fake.RequestsTo(http.MethodDelete, "/api/token")) != 1 {
		t.Error("no DELETE /api/token")
	}
	// Logging out again: nothing saved is a usage error.
	if code, _, _ := runLogin(t, "logout", "--lichess-url", fake.URL, "--token-file", file); code != exitUsage {
		t.Errorf("second logout: exit %d", code)
	}
}

func TestLoginBadMode(t *testing.T) {
	loginEnv(t)
	if code, _, errOut := runLogin(t, "login", "--for", "play"); code != exitUsage || !strings.Contains(errOut, "bot or watch") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
