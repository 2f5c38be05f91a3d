package lichess_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// contractEnv is a fake Lichess whose every exchange with the clients goes
// through a contract check.
type contractEnv struct {
	k     *contract
	fake  *fakelichess.Server
	bot   *lichess.Client // BotToken: bot:play, challenge:read, challenge:write
	watch *lichess.Client // WatchToken: study:read
	anon  *lichess.Client
	ctx   context.Context
}

func newContractEnv(t *testing.T) *contractEnv {
	t.Helper()
	k := loadContract(t)
	fake := fakelichess.New(fakelichess.Options{})
	k.fake = fake
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	hc := &http.Client{Transport: k}
	mk := func(tok string) *lichess.Client {
		return lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: tok, HTTPClient: hc, Logger: slog.New(slog.DiscardHandler),
			Backoff: lichess.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}})
	}
	e := &contractEnv{k: k, fake: fake, bot: mk(fakelichess.BotToken), watch: mk(fakelichess.WatchToken), anon: mk(""), ctx: ctx}
	t.Cleanup(func() {
		cancel()
		e.bot.Close()
		e.watch.Close()
		e.anon.Close()
		fake.Close()
	})
	return e
}

// firstEvents reads a stream until fn has seen n items, then ends it.
func firstEvents[T any](ctx context.Context, n int, stream func(context.Context, func(T) error) error) ([]T, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var got []T
	stop := errors.New("enough")
	err := stream(ctx, func(v T) error {
		got = append(got, v)
		if len(got) >= n {
			return stop
		}
		return nil
	})
	if errors.Is(err, stop) {
		err = nil
	}
	return got, err
}

