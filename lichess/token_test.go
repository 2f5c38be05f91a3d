package lichess_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// failingSource is a token source whose error quotes the token, as a
// careless library might.
type failingSource struct{ tok string }

func (f failingSource) Token() (*oauth2.Token, error) {
	return nil, fmt.Errorf("cannot refresh %s", f.tok)
}

// The token never shows in a log line or an error, whatever fails: a
// rejected token, a missing scope, server errors, a cut stream, a
// malformed line, a 429, a token source that quotes it.
func TestTokenNeverInLogsOrErrors(t *testing.T) {
	const secret = "lip_TopSecretTokenValue0123456789"
	e := newEnv(t, envOpts{})
	e.allScopes()
	e.fake.AddToken(secret, fakelichess.WatchUser, "study:read")
	c := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: secret, Account: "watcher", Logger: e.logger(),
		Backoff: lichess.Backoff{Initial: 1, Max: 2}})
	defer c.Close()
	bad := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: secret + "x", Logger: e.logger()})
	defer bad.Close()
	src := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, TokenSource: failingSource{secret}, Logger: e.logger()})
	defer src.Close()
	g := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "tokgame1", White: "a", Black: "b"})
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/game/*", Disconnect: true, AfterLines: 1})
	e.fake.Inject(fakelichess.Fault{Path: "/api/stream/game/*", Truncate: true, AfterLines: 1})
	e.fake.Inject(fakelichess.ServerErrors("/api/account", 2))

	var errs []error
	_, err := c.Account(e.ctx) // 5xx, then fine
	errs = append(errs, err)
	_, err = c.CheckScopes(e.ctx, lichess.ScopeBotPlay)
	errs = append(errs, err)
	errs = append(errs, c.Move(e.ctx, "nosuchgm", "e2e4", false))
	_, err = bad.Account(e.ctx)
	errs = append(errs, err)
	_, err = bad.CheckScopes(e.ctx)
	errs = append(errs, err)
	errs = append(errs, bad.StreamEvents(e.ctx, func(lichess.Event) error { return nil }))
	_, err = src.Account(e.ctx)
	errs = append(errs, err)
	errs = append(errs, src.StreamEvents(e.ctx, func(lichess.Event) error { return nil }))
	n := 0
	ctx, cancel := context.WithCancel(e.ctx)
	done := run(t, func() error {
		return c.StreamGame(ctx, g.ID(), func(lichess.SpectatorEvent) error { n++; return nil })
	})
	e.waitFor("two connections", func() bool { return e.streamsOpened("/api/stream/game/*") >= 2 && e.fake.Streams("game") == 1 })
	g.Finish("draw", "")
	errs = append(errs, wait(t, done))
	cancel()
	e.fake.Inject(fakelichess.RateLimited("/api/account/playing", 0)) // last: it pauses c for a minute
	_, err = c.Playing(e.ctx)
	errs = append(errs, err)

	failures := 0
	for _, err := range errs {
		if err != nil {
			failures++
			if strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), secret) {
				t.Errorf("error shows the token: %v", err)
			}
		}
	}
	if failures < 7 {
		t.Errorf("only %d calls failed; the test does not exercise the error paths: %v", failures, errs)
	}
	var ae *lichess.AuthError
	if !errors.As(errs[6], &ae) {
		t.Errorf("token source failure: %v", errs[6])
	}
	logs := e.logs.String()
	for _, want := range []string{"malformed stream line", "stream reconnecting", "rate limited", "retrying"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q, so the test did not log what it should:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, secret) {
		t.Errorf("the token appears in the logs:\n%s", logs)
	}
}

// Close stops every stream and call of the client and waits for them (the
// leak check in TestMain proves nothing is left).
func TestCloseStopsEverything(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.allScopes()
	g := e.fake.MustNewGame(fakelichess.GameSpec{ID: "closegm1"})
	s := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "closegm2", White: "a", Black: "b"})
	e.fake.Broadcast("closernd").SetPGN(recordedText("broadcast-round.pgn"))
	var dones []<-chan error
	dones = append(dones,
		run(t, func() error { return e.c.StreamEvents(context.Background(), func(lichess.Event) error { return nil }) }),
		run(t, func() error {
			return e.c.StreamBotGame(context.Background(), g.ID(), func(lichess.GameEvent) error { return nil })
		}),
		run(t, func() error {
			return e.c.StreamGame(context.Background(), s.ID(), func(lichess.SpectatorEvent) error { return nil })
		}),
		run(t, func() error {
			return e.c.StreamBroadcastRound(context.Background(), "closernd", func(string) error { return nil })
		}),
		run(t, func() error {
			return e.c.StreamTV(context.Background(), "", func(lichess.TVEvent) error { return nil })
		}),
	)
	e.waitFor("five streams", func() bool {
		return e.fake.Streams("event")+e.fake.Streams("botgame")+e.fake.Streams("game")+e.fake.Streams("broadcast")+e.fake.Streams("tv") == 5
	})
	if err := e.c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, d := range dones {
		if err := wait(t, d); !errors.Is(err, context.Canceled) {
			t.Errorf("stream after Close: %v", err)
		}
	}
	if err := e.c.Move(e.ctx, g.ID(), "e2e4", false); !errors.Is(err, lichess.ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
	e.waitFor("the fake to see the streams end", func() bool {
		return e.fake.Streams("event")+e.fake.Streams("botgame")+e.fake.Streams("game")+e.fake.Streams("broadcast")+e.fake.Streams("tv") == 0
	})
}

// TestTokenAsTyped: the space around a token (the line break of a token
// file or an environment variable, a CR from a file edited on Windows) is
// not part of it; a space, control or non-ASCII character inside it is a
// mistake no retry mends, so the call fails at once with an *AuthError
// that says where in the token, never what it is, and nothing is sent.
// Before, the CR went into the Authorization header, the HTTP client
// refused it, and the call was retried as if the network had failed.
func TestTokenAsTyped(t *testing.T) {
	const tok = "lip_Token0123456789"
	tests := []struct {
		name      string
		token     string
		malformed bool
	}{
		{name: "as it is", token: tok},
		{name: "a trailing line break", token: tok + "\n"},
		{name: "a trailing CRLF", token: tok + "\r\n"},
		{name: "spaces around", token: "  " + tok + "\t "},
		{name: "a CR inside", token: "lip_Token\r0123456789", malformed: true},
		{name: "a space inside", token: "lip_Token 0123456789", malformed: true},
		{name: "a non-breaking space inside", token: "lip_Token\u00a00123456789", malformed: true},
		{name: "a NUL inside", token: "lip_Token\x000123456789", malformed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = append(got, r.Header.Get("Authorization"))
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"id":"me","username":"Me"}`)
			}))
			defer srv.Close()
			c := lichess.NewClient(lichess.Options{BaseURL: srv.URL, Token: tt.token, MaxRetries: 1, Backoff: lichess.Backoff{Initial: 1, Max: 2}})
			defer c.Close()
			_, authErr := c.Account(context.Background())               // needs the token
			_, optErr := c.CurrentGame(context.Background(), "someone") // sends it when there is one
			if !tt.malformed {
				if authErr != nil || len(got) != 2 || got[0] != "Bearer "+tok || got[1] != "Bearer "+tok {
					t.Fatalf("err %v, Authorization headers %q; want %q twice", authErr, got, "Bearer "+tok)
				}
				return
			}
			for _, err := range []error{authErr, optErr} {
				var ae *lichess.AuthError
				if !errors.As(err, &ae) || !strings.Contains(ae.Message, lichess.ErrTokenMalformed.Error()) {
					t.Errorf("err %v, want an *AuthError saying the token is malformed", err)
				}
				if err != nil && (strings.Contains(err.Error(), "lip_Token") || !strings.Contains(err.Error(), "at byte 10 of")) {
					t.Errorf("err %q: want where, never the token", err)
				}
			}
			if len(got) != 0 {
				t.Errorf("%d requests sent with a malformed token", len(got))
			}
		})
	}
}

// TestTokenForTrims: lichess.token set to spaces only is no token (the
// saved one is used), and one set with a line break is used without it;
// one with a space or a control character inside, from the config or a
// token file, is refused there, with where and never what.
func TestTokenForTrims(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("lip_two\nlines\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, set, file, want, err string }{
		{name: "spaces only", set: " \n", want: ""},
		{name: "a line break after", set: "lip_x\r\n", want: "lip_x"},
		{name: "a space inside", set: "lip_a b", err: "(at byte 6 of 7)"},
		{name: "a line break inside the token file", file: file, err: "(at byte 8 of 13)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lichess.Options{Token: tc.set, TokenFile: tc.file}.TokenFor(lichess.RoleWatch)
			if tc.err != "" {
				if !errors.Is(err, lichess.ErrTokenMalformed) || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "lip_") {
					t.Errorf("TokenFor = %q, %v; want ErrTokenMalformed %s, without the token", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("TokenFor = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
