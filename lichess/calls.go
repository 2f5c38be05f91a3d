package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const formType = "application/x-www-form-urlencoded"

func botGamePath(gameID, rest string) string {
	return "/api/bot/game/" + url.PathEscape(gameID) + rest
}

// Move plays a UCI move (e2e4, e7e8q, e1g1 or e1h1) in a bot game,
// offering (or, with false, declining the opponent's offer of) a draw
// first.
func (c *Client) Move(ctx context.Context, gameID, uci string, offeringDraw bool) error {
	return c.call(ctx, request{op: "move " + uci + " in " + gameID, method: http.MethodPost,
		path:  botGamePath(gameID, "/move/"+url.PathEscape(uci)),
		query: url.Values{"offeringDraw": {fmt.Sprint(offeringDraw)}}, auth: true}, nil)
}

// Chat writes text to a bot game's chat; room is RoomPlayer or
// RoomSpectator. Text longer than ChatMaxLen characters is cut to fit
// (Lichess refuses longer lines).
func (c *Client) Chat(ctx context.Context, gameID, room, text string) error {
	if room != RoomPlayer && room != RoomSpectator {
		return fmt.Errorf("lichess: chat in %s: room %q is neither %q nor %q", gameID, room, RoomPlayer, RoomSpectator)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return fmt.Errorf("lichess: chat in %s: empty text", gameID)
	}
	if utf8.RuneCountInString(text) > ChatMaxLen {
		r := []rune(text)
		text = string(r[:ChatMaxLen-1]) + "…"
	}
	form := url.Values{"room": {room}, "text": {text}}
	return c.call(ctx, request{op: "chat in " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/chat"),
		body: form.Encode(), contentType: formType, auth: true}, nil)
}