// TestContract runs every endpoint the client calls, against the fake,
// through the official description: zero violations. The description is
// the contract; where the fake or the client disagree with it, they are
// wrong.
func TestContract(t *testing.T) {
	e := newContractEnv(t)
	ctx, must := e.ctx, func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	// Tokens and account.
	_, err := e.bot.CheckScopes(ctx, lichess.ScopeBotPlay, lichess.ScopeChallengeRead)
	must("check the bot's scopes", err)
	_, err = e.watch.CheckScopes(ctx, lichess.ScopeStudyRead)
	must("check the watcher's scopes", err)

	// The bot: challenges, a game, its stream and every command.
	e.fake.Challenge(fakelichess.ChallengeSpec{ID: "chDecl01"})
	ch := e.fake.Challenge(fakelichess.ChallengeSpec{ID: "chAcpt01", Color: "black", ClockLimit: 300, ClockIncrement: 2,
		Script: []fakelichess.Step{{Move: "e7e5", Chat: "hello"}, {Move: "g8f6"}}})
	_, _, err = e.bot.Challenges(ctx)
	must("list challenges", err)
	_, err = firstEvents(ctx, 2, e.bot.StreamEvents)
	must("event stream", err)
	must("decline", e.bot.DeclineChallenge(ctx, "chDecl01", lichess.DeclineTooFast))
	must("accept", e.bot.AcceptChallenge(ctx, ch))
	_, err = e.bot.Playing(ctx)
	must("playing", err)
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(lichess.GameEvent) error) error {
		return e.bot.StreamBotGame(ctx, ch, fn)
	})
	must("bot game stream", err)
	_, err = e.bot.GameChatLines(ctx, ch) // what the stream asks after a reconnect
	must("chat history", err)
	must("move", e.bot.Move(ctx, ch, "e2e4", false))
	must("chat", e.bot.Chat(ctx, ch, lichess.RoomPlayer, "good luck"))
	must("chat to spectators", e.bot.Chat(ctx, ch, lichess.RoomSpectator, "hello all"))
	must("move offering a draw", e.bot.Move(ctx, ch, "g1f3", true))
	must("draw no", e.bot.Draw(ctx, ch, false))
	_, err = e.bot.ExportGame(ctx, ch)
	must("export game (JSON)", err)
	_, err = e.bot.ExportGamePGN(ctx, ch)
	must("export game (PGN)", err)
	g := e.fake.Game(ch)
	g.OpponentGone(true, 0)
	must("claim victory", e.bot.ClaimVictory(ctx, ch))
	gd := e.fake.MustNewGame(fakelichess.GameSpec{ID: "gmClmDrw", Moves: []string{"e2e4", "e7e5"}})
	gd.OpponentGone(true, 0)
	must("claim draw", e.bot.ClaimDraw(ctx, gd.ID()))
	gt := e.fake.MustNewGame(fakelichess.GameSpec{ID: "gmTakebk", ClockInitial: 60000,
		Script: []fakelichess.Step{{Move: "e7e5"}, {Takeback: true}, {Wait: time.Hour}}})
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(lichess.GameEvent) error) error {
		return e.bot.StreamBotGame(ctx, gt.ID(), fn) // gameFull with expiration
	})
	must("bot game stream before the first move", err)
	must("move before a takeback", e.bot.Move(ctx, gt.ID(), "e2e4", false))
	must("move before a takeback", e.bot.Move(ctx, gt.ID(), "g1f3", false))
	must("takeback no", e.bot.Takeback(ctx, gt.ID(), false))
	must("takeback yes (a proposal)", e.bot.Takeback(ctx, gt.ID(), true))
	e.fake.AddOnlineBot(fakelichess.OnlineBot{ID: "botAccepts", Script: []fakelichess.Step{{Wait: time.Hour}}})
	e.fake.AddOnlineBot(fakelichess.OnlineBot{ID: "botDeclines", Decline: lichess.DeclineTooFast})
	_, err = e.bot.OnlineBots(ctx, 50)
	must("online bots", err)
	_, err = e.bot.CreateChallenge(ctx, "botAccepts", lichess.ChallengeRequest{Clock: true, Limit: time.Minute, Color: "white", Rated: true})
	must("challenge (real time)", err)
	_, err = e.bot.CreateChallenge(ctx, "botDeclines", lichess.ChallengeRequest{Clock: true, Limit: 3 * time.Minute, Increment: 2 * time.Second})
	must("challenge (declined)", err)
	corr, err := e.bot.CreateChallenge(ctx, fakelichess.Opponent, lichess.ChallengeRequest{Days: 2, Color: "black"})
	must("challenge (correspondence)", err)
	if corr != nil {
		must("cancel challenge", e.bot.CancelChallenge(ctx, corr.ID))
	}
	g2 := e.fake.MustNewGame(fakelichess.GameSpec{ID: "gmAbort1"})
	must("abort", e.bot.Abort(ctx, g2.ID()))
	g3 := e.fake.MustNewGame(fakelichess.GameSpec{ID: "gmResgn1", Moves: []string{"e2e4", "e7e5"}})
	must("draw yes", e.bot.Draw(ctx, g3.ID(), true))
	must("resign", e.bot.Resign(ctx, g3.ID()))
	e.fake.AddUser("newbie", "Newbie", "")
	e.fake.AddToken("lip_newbieToken", "newbie", lichess.ScopeBotPlay)
	nb := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: "lip_newbieToken", HTTPClient: &http.Client{Transport: e.k}, Logger: slog.New(slog.DiscardHandler)})
	must("upgrade to bot", nb.UpgradeToBot(ctx))
	must("revoke", nb.Revoke(ctx))
	nb.Close()

	// Spectating.
	sg := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "spGame01", White: "Alice", Black: "Bob", Clock: true,
		Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}})
	_, err = firstEvents(ctx, 3, func(ctx context.Context, fn func(lichess.SpectatorEvent) error) error {
		return e.anon.StreamGame(ctx, sg.ID(), fn)
	})
	must("spectator stream", err)
	_, err = e.anon.ExportGame(ctx, sg.ID())
	must("export an ongoing game (JSON, 3 plies held back)", err)
	_, err = e.anon.ExportGamePGN(ctx, sg.ID())
	must("export an ongoing game (PGN, 3 plies held back)", err)
	// A game followed to its end under the 3-move delay, whose stream
	// jumps to the final position: the client fills in from the export.
	jg := e.fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "spJump01", White: "Carol", Black: "Dave", Clock: true, ReleaseJump: true,
		Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "e1g1", "d7d6"}})
	seen := make(chan int, 64)
	jumped := make(chan error, 1)
	go func() {
		jumped <- e.anon.StreamGame(ctx, jg.ID(), func(ev lichess.SpectatorEvent) error {
			if ev.Position != nil {
				seen <- ev.Position.Ply
			}
			return nil
		})
	}()
	for ply := range seen {
		if ply == 10-lichess.DelayPlies {
			break
		}
	}
	jg.Finish(lichess.StatusResign, "black")
	must("spectator stream to the end, filled in from the export", <-jumped)
	_, err = e.anon.CurrentGame(ctx, "alice")
	must("current game (ongoing, 3 plies held back)", err)
	_, err = e.anon.CurrentGame(ctx, "carol")
	must("current game (the last one, finished)", err)
	e.fake.PublishGame(fakelichess.Summary{ID: "spGame01", White: "alice", Black: "bob"})
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(lichess.GameSummary) error) error {
		return e.anon.StreamGamesByUsers(ctx, []string{"alice", "bob"}, fn)
	})
	must("games by users", err)
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(lichess.GameSummary) error) error {
		return e.anon.StreamGamesByIDs(ctx, "streamAb", []string{"spGame01"}, func(sum lichess.GameSummary) error {
			must("add games to a games-by-ids stream", e.anon.AddGameIDs(ctx, "streamAb", []string{"spJump01"}))
			return fn(sum)
		})
	})
	must("games by ids", err)
	tv := e.fake.TV("")
	tv.Feature("")
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(lichess.TVEvent) error) error { return e.anon.StreamTV(ctx, "", fn) })
	must("tv", err)
	e.fake.TV("blitz").Feature("")
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(lichess.TVEvent) error) error {
		return e.anon.StreamTV(ctx, "blitz", fn)
	})
	must("tv channel", err)

	// Broadcasts, with the watcher's study:read token.
	b := e.fake.Broadcast("rndCtr01").SetTour("tourCtr1")
	b.SetPGN(recordedText("broadcast-round.pgn"))
	_, err = e.watch.BroadcastRound(ctx, "rndCtr01")
	must("broadcast round", err)
	_, err = e.watch.BroadcastRoundPGN(ctx, "rndCtr01")
	must("broadcast round PGN", err)
	_, err = e.watch.BroadcastTour(ctx, "tourCtr1")
	must("broadcast tour", err)
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(string) error) error {
		return e.watch.StreamBroadcastRound(ctx, "rndCtr01", fn)
	})
	must("broadcast round stream", err)
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(string) error) error {
		return e.watch.StreamBroadcastTour(ctx, "tourCtr1", fn)
	})
	must("broadcast tour stream", err)
	e.fake.Group("grpCtr01", "Group", "tourCtr1")
	_, err = firstEvents(ctx, 1, func(ctx context.Context, fn func(string) error) error {
		return e.watch.StreamBroadcastGroup(ctx, "grpCtr01", fn)
	})
	must("broadcast group stream", err)
	// Finding what to watch (threefold broadcasts).
	e.fake.DescribeTour("tourCtr1", fakelichess.TourSpec{Name: "Contract Open", Tier: 4, Official: true, Owner: "arbiter"})
	e.fake.Broadcast("rndCtrOl").SetTour("tourCtrO").Finish()
	e.fake.DescribeTour("tourCtrO", fakelichess.TourSpec{Name: "Old Contract Open", Official: true})
	_, err = e.anon.OfficialBroadcasts(ctx, 20, false)
	must("official broadcasts", err)
	_, err = e.watch.OfficialBroadcasts(ctx, 1, true)
	must("official broadcasts, live", err)
	_, err = e.anon.TopBroadcasts(ctx, 1)
	must("top broadcasts", err)
	_, err = e.anon.SearchBroadcasts(ctx, "contract", 1)
	must("search broadcasts", err)
	_, err = e.watch.UserBroadcasts(ctx, "arbiter", 1)
	must("a user's broadcasts", err)

	// OAuth: the authorisation page and the code exchange.
	br := &browser{hc: &http.Client{Transport: e.k}}
	defer br.close()
	_, err = lichess.Login(ctx, lichess.LoginOptions{BaseURL: e.fake.URL, Scopes: []string{lichess.ScopeStudyRead}, OpenBrowser: br.open,
		HTTPClient: &http.Client{Transport: e.k}})
	must("login", err)

	e.k.report()
	e.k.checkEveryPathExercised()
	e.k.checkExercised(clientOperations)
}

