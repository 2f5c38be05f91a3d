package lichess_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

func TestCallsSendTheRightRequests(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.allScopes()
	e.fake.AddUser("fresh", "Fresh", "")
	e.fake.AddToken("lip_fresh_token_1234", "fresh", lichess.ScopeBotPlay)
	fresh := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: "lip_fresh_token_1234"})
	defer fresh.Close()
	b := e.fake.Broadcast("rnd1")
	b.SetPGN(recordedText("broadcast-round.pgn"))

	tests := []struct {
		name   string
		setup  func() string // returns an id for the call
		call   func(id string) error
		method string
		path   string // with id for {id}
		check  func(t *testing.T, r fakelichess.Request)
	}{
		{name: "move with draw offer", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/move/e2e4",
			call: func(id string) error { return e.c.Move(e.ctx, id, "e2e4", true) },
			check: func(t *testing.T, r fakelichess.Request) {
				if r.Query.Get("offeringDraw") != "true" {
					t.Errorf("offeringDraw = %q", r.Query.Get("offeringDraw"))
				}
			}},
		{name: "move without draw offer", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/move/e2e4",
			call: func(id string) error { return e.c.Move(e.ctx, id, "e2e4", false) },
			check: func(t *testing.T, r fakelichess.Request) {
				if r.Query.Get("offeringDraw") != "false" {
					t.Errorf("offeringDraw = %q", r.Query.Get("offeringDraw"))
				}
			}},
		{name: "chat player", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/chat",
			call:  func(id string) error { return e.c.Chat(e.ctx, id, lichess.RoomPlayer, "good luck") },
			check: formIs(url.Values{"room": {"player"}, "text": {"good luck"}})},
		{name: "chat spectator cut to 140", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/chat",
			call: func(id string) error { return e.c.Chat(e.ctx, id, lichess.RoomSpectator, strings.Repeat("é", 200)) },
			check: func(t *testing.T, r fakelichess.Request) {
				v, _ := url.ParseQuery(r.Body)
				if n := len([]rune(v.Get("text"))); n != 140 || v.Get("room") != "spectator" {
					t.Errorf("text of %d runes in room %q", n, v.Get("room"))
				}
			}},
		{name: "draw yes", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/draw/yes",
			call: func(id string) error { return e.c.Draw(e.ctx, id, true) }},
		{name: "draw no", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/draw/no",
			call: func(id string) error { return e.c.Draw(e.ctx, id, false) }},
		{name: "resign", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/resign",
			call: func(id string) error { return e.c.Resign(e.ctx, id) }},
		{name: "abort", setup: e.newGame, method: "POST", path: "/api/bot/game/{id}/abort",
			call: func(id string) error { return e.c.Abort(e.ctx, id) }},
		{name: "accept challenge", setup: func() string { return e.fake.Challenge(fakelichess.ChallengeSpec{}) }, method: "POST",
			path: "/api/challenge/{id}/accept", call: func(id string) error { return e.c.AcceptChallenge(e.ctx, id) }},
		{name: "decline challenge", setup: func() string { return e.fake.Challenge(fakelichess.ChallengeSpec{}) }, method: "POST",
			path: "/api/challenge/{id}/decline", call: func(id string) error { return e.c.DeclineChallenge(e.ctx, id, lichess.DeclineTooFast) },
			check: formIs(url.Values{"reason": {"tooFast"}})},
		{name: "playing", setup: e.newGame, method: "GET", path: "/api/account/playing",
			call: func(id string) error {
				games, err := e.c.Playing(e.ctx)
				if err == nil && !hasGame(games, id) {
					return errors.New("game not listed")
				}
				return err
			}},
		{name: "export game json", setup: e.newGame, method: "GET", path: "/game/export/{id}",
			call: func(id string) error {
				g, err := e.c.ExportGame(e.ctx, id)
				if err == nil && (g.ID != id || g.Status != "started" || !strings.Contains(g.PGN, "[Site")) {
					return errors.New("wrong export")
				}
				return err
			}},
		{name: "export game pgn", setup: e.newGame, method: "GET", path: "/game/export/{id}",
			call: func(id string) error {
				p, err := e.c.ExportGamePGN(e.ctx, id)
				if err == nil && !strings.Contains(p, `[Result "*"]`) {
					return errors.New("wrong pgn: " + p)
				}
				return err
			}},
		{name: "upgrade to bot", method: "POST", path: "/api/bot/account/upgrade",
			call: func(string) error { return fresh.UpgradeToBot(e.ctx) }},
		{name: "broadcast round", method: "GET", path: "/api/broadcast/-/-/rnd1",
			call: func(string) error {
				r, err := e.c.BroadcastRound(e.ctx, "rnd1")
				if err == nil && (r.Round.ID != "rnd1" || len(r.Games) != 1 || r.Games[0].ID != "5rsW2cRb" || r.Games[0].LastMove != "e7e5") {
					return errors.New("wrong round")
				}
				return err
			}},
		{name: "broadcast round pgn", method: "GET", path: "/api/broadcast/round/rnd1.pgn",
			call: func(string) error {
				p, err := e.c.BroadcastRoundPGN(e.ctx, "rnd1")
				if err == nil && !strings.Contains(p, "1. e4 e5 *") {
					return errors.New("wrong pgn")
				}
				return err
			}},
		{name: "account", method: "GET", path: "/api/account",
			call: func(string) error {
				a, err := e.c.Account(e.ctx)
				if err == nil && (a.ID != fakelichess.BotUser || !a.IsBot()) {
					return errors.New("wrong account")
				}
				return err
			}},
		{name: "check scopes", method: "GET", path: "/api/account",
			call: func(string) error {
				_, err := e.c.CheckScopes(e.ctx, lichess.ScopeBotPlay)
				return err
			}},
		{name: "test tokens", method: "POST", path: "/api/token/test",
			call: func(string) error {
				m, err := e.c.TestToken(e.ctx, fakelichess.BotToken, "lip_nonsense")
				if err == nil && (m["lip_nonsense"] != nil || m[fakelichess.BotToken] == nil || !m[fakelichess.BotToken].HasScope("bot:play")) {
					return errors.New("wrong token info")
				}
				return err
			},
			check: func(t *testing.T, r fakelichess.Request) {
				if r.Token != "" {
					t.Error("token test sent a bearer token")
				}
			}},
		{name: "revoke", method: "DELETE", path: "/api/token",
			call: func(string) error { return fresh.Revoke(e.ctx) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := ""
			if tc.setup != nil {
				id = tc.setup()
			}
			before := len(e.fake.Requests())
			if err := tc.call(id); err != nil {
				t.Fatalf("call: %v", err)
			}
			path := strings.ReplaceAll(tc.path, "{id}", id)
			var got *fakelichess.Request
			for _, r := range e.fake.Requests()[before:] {
				if r.Method == tc.method && r.Path == path {
					got = &r
				}
			}
			if got == nil {
				t.Fatalf("no %s %s among %+v", tc.method, path, e.fake.Requests()[before:])
			}
			if got.Status/100 != 2 {
				t.Errorf("status %d", got.Status)
			}
			if tc.check != nil {
				tc.check(t, *got)
			}
		})
	}
	if e.fake.TokenValid("lip_fresh_token_1234") {
		t.Error("revoked token still valid")
	}
	for _, r := range e.fake.Requests() {
		if r.Token == fakelichess.BotToken && r.UserAgent != "threefold user:"+fakelichess.BotUser {
			t.Errorf("User-Agent %q", r.UserAgent)
			break
		}
	}
}

