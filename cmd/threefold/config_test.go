package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/viper"
	"github.com/threefold-chess/threefold/internal/configkeys"
	"github.com/threefold-chess/threefold/notify"
)

// TestConfigExampleDocumentsEveryKey keeps config.example.yaml true to the
// code: it loads without error, it has every key the code knows, and each
// value it shows is the default (data_dir's "" too: the file copied as it
// is keeps the store where it goes without one).
func TestConfigExampleDocumentsEveryKey(t *testing.T) {
	env := &environment{configFile: "../../config.example.yaml"}
	t.Setenv("HOME", t.TempDir())
	cfg, err := env.loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	v := viper.New()
	v.SetConfigFile(env.configFile)
	if err := v.ReadInConfig(); err != nil {
		t.Fatal(err)
	}
	inFile := map[string]bool{}
	for _, k := range v.AllKeys() {
		inFile[k] = true
	}
	def := defaultConfig()
	defaults := configkeys.Values(reflect.ValueOf(def))
	loaded := configkeys.Values(reflect.ValueOf(*cfg))
	for _, k := range configkeys.Keys(reflect.TypeOf(def)) {
		if !inFile[k] {
			t.Errorf("config.example.yaml does not document %s", k)
			continue
		}
		if !reflect.DeepEqual(loaded[k], defaults[k]) && !(isEmpty(loaded[k]) && isEmpty(defaults[k])) {
			t.Errorf("config.example.yaml shows %s = %v, the default is %v", k, loaded[k], defaults[k])
		}
	}
}

func isEmpty(v any) bool {
	rv := reflect.ValueOf(v)
	return !rv.IsValid() || rv.IsZero() || (rv.Kind() == reflect.Slice && rv.Len() == 0)
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"unknown key is named", "lichess:\n  tokne: abc\n", "unknown key(s): lichess.tokne"},
		{"unknown section is named", "lichesss:\n  url: x\n", "lichesss.url"},
		{"malformed YAML", "lichess: [\n", "config"},
		{"bad duration", "chesscom:\n  poll_interval: often\n", "poll_interval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			env := &environment{configFile: path}
			_, err := env.loadConfig()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			var stderr bytes.Buffer
			env.stderr = &stderr
			if code := env.exitCode(err); code != exitUsage {
				t.Fatalf("exit code %d, want %d", code, exitUsage)
			}
		})
	}
}

func TestConfigEnvironmentOverridesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "threefold.yaml")
	os.WriteFile(path, []byte("lichess:\n  url: https://file.example\nchesscom:\n  poll_interval: 1m\n"), 0o600)
	t.Setenv("THREEFOLD_LICHESS_URL", "http://127.0.0.1:9999/prefix")
	t.Setenv("THREEFOLD_LICHESS_TOKEN", "lip_fromenv")
	env := &environment{configFile: path}
	cfg, err := env.loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Lichess.BaseURL != "http://127.0.0.1:9999/prefix" || cfg.Lichess.Token != "lip_fromenv" {
		t.Fatalf("environment not applied: %+v", cfg.Lichess)
	}
	if cfg.ChessCom.PollInterval != time.Minute {
		t.Fatalf("file not applied: %v", cfg.ChessCom.PollInterval)
	}
}

