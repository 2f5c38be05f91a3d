// Package fakelichess is an offline Lichess, for tests and the demo.
//
// It is a local HTTP server, mounted under a path prefix (so a client that
// builds absolute URLs fails), that speaks the endpoints package lichess
// uses and answers in Lichess's payload shapes (payloads.go, our own
// values; the tests compare the shapes with the examples of the official
// API description in lichess/testdata/recorded, which are test fixtures
// and never built into the program). It keeps real
// keep-alive intervals on an injectable clock (share a clock.Fake with the
// client to drive keep-alives, watchdogs, backoff and 429 pauses), plays
// scripted games by the rules of package rules (the bot under test plays
// one side through the bot API; the fake checks it is that side's turn and
// the move is legal, and the scripted opponent answers; a game ends by mate,
// stalemate, resignation, agreement, and, as Lichess does when a BOT plays,
// by an automatic draw at the first threefold, at fivefold, at 50 moves
// (100 plies) and on insufficient material, all reported as status "draw";
// draw/yes on a threefold position ends the game, otherwise it records an
// offer), serves spectator games (under Lichess's 3-move delay, with the
// held positions released at the end one line each or as a jump to the
// final position; exported by /game/export/{id} with the last plies held
// back while they are on), games-by-users/ids, TV and broadcast rounds the
// test advances move by move, records every request, enforces
// one event stream per user and the per-IP stream limits, and injects
// faults: any status (429 with or without a ratelimit body, a 5xx burst)
// on any call, a held answer, and on streams a cut connection, silence, or
// a truncated line (see Fault). OAuth is there too: /oauth redirects with a
// code, /api/token checks the PKCE verifier, DELETE /api/token revokes.
//
// The parts, by use:
//
//   - accounts: BotUser/BotToken (a BOT with bot:play), WatchUser/WatchToken
//     (study:read), Opponent (no token); AddUser, AddToken, TokenValid,
//     TokenScopes.
//   - bot play: NewGame(GameSpec) with a Script of Steps for the opponent;
//     Game.OpponentMove/OpponentChat/OpponentOfferDraw/OpponentResign/
//     OpponentGone/Finish drive it by hand; Game.State and Game.Chat for
//     assertions; Challenge(ChallengeSpec), CancelChallenge,
//     ChallengeStatus; SendEvent and Game.SendRaw feed recorded lines;
//     KillEventStreams and Game.KillStreams close streams as a second
//     stream would.
//   - watching: SpectatorGame(SpectatorSpec).Move/Finish, SetRawGame,
//     PublishGame(Summary) for games-by-users/ids, TV(channel).Feature/Move,
//     Broadcast(roundID).SetPGN/AppendMove/SetResult/Finish/SetTour,
//     SetExport.
//   - assertions and faults: Requests, RequestsTo, MaxInFlight, Streams,
//     WaitFor (wakes on every change of the fake), Inject, RateLimited,
//     ServerErrors, ClearFaults, KillStreams.
//
// A bot test, typically:
//
//	clk := clock.NewFake(time.Time{})
//	fake := fakelichess.New(fakelichess.Options{Clock: clk})
//	defer fake.Close()
//	c := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: fakelichess.BotToken,
//		Account: fakelichess.BotUser, Clock: clk})
//	defer c.Close()
//	id := fake.Challenge(fakelichess.ChallengeSpec{Color: "black", // the challenger plays black
//		Script: []fakelichess.Step{{Move: "e7e5"}, {Wait: 5 * time.Second, Chat: "hi", Move: "g8f6"}}})
//	// ... the bot accepts id from its event stream and plays e2e4 ...
//	err := fake.WaitFor(ctx, func() bool { g := fake.Game(id); return g != nil && len(g.State().Moves) >= 2 })
//	clk.Advance(5 * time.Second) // the scripted opponent's second move
//
// A watcher test:
//
//	b := fake.Broadcast("round1")
//	b.SetPGN(roundPGN) // e.g. a recorded round of lichess/testdata/recorded
//	b.AppendMove("5rsW2cRb", "Nf3") // the listener gets the whole PGN of that game again
//	g := fake.MustSpectatorGame(fakelichess.SpectatorSpec{ID: "abcd1234", White: "A", Black: "B"})
//	g.Move("g1f3")
//	fake.Inject(fakelichess.Fault{Path: "/api/stream/game/*", Disconnect: true, AfterLines: 2})
package fakelichess