func (e *env) newGame() string {
	return e.fake.MustNewGame(fakelichess.GameSpec{}).ID()
}

func hasGame(games []lichess.GameEventInfo, id string) bool {
	for _, g := range games {
		if g.GameID == id && g.Color == "white" && g.IsMyTurn && g.Opponent.ID == fakelichess.Opponent {
			return true
		}
	}
	return false
}

func formIs(want url.Values) func(*testing.T, fakelichess.Request) {
	return func(t *testing.T, r fakelichess.Request) {
		got, err := url.ParseQuery(r.Body)
		if err != nil || got.Encode() != want.Encode() {
			t.Errorf("form %q, want %q", r.Body, want.Encode())
		}
	}
}

func TestErrorsAreTyped(t *testing.T) {
	e := newEnv(t, envOpts{})
	watch := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: fakelichess.WatchToken, Logger: e.logger()})
	defer watch.Close()
	bad := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: "lip_secretButWrong", Logger: e.logger()})
	defer bad.Close()
	none := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Logger: e.logger()})
	defer none.Close()
	game := e.newGame()

	tests := []struct {
		name  string
		call  func() error
		check func(error) bool
	}{
		{"bad token is an auth error", func() error { _, err := bad.Account(e.ctx); return err }, func(err error) bool {
			var a *lichess.AuthError
			return errors.As(err, &a) && a.Status == 401
		}},
		{"no token is an auth error", func() error { return none.Move(e.ctx, game, "e2e4", false) }, func(err error) bool {
			var a *lichess.AuthError
			return errors.As(err, &a) && errors.Is(err, err) && strings.Contains(err.Error(), "no token")
		}},
		{"missing scope on a call is an auth error", func() error { return watch.Move(e.ctx, game, "e2e4", false) }, func(err error) bool {
			var a *lichess.AuthError
			return errors.As(err, &a) && a.Status == 403 && strings.Contains(a.Message, "bot:play")
		}},
		{"check scopes names the missing scope", func() error { _, err := watch.CheckScopes(e.ctx, lichess.ScopeBotPlay); return err }, func(err error) bool {
			var a *lichess.AuthError
			return errors.As(err, &a) && a.Scope == "bot:play" && strings.Contains(err.Error(), `"bot:play"`)
		}},
		{"check scopes with a bad token", func() error { _, err := bad.CheckScopes(e.ctx, lichess.ScopeBotPlay); return err }, func(err error) bool {
			var a *lichess.AuthError
			return errors.As(err, &a) && strings.Contains(err.Error(), "invalid")
		}},
		{"unknown game is not found", func() error { return e.c.Move(e.ctx, "nosuchgm", "e2e4", false) }, func(err error) bool {
			return errors.Is(err, lichess.ErrNotFound)
		}},
		{"illegal move is an API error", func() error { return e.c.Move(e.ctx, game, "e2e5", false) }, func(err error) bool {
			var a *lichess.APIError
			return errors.As(err, &a) && a.Status == 400 && !errors.Is(err, lichess.ErrNotFound)
		}},
		{"chat in a bad room is refused before sending", func() error { return e.c.Chat(e.ctx, game, "lobby", "x") }, func(err error) bool {
			return err != nil && strings.Contains(err.Error(), "lobby")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || !tc.check(err) {
				t.Fatalf("error %T %v", err, err)
			}
			if strings.Contains(err.Error(), "lip_") {
				t.Fatalf("error shows a token: %v", err)
			}
		})
	}
}

