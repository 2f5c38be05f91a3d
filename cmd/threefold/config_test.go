package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/viper"
)

// TestConfigExampleDocumentsEveryKey keeps config.example.yaml true to the
// code: it loads without error, it has every key the code knows, and each
// value it shows is the default.
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
	defaults := flattenConfig(reflect.ValueOf(def), "")
	loaded := flattenConfig(reflect.ValueOf(*cfg), "")
	for _, k := range configKeys(reflect.TypeOf(def), "") {
		if !inFile[k] {
			t.Errorf("config.example.yaml does not document %s", k)
			continue
		}
		if k == "data_dir" {
			continue // its default depends on the machine; the example shows ""
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
	if cfg.Lichess.URL != "http://127.0.0.1:9999/prefix" || cfg.Lichess.Token != "lip_fromenv" {
		t.Fatalf("environment not applied: %+v", cfg.Lichess)
	}
	if cfg.ChessCom.PollInterval != time.Minute {
		t.Fatalf("file not applied: %v", cfg.ChessCom.PollInterval)
	}
}