// clientOperations: every operation of the description the client uses
// (the README's list), each of which TestContract must exercise.
var clientOperations = []string{
	"POST /api/token/test", "GET /api/account", "GET /api/account/playing", "GET /api/stream/event", "GET /api/challenge",
	"POST /api/challenge/{challengeId}/accept", "POST /api/challenge/{challengeId}/decline",
	"GET /api/bot/game/stream/{gameId}", "POST /api/bot/game/{gameId}/move/{move}",
	"GET /api/bot/game/{gameId}/chat", "POST /api/bot/game/{gameId}/chat",
	"POST /api/bot/game/{gameId}/draw/{accept}", "POST /api/bot/game/{gameId}/takeback/{accept}",
	"POST /api/bot/game/{gameId}/resign", "POST /api/bot/game/{gameId}/abort",
	"POST /api/bot/game/{gameId}/claim-victory", "POST /api/bot/game/{gameId}/claim-draw",
	"POST /api/bot/account/upgrade", "GET /api/bot/online", "POST /api/challenge/{username}",
	"POST /api/challenge/{challengeId}/cancel",
	"GET /api/stream/game/{id}", "POST /api/stream/games-by-users", "POST /api/stream/games/{streamId}",
	"POST /api/stream/games/{streamId}/add",
	"GET /api/tv/feed", "GET /api/tv/{channel}/feed", "GET /game/export/{gameId}", "GET /api/user/{username}/current-game",
	"GET /api/broadcast/{broadcastTournamentId}",
	"GET /api/broadcast/{broadcastTournamentSlug}/{broadcastRoundSlug}/{broadcastRoundId}",
	"GET /api/broadcast/round/{broadcastRoundId}.pgn",
	"GET /api/stream/broadcast/round/{broadcastRoundId}.pgn", "GET /api/stream/broadcast/tour/{broadcastTourId}.pgn",
	"GET /api/stream/broadcast/group/{broadcastGroupId}.pgn",
	"GET /api/broadcast", "GET /api/broadcast/top", "GET /api/broadcast/search", "GET /api/broadcast/by/{username}",
	"GET /oauth", "POST /api/token", "DELETE /api/token",
}

