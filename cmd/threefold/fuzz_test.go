package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/configkeys"
)

// quotedKey is how the config decoder names the key of a value it could
// not use, at the start of each of its lines: 'store.busy_timeout' ….
var quotedKey = regexp.MustCompile(`(?m)^\s*'([^']*)'`)

// isolateConfig keeps the user's files and environment out of loadConfig:
// no saved token, no THREEFOLD_* variable.
func isolateConfig(tb interface {
	Setenv(string, string)
	TempDir() string
}) {
	dir := tb.TempDir()
	tb.Setenv("XDG_CONFIG_HOME", dir)
	tb.Setenv("HOME", dir)
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "THREEFOLD_") {
			tb.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
}

// FuzzConfigFile writes the input as the config file and loads it: it
// never panics; a file it refuses is a usage error that names the file,
// and a value of the wrong type is named by its key, which is a key
// threefold knows.
func FuzzConfigFile(f *testing.F) {
	isolateConfig(f)
	example, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	for _, seed := range []string{
		"",
		"log:\n  level: debug\n",
		"store:\n  busy_timeout: abc\n",
		"lichess:\n  token: {a: 1}\n",
		"bot:\n  engine:\n    threads: many\n",
		"http:\n  addr: [1, 2]\n",
		"watch: 3\n",
		"a: b: c\n",
		"\xff\xfe\x00",
		"data_dir: ~\nstore: {dsn: 'postgres://u:pw@h/db'}\n",
		"&a [*a]\n",
		"x: &a\n  y: *a\n",
	} {
		f.Add([]byte(seed))
	}
	known := configkeys.Keys(reflect.TypeOf(defaultConfig()))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "threefold.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		env := &environment{configFile: path}
		_, err := env.loadConfig()
		if err == nil {
			return
		}
		var ue usageError
		if !errors.As(err, &ue) && !strings.Contains(err.Error(), "token saved by threefold login") {
			t.Fatalf("not a usage error: %v", err)
		}
		msg := err.Error()
		if strings.Contains(msg, "decoding failed") {
			m := quotedKey.FindAllStringSubmatch(msg, -1)
			if len(m) == 0 {
				t.Fatalf("a decoding error that names no key: %q", msg)
			}
			for _, k := range m {
				name := k[1]
				if i := strings.IndexByte(name, '['); i > 0 {
					name = name[:i] // an element of a list key: watch.webhooks[0]
				}
				if len(configkeys.Unknown([]string{name}, known)) > 0 {
					t.Errorf("the error names %q, not a key of the config: %q", k[1], msg)
				}
			}
		} else if !strings.Contains(msg, path) {
			t.Errorf("the error does not name the file: %q", msg)
		}
	})
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	isolateConfig(t)
	for _, tc := range []struct {
		name, yaml, key string
	}{
		{"duration", "store:\n  busy_timeout: soon\n", "store.busy_timeout"},
		{"string given a map", "lichess:\n  token: {a: 1}\n", "lichess.token"},
		{"string given a list", "http:\n  addr: [1, 2]\n", "http.addr"},
		{"int given a word", "bot:\n  engine:\n    threads: many\n", "bot.engine.threads"},
		{"unknown key", "bot:\n  engine:\n    thread: 2\n", "bot.engine.thread"},
		{"a section given a number", "watch: 3\n", "watch"},
		{"a chat language that is not one", "bot:\n  chat:\n    lang: 00\n", "config PATH: bot.chat.lang: unknown language \"0\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := (&environment{configFile: path}).loadConfig()
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), strings.ReplaceAll(tc.key, "PATH", path)) {
				t.Errorf("error %v: want a usage error naming %s", err, tc.key)
			}
		})
	}
}

// A chat language that is not one, set in the environment, is said to
// come from there.
func TestChatLanguageFromTheEnvironmentIsNamed(t *testing.T) {
	isolateConfig(t)
	t.Setenv("THREEFOLD_BOT_CHAT_LANG", "klingon")
	_, err := (&environment{}).loadConfig()
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `THREEFOLD_BOT_CHAT_LANG: unknown language "klingon"`) {
		t.Errorf("error %v: want a usage error naming THREEFOLD_BOT_CHAT_LANG", err)
	}
}
