package lichess_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess"
)

// configDir points the user config directory at a fresh directory and
// returns threefold's directory in it.
func configDir(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the user config directory is set through XDG_CONFIG_HOME on Linux only")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	return filepath.Join(home, "config", "threefold")
}

func TestRoleScopes(t *testing.T) {
	tests := []struct {
		name, role string
		want       []string
		ok         bool
	}{
		{"bot", lichess.RoleBot, []string{lichess.ScopeBotPlay, lichess.ScopeChallengeRead}, true},
		{"watch", lichess.RoleWatch, []string{lichess.ScopeStudyRead}, true},
		{"unknown", "play", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := lichess.RoleScopes(tc.role)
			if ok != tc.ok || !slices.Equal(got, tc.want) {
				t.Errorf("RoleScopes(%q) = %q, %v; want %q, %v", tc.role, got, ok, tc.want, tc.ok)
			}
			for _, s := range got {
				if lichess.ScopeRole(s) != tc.role && s != lichess.ScopeChallengeRead {
					t.Errorf("ScopeRole(%q) = %q, want %q", s, lichess.ScopeRole(s), tc.role)
				}
			}
			if ok {
				got[0] = "changed"
				if again, _ := lichess.RoleScopes(tc.role); again[0] == "changed" {
					t.Error("RoleScopes returns the table itself")
				}
			}
		})
	}
}

func TestTokenFile(t *testing.T) {
	dir := configDir(t)
	for role, want := range map[string]string{lichess.RoleBot: "token-bot", lichess.RoleWatch: "token-watch", "": "token"} {
		got, err := lichess.TokenFile(role)
		if err != nil || got != filepath.Join(dir, want) {
			t.Errorf("TokenFile(%q) = %q, %v; want %q", role, got, err, filepath.Join(dir, want))
		}
	}
}

