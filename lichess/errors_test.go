package lichess

import (
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// An AuthError says a missing scope and a rejected token in the user's
// language (i18n.ErrorText finds it as an i18n.Sayer); a refusal with
// Lichess's own message has no words of ours.
func TestAuthErrorSayIn(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  *AuthError
		want string // "" for no words of ours
	}{
		{"a missing scope", &AuthError{Op: "check token", Scope: "bot:play"},
			"lichess: check token: у токена нет разрешения \"bot:play\": выполните `threefold login --for bot`"},
		{"a rejected token", &AuthError{Op: "stream events", Status: 401}, "lichess: stream events: токен отклонён (HTTP 401)"},
		{"Lichess's own message", &AuthError{Op: "stream events", Status: 403, Message: "Missing scope"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s i18n.Sayer = tc.err
			got, ok := s.SayIn(i18n.For(i18n.Russian))
			if ok != (tc.want != "") || len(got) < len(tc.want) || got[:len(tc.want)] != tc.want {
				t.Errorf("SayIn = %q, %v; want it to start with %q", got, ok, tc.want)
			}
		})
	}
}