// checkExercised fails for every operation of ops that no request reached.
func (k *contract) checkExercised(ops []string) {
	k.t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, op := range ops {
		if k.ops[op] == 0 {
			k.t.Errorf("%s was not exercised", op)
		}
	}
}

// The check fails where it must: an answer of the fake that lacks a field
// the description requires, and a bot's token sent to a broadcast
// endpoint (which declares study:read).
func TestContractCatchesViolations(t *testing.T) {
	t.Run("required field missing from an answer", func(t *testing.T) {
		e := newContractEnv(t)
		e.fake.Inject(fakelichess.Fault{Method: http.MethodGet, Path: "/api/account", Status: http.StatusOK,
			Body: `{"username":"ThreefoldBot","perfs":{}}`}) // no "id"
		_, _ = e.bot.Account(e.ctx)
		assertViolation(t, e.k, "id")
	})
	t.Run("bot token on a broadcast endpoint", func(t *testing.T) {
		e := newContractEnv(t)
		e.fake.AddToken(fakelichess.BotToken, fakelichess.BotUser, lichess.ScopeBotPlay, lichess.ScopeStudyRead) // so the fake serves it
		e.fake.Broadcast("rndBotTk").SetPGN(recordedText("broadcast-round.pgn"))
		e.fake.AddToken("lip_botOnly", fakelichess.BotUser, lichess.ScopeBotPlay)
		c := lichess.NewClient(lichess.Options{BaseURL: e.fake.URL, Token: "lip_botOnly", HTTPClient: &http.Client{Transport: e.k}, Logger: slog.New(slog.DiscardHandler)})
		defer c.Close()
		_, _ = c.BroadcastRound(e.ctx, "rndBotTk")
		assertViolation(t, e.k, "study:read")
	})
}

// The challenge body is checked too (see checkTypedForm): a real-time
// challenge without its increment, a correspondence one with days Lichess
// does not offer.
func TestContractChecksChallengeBodies(t *testing.T) {
	for _, body := range []string{"clock.limit=60&rated=true", "days=4"} {
		t.Run(body, func(t *testing.T) {
			e := newContractEnv(t)
			req, _ := http.NewRequestWithContext(e.ctx, http.MethodPost, e.fake.URL+"/api/challenge/"+fakelichess.Opponent, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Authorization", "Bearer "+fakelichess.BotToken)
			resp, err := (&http.Client{Transport: e.k}).Do(req)
			if err == nil {
				resp.Body.Close()
			}
			assertViolation(t, e.k, "request POST /api/challenge/")
		})
	}
}

func assertViolation(t *testing.T, k *contract, want string) {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, f := range k.faults {
		if strings.Contains(f, want) {
			t.Logf("caught, as it must be: %s", f)
			return
		}
	}
	t.Errorf("no violation mentioning %q; got %q", want, k.faults)
}

// checkEveryPathExercised reads the client's source (this package's
// non-test files) and checks that every path piece it sends Lichess (a
// string literal starting with "/", such as "/api/bot/game/" or
// "/claim-draw") is part of a path TestContract requested: an endpoint
// added to the client without a call here fails the test.
func (k *contract) checkEveryPathExercised() {
	k.t.Helper()
	pieces, err := clientPathLiterals(".")
	if err != nil {
		k.t.Fatal(err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, piece := range pieces {
		if piece == "/callback" {
			continue // login's own listener: Lichess only gets its URL, as redirect_uri
		}
		if !slices.ContainsFunc(k.paths, func(p string) bool { return strings.Contains(p, piece) }) {
			k.t.Errorf("the client sends %q, which no request of TestContract had: add the call", piece)
		}
	}
}

// clientPathLiterals returns the string literals of the non-test Go files
// of dir that start with "/" followed by a letter: the pieces of the paths
// the client sends.
func clientPathLiterals(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || len(s) < 2 || s[0] != '/' || !unicode.IsLetter(rune(s[1])) || strings.ContainsAny(s, " %") || seen[s] {
				return true
			}
			seen[s] = true
			out = append(out, s)
			return true
		})
	}
	sort.Strings(out)
	return out, nil
}