// A saved token is private to its user, replaces the earlier one, and
// reads back without its newline; no file is no token.
func TestSaveAndReadTokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "dir", "tok")
	if tok, err := lichess.ReadTokenFile(path); tok != "" || err != nil {
		t.Fatalf("no file: %q, %v", tok, err)
	}
	for _, tok := range []string{"lip_first", "lip_second"} {
		if err := lichess.SaveTokenFile(path, tok); err != nil {
			t.Fatal(err)
		}
		if got, err := lichess.ReadTokenFile(path); got != tok || err != nil {
			t.Fatalf("read back %q, %v; want %q", got, err, tok)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v %v", st, err)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("token directory: %v %v", st, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".token-*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
	if _, err := lichess.ReadTokenFile(t.TempDir()); err == nil {
		t.Error("no error reading a directory")
	}
}

// Each role reads its own token, and the single file of older versions
// when it has none.
func TestSavedToken(t *testing.T) {
	dir := configDir(t)
	write := func(name, tok string) {
		t.Helper()
		if err := lichess.SaveTokenFile(filepath.Join(dir, name), tok); err != nil {
			t.Fatal(err)
		}
	}
	get := func(role string) string {
		t.Helper()
		tok, err := lichess.SavedToken(role)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	steps := []struct {
		name, file, token string
		bot, watch        string
	}{
		{"nothing saved", "", "", "", ""},
		{"older versions' file", "token", "lip_legacy", "lip_legacy", "lip_legacy"},
		{"the bot's own", "token-bot", "lip_bot", "lip_bot", "lip_legacy"},
		{"the watcher's own", "token-watch", "lip_watch", "lip_bot", "lip_watch"},
	}
	for _, s := range steps {
		if s.file != "" {
			write(s.file, s.token)
		}
		if b, w := get(lichess.RoleBot), get(lichess.RoleWatch); b != s.bot || w != s.watch {
			t.Errorf("%s: bot %q watch %q; want %q %q", s.name, b, w, s.bot, s.watch)
		}
	}
}

// A command uses its role's saved token; Options.TokenFile
// (lichess.token_file) wins over it, and Options.Token (lichess.token)
// over both.
func TestTokenFor(t *testing.T) {
	dir := configDir(t)
	for name, tok := range map[string]string{"token-bot": "lip_bot", "token-watch": "lip_watch"} {
		if err := lichess.SaveTokenFile(filepath.Join(dir, name), tok); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(t.TempDir(), "lichess_token")
	if err := os.WriteFile(secret, []byte("  lip_secret\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, token, file, role, want, err string
	}{
		{name: "the bot's saved token", role: lichess.RoleBot, want: "lip_bot"},
		{name: "the watcher's saved token", role: lichess.RoleWatch, want: "lip_watch"},
		{name: "lichess.token wins for the bot", token: "lip_config", role: lichess.RoleBot, want: "lip_config"},
		{name: "lichess.token wins for the watcher", token: "lip_config", role: lichess.RoleWatch, want: "lip_config"},
		{name: "lichess.token_file wins over the saved token", file: secret, role: lichess.RoleBot, want: "lip_secret"},
		{name: "lichess.token wins over lichess.token_file", token: "lip_config", file: secret, role: lichess.RoleWatch, want: "lip_config"},
		{name: "a token file that is not there", file: secret + ".missing", role: lichess.RoleBot, err: "lichess.token_file: open " + secret + ".missing"},
		{name: "an empty token file", file: empty, role: lichess.RoleBot, err: "lichess.token_file " + empty + ": empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lichess.Options{Token: tc.token, TokenFile: tc.file}.TokenFor(tc.role)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("TokenFor(%s) = %q, %v; want an error containing %q", tc.role, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("TokenFor(%s) = %q, %v; want %q", tc.role, got, err, tc.want)
			}
		})
	}
	t.Run("a saved token that cannot be read", func(t *testing.T) {
		bot := filepath.Join(dir, "token-bot")
		if err := os.Remove(bot); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(bot, 0o700); err != nil { // a directory: not readable as a token
			t.Fatal(err)
		}
		_, err := lichess.Options{}.TokenFor(lichess.RoleBot)
		if err == nil || !strings.Contains(err.Error(), "the token saved by threefold login: ") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestOpenInBrowserWithoutADisplay(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("a desktop is always there")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if err := lichess.OpenInBrowser("https://lichess.org/oauth"); err == nil {
		t.Error("no error without a display")
	}
}

// LoginToFile saves a token that works with the scopes asked for, private
// to its user, and returns its account.
func TestLoginToFile(t *testing.T) {
	e := newEnv(t, envOpts{})
	br := newBrowser()
	defer br.close()
	path := filepath.Join(t.TempDir(), "threefold", "token-watch")
	acct, err := lichess.LoginToFile(e.ctx, lichess.LoginOptions{BaseURL: e.fake.URL, Scopes: []string{lichess.ScopeStudyRead}, OpenBrowser: br.open}, path)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := lichess.ReadTokenFile(path)
	if err != nil || !e.fake.TokenValid(tok) || !slices.Equal(e.fake.TokenScopes(tok), []string{lichess.ScopeStudyRead}) {
		t.Fatalf("saved token valid %v with %v (%v)", e.fake.TokenValid(tok), e.fake.TokenScopes(tok), err)
	}
	if acct == nil || acct.Username == "" {
		t.Errorf("account %+v", acct)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v %v", st, err)
	}
}

// RevokeTokenFile: a token Lichess knows is revoked and its file deleted;
// one it no longer knows is deleted too; without a token there is nothing
// to do; one Lichess could not be asked about is kept.
func TestRevokeTokenFile(t *testing.T) {
	e := newEnv(t, envOpts{})
	dir := t.TempDir()
	save := func(name, tok string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := lichess.SaveTokenFile(p, tok); err != nil {
			t.Fatal(err)
		}
		return p
	}
	e.fake.AddToken("lip_known", "alice", lichess.ScopeStudyRead)
	tests := []struct {
		name      string
		path      string
		base      string
		wantKnown bool
		wantErr   error  // errors.Is
		errHas    string // or an error with this
		kept      bool   // the file is still there
	}{
		{name: "known", path: save("known", "lip_known"), base: e.fake.URL, wantKnown: true},
		{name: "no longer known", path: save("unknown", "lip_unknown"), base: e.fake.URL},
		{name: "no file", path: filepath.Join(dir, "none"), base: e.fake.URL, wantErr: lichess.ErrNoSavedToken},
		{name: "Lichess unreachable", path: save("kept", "lip_kept"), base: "http://127.0.0.1:1", errHas: "the token was kept in", kept: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			known, err := lichess.RevokeTokenFile(e.ctx, lichess.Options{BaseURL: tc.base, MaxRetries: -1}, tc.path)
			switch {
			case tc.wantErr != nil || tc.errHas != "":
				if tc.wantErr != nil && !errors.Is(err, tc.wantErr) || tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
					t.Fatalf("err = %v, want %v / %q", err, tc.wantErr, tc.errHas)
				}
			case err != nil || known != tc.wantKnown:
				t.Fatalf("RevokeTokenFile = %v, %v; want known %v", known, err, tc.wantKnown)
			}
			if _, err := os.Stat(tc.path); (err == nil) != tc.kept {
				t.Errorf("file kept: %v, want %v", err == nil, tc.kept)
			}
		})
	}
	if e.fake.TokenValid("lip_known") {
		t.Error("the known token is still valid")
	}
}
