package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/configkeys"
)

// TestEveryNumericKeyHasARange: a new numeric or duration key must say
// its sane range in a range tag, and every default lies within it.
func TestEveryNumericKeyHasARange(t *testing.T) {
	def := defaultConfig()
	ranges, err := configkeys.Ranges(reflect.TypeOf(def))
	if err != nil {
		t.Fatal(err)
	}
	configkeys.Leaves(reflect.ValueOf(def), "", func(key string, v reflect.Value) {
		if _, ok := ranges[key]; configkeys.IsNumeric(v.Type()) && !ok {
			t.Errorf("%s has no range tag", key)
		}
	})
	if err := configkeys.CheckRanges(reflect.ValueOf(def)); err != nil {
		t.Errorf("a default is out of its range: %v", err)
	}
}

// TestConfigRanges: a value out of its range is a usage error at start
// that names the key and the range (watch.queue_size 10^12 panicked, 10^8
// ran out of memory).
func TestConfigRanges(t *testing.T) {
	isolateConfig(t)
	for _, tc := range []struct {
		name, yaml, env, want string
	}{
		{"huge queue", "watch:\n  queue_size: 1000000000000\n", "", "watch.queue_size = 1000000000000 is out of range: it must be between 1 and 1000000\n"},
		{"zero queue", "watch:\n  queue_size: 0\n", "", "watch.queue_size = 0"},
		{"negative duration", "chesscom:\n  poll_interval: -5m\n", "", "chesscom.poll_interval = -5m0s is out of range"},
		{"tiny poll", "watch:\n  file_poll_interval: 1ns\n", "", "watch.file_poll_interval = 1ns"},
		{"pgn limit", "pgn:\n  max_plies: 0\n", "", "pgn.max_plies = 0"},
		{"from the environment", "", "THREEFOLD_STORE_BUSY_TIMEOUT=100h", "store.busy_timeout = 100h0m0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			if k, v, ok := strings.Cut(tc.env, "="); ok {
				t.Setenv(k, v)
			}
			_, err := (&environment{configFile: path}).loadConfig()
			var ue usageError
			// A want ending in "\n" must end the message: a range's upper
			// bound is checked whole, not as a prefix of a larger one.
			if !errors.As(err, &ue) || !strings.Contains(err.Error()+"\n", tc.want) {
				t.Fatalf("error %v, want a usage error containing %q", err, tc.want)
			}
		})
	}
}

// TestLogKeys: log.level and log.format are checked at start like the
// numeric keys (an unknown value used to fall back to text at info level
// in silence), and watch and bot read them the same way ("JSON" gave JSON
// logs in watch but text in bot).
func TestLogKeys(t *testing.T) {
	isolateConfig(t)
	for _, tc := range []struct {
		name, yaml, wantErr string
		wantJSON            bool
	}{
		{"defaults", "", "", false},
		{"json", "log:\n  format: json\n", "", true},
		{"JSON in capitals", "log:\n  format: JSON\n", "", true},
		{"unknown format", "log:\n  format: xml\n", `log.format = "xml": it must be text or json`, false},
		{"unknown level", "log:\n  level: loud\n", `log.level = "loud": it must be debug, info, warn or error`, false},
		{"level in capitals", "log:\n  level: DEBUG\n", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := (&environment{configFile: path}).loadConfig()
			if tc.wantErr != "" {
				var ue usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want a usage error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			cfg.Log.Logger(&out).Info("hello")
			if got := strings.HasPrefix(out.String(), "{"); got != tc.wantJSON {
				t.Errorf("log line %q: JSON %v, want %v", out.String(), got, tc.wantJSON)
			}
		})
	}
}