// TestConfigWebhooks: an entry of watch.webhooks is checked key by key
// like the rest of the file, and the list can be given in the environment
// as JSON; every error names the key or the variable (never the URL, a
// secret).
func TestConfigWebhooks(t *testing.T) {
	isolateConfig(t)
	for _, tc := range []struct {
		name, yaml, env string
		want            string // in the error; "" for none
		hooks           []notify.WebhookSpec
	}{
		{name: "in the file", yaml: "watch:\n  webhooks:\n    - kind: json\n      url: https://hooks.example/SECRET\n",
			hooks: []notify.WebhookSpec{{Kind: "json", URL: "https://hooks.example/SECRET"}}},
		{name: "an unknown key in an entry", yaml: "watch:\n  webhooks:\n    - kind: json\n      url: https://hooks.example/SECRET\n      extra: 1\n",
			want: "watch.webhooks[0]: unknown key extra (an entry has kind, url, url_env)"},
		{name: "a misspelt url", yaml: "watch:\n  webhooks:\n    - kind: slack\n    - kind: json\n      urll: https://hooks.example/SECRET\n",
			want: "watch.webhooks[1]: unknown key urll"},
		{name: "an entry that is no map", yaml: "watch:\n  webhooks:\n    - https://hooks.example/SECRET\n",
			want: "watch.webhooks[0]: want a map with kind and url or url_env"},
		{name: "from the environment", env: `[{"kind":"discord","url_env":"MY_HOOK"},{"kind":"json","url":"https://hooks.example/SECRET"}]`,
			hooks: []notify.WebhookSpec{{Kind: "discord", URLEnv: "MY_HOOK"}, {Kind: "json", URL: "https://hooks.example/SECRET"}}},
		{name: "the environment over the file", yaml: "watch:\n  webhooks:\n    - kind: slack\n      url: https://file.example/SECRET\n",
			env: `[{"kind":"json","url_env":"MY_HOOK"}]`, hooks: []notify.WebhookSpec{{Kind: "json", URLEnv: "MY_HOOK"}}},
		{name: "not JSON in the environment", env: "https://hooks.example/SECRET",
			want: "THREEFOLD_WATCH_WEBHOOKS: want a JSON list"},
		{name: "an unknown key in the environment", env: `[{"kind":"json","urll":"https://hooks.example/SECRET"}]`,
			want: "THREEFOLD_WATCH_WEBHOOKS[0]: unknown key urll"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.env != "" {
				t.Setenv("THREEFOLD_WATCH_WEBHOOKS", tc.env)
			}
			cfg, err := (&environment{configFile: path}).loadConfig()
			if tc.want != "" {
				var ue usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want a usage error saying %q", err, tc.want)
				}
				if strings.Contains(err.Error(), "SECRET") {
					t.Errorf("the error shows the URL: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cfg.Watch.Webhooks, tc.hooks) {
				t.Errorf("webhooks %+v, want %+v", cfg.Watch.Webhooks, tc.hooks)
			}
		})
	}
}

// TestDashboardLimitsFromConfig: the dashboard keeps what pgn.max_plies
// and watch.finished_grace allow whichever command serves it (bot's
// dashboard used the hub's own defaults).
func TestDashboardLimitsFromConfig(t *testing.T) {
	isolateConfig(t)
	path := filepath.Join(t.TempDir(), "threefold.yaml")
	if err := os.WriteFile(path, []byte("pgn:\n  max_plies: 600\nwatch:\n  finished_grace: 3m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := (&environment{configFile: path}).loadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if g := cfg.hubOptions(); g.MaxPlies != 600 || g.FinishedGrace != 3*time.Minute {
		t.Errorf("dashboard limits %+v, want 600 plies and 3m", g)
	}
}

// TestConfigValueErrorSaysWhere: a value of the wrong type is reported
// with the place it was set (the file or the environment variable), the
// value and what it should be, on one line; mapstructure's own message
// said none of that.
func TestConfigValueErrorSaysWhere(t *testing.T) {
	tests := []struct {
		name, yaml string
		env        map[string]string
		want       []string // {file} stands for the config file's path
	}{
		{name: "a word for a number in the file", yaml: "pgn:\n  max_line_bytes: lots\n",
			want: []string{`config {file}: pgn.max_line_bytes: "lots" is not a whole number`}},
		{name: "a list for a number in the file", yaml: "pgn:\n  max_plies: [1, 2]\n",
			want: []string{"config {file}: pgn.max_plies: want a whole number, not a list"}},
		{name: "a bad duration in the file", yaml: "chesscom:\n  poll_interval: often\n",
			want: []string{`config {file}: chesscom.poll_interval: "often": `, "invalid duration"}},
		{name: "a word for a number in the environment", yaml: "pgn:\n  max_plies: 100\n",
			env:  map[string]string{"THREEFOLD_PGN_MAX_PLIES": "many"},
			want: []string{`THREEFOLD_PGN_MAX_PLIES: "many" is not a whole number`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			env := &environment{configFile: path}
			_, err := env.loadConfig()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "{file}", path); !strings.Contains(err.Error(), w) {
					t.Errorf("error %q, want it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line", err)
			}
			if code := (&environment{stderr: io.Discard}).exitCode(err); code != exitUsage {
				t.Errorf("exit code %d, want %d", code, exitUsage)
			}
		})
	}
}