// Draw offers or accepts a draw (accept true: draw/yes; while the current
// position is a threefold this ends the game at once) or declines the
// opponent's offer (false). Lichess always answers ok: read the result
// from the game stream.
func (c *Client) Draw(ctx context.Context, gameID string, accept bool) error {
	v := "no"
	if accept {
		v = "yes"
	}
	return c.call(ctx, request{op: "draw " + v + " in " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/draw/"+v), auth: true}, nil)
}

// Resign resigns a bot game (Lichess aborts it if it is still abortable).
func (c *Client) Resign(ctx context.Context, gameID string) error {
	return c.call(ctx, request{op: "resign " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/resign"), auth: true}, nil)
}

// Abort aborts a bot game (only before each side has moved).
func (c *Client) Abort(ctx context.Context, gameID string) error {
	return c.call(ctx, request{op: "abort " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/abort"), auth: true}, nil)
}

// ClaimVictory claims the win when the opponent has left the game.
func (c *Client) ClaimVictory(ctx context.Context, gameID string) error {
	return c.call(ctx, request{op: "claim victory " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/claim-victory"), auth: true}, nil)
}

// AcceptChallenge accepts a challenge; its gameStart follows on the event
// stream.
func (c *Client) AcceptChallenge(ctx context.Context, challengeID string) error {
	return c.call(ctx, request{op: "accept challenge " + challengeID, method: http.MethodPost,
		path: "/api/challenge/" + url.PathEscape(challengeID) + "/accept", auth: true}, nil)
}

// DeclineChallenge declines a challenge with one of the Decline* reasons
// ("" means generic).
func (c *Client) DeclineChallenge(ctx context.Context, challengeID, reason string) error {
	if reason == "" {
		reason = DeclineGeneric
	}
	return c.call(ctx, request{op: "decline challenge " + challengeID, method: http.MethodPost,
		path: "/api/challenge/" + url.PathEscape(challengeID) + "/decline",
		body: url.Values{"reason": {reason}}.Encode(), contentType: formType, auth: true}, nil)
}

// Playing lists the account's games in progress (/api/account/playing,
// up to 50).
func (c *Client) Playing(ctx context.Context) ([]GameEventInfo, error) {
	var out struct {
		NowPlaying []GameEventInfo `json:"nowPlaying"`
	}
	err := c.call(ctx, request{op: "playing", method: http.MethodGet, path: "/api/account/playing", query: url.Values{"nb": {"50"}}, auth: true}, &out)
	return out.NowPlaying, err
}

// Challenges lists the account's pending challenges (/api/challenge):
// received (in) and sent (out).
func (c *Client) Challenges(ctx context.Context) (in, out []Challenge, err error) {
	var r struct {
		In  []Challenge `json:"in"`
		Out []Challenge `json:"out"`
	}
	err = c.call(ctx, request{op: "list challenges", method: http.MethodGet, path: "/api/challenge", auth: true}, &r)
	return r.In, r.Out, err
}

// ExportGame returns a game as JSON with its PGN (/game/export/{id}).
// Moves are SAN. An ongoing game lacks its last three plies.
func (c *Client) ExportGame(ctx context.Context, gameID string) (*ExportedGame, error) {
	var g ExportedGame
	err := c.call(ctx, request{op: "export game " + gameID, method: http.MethodGet, path: "/game/export/" + url.PathEscape(gameID),
		query: url.Values{"pgnInJson": {"true"}, "clocks": {"false"}, "evals": {"false"}}, accept: "application/json", optAuth: true}, &g)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// CurrentGame returns the ongoing game of a user, or the last game they
// played when none is on (/api/user/{username}/current-game), without its
// moves: its Status says which. ErrNotFound: no such user, or no game.
func (c *Client) CurrentGame(ctx context.Context, username string) (*ExportedGame, error) {
	var g ExportedGame
	err := c.call(ctx, request{op: "current game of " + username, method: http.MethodGet, path: "/api/user/" + url.PathEscape(username) + "/current-game",
		query: url.Values{"moves": {"false"}, "clocks": {"false"}, "evals": {"false"}, "opening": {"false"}}, accept: "application/json", optAuth: true}, &g)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// ExportGamePGN returns a game as PGN.
func (c *Client) ExportGamePGN(ctx context.Context, gameID string) (string, error) {
	var s string
	err := c.call(ctx, request{op: "export game " + gameID, method: http.MethodGet, path: "/game/export/" + url.PathEscape(gameID),
		accept: "application/x-chess-pgn", optAuth: true}, &s)
	return s, err
}

// UpgradeToBot turns the account into a BOT account. It is irreversible
// and only works for an account that has never played a game.
func (c *Client) UpgradeToBot(ctx context.Context) error {
	return c.call(ctx, request{op: "upgrade to bot", method: http.MethodPost, path: "/api/bot/account/upgrade", auth: true}, nil)
}

// BroadcastRound returns a broadcast round, its tournament and its games.
func (c *Client) BroadcastRound(ctx context.Context, roundID string) (*BroadcastRound, error) {
	var r BroadcastRound
	err := c.call(ctx, request{op: "broadcast round " + roundID, method: http.MethodGet, path: "/api/broadcast/-/-/" + url.PathEscape(roundID), optAuth: true}, &r)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// BroadcastRoundPGN returns the current PGN of every game of a round.
func (c *Client) BroadcastRoundPGN(ctx context.Context, roundID string) (string, error) {
	var s string
	err := c.call(ctx, request{op: "broadcast round pgn " + roundID, method: http.MethodGet, path: "/api/broadcast/round/" + url.PathEscape(roundID) + ".pgn", optAuth: true}, &s)
	return s, err
}

// Account returns the account of the token (/api/account).
func (c *Client) Account(ctx context.Context) (*Account, error) {
	var a Account
	if err := c.call(ctx, request{op: "account", method: http.MethodGet, path: "/api/account", auth: true}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Revoke revokes the client's token (DELETE /api/token).
func (c *Client) Revoke(ctx context.Context) error {
	return c.call(ctx, request{op: "revoke token", method: http.MethodDelete, path: "/api/token", auth: true}, nil)
}

// TestToken asks Lichess about tokens (POST /api/token/test). The answer
// maps each token to its info, or to nil when it is invalid, expired or
// revoked. With no argument it tests the client's own token.
func (c *Client) TestToken(ctx context.Context, tokens ...string) (map[string]*TokenInfo, error) {
	if len(tokens) == 0 {
		t, err := c.token()
		if err != nil {
			return nil, &AuthError{Op: "test token", Message: err.Error()}
		}
		tokens = []string{t}
	}
	var raw map[string]*struct {
		UserID  string `json:"userId"`
		Scopes  string `json:"scopes"`
		Expires *int64 `json:"expires"`
	}
	err := c.call(ctx, request{op: "test token", method: http.MethodPost, path: "/api/token/test",
		body: strings.Join(tokens, ","), contentType: "text/plain"}, &raw)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*TokenInfo, len(tokens))
	for _, t := range tokens {
		r := raw[t]
		if r == nil {
			out[t] = nil
			continue
		}
		info := &TokenInfo{UserID: r.UserID}
		if r.Expires != nil {
			info.Expires = *r.Expires
		}
		for _, s := range strings.Split(r.Scopes, ",") {
			if s = strings.TrimSpace(s); s != "" {
				info.Scopes = append(info.Scopes, s)
			}
		}
		out[t] = info
	}
	return out, nil
}

// CheckScopes checks, before anything else happens, that the client's token
// is valid and has every required scope (ScopeBotPlay for the bot;
// ScopeStudyRead is advisable for broadcasts), and returns the account. A
// bad token or a missing scope is an *AuthError naming what is wrong.
func (c *Client) CheckScopes(ctx context.Context, required ...string) (*Account, error) {
	infos, err := c.TestToken(ctx)
	if err != nil {
		return nil, err
	}
	var info *TokenInfo
	for _, v := range infos {
		info = v
	}
	if info == nil {
		return nil, &AuthError{Op: "check token", Message: "the token is invalid, expired or revoked"}
	}
	for _, s := range required {
		if !info.HasScope(s) {
			return nil, &AuthError{Op: "check token", Scope: s}
		}
	}
	acct, err := c.Account(ctx)
	if err == nil {
		c.learnAccount(acct.ID)
	}
	return acct, err
}

// ClaimDraw ends a bot game as a draw after the opponent left it for a
// while (opponentGone with claimWinInSeconds run out); Lichess refuses it
// (400) before then.
func (c *Client) ClaimDraw(ctx context.Context, gameID string) error {
	return c.call(ctx, request{op: "claim draw " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/claim-draw"), auth: true}, nil)
}

// Takeback accepts (true: takeback/yes, which also proposes one) or
// declines (false) the opponent's takeback proposal.
func (c *Client) Takeback(ctx context.Context, gameID string, accept bool) error {
	v := "no"
	if accept {
		v = "yes"
	}
	return c.call(ctx, request{op: "takeback " + v + " in " + gameID, method: http.MethodPost, path: botGamePath(gameID, "/takeback/"+v), auth: true}, nil)
}

// ChallengeRequest is what CreateChallenge asks for. A real-time game has
// Limit (0, 15 s, 30 s, 45 s, 90 s or whole minutes up to 3 h) and
// Increment (whole seconds up to 60 s); Days (1, 2, 3, 5, 7, 10 or 14) a
// correspondence game; neither an unlimited one.
type ChallengeRequest struct {
	Limit, Increment time.Duration
	Clock            bool // a real-time game with Limit and Increment
	Days             int
	Rated            bool
	Color            string // "white", "black" or "random" ("" random)
	Variant          string // a variant key; "" standard
	FEN              string // a start position (variant standard or fromPosition)
}

// ParseTimeControl reads "3+2" (minutes + increment seconds); minutes may
// be a fraction (0.25, 0.5, 0.75, 1.5).
func ParseTimeControl(s string) (limit, inc time.Duration, err error) {
	m, i, ok := strings.Cut(s, "+")
	if !ok {
		return 0, 0, errors.New("want minutes+seconds, e.g. 3+2")
	}
	minutes, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
	if err != nil || minutes < 0 {
		return 0, 0, fmt.Errorf("minutes %q: not a number", m)
	}
	secs, err := strconv.Atoi(strings.TrimSpace(i))
	if err != nil || secs < 0 {
		return 0, 0, fmt.Errorf("increment %q: not whole seconds", i)
	}
	return time.Duration(minutes * float64(time.Minute)).Round(time.Second), time.Duration(secs) * time.Second, nil
}

// Speed is Lichess's category of a clock: by the estimated duration
// limit + 40 × increment.
func Speed(limit, inc time.Duration) string {
	switch est := limit + 40*inc; {
	case est < 30*time.Second:
		return "ultraBullet"
	case est < 3*time.Minute:
		return "bullet"
	case est < 8*time.Minute:
		return "blitz"
	case est < 25*time.Minute:
		return "rapid"
	default:
		return "classical"
	}
}

// CheckChallengeRequest says what Lichess would refuse in r.
func CheckChallengeRequest(r ChallengeRequest) error {
	if r.Clock {
		s := int(r.Limit / time.Second)
		if r.Limit%time.Second != 0 || s < 0 || s > 10800 || (s > 90 && s%60 != 0) || (s <= 90 && s%15 != 0) || s == 75 {
			return fmt.Errorf("clock limit %v: Lichess allows 0, 15s, 30s, 45s, 1m, 1m30s and whole minutes up to 3h", r.Limit)
		}
		if r.Increment%time.Second != 0 || r.Increment < 0 || r.Increment > time.Minute {
			return fmt.Errorf("increment %v: Lichess allows whole seconds up to 60s", r.Increment)
		}
		if r.Days != 0 {
			return errors.New("a challenge has a clock or days per move, not both")
		}
	}
	switch r.Days {
	case 0, 1, 2, 3, 5, 7, 10, 14:
	default:
		return fmt.Errorf("days per move %d: Lichess allows 1, 2, 3, 5, 7, 10 or 14", r.Days)
	}
	switch r.Color {
	case "", "white", "black", "random":
	default:
		return fmt.Errorf("colour %q is not white, black or random", r.Color)
	}
	return nil
}

// CreateChallenge challenges a user (POST /api/challenge/{username}). A
// real-time challenge expires after 20 s unless accepted; the game, when
// accepted, has the challenge's id and starts on the event stream.
func (c *Client) CreateChallenge(ctx context.Context, username string, r ChallengeRequest) (*Challenge, error) {
	if err := CheckChallengeRequest(r); err != nil {
		return nil, fmt.Errorf("lichess: challenge %s: %w", username, err)
	}
	form := url.Values{"rated": {fmt.Sprint(r.Rated)}}
	if r.Clock {
		form.Set("clock.limit", fmt.Sprint(int(r.Limit/time.Second)))
		form.Set("clock.increment", fmt.Sprint(int(r.Increment/time.Second)))
	}
	if r.Days > 0 {
		form.Set("days", fmt.Sprint(r.Days))
	}
	if r.Color != "" {
		form.Set("color", r.Color)
	}
	if r.Variant != "" {
		form.Set("variant", r.Variant)
	}
	if r.FEN != "" {
		form.Set("fen", r.FEN)
	}
	var ch Challenge
	err := c.call(ctx, request{op: "challenge " + username, method: http.MethodPost, path: "/api/challenge/" + url.PathEscape(username),
		body: form.Encode(), contentType: formType, auth: true}, &ch)
	if err != nil {
		return nil, err
	}
	return &ch, nil
}

// CancelChallenge cancels a challenge the account sent (or aborts its game
// if it was accepted and no move was played).
func (c *Client) CancelChallenge(ctx context.Context, challengeID string) error {
	return c.call(ctx, request{op: "cancel challenge " + challengeID, method: http.MethodPost,
		path: "/api/challenge/" + url.PathEscape(challengeID) + "/cancel", auth: true}, nil)
}

// OnlineBots lists up to nb (1–512) BOT accounts online now (GET
// /api/bot/online, an NDJSON list that ends).
func (c *Client) OnlineBots(ctx context.Context, nb int) ([]User, error) {
	nb = min(max(nb, 1), 512)
	var body string
	err := c.call(ctx, request{op: "online bots", method: http.MethodGet, path: "/api/bot/online",
		query: url.Values{"nb": {fmt.Sprint(nb)}}, accept: "application/x-ndjson"}, &body)
	if err != nil {
		return nil, err
	}
	var out []User
	for i, line := range strings.Split(body, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var u User
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			return out, fmt.Errorf("lichess: online bots: line %d: %w", i+1, err)
		}
		out = append(out, u)
	}
	return out, nil
}
