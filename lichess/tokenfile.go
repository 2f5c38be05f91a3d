package lichess

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Roles a saved token is for: each keeps its own token, with the scopes it
// needs and no other (a watcher's token cannot play; a bot's cannot read
// studies).
const (
	RoleBot   = "bot"
	RoleWatch = "watch"
)

// roleScopes: bot:play for the bot's games and challenges, challenge:read
// for the list of pending challenges it reconciles after a reconnect;
// study:read for every broadcast endpoint.
var roleScopes = map[string][]string{
	RoleBot:   {ScopeBotPlay, ScopeChallengeRead},
	RoleWatch: {ScopeStudyRead},
}

// RoleScopes returns the scopes a token of role is asked for, and false
// for a role that is neither RoleBot nor RoleWatch.
func RoleScopes(role string) ([]string, bool) {
	s, ok := roleScopes[role]
	return slices.Clone(s), ok
}

// TokenFile is where the token of role is saved: <user config
// dir>/threefold/token-ROLE; role "" is the single file older versions
// wrote, <user config dir>/threefold/token.
func TokenFile(role string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no user config directory (use --token-file): %w", err)
	}
	name := "token"
	if role != "" {
		name += "-" + role
	}
	return filepath.Join(dir, "threefold", name), nil
}

// SavedToken returns the token saved for role (TokenFile(role)); else the
// one in the single file of older versions; else "". Without a user config
// directory there is no saved token.
func SavedToken(role string) (string, error) {
	for _, r := range []string{role, ""} {
		file, err := TokenFile(r)
		if err != nil {
			return "", nil
		}
		tok, err := ReadTokenFile(file)
		if err != nil || tok != "" {
			return tok, err
		}
	}
	return "", nil
}

// ReadTokenFile returns the token saved in path, or "" and no error if
// there is no such file.
func ReadTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// SaveTokenFile writes token to path with mode 0600 (its directory 0700),
// replacing any earlier file atomically.
func SaveTokenFile(path, token string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// OpenInBrowser asks the desktop to open u (LoginOptions.OpenBrowser), and
// fails when there is no desktop (no DISPLAY or WAYLAND_DISPLAY on Linux
// and the BSDs).
func OpenInBrowser(u string) error {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no graphical display")
		}
		name = "xdg-open"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, name, append(args, u)...).Run()
}
