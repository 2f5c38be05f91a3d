package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// TestMain runs the tests in a locale threefold does not speak, so what
// they expect in English does not depend on the developer's LANG; tests
// of the language setting set the locale they need.
func TestMain(m *testing.M) {
	os.Unsetenv("LC_ALL")
	os.Unsetenv("LC_MESSAGES")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}

// TestLangSetting: --lang, then the lang key (THREEFOLD_LANG over the
// file), then LC_ALL/LC_MESSAGES/LANG, then English; a bad value is a
// usage error naming where it came from.
func TestLangSetting(t *testing.T) {
	for _, tc := range []struct {
		name, flag, yaml string
		env              map[string]string
		want             i18n.Lang
		err              string
	}{
		{name: "nothing set", want: i18n.English},
		{name: "LANG", env: map[string]string{"LANG": "ru_RU.UTF-8"}, want: i18n.Russian},
		{name: "LC_ALL over LANG", env: map[string]string{"LANG": "ru_RU.UTF-8", "LC_ALL": "tr_TR.UTF-8"}, want: i18n.Turkish},
		{name: "the file over the locale", yaml: "lang: fa\n", env: map[string]string{"LANG": "ru_RU.UTF-8"}, want: i18n.Persian},
		{name: "THREEFOLD_LANG over the file", yaml: "lang: fa\n", env: map[string]string{"THREEFOLD_LANG": "tr"}, want: i18n.Turkish},
		{name: "--lang over everything", flag: "ru", yaml: "lang: fa\n", env: map[string]string{"THREEFOLD_LANG": "tr", "LC_ALL": "tr_TR"}, want: i18n.Russian},
		{name: "an unspoken locale is English", env: map[string]string{"LANG": "de_DE.UTF-8"}, want: i18n.English},
		{name: "a bad --lang", flag: "de", err: `--lang: unknown language "de" (want en, ru, tr or fa)`},
		{name: "a bad THREEFOLD_LANG", env: map[string]string{"THREEFOLD_LANG": "klingon"}, err: `THREEFOLD_LANG: unknown language "klingon"`},
		{name: "a bad lang in the file", yaml: "lang: german\n", err: `: lang: unknown language "german"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
				t.Setenv(k, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := (&environment{configFile: path, lang: tc.flag}).loadConfig()
			if tc.err != "" {
				var ue usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want a usage error saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.lang != tc.want {
				t.Errorf("language %q, want %q", cfg.lang, tc.want)
			}
		})
	}
}
