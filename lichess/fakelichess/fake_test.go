package fakelichess_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func setup(t *testing.T, opts fakelichess.Options) (*fakelichess.Server, *lichess.Client, context.Context) {
	t.Helper()
	fake := fakelichess.New(opts)
	c := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: fakelichess.BotToken, Account: fakelichess.BotUser,
		Backoff: lichess.Backoff{Initial: time.Millisecond, Max: time.Millisecond}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(func() { cancel(); c.Close(); fake.Close() })
	return fake, c, ctx
}

// How games end on the fake, the way Lichess ends them when a BOT plays.
func TestGameEndings(t *testing.T) {
	type step struct {
		bot      string // a bot move, or "draw", "resign", "abort"
		offer    bool   // offeringDraw with the move
		opponent string // then this opponent action: a move, "offer", "resign"
	}
	tests := []struct {
		name    string
		spec    fakelichess.GameSpec
		steps   []step
		status  string
		winner  string
		wdraw   bool
		bdraw   bool
		moves   string
		wantErr string // for the last bot step
	}{
		{name: "threefold is drawn automatically", steps: []step{{bot: "g1f3", opponent: "g8f6"}, {bot: "f3g1", opponent: "f6g8"},
			{bot: "g1f3", opponent: "g8f6"}, {bot: "f3g1", opponent: "f6g8"}}, status: "draw", moves: "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"},
		{name: "draw/yes on a threefold position ends the game",
			spec:  fakelichess.GameSpec{Moves: []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}},
			steps: []step{{bot: "draw"}}, status: "draw"},
		{name: "draw/yes elsewhere is an offer", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "draw"}}, status: "started", wdraw: true},
		{name: "offer with a move, declined by the reply", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "g1f3", offer: true, opponent: "b8c6"}},
			status: "started"},
		{name: "offer with a move, accepted", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "g1f3", offer: true, opponent: "offer"}},
			status: "draw"},
		{name: "opponent's offer accepted by draw/yes", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "g1f3", opponent: "offer b8c6"}, {bot: "draw"}},
			status: "draw"},
		{name: "opponent's offer shows as bdraw", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "g1f3", opponent: "offer b8c6"}},
			status: "started", bdraw: true},
		{name: "a move declines the opponent's offer", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "g1f3", opponent: "offer b8c6"}, {bot: "b1c3"}},
			status: "started"},
		{name: "mate", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "f1c4", opponent: "b8c6"}, {bot: "d1h5", opponent: "g8f6"}, {bot: "h5f7"}},
			status: "mate", winner: "white"},
		{name: "fifty moves", spec: fakelichess.GameSpec{InitialFEN: "4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80"}, steps: []step{{bot: "a1a2"}}, status: "draw"},
		{name: "insufficient material", spec: fakelichess.GameSpec{InitialFEN: "4k3/8/8/8/8/8/8/r3K3 w - - 0 80", Moves: []string{"e1d2", "e8e7"}},
			steps: []step{{bot: "d2c2", opponent: "a1a2"}, {bot: "c2c3", opponent: "a2a3"}, {bot: "c3b4", opponent: "a3a8"}}, status: "started"},
		{name: "insufficient material after a capture", spec: fakelichess.GameSpec{InitialFEN: "4k3/8/8/8/8/8/1K6/r7 w - - 0 80"},
			steps: []step{{bot: "b2a1"}}, status: "draw"},
		{name: "stalemate", spec: fakelichess.GameSpec{InitialFEN: "k7/8/8/1Q6/8/8/8/4K3 w - - 0 1"}, steps: []step{{bot: "b5b6"}}, status: "stalemate"},
		{name: "resign", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "resign"}}, status: "resign", winner: "black"},
		{name: "resign before two plies aborts", steps: []step{{bot: "resign"}}, status: "aborted"},
		{name: "abort", steps: []step{{bot: "e2e4", opponent: "e7e5"}, {bot: "abort"}}, status: "started", wantErr: "no longer be aborted"},
		{name: "opponent resigns", steps: []step{{bot: "e2e4", opponent: "resign"}}, status: "resign", winner: "white"},
		{name: "castling written king-to-rook, accepted both ways",
			spec:  fakelichess.GameSpec{Moves: []string{"e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"}},
			steps: []step{{bot: "e1g1", opponent: "e8h8"}}, status: "started", moves: "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1 e8h8"},
		{name: "not the bot's turn", steps: []step{{bot: "e2e4"}, {bot: "d2d4"}}, status: "started", wantErr: "Not your turn"},
		{name: "illegal move", steps: []step{{bot: "e2e5"}}, status: "started", wantErr: "cannot move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake, c, ctx := setup(t, fakelichess.Options{})
			g := fake.MustNewGame(tc.spec)
			var err error
			for _, s := range tc.steps {
				switch s.bot {
				case "draw":
					err = c.Draw(ctx, g.ID(), true)
				case "resign":
					err = c.Resign(ctx, g.ID())
				case "abort":
					err = c.Abort(ctx, g.ID())
				default:
					err = c.Move(ctx, g.ID(), s.bot, s.offer)
				}
				if err != nil {
					break
				}
				switch s.opponent {
				case "":
				case "offer":
					g.OpponentOfferDraw()
				case "offer b8c6":
					g.OpponentOfferDraw()
					if err := g.OpponentMove("b8c6"); err != nil {
						t.Fatal(err)
					}
				case "resign":
					g.OpponentResign()
				default:
					if err := g.OpponentMove(s.opponent); err != nil {
						t.Fatal(err)
					}
				}
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			st := g.State()
			if st.Status != tc.status || st.Winner != tc.winner || st.WDraw != tc.wdraw || st.BDraw != tc.bdraw {
				t.Errorf("state %+v, want status %s winner %q wdraw %v bdraw %v", st, tc.status, tc.winner, tc.wdraw, tc.bdraw)
			}
			if tc.moves != "" && strings.Join(st.Moves, " ") != tc.moves {
				t.Errorf("moves %q, want %q", strings.Join(st.Moves, " "), tc.moves)
			}
		})
	}
}

