package main

import (
	"bytes"
	"context"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/viper"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// The secrets of the redaction tests: each is distinctive, so that a
// match in captured output can only be a leak.
const (
	secretToken   = "lip_TokSecret7Q2x"  // a Lichess token
	secretHook    = "HookSecret9Z4w"     // the secret path of a webhook URL
	secretDSNPass = "DsnPassSecret5K8v"  // a PostgreSQL password (URL form)
	secretKVPass  = "KvPassSecret3M6u"   // a PostgreSQL password (key=value form)
	secretHTTPTok = "HttpTokSecret1B9n"  // the dashboard token
	secretBadTok  = "lip_UnknownSecret4" // a token Lichess refuses
)

var allSecrets = []string{secretToken, secretHook, secretDSNPass, secretKVPass, secretHTTPTok, secretBadTok}

// capture collects everything a run writes: its stdout and stderr, and
// whatever reaches the default slog logger or the standard log package.
type capture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Write(p)
}

func (c *capture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// captureGlobalLogs sends slog.Default and package log to c for the test.
func captureGlobalLogs(t *testing.T, c *capture) {
	oldSlog, oldFlags, oldOut := slog.Default(), log.Flags(), log.Writer()
	slog.SetDefault(slog.New(slog.NewTextHandler(c, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log.SetOutput(c)
	t.Cleanup(func() {
		slog.SetDefault(oldSlog)
		log.SetOutput(oldOut)
		log.SetFlags(oldFlags)
	})
}

// runCaptured runs Main with args and returns its exit code and all it
// wrote (stdout, stderr, global logs).
func runCaptured(t *testing.T, timeout time.Duration, args ...string) (int, string, string) {
	t.Helper()
	var out, errb capture
	global := &capture{}
	captureGlobalLogs(t, global)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	code := Main(ctx, args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String() + global.String()
}

func assertNoSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range allSecrets {
		if strings.Contains(text, s) {
			i := strings.Index(text, s)
			lo, hi := max(0, i-120), min(len(text), i+len(s)+40)
			t.Errorf("%s shows the secret %q: …%s…", what, s, text[lo:hi])
		}
	}
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "threefold.yaml")
	if err := os.WriteFile(path, []byte("data_dir: "+filepath.Join(dir, "data")+"\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// failingHook is a webhook endpoint that cuts the connection on the first
// attempt of each alert (a network error, whose Go text holds the URL)
// and refuses the second with 403 (no more retries).
func failingHook(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var (
		n     atomic.Int32
		mu    sync.Mutex
		tries = map[string]int{} // by webhook
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		mu.Lock()
		tries[r.URL.Path]++
		first := tries[r.URL.Path]%2 == 1
		mu.Unlock()
		if first {
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
		}
		http.Error(w, "forbidden: "+r.URL.Path, http.StatusForbidden) // a body that echoes the URL
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestSecretsNeverShown runs the commands that handle secrets, in process,
// with every secret in play and every failure that could print one, at
// debug level, in text and JSON logs, and greps everything they wrote.
func TestSecretsNeverShown(t *testing.T) {
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "")
	isolateConfig(t)

	t.Run("watch: token, failing webhook", func(t *testing.T) {
		for _, format := range []string{"text", "json"} {
			t.Run(format, func(t *testing.T) {
				fake := fakelichess.New(fakelichess.Options{})
				defer fake.Close()
				fake.AddToken(secretToken, fakelichess.WatchUser, "study:read")
				game := strings.Replace(watchGame, "[Result", "[GameURL \"https://lichess.org/broadcast/wch-u20/round-2/rnd00002/game0001\"]\n[Result", 1)
				b := fake.Broadcast("rnd00002")
				b.SetPGN(game)
				b.Finish()
				hook, hits := failingHook(t)
				cfg := writeConfig(t, "log:\n  level: debug\n  format: "+format+"\nlichess:\n  url: "+fake.URL+"\n  token: "+secretToken+
					"\nwatch:\n  webhooks:\n    - kind: json\n      url: "+hook.URL+"/hooks/"+secretHook+"\n    - kind: discord\n      url: "+hook.URL+"/api/webhooks/1/"+secretHook+"\n")
				code, out, logs := runCaptured(t, 2*time.Minute, "watch", "--config", cfg, fake.URL+"/broadcast/wch-u20/round-2/rnd00002")
				if code != 0 {
					t.Fatalf("exit %d:\n%s", code, logs)
				}
				// The failures did happen and were logged.
				if hits.Load() < 4 || !strings.Contains(logs, "webhook") || !strings.Contains(out, "claim") {
					t.Fatalf("the run did not go through the failures (%d webhook hits):\n%s\n%s", hits.Load(), out, logs)
				}
				if len(fake.Requests()) == 0 {
					t.Fatal("no request reached the fake Lichess")
				}
				assertNoSecret(t, "stdout", out)
				assertNoSecret(t, "the logs", logs)
			})
		}
	})

	t.Run("watch: refused token", func(t *testing.T) {
		fake := fakelichess.New(fakelichess.Options{})
		defer fake.Close()
		b := fake.Broadcast("rnd00003")
		b.SetPGN(watchGame)
		b.Finish()
		cfg := writeConfig(t, "log:\n  level: debug\nlichess:\n  url: "+fake.URL+"\n  token: "+secretBadTok+"\n")
		_, out, logs := runCaptured(t, time.Minute, "watch", "--config", cfg, fake.URL+"/broadcast/wch-u20/round-3/rnd00003")
		assertNoSecret(t, "stdout", out)
		assertNoSecret(t, "the logs", logs)
	})

	t.Run("bot: refused token", func(t *testing.T) {
		fake := fakelichess.New(fakelichess.Options{})
		defer fake.Close()
		cfg := writeConfig(t, "log:\n  level: debug\n  format: json\nlichess:\n  url: "+fake.URL+"\n  token: "+secretBadTok+"\n")
		code, out, logs := runCaptured(t, time.Minute, "--config", cfg, "bot")
		if code == 0 {
			t.Fatalf("the bot ran with a refused token:\n%s", logs)
		}
		assertNoSecret(t, "stdout", out)
		assertNoSecret(t, "the logs", logs)
	})

	dsns := map[string]string{
		"url":                        "postgres://threefold:" + secretDSNPass + "@127.0.0.1:1/threefold?sslmode=disable&connect_timeout=5",
		"key=value":                  "host=127.0.0.1 port=1 user=threefold password=" + secretKVPass + " dbname=threefold sslmode=disable connect_timeout=5",
		"url, password in the query": "postgres://threefold@127.0.0.1:1/threefold?sslmode=disable&password=" + secretKVPass,
	}
	for name, dsn := range dsns {
		for _, cmd := range [][]string{{"history"}, {"status"}, {"status", "--json"}, {"export", "--all"}, {"watch", "--once"}, {"bot"}} {
			t.Run("store unreachable, "+name+": "+strings.Join(cmd, " "), func(t *testing.T) {
				fake := fakelichess.New(fakelichess.Options{})
				defer fake.Close()
				cfg := writeConfig(t, "log:\n  level: debug\nlichess:\n  url: "+fake.URL+"\n  token: "+fakelichess.BotToken+
					"\nhttp:\n  token: "+secretHTTPTok+"\nstore:\n  dsn: '"+dsn+"'\n")
				args := append([]string{"--config", cfg}, cmd...)
				if cmd[0] == "watch" {
					args = append(args, writeWatchFile(t))
				}
				ctx := 30 * time.Second
				if cmd[0] == "bot" {
					ctx = 2 * time.Second // the bot runs until stopped if it does not open the store
				}
				code, out, logs := runCaptured(t, ctx, args...)
				if cmd[0] != "watch" && cmd[0] != "bot" && (code == 0 || !strings.Contains(logs, "xxxxx")) {
					t.Errorf("exit %d; want a failure that shows the redacted DSN:\n%s", code, logs)
				}
				assertNoSecret(t, "stdout", out)
				assertNoSecret(t, "the logs", logs)
			})
		}
	}
}

// TestWarnConfigPermissions: the function loadConfig calls after reading
// the file warns about a file with a secret that others may read, names
// the keys, never the values.
func TestWarnConfigPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes say nothing of who may read a file on Windows")
	}
	const token = "lip_PermSecret42"
	for _, tc := range []struct {
		name string
		yaml string
		mode os.FileMode
		want []string // in the warning; nil: no warning
	}{
		{"token, world-readable", "lichess:\n  token: " + token + "\n", 0o644, []string{"lichess.token", "its group and other users", "0644", "chmod 600"}},
		{"token, group-readable", "lichess:\n  token: " + token + "\n", 0o640, []string{"lichess.token", "its group may", "0640"}},
		{"token, others only", "lichess:\n  token: " + token + "\n", 0o604, []string{"other users may"}},
		{"token, private", "lichess:\n  token: " + token + "\n", 0o600, nil},
		{"token, owner read-only", "lichess:\n  token: " + token + "\n", 0o400, nil},
		{"empty token", "lichess:\n  token: \"\"\n", 0o644, nil},
		{"no secret", "log:\n  level: debug\n", 0o644, nil},
		{"dashboard token", "http:\n  token: " + token + "\n", 0o644, []string{"http.token"}},
		{"dsn with password", "store:\n  dsn: postgres://u:" + token + "@db/x\n", 0o644, []string{"store.dsn"}},
		{"dsn without password", "store:\n  dsn: postgres://u@db/x\n", 0o644, nil},
		{"webhook url", "watch:\n  webhooks:\n    - kind: discord\n      url: https://discord.com/api/webhooks/1/" + token + "\n", 0o644, []string{"watch.webhooks"}},
		{"webhook from the environment", "watch:\n  webhooks:\n    - kind: discord\n      url_env: HOOK\n", 0o644, nil},
		{"several", "lichess:\n  token: " + token + "\nhttp:\n  token: x\n", 0o660, []string{"lichess.token, http.token"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			v := viper.New()
			v.SetConfigFile(path)
			if err := v.ReadInConfig(); err != nil {
				t.Fatal(err)
			}
			var w bytes.Buffer
			warnConfigPermissions(i18n.For(i18n.English), &w, path, v)
			got := w.String()
			if tc.want == nil {
				if got != "" {
					t.Errorf("unexpected warning: %s", got)
				}
				return
			}
			if !strings.HasPrefix(got, "threefold: warning: config "+path) || strings.Count(got, "\n") != 1 {
				t.Errorf("warning %q", got)
			}
			for _, s := range tc.want {
				if !strings.Contains(got, s) {
					t.Errorf("warning %q lacks %q", got, s)
				}
			}
			if strings.Contains(got, token) {
				t.Errorf("the warning shows the secret: %s", got)
			}
		})
	}
	var w bytes.Buffer
	warnConfigPermissions(i18n.For(i18n.English), &w, filepath.Join(t.TempDir(), "missing.yaml"), viper.New())
	warnConfigPermissions(i18n.For(i18n.English), &w, "", viper.New())
	if w.Len() != 0 {
		t.Errorf("warning for no file: %s", w.String())
	}
}
