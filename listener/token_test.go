package listener

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess"
)

// scopes answers CheckScopes with err, and counts the calls.
type scopes struct {
	err   error
	calls int
}

func (s *scopes) CheckScopes(_ context.Context, required ...string) (*lichess.Account, error) {
	s.calls++
	if len(required) != 1 || required[0] != lichess.ScopeStudyRead {
		return nil, errors.New("asked for " + strings.Join(required, ", "))
	}
	return &lichess.Account{}, s.err
}

func TestCheckBroadcastToken(t *testing.T) {
	round := Target{Kind: TargetLichessRound, ID: "4Yuk2i2H"}
	tour := Target{Kind: TargetLichessTour, ID: "abcd1234"}
	game := Target{Kind: TargetLichessGame, ID: "abcdefgh"}
	missing := &lichess.AuthError{Op: "check token", Scope: lichess.ScopeStudyRead}
	unknown := &lichess.AuthError{Op: "check token", Message: "the token is invalid, expired or revoked"}
	for _, tc := range []struct {
		name      string
		targets   []Target
		haveToken bool
		answer    error
		calls     int
		err       string // "" for none
		warn      string // "" for no log line
		stopping  bool   // the context is cancelled, as when the run ends during the check
	}{
		{"no broadcast: nothing checked", []Target{game}, true, missing, 0, "", "", false},
		{"a broadcast, no token: a warning", []Target{game, round}, false, nil, 0, "", "without a token", false},
		{"a tournament, the scope held", []Target{tour}, true, nil, 1, "", "", false},
		{"the scope missing", []Target{round}, true, missing, 1, missing.Error(), "", false},
		{"a token Lichess does not know", []Target{round}, true, unknown, 1,
			unknown.Error() + "; run `threefold login --for watch` for a token with study:read", "", false},
		{"no network: left to the streams", []Target{round}, true, errors.New("dial tcp: no route"), 1, "", "cannot check the Lichess token's scopes now", false},
		{"stopping: nothing to warn of", []Target{round}, true, fmt.Errorf("lichess: test token: %w", context.DeadlineExceeded), 1, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			c := &scopes{err: tc.answer}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.stopping {
				cancel()
			}
			err := CheckBroadcastToken(ctx, c, tc.haveToken, tc.targets, slog.New(slog.NewTextHandler(&logs, nil)))
			if got := errText(err); got != tc.err {
				t.Errorf("error %q, want %q", got, tc.err)
			}
			if tc.answer != nil && tc.err != "" && !errors.Is(err, tc.answer) {
				t.Errorf("error %v does not wrap %v", err, tc.answer)
			}
			if c.calls != tc.calls {
				t.Errorf("%d checks, want %d", c.calls, tc.calls)
			}
			if (tc.warn == "") != (logs.Len() == 0) || !strings.Contains(logs.String(), tc.warn) {
				t.Errorf("log %q, want %q", logs.String(), tc.warn)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
