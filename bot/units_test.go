package bot

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

func TestTrackerSync(t *testing.T) {
	tr, err := newTracker("startpos", "")
	if err != nil {
		t.Fatal(err)
	}
	ev, rebuilt, err := tr.sync("g1f3 g8f6", true)
	if err != nil || rebuilt || len(ev) != 0 || tr.ply() != 2 {
		t.Fatalf("first sync: ev %v rebuilt %v err %v ply %d", ev, rebuilt, err, tr.ply())
	}
	ev, rebuilt, err = tr.sync("g1f3 g8f6 f3g1 f6g8", false)
	if err != nil || rebuilt || tr.ply() != 4 {
		t.Fatalf("extend: rebuilt %v err %v ply %d", rebuilt, err, tr.ply())
	}
	if len(ev) != 1 || ev[0].Ply != 4 || ev[0].Count != 2 || !reflect.DeepEqual(ev[0].Occurrences, []int{0, 4}) ||
		ev[0].Move != "2... Ng8" || ev[0].Claimant != rules.White {
		t.Fatalf("events %+v", ev)
	}
	// The same list again changes nothing.
	if ev, rebuilt, _ := tr.sync("g1f3 g8f6 f3g1 f6g8", false); ev != nil || rebuilt {
		t.Fatal("same list reported something")
	}
	// A takeback: the list no longer extends the old one.
	ev, rebuilt, err = tr.sync("g1f3 g8f6 f3g1", false)
	if err != nil || !rebuilt || tr.ply() != 3 || len(ev) != 0 {
		t.Fatalf("takeback: ev %v rebuilt %v err %v ply %d", ev, rebuilt, err, tr.ply())
	}
	// A prefix that is not a whole move ("g1f3 g8f" vs "g1f3 g8f6") is a mismatch.
	tr2 := trackerAt(t, "", "g1f3 g8f6")
	if _, rebuilt, _ := tr2.sync("g1f3 g8f6 e2e4", false); rebuilt {
		t.Fatal("extension taken for a mismatch")
	}
	// An illegal move keeps the moves before it.
	tr3 := trackerAt(t, "", "e2e4")
	if _, _, err := tr3.sync("e2e4 e7e5 e1e3", false); err == nil || tr3.ply() != 2 {
		t.Fatalf("illegal move: err %v ply %d", err, tr3.ply())
	}
	// Castling as king-to-rook, as Lichess writes it.
	tr4 := trackerAt(t, "", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1")
	if p := tr4.game.Position(); p.PieceAt(mustSquare(t, "g1")).Type() != rules.King {
		t.Fatal("e1h1 did not castle")
	}
	if tr4.san[6] != "O-O" {
		t.Fatalf("SAN of castling %q", tr4.san[6])
	}
}

func mustSquare(t *testing.T, s string) rules.Square {
	sq, err := rules.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

func TestTrackerFirstSyncReportsOnlyTheLastPly(t *testing.T) {
	tr, _ := newTracker("", "")
	ev, _, err := tr.sync(shuffle+" "+shuffle, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != 1 || ev[0].Ply != 8 || ev[0].Count != 3 {
		t.Fatalf("events %+v, want only ply 8", ev)
	}
	tr2, _ := newTracker("", "")
	ev, _, _ = tr2.sync(shuffle+" "+shuffle, false)
	var plies []int
	for _, e := range ev {
		plies = append(plies, e.Ply)
	}
	if !reflect.DeepEqual(plies, []int{4, 5, 6, 7, 8}) {
		t.Fatalf("incremental events at plies %v", plies)
	}
}

func playAll(t *testing.T, fen, moves string) *rules.Game {
	t.Helper()
	return trackerAt(t, fen, moves).game
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		moves  string
		status string
		winner string
		claims []threefold.BotClaim
		want   threefold.Termination
		occ    []int
	}{
		{"threefold automatic", "", shuffle + " " + shuffle, "draw", "", nil, threefold.TermThreefoldAutomatic, []int{0, 4, 8}},
		{"threefold claimed by draw/yes", "", shuffle + " " + shuffle, "draw", "", []threefold.BotClaim{{Ply: 8, How: "draw_yes"}}, threefold.TermThreefoldClaimed, []int{0, 4, 8}},
		{"claim at another ply does not count", "", shuffle + " " + shuffle, "draw", "", []threefold.BotClaim{{Ply: 4, How: "draw_yes"}}, threefold.TermThreefoldAutomatic, []int{0, 4, 8}},
		{"fivefold", "", strings.Repeat(shuffle+" ", 4), "draw", "", nil, threefold.TermFivefold, []int{0, 4, 8, 12, 16}},
		{"fifty moves", "8/8/8/4k3/8/8/3QKP2/8 w - - 99 80", "d2d3", "draw", "", nil, threefold.TermFiftyMoves, nil},
		{"insufficient material", "8/8/8/4k3/8/8/3nK3/8 w - - 0 1", "e2d2", "draw", "", nil, threefold.TermInsufficient, nil},
		{"agreement", "", "e2e4 e7e5", "draw", "", nil, threefold.TermAgreement, nil},
		{"checkmate", "", "f2f3 e7e5 g2g4 d8h4", "mate", "black", nil, threefold.TermCheckmate, nil},
		{"resignation", "", "e2e4", "resign", "white", nil, threefold.TermResignation, nil},
		{"time", "", "e2e4", "outoftime", "black", nil, threefold.TermTime, nil},
		{"opponent left", "", "e2e4", "timeout", "white", nil, threefold.TermOpponentLeft, nil},
		{"aborted", "", "", "aborted", "", nil, threefold.TermAborted, nil},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", "g6h6", "stalemate", "", nil, threefold.TermStalemate, nil},
		{"insufficient material claim", "", "e2e4", "insufficientMaterialClaim", "", nil, threefold.TermInsufficientClaim, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := playAll(t, tc.fen, tc.moves)
			got, occ := classify(classifyInput{Status: tc.status, Winner: tc.winner, Game: g, Claims: tc.claims})
			if got != tc.want || !reflect.DeepEqual(occ, tc.occ) {
				t.Errorf("got %s %v, want %s %v", got, occ, tc.want, tc.occ)
			}
		})
	}
}

// TestClassifyMoveCap plays a 600-ply game that no rule ends (chosen at
// random with a fixed seed, steering clear of repetitions, 50 moves,
// insufficient material and mate) and checks it is named as Lichess's
// move cap.
func TestClassifyMoveCap(t *testing.T) {
	g := longGame(t, lichessMaxPlies)
	got, _ := classify(classifyInput{Status: "draw", Game: g})
	if got != threefold.TermMoveCap {
		t.Fatalf("got %s at ply %d, want %s", got, g.Ply(), threefold.TermMoveCap)
	}
}

// longGame returns a game of n plies that no rule ends, played at random
// with a fixed seed.
func longGame(t testing.TB, n int) *rules.Game {
	for seed := uint64(1); seed < 200; seed++ {
		if g := tryLongGame(seed, n); g != nil {
			return g
		}
	}
	t.Fatal("no long game found")
	return nil
}

func tryLongGame(seed uint64, n int) *rules.Game {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := rules.NewGame(rules.StartPosition())
	for g.Ply() < n {
		pos := g.Position()
		var ok []rules.Move
		var irreversible []rules.Move
		for _, m := range pos.LegalMoves(nil) {
			next := pos
			next.Play(m)
			if next.InsufficientMaterial() || !next.HasLegalMove() {
				continue
			}
			if len(g.OccurrencesOf(m)) >= 2 {
				continue
			}
			// Keep material on the board: captures only now and then.
			if pos.IsCapture(m) && rng.IntN(4) != 0 {
				continue
			}
			ok = append(ok, m)
			if pos.PieceAt(m.From()).Type() == rules.Pawn || pos.IsCapture(m) {
				irreversible = append(irreversible, m)
			}
		}
		if pos.HalfmoveClock() > 60 && len(irreversible) > 0 {
			ok = irreversible
		}
		if len(ok) == 0 || pos.HalfmoveClock() >= 98 {
			return nil
		}
		_ = g.Play(ok[rng.IntN(len(ok))])
	}
	v := g.Verdict()
	if v.Count >= 3 || v.FiftyMoves || v.InsufficientMaterial || v.Checkmate || v.Stalemate {
		return nil
	}
	return g
}

func TestDecideChallenge(t *testing.T) {
	cfg := DefaultConfig().Challenge
	cfg.Block = []string{"Troll"}
	human := &lichess.ChallengeUser{ID: "alice", Name: "Alice"}
	botUser := &lichess.ChallengeUser{ID: "otherbot", Name: "OtherBot", Title: "BOT"}
	clock := func(limit, inc int) lichess.TimeControl {
		return lichess.TimeControl{Type: "clock", Limit: limit, Increment: inc}
	}
	base := func(mod func(*lichess.Challenge)) *lichess.Challenge {
		c := &lichess.Challenge{ID: "c1", Challenger: human, Variant: lichess.Variant{Key: "standard"}, TimeControl: clock(300, 3), Rated: true}
		if mod != nil {
			mod(c)
		}
		return c
	}
	tests := []struct {
		name    string
		cfg     func(*ChallengeConfig)
		ch      *lichess.Challenge
		running int
		stop    bool
		reason  string // "" means accepted
	}{
		{"standard blitz accepted", nil, base(nil), 0, false, ""},
		{"from position accepted", nil, base(func(c *lichess.Challenge) {
			c.Variant.Key = "fromPosition"
			c.InitialFEN = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
		}), 0, false, ""},
		{"chess960 accepted", nil, base(func(c *lichess.Challenge) {
			c.Variant.Key = "chess960"
			c.InitialFEN = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1"
		}), 0, false, ""},
		{"chess960 declined when not listed", func(c *ChallengeConfig) { c.Variants = []string{"standard", "fromPosition"} },
			base(func(c *lichess.Challenge) { c.Variant.Key = "chess960" }), 0, false, "variant"},
		{"crazyhouse declined", nil, base(func(c *lichess.Challenge) { c.Variant.Key = "crazyhouse" }), 0, false, "variant"},
		{"atomic declined", nil, base(func(c *lichess.Challenge) { c.Variant.Key = "atomic" }), 0, false, "variant"},
		{"variant declined as standard-only", func(c *ChallengeConfig) { c.Variants = []string{"standard"} },
			base(func(c *lichess.Challenge) { c.Variant.Key = "fromPosition" }), 0, false, "standard"},
		{"bad initial FEN", nil, base(func(c *lichess.Challenge) {
			c.Variant.Key = "fromPosition"
			c.InitialFEN = "not a fen"
		}), 0, false, "variant"},
		{"too fast", nil, base(func(c *lichess.Challenge) { c.TimeControl = clock(30, 0) }), 0, false, "tooFast"},
		{"too slow", nil, base(func(c *lichess.Challenge) { c.TimeControl = clock(4*3600, 0) }), 0, false, "tooSlow"},
		{"increment too big", nil, base(func(c *lichess.Challenge) { c.TimeControl = clock(600, 300) }), 0, false, "tooSlow"},
		{"increment too small", func(c *ChallengeConfig) { c.MinIncrement = 2 * time.Second },
			base(func(c *lichess.Challenge) { c.TimeControl = clock(600, 0) }), 0, false, "tooFast"},
		{"correspondence accepted", nil, base(func(c *lichess.Challenge) {
			c.TimeControl = lichess.TimeControl{Type: "correspondence", DaysPerTurn: 3}
		}), 0, false, ""},
		{"correspondence declined", func(c *ChallengeConfig) { c.Correspondence = false }, base(func(c *lichess.Challenge) {
			c.TimeControl = lichess.TimeControl{Type: "unlimited"}
		}), 0, false, "timeControl"},
		{"rated declined", func(c *ChallengeConfig) { c.Rated = false }, base(nil), 0, false, "casual"},
		{"casual declined", func(c *ChallengeConfig) { c.Casual = false }, base(func(c *lichess.Challenge) { c.Rated = false }), 0, false, "rated"},
		{"bot declined", func(c *ChallengeConfig) { c.Bots = false }, base(func(c *lichess.Challenge) { c.Challenger = botUser }), 0, false, "noBot"},
		{"human declined", func(c *ChallengeConfig) { c.Humans = false }, base(nil), 0, false, "onlyBot"},
		{"bot accepted", nil, base(func(c *lichess.Challenge) { c.Challenger = botUser }), 0, false, ""},
		{"blocked", nil, base(func(c *lichess.Challenge) { c.Challenger = &lichess.ChallengeUser{ID: "troll"} }), 0, false, "generic"},
		{"not on the allow list", func(c *ChallengeConfig) { c.Allow = []string{"bob"} }, base(nil), 0, false, "generic"},
		{"on the allow list", func(c *ChallengeConfig) { c.Allow = []string{"ALICE"} }, base(nil), 0, false, ""},
		{"too many games", nil, base(nil), 2, false, "later"},
		{"stopping", nil, base(nil), 0, true, "later"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			if tc.cfg != nil {
				tc.cfg(&c)
			}
			d := c.DecideChallenge(tc.ch, tc.running, tc.stop)
			if tc.reason == "" {
				if !d.Accept {
					t.Fatalf("declined (%s: %s), want accepted", d.Reason, d.Why)
				}
				return
			}
			if d.Accept || d.Reason != tc.reason {
				t.Fatalf("accept %v reason %q (%s), want declined with %q", d.Accept, d.Reason, d.Why, tc.reason)
			}
		})
	}
}

