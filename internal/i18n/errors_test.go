package i18n

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

// quiet is a Sayer with words in no language.
type quiet struct{}

func (quiet) Error() string                 { return "quiet failure" }
func (quiet) SayIn(*Printer) (string, bool) { return "", false }

func TestErrorText(t *testing.T) {
	confirm := NewError(ErrNotConfirmed)
	missing := &fs.PathError{Op: "open", Path: "x.yaml", Err: fs.ErrNotExist}
	for _, tc := range []struct {
		name string
		lang Lang
		err  error
		want string
	}{
		{"English as it is", English, fmt.Errorf("login: save the token: %w", confirm), "login: save the token: " + confirm.Error()},
		{"no language is English", "", confirm, confirm.Error()},
		{"an Error in Russian", Russian, confirm, "bot upgrade: не подтверждено; ничего не изменено (--yes пропускает вопрос)"},
		{"its context said too", Russian, fmt.Errorf("save the token: %w", confirm), "сохранение токена: bot upgrade: не подтверждено; ничего не изменено (--yes пропускает вопрос)"},
		{"a command name kept", Russian, fmt.Errorf("login: save the token: %w", missing), "login: сохранение токена: x.yaml: нет такого файла"},
		{"found among joined errors", Russian, fmt.Errorf("bot: %w", errors.Join(errors.New("first"), confirm)),
			"bot: first\nbot upgrade: не подтверждено; ничего не изменено (--yes пропускает вопрос)"},
		{"a Sayer without words is said as it is", Russian, fmt.Errorf("bot: %w", quiet{}), "bot: quiet failure"},
		{"a file that exists but cannot be read, as it is", Russian, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}, "open x: permission denied"},
		{"another error as it is", Turkish, errors.New("lichess: HTTP 500"), "lichess: HTTP 500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorText(tc.lang, tc.err); got != tc.want {
				t.Errorf("ErrorText = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewError(t *testing.T) {
	err := NewError(ErrNoSuchFile, "round5.pgn")
	if err.Error() != "round5.pgn: no such file" {
		t.Errorf("Error = %q", err.Error())
	}
	var s Sayer
	if !errors.As(fmt.Errorf("scan: %w", err), &s) {
		t.Fatal("an Error wrapped is not found as a Sayer")
	}
	if got, ok := s.SayIn(For(Russian)); !ok || got != "round5.pgn: нет такого файла" {
		t.Errorf("SayIn = %q, %v", got, ok)
	}
}