func TestServerErrorsAreRetried(t *testing.T) {
	e := newEnv(t, envOpts{})
	game := e.newGame()
	e.fake.Inject(fakelichess.ServerErrors("/api/bot/game/*/move/*", 2))
	if err := e.c.Move(e.ctx, game, "e2e4", false); err != nil {
		t.Fatalf("move after a 5xx burst: %v", err)
	}
	if got := len(e.fake.RequestsTo(http.MethodPost, "/api/bot/game/*/move/*")); got != 3 {
		t.Errorf("%d move requests, want 3", got)
	}
	e.fake.Inject(fakelichess.ServerErrors("/api/account", 10))
	_, err := e.c.Account(e.ctx)
	var ae *lichess.APIError
	if !errors.As(err, &ae) || !ae.Temporary() {
		t.Fatalf("after too many 5xx: %v", err)
	}
	if got := len(e.fake.RequestsTo(http.MethodGet, "/api/account")); got != 1+lichess.DefaultMaxRetries {
		t.Errorf("%d account requests, want %d", got, 1+lichess.DefaultMaxRetries)
	}
}

// The User-Agent says the program, its version and the bot's account, as
// Lichess asks of bots; the account is learned from the token.
func TestUserAgentNamesTheAccount(t *testing.T) {
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	c := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: fakelichess.BotToken, Version: "v1.2.3"})
	defer c.Close()
	if got := c.UserAgent(); got != "threefold/v1.2.3" {
		t.Errorf("before the account is known: %q", got)
	}
	if _, err := c.CheckScopes(context.Background(), lichess.ScopeBotPlay); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Playing(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := fake.RequestsTo("GET", "/api/account/playing")
	if want := "threefold/v1.2.3 user:" + fakelichess.BotUser; len(reqs) != 1 || reqs[0].UserAgent != want || c.UserAgent() != want {
		t.Errorf("User-Agent %+v, want %q", reqs, want)
	}
}

func TestChallengeTerms(t *testing.T) {
	tests := []struct {
		name                string
		lang                i18n.Lang
		c                   lichess.Challenge
		clock, mode, colour string
	}{
		{"clock shown", i18n.English, lichess.Challenge{TimeControl: lichess.TimeControl{Type: "clock", Limit: 180, Increment: 2, Show: "3+2"}, Rated: true, Color: "white"},
			"3+2", "rated", "white"},
		{"clock not shown", i18n.English, lichess.Challenge{TimeControl: lichess.TimeControl{Type: "clock", Limit: 30}, Color: "random"},
			"0.5+0", "casual", "random"},
		{"one day", i18n.English, lichess.Challenge{TimeControl: lichess.TimeControl{Type: "correspondence", DaysPerTurn: 1}, Color: "black"},
			"1 day per move", "casual", "black"},
		{"days", i18n.English, lichess.Challenge{TimeControl: lichess.TimeControl{Type: "correspondence", DaysPerTurn: 3}, Color: "black"},
			"3 days per move", "casual", "black"},
		{"unlimited, a colour of no name", i18n.English, lichess.Challenge{TimeControl: lichess.TimeControl{Type: "unlimited"}, Color: "purple"},
			"unlimited", "casual", "purple"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock, mode, colour := tc.c.Terms(i18n.For(tc.lang))
			if clock != tc.clock || mode != tc.mode || colour != tc.colour {
				t.Errorf("Terms = %q, %q, %q; want %q, %q, %q", clock, mode, colour, tc.clock, tc.mode, tc.colour)
			}
		})
	}
	// In another language every word is translated, the clock is not.
	ru := i18n.For(i18n.Russian)
	c := lichess.Challenge{TimeControl: lichess.TimeControl{Type: "clock", Show: "3+2"}, Rated: true, Color: "white"}
	if clock, mode, colour := c.Terms(ru); clock != "3+2" || mode != ru.Sprintf(i18n.ChallengeRated) || colour != ru.Sprintf(i18n.ChallengeWhite) || mode == "rated" {
		t.Errorf("in Russian: %q, %q, %q", clock, mode, colour)
	}
}