func TestRenderChat(t *testing.T) {
	v := ChatVars{Me: "threefoldbot", Opponent: "alice", Move: "23. Nf3", Plies: "10, 14, 18", Claimant: "alice", Ply: 18, Count: 3}
	got := RenderChat(DefaultConfig().Chat.Third.Text, v)
	want := "After 23. Nf3 this position occurred the third time (plies 10, 14, 18): alice may claim a draw."
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	long := RenderChat("{opponent}", ChatVars{Opponent: strings.Repeat("é", 300)})
	if n := utf8.RuneCountInString(long); n != ChatMaxLen {
		t.Errorf("long line has %d characters", n)
	}
	for _, bad := range []string{"see https://example.org", "www.example.org", "{nosuch}", "{open"} {
		if checkTemplate(bad) == nil {
			t.Errorf("template %q accepted", bad)
		}
	}
	cfg := DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	cfg.Chat.Second.Room = "lobby"
	cfg.OnStop = "explode"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "lobby") || !strings.Contains(err.Error(), "explode") {
		t.Errorf("bad config: %v", err)
	}
}

type chatRecorder struct {
	lines chan string
}

func (c *chatRecorder) Chat(_ context.Context, _, room, text string) error {
	c.lines <- room + ": " + text
	return nil
}

func TestChatterSaysEachEventOnce(t *testing.T) {
	rec := &chatRecorder{lines: make(chan string, 10)}
	ch := newChatter(rec, "g1", clock.Real, 0, discardLogger())
	done := make(chan struct{})
	go func() { ch.run(context.Background()); close(done) }()
	line := ChatLine{Room: "both", Text: "twice at {plies}"}
	if !ch.say("second@4", line, ChatVars{Plies: "0, 4"}, WhileGameRuns) {
		t.Fatal("first say refused")
	}
	if ch.say("second@4", line, ChatVars{Plies: "0, 4"}, WhileGameRuns) {
		t.Fatal("second say of the same event accepted")
	}
	ch.say("x", ChatLine{Room: "none", Text: "never"}, ChatVars{}, WhileGameRuns)
	ch.close()
	<-done
	close(rec.lines)
	var got []string
	for l := range rec.lines {
		got = append(got, l)
	}
	want := []string{"player: twice at 0, 4", "spectator: twice at 0, 4"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

func TestMoveLimit(t *testing.T) {
	cfg := DefaultConfig().Engine
	tests := []struct {
		name           string
		remaining, inc time.Duration
		min, max       time.Duration
	}{
		{"blitz", 5 * time.Minute, 3 * time.Second, 7 * time.Second, 10 * time.Second},
		{"bullet", time.Minute, 0, 1 * time.Second, 2 * time.Second},
		{"almost flagged", 200 * time.Millisecond, 0, cfg.MinMoveTime, cfg.MinMoveTime},
		{"correspondence", unlimitedMS * time.Millisecond, 0, cfg.MaxMoveTime, cfg.MaxMoveTime},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := moveLimit(cfg, tc.remaining, tc.inc, 20).MoveTime
			if got < tc.min || got > tc.max {
				t.Errorf("move time %v, want within [%v, %v]", got, tc.min, tc.max)
			}
		})
	}
}