// The stream shows draw flags only when true by default, and always in the
// legacy form; castling as e1g1 in the legacy castling form.
func TestStreamForms(t *testing.T) {
	tests := []struct {
		name string
		opts fakelichess.Options
		want []string
	}{
		{"current", fakelichess.Options{}, []string{`"moves":"e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1","wtime":2147483647,"btime":2147483647,"winc":0,"binc":0,"wdraw":true,"status":"started"`}},
		{"legacy", fakelichess.Options{LegacyCastling: true, LegacyDrawFields: true},
			[]string{`"moves":"e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1","wtime":2147483647,"btime":2147483647,"winc":0,"binc":0,"wdraw":true,"bdraw":false,"wtakeback":false,"btakeback":false,"status":"started"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake, c, ctx := setup(t, tc.opts)
			g := fake.MustNewGame(fakelichess.GameSpec{Moves: []string{"e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"}})
			if err := c.Move(ctx, g.ID(), "e1h1", true); err != nil {
				t.Fatal(err)
			}
			sctx, cancel := context.WithCancel(ctx)
			defer cancel()
			req, _ := http.NewRequestWithContext(sctx, http.MethodGet, fake.URL+"/api/bot/game/stream/"+g.ID(), nil)
			req.Header.Set("Authorization", "Bearer "+fakelichess.BotToken)
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			line, err := bufio.NewReader(resp.Body).ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(line, `"type":"gameFull"`) || !strings.Contains(line, tc.want[0]) {
				t.Errorf("gameFull %s\nwant it to contain %s", line, tc.want[0])
			}
			cancel()
		})
	}
}

// A request outside the prefix fails, so absolute-URL bugs show.
func TestPrefixIsEnforced(t *testing.T) {
	fake, _, ctx := setup(t, fakelichess.Options{Prefix: "/under/here"})
	if !strings.HasSuffix(fake.URL, "/under/here") {
		t.Fatalf("URL %s", fake.URL)
	}
	root := strings.TrimSuffix(fake.URL, "/under/here")
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	for _, u := range []string{root + "/api/account", fake.URL + "/api/account"} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		req.Header.Set("Authorization", "Bearer "+fakelichess.BotToken)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusOK
		if u == root+"/api/account" {
			want = http.StatusNotFound
		}
		if resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", u, resp.StatusCode, want)
		}
	}
}

// The token endpoint checks the PKCE verifier, the client and the
// redirect, and a code works once.
func TestOAuthChecksTheVerifier(t *testing.T) {
	fake, _, ctx := setup(t, fakelichess.Options{})
	hc := &http.Client{Transport: &http.Transport{}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer hc.CloseIdleConnections()
	verifier := "a-verifier-that-is-long-enough-0123456789-abcdefghijkl"
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	authorize := func() string {
		q := url.Values{"response_type": {"code"}, "client_id": {"threefold"}, "redirect_uri": {"http://127.0.0.1:9/cb"},
			"code_challenge_method": {"S256"}, "code_challenge": {challenge}, "scope": {"bot:play"}, "state": {"st"}}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fake.URL+"/oauth?"+q.Encode(), nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if err != nil || resp.StatusCode != http.StatusSeeOther || loc.Query().Get("state") != "st" || loc.Host != "127.0.0.1:9" {
			t.Fatalf("authorize: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		return loc.Query().Get("code")
	}
	exchange := func(code, verifier, client string) int {
		f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier},
			"redirect_uri": {"http://127.0.0.1:9/cb"}, "client_id": {client}}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, fake.URL+"/api/token", strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	tests := []struct {
		name     string
		verifier string
		client   string
		reuse    bool
		want     int
	}{
		{"wrong verifier", "another-verifier-0123456789-0123456789-0123456789", "threefold", false, 400},
		{"wrong client", verifier, "someone-else", false, 400},
		{"right", verifier, "threefold", false, 200},
		{"code used twice", verifier, "threefold", true, 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code := authorize()
			if tc.reuse {
				exchange(code, verifier, "threefold")
			}
			if got := exchange(code, tc.verifier, tc.client); got != tc.want {
				t.Errorf("status %d, want %d", got, tc.want)
			}
		})
	}
}

// A challenge accepted becomes a game in which the challenger follows its
// script, waiting on the server's clock where the script says so.
func TestScriptedChallengeWithWaits(t *testing.T) {
	clk := clock.NewFake(time.Time{})
	fake := fakelichess.New(fakelichess.Options{Clock: clk})
	c := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: fakelichess.BotToken, Clock: clk})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer func() { cancel(); c.Close(); fake.Close() }()
	id := fake.Challenge(fakelichess.ChallengeSpec{Color: "white", ClockLimit: 300, ClockIncrement: 3,
		Script: []fakelichess.Step{{Move: "e2e4"}, {Wait: 10 * time.Second, Chat: "thinking", Move: "g1f3"}}})
	if st, _ := fake.ChallengeStatus(id); st != "created" {
		t.Fatalf("challenge status %q", st)
	}
	if err := c.AcceptChallenge(ctx, id); err != nil {
		t.Fatal(err)
	}
	g := fake.Game(id)
	if got := strings.Join(g.State().Moves, " "); got != "e2e4" {
		t.Fatalf("after accept: %q", got)
	}
	if err := c.Move(ctx, id, "e7e5", false); err != nil {
		t.Fatal(err)
	}
	if err := clk.WaitTimer(ctx, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	clk.Advance(9 * time.Second)
	if got := len(g.State().Moves); got != 2 {
		t.Fatalf("the opponent moved early: %v", g.State().Moves)
	}
	clk.Advance(time.Second)
	if err := fake.WaitFor(ctx, func() bool { return len(g.State().Moves) == 3 }); err != nil {
		t.Fatal(err)
	}
	if chat := g.Chat(); len(chat) != 1 || chat[0].Text != "thinking" || chat[0].User != fakelichess.Opponent {
		t.Errorf("chat %+v", chat)
	}
	if st, _ := fake.ChallengeStatus(id); st != "accepted" {
		t.Errorf("challenge status %q", st)
	}
	// Declining another one records the reason.
	id2 := fake.Challenge(fakelichess.ChallengeSpec{})
	if err := c.DeclineChallenge(ctx, id2, lichess.DeclineTooSlow); err != nil {
		t.Fatal(err)
	}
	if st, reason := fake.ChallengeStatus(id2); st != "declined" || reason != "tooSlow" {
		t.Errorf("declined challenge: %s %s", st, reason)
	}
}
