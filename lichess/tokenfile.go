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

// TokenFor returns the token a command of role uses: o.Token when set
// (lichess.token, THREEFOLD_LICHESS_TOKEN); else the one in o.TokenFile
// when set (lichess.token_file), which must exist and hold one; else the
// one `threefold login --for ROLE` saved; else the single token file of
// older versions; else "". A token no Lichess token can be (a space or a
// control character inside) is an error (ErrTokenMalformed) that says
// where, not what: a command stops at its start rather than retry.
func (o Options) TokenFor(role string) (string, error) {
	tok, err := o.tokenFor(role)
	if err == nil && tok != "" {
		err = checkToken(tok)
	}
	if err != nil {
		return "", err
	}
	return tok, nil
}

func (o Options) tokenFor(role string) (string, error) {
	if tok := strings.TrimSpace(o.Token); tok != "" {
		return tok, nil
	}
	if o.TokenFile != "" {
		b, err := os.ReadFile(o.TokenFile)
		if err != nil {
			return "", fmt.Errorf("lichess.token_file: %w", err)
		}
		tok := strings.TrimSpace(string(b))
		if tok == "" {
			return "", fmt.Errorf("lichess.token_file %s: empty", o.TokenFile)
		}
		return tok, nil
	}
	tok, err := SavedToken(role)
	if err != nil {
		return "", fmt.Errorf("the token saved by threefold login: %w", err)
	}
	return tok, nil
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

// LoginToFile runs Login, checks with Lichess that the new token works
// with the scopes asked for, and saves it in path (SaveTokenFile). It
// returns the token's account; the token itself never leaves the file.
func LoginToFile(ctx context.Context, opts LoginOptions, path string) (*Account, error) {
	tok, err := Login(ctx, opts)
	if err != nil {
		return nil, err
	}
	client := NewClient(Options{BaseURL: opts.BaseURL, Token: tok.AccessToken})
	defer client.Close()
	acct, err := client.CheckScopes(ctx, opts.Scopes...)
	if err != nil {
		return nil, fmt.Errorf("login: the new token does not work: %w", err)
	}
	if err := SaveTokenFile(path, tok.AccessToken); err != nil {
		return nil, fmt.Errorf("login: save the token: %w", err)
	}
	return acct, nil
}

// ErrNoSavedToken is the error of RevokeTokenFile for a file that holds no
// token.
var ErrNoSavedToken = errors.New("no saved token")

// RevokeTokenFile revokes at Lichess (opts.BaseURL) the token saved in path
// and deletes the file. A token Lichess no longer knows (revoked or
// expired) is deleted all the same, and known is false; a token Lichess
// could not be asked about is kept, and the error says so.
func RevokeTokenFile(ctx context.Context, opts Options, path string) (known bool, err error) {
	token, err := ReadTokenFile(path)
	if err != nil {
		return false, err
	}
	if token == "" {
		return false, fmt.Errorf("%w in %s", ErrNoSavedToken, path)
	}
	opts.Token = token
	client := NewClient(opts)
	defer client.Close()
	known = true
	var ae *AuthError
	switch err := client.Revoke(ctx); {
	case errors.As(err, &ae):
		known = false
	case err != nil:
		return false, fmt.Errorf("the token was kept in %s: %w", path, err)
	}
	return known, os.Remove(path)
}