func TestBuiltinMover(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		want []string
	}{
		{"takes a free queen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", []string{"d1d5"}},
		{"mates in one", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", []string{"a1a8"}},
		{"saves its attacked queen", "4k3/8/8/8/8/2n5/8/Q3K3 w - - 0 1", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := trackerAt(t, tc.fen, "")
			res, err := (&Builtin{Seed: 1}).Search(context.Background(), SearchRequest{Game: tr.game})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !containsString(tc.want, res.Move.UCI()) {
				t.Errorf("move %s, want one of %v", res.Move.UCI(), tc.want)
			}
			// Never leave the queen where it can be taken for nothing.
			pos := tr.game.Position()
			pos.Play(res.Move)
			for _, r := range pos.LegalMoves(nil) {
				if pc := pos.PieceAt(r.To()); pc.Type() == rules.Queen && pc.Color() != pos.Turn() {
					after := pos
					after.Play(r)
					defended := false
					for _, rr := range after.LegalMoves(nil) {
						if rr.To() == r.To() {
							defended = true
						}
					}
					if !defended {
						t.Errorf("%s hangs the queen to %s", res.Move.UCI(), r.UCI())
					}
				}
			}
		})
	}
	// Deterministic for a seed.
	tr := trackerAt(t, "", "")
	a, _ := (&Builtin{Seed: 7}).Search(context.Background(), SearchRequest{Game: tr.game})
	b, _ := (&Builtin{Seed: 7}).Search(context.Background(), SearchRequest{Game: tr.game})
	if a.Move != b.Move {
		t.Errorf("same seed, moves %s and %s", a.Move.UCI(), b.Move.UCI())
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestJSONLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "games.jsonl")
	sink := &JSONLines{Path: path}
	for _, id := range []string{"a", "b"} {
		if err := sink.WriteRecord(context.Background(), threefold.BotRecord{GameID: id, Termination: threefold.TermFivefold, Occurrences: []int{0, 4, 8, 12, 16}}); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].GameID != "b" || recs[0].Termination != threefold.TermFivefold {
		t.Fatalf("records %+v", recs)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"termination":"fivefold"`) {
		t.Fatalf("file %s", data)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Each room gets at most one line per interval; another room is not held
// up by it.
func TestChatterRateLimitPerRoom(t *testing.T) {
	clk := clock.NewFake(time.Time{})
	rec := &chatRecorder{lines: make(chan string, 10)}
	ch := newChatter(rec, "g1", clk, 2*time.Second, discardLogger())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() { ch.run(ctx); close(done) }()
	for _, key := range []string{"a", "b"} {
		ch.say(key, ChatLine{Room: "player", Text: "line " + key}, ChatVars{}, WhileGameRuns)
	}
	ch.say("c", ChatLine{Room: "spectator", Text: "line c"}, ChatVars{}, WhileGameRuns)
	if got := <-rec.lines; got != "player: line a" {
		t.Fatalf("first line %q", got)
	}
	if got := <-rec.lines; got != "spectator: line c" {
		t.Fatalf("second line %q: the spectator room waited for the player room", got)
	}
	// The second player line waits for the interval on the clock.
	if err := clk.WaitTimer(ctx, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case l := <-rec.lines:
		t.Fatalf("%q sent before the interval", l)
	default:
	}
	clk.Advance(2 * time.Second)
	if got := <-rec.lines; got != "player: line b" {
		t.Fatalf("third line %q", got)
	}
	ch.close()
	<-done
}

// A line is sent only while what it says holds: none after the end of the
// game but the goodbye, none about a ply a takeback removed, and a claim
// notice only at its ply.
func TestChatterDropsWhatNoLongerHolds(t *testing.T) {
	clk := clock.NewFake(time.Time{})
	rec := &chatRecorder{lines: make(chan string, 10)}
	ch := newChatter(rec, "g1", clk, 2*time.Second, discardLogger())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() { ch.run(ctx); close(done) }()
	say := func(key string, until int) {
		ch.say(key, ChatLine{Room: "player", Text: key}, ChatVars{}, until)
	}
	ch.update(10, 0, false)
	say("first", WhileGameRuns)
	if got := <-rec.lines; got != "player: first" {
		t.Fatalf("first line %q", got)
	}
	say("second at ply 10", WhileGameRuns) // waits for the interval…
	ch.update(9, 1, false)                 // …while a takeback removes ply 10
	say("third at ply 9", 9)               // holds at ply 9 only
	ch.update(10, 1, false)                // the game moved on
	say("also true", WhileGameRuns)
	if err := clk.WaitTimer(ctx, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	if got := <-rec.lines; got != "player: also true" {
		t.Fatalf("line %q, want the one line still true", got)
	}
	say("about to end", WhileGameRuns)
	ch.update(11, 1, true) // the game ends
	say("after the end", WhileGameRuns)
	ch.sayFinal("goodbye", ChatLine{Room: "player", Text: "goodbye"}, ChatVars{})
	ch.close()
	if err := clk.WaitTimer(ctx, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	<-done
	close(rec.lines)
	var rest []string
	for l := range rec.lines {
		rest = append(rest, l)
	}
	if !reflect.DeepEqual(rest, []string{"player: goodbye"}) {
		t.Fatalf("after the end: %q, want the goodbye only", rest)
	}
}

// slowChat is a Lichess that takes each chat request only when told to
// (release), as a busy account's request slot does.
type slowChat struct {
	started chan string   // a request began
	release chan struct{} // let one request through
	lines   chan string   // requests that went through
}

func (c *slowChat) Chat(ctx context.Context, _, room, text string) error {
	c.started <- text
	select {
	case <-c.release:
		c.lines <- room + ": " + text
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A line still waiting to be sent when the game ends is not sent; the
// goodbye still is.
func TestChatterCancelsALineTheEndMadeUntrue(t *testing.T) {
	api := &slowChat{started: make(chan string, 10), release: make(chan struct{}), lines: make(chan string, 10)}
	ch := newChatter(api, "g1", clock.Real, 0, discardLogger())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() { ch.run(context.Background()); close(done) }()
	next := func() string {
		select {
		case s := <-api.started:
			return s
		case <-ctx.Done():
			t.Fatal("no chat request: the line waiting when the game ended was never given up")
			return ""
		}
	}
	ch.update(96, 0, false)
	ch.say("second@96", ChatLine{Room: "spectator", Text: "second time"}, ChatVars{}, WhileGameRuns)
	if got := next(); got != "second time" {
		t.Fatalf("request %q", got)
	}
	ch.update(101, 0, true) // the game ends while the line waits
	ch.sayFinal("goodbye", ChatLine{Room: "player", Text: "goodbye"}, ChatVars{})
	ch.close()
	if got := next(); got != "goodbye" {
		t.Fatalf("request %q, want the goodbye after the line was dropped", got)
	}
	api.release <- struct{}{}
	<-done
	close(api.lines)
	var sent []string
	for l := range api.lines {
		sent = append(sent, l)
	}
	if !reflect.DeepEqual(sent, []string{"player: goodbye"}) {
		t.Fatalf("sent %q, want the goodbye only", sent)
	}
}

// While the bot sends a request that may end the game (hold), no line is
// sent: a line already on its way goes first, a line waiting for its room
// waits, and once the game is known to go on (a later ply, or the request
// failed) the lines go out; if it ended they are dropped but the goodbye.
func TestChatterHoldsLinesAroundAnEndingRequest(t *testing.T) {
	tests := []struct {
		name  string
		after func(ch *chatter) // what is learnt once the request is sent
		want  []string          // the lines after the request
	}{
		{"the game ended", func(ch *chatter) { ch.update(8, 0, true) }, []string{"player: goodbye"}},
		{"the game went on", func(ch *chatter) { ch.update(8, 0, false) }, []string{"spectator: waiting", "player: goodbye"}},
		{"the request failed", func(ch *chatter) { ch.release() }, []string{"spectator: waiting", "player: goodbye"}},
		{"an older state", func(ch *chatter) { ch.update(6, 0, false) }, []string{"player: goodbye"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := clock.NewFake(time.Time{})
			api := &slowChat{started: make(chan string, 10), release: make(chan struct{}), lines: make(chan string, 10)}
			ch := newChatter(api, "g1", clk, 2*time.Second, discardLogger())
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan struct{})
			go func() { ch.run(ctx); close(done) }()
			ch.update(7, 0, false)
			ch.say("on its way", ChatLine{Room: "spectator", Text: "on its way"}, ChatVars{}, WhileGameRuns)
			if got := <-api.started; got != "on its way" {
				t.Fatalf("request %q", got)
			}
			ch.say("waiting", ChatLine{Room: "spectator", Text: "waiting"}, ChatVars{}, WhileGameRuns)
			held := make(chan struct{})
			go func() { ch.hold(ctx, 7); close(held) }()
			// hold waits for the line on its way (its bound is on the clock)…
			if err := clk.WaitTimer(ctx, holdWait); err != nil {
				t.Fatal(err)
			}
			select {
			case <-held:
				t.Fatal("hold returned while a line was still being sent")
			default:
			}
			api.release <- struct{}{}
			<-held
			if got := <-api.lines; got != "spectator: on its way" {
				t.Fatalf("line %q", got)
			}
			// …and the line waiting for its room is not sent, even once the
			// room is free.
			clk.Advance(2 * time.Second)
			ch.mu.Lock()
			n, ok, _ := ch.next(map[string]time.Time{})
			ch.mu.Unlock()
			if ok {
				t.Fatalf("line %q could be sent during the hold", n.text)
			}
			tc.after(ch)
			ch.sayFinal("goodbye", ChatLine{Room: "player", Text: "goodbye"}, ChatVars{})
			ch.close()
			var got []string
			for len(got) < len(tc.want) {
				select {
				case s := <-api.started:
					api.release <- struct{}{}
					got = append(got, <-api.lines)
					_ = s
				case <-ctx.Done():
					t.Fatalf("lines %q, want %q", got, tc.want)
				}
			}
			<-done
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("lines %q, want %q", got, tc.want)
			}
		})
	}
}

// A line that stays on its way longer than holdWait is cancelled: the
// request that may end the game does not wait for it any longer.
func TestChatterHoldCancelsASlowLine(t *testing.T) {
	clk := clock.NewFake(time.Time{})
	api := &slowChat{started: make(chan string, 10), release: make(chan struct{}), lines: make(chan string, 10)}
	ch := newChatter(api, "g1", clk, 0, discardLogger())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() { ch.run(ctx); close(done) }()
	ch.update(7, 0, false)
	ch.say("slow", ChatLine{Room: "spectator", Text: "slow"}, ChatVars{}, WhileGameRuns)
	<-api.started
	held := make(chan struct{})
	go func() { ch.hold(ctx, 7); close(held) }()
	if err := clk.WaitTimer(ctx, holdWait); err != nil {
		t.Fatal(err)
	}
	clk.Advance(holdWait)
	select {
	case <-held:
	case <-ctx.Done():
		t.Fatal("hold still waits for the slow line")
	}
	ch.close()
	<-done
	close(api.lines)
	for l := range api.lines {
		t.Errorf("sent: %q", l)
	}
}
