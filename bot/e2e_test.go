package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

const (
	noBlackQueen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	noWhiteQueen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"
)

// checkRecord checks a record against the fake's final state and the
// termination found by replaying the moves independently.
func checkRecord(t *testing.T, st fakelichess.GameState, rec threefold.BotRecord) {
	t.Helper()
	if strings.Join(rec.Moves, " ") != strings.Join(st.Moves, " ") {
		t.Errorf("record moves %v\nfake moves %v", rec.Moves, st.Moves)
	}
	if rec.Status != st.Status || rec.Winner != st.Winner || rec.Plies != st.Ply {
		t.Errorf("record status %s/%s/%d, fake %s/%s/%d", rec.Status, rec.Winner, rec.Plies, st.Status, st.Winner, st.Ply)
	}
	if len(rec.SAN) != len(rec.Moves) {
		t.Errorf("%d SAN for %d moves", len(rec.SAN), len(rec.Moves))
	}
	g := replayFrom(initialFENs.get(st.ID), st.Moves)
	pos := g.Position()
	if st.Status == lichess.StatusDraw {
		var want []threefold.Termination
		switch {
		case pos.InsufficientMaterial():
			want = []threefold.Termination{threefold.TermInsufficient}
		case pos.HalfmoveClock() >= 100:
			want = []threefold.Termination{threefold.TermFiftyMoves}
		case g.Count() >= 5:
			want = []threefold.Termination{threefold.TermFivefold}
		case g.Count() >= 3:
			want = []threefold.Termination{threefold.TermThreefoldClaimed, threefold.TermThreefoldAutomatic}
		default:
			want = []threefold.Termination{threefold.TermAgreement, threefold.TermMoveCap}
		}
		ok := false
		for _, w := range want {
			ok = ok || rec.Termination == w
		}
		if !ok {
			t.Errorf("termination %s, want one of %v", rec.Termination, want)
		}
		if g.Count() >= 3 && fmt.Sprint(rec.Occurrences) != fmt.Sprint(g.Occurrences()) {
			t.Errorf("occurrences %v, replay says %v", rec.Occurrences, g.Occurrences())
		}
	}
	if st.Status == lichess.StatusMate && rec.Termination != threefold.TermCheckmate {
		t.Errorf("termination %s for mate", rec.Termination)
	}
	if st.Status == lichess.StatusResign && rec.Termination != threefold.TermResignation {
		t.Errorf("termination %s for resign", rec.Termination)
	}
}

// botChat returns the bot's chat lines as "room: text".
func botChat(h *harness, id string) []string {
	var out []string
	for _, m := range h.fake.Game(id).Chat() {
		if m.User == fakelichess.BotUser {
			out = append(out, m.Room+": "+m.Text)
		}
	}
	return out
}

// expectedNotices computes, by replaying the game, the repetition notices
// the bot must have written with the default templates: one "second
// occurrence" line per repetition cycle (a run of consecutive plies whose
// positions occurred before), at the first ply of the run. No third or
// fifth occurrence line and no claim line: the fake, like Lichess, ends a
// BOT's game at its first threefold, so such a line is never true by the
// time it would be sent (the goodbye says how the game ended).
func expectedNotices(t *testing.T, id string, st fakelichess.GameState, rec threefold.BotRecord, me, opp string) []string {
	t.Helper()
	chat := bot.DefaultConfig().Chat
	name := func(c rules.Color) string {
		if (c == rules.White) == (rec.BotColor == "white") {
			return me
		}
		return opp
	}
	g := replayFrom(initialFENs.get(id), nil)
	var out []string
	runEnd, saidInRun := -1, false
	for i, mv := range st.Moves {
		pos := g.Position()
		m, err := pos.ParseUCI(mv)
		if err != nil {
			t.Fatal(err)
		}
		label := fmt.Sprintf("%d. %s", pos.FullmoveNumber(), pos.SAN(m))
		if pos.Turn() == rules.Black {
			label = fmt.Sprintf("%d... %s", pos.FullmoveNumber(), pos.SAN(m))
		}
		_ = g.Play(m)
		ply := i + 1
		n := g.Count()
		if n < 2 {
			continue
		}
		if ply != runEnd+1 {
			saidInRun = false
		}
		runEnd = ply
		if n != 2 || saidInRun {
			continue
		}
		saidInRun = true
		after := g.Position()
		v := bot.ChatVars{Me: me, Opponent: opp, Move: label, Ply: ply, Count: n, Plies: joinInts(g.Occurrences()), Claimant: name(after.Turn())}
		out = append(out, chat.Second.Room+": "+bot.RenderChat(chat.Second.Text, v))
	}
	return out
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// checkNotices compares the bot's chat with the expected notices: greeting
// first, goodbye last, the repetition notices in between, in order, none
// but the goodbye after the end of the game, each at most 140 characters.
func checkNotices(t *testing.T, h *harness, id string, st fakelichess.GameState, rec threefold.BotRecord) {
	t.Helper()
	var got []string
	_ = h.fake.WaitFor(h.ctx, func() bool {
		got = botChat(h, id)
		return len(got) > 0 && strings.HasPrefix(got[len(got)-1], "player: Good game")
	})
	want := expectedNotices(t, id, st, rec, "ThreefoldBot", "Mary")
	if len(got) < 2 || !strings.HasPrefix(got[0], "player: Hi ") || !strings.HasPrefix(got[len(got)-1], "player: Good game") {
		t.Fatalf("chat %q: want a greeting first and a goodbye last", got)
	}
	mid := got[1 : len(got)-1]
	// A last notice still waiting for the account's request slot when the
	// game ended is dropped as no longer news (the bot logs it): that is
	// the rule "nothing after the end", not a lost notice.
	logs := h.logs.String()
	for len(want) > len(mid) {
		last := want[len(want)-1]
		text := strings.SplitN(last, ": ", 2)[1]
		if !strings.Contains(logs, `msg="chat line dropped: no longer true before it was sent" game=`+id) || !strings.Contains(logs, `text="`+text+`"`) {
			break
		}
		want = want[:len(want)-1]
	}
	if strings.Join(mid, "\n") != strings.Join(want, "\n") {
		t.Errorf("notices:\n%s\nwant:\n%s", strings.Join(mid, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range got {
		if n := len([]rune(strings.SplitN(l, ": ", 2)[1])); n > bot.ChatMaxLen || strings.Contains(l, "http") {
			t.Errorf("bad chat line %q", l)
		}
	}
	checkNoneAfterTheEnd(t, h, id)
}

// checkNoneAfterTheEnd fails if a line of the bot other than its goodbye
// reached the fake after the game was over.
func checkNoneAfterTheEnd(t *testing.T, h *harness, id string) {
	t.Helper()
	for _, m := range h.fake.Game(id).Chat() {
		if m.User == fakelichess.BotUser && m.AfterEnd && !strings.HasPrefix(m.Text, "Good game") {
			t.Errorf("sent after the end of the game: %s: %q", m.Room, m.Text)
		}
	}
}

func TestWinningBotAvoidsThreefold(t *testing.T) {
	engines := []struct {
		name   string
		engine func(t *testing.T) string
		fen    string
		resign int
	}{
		// An engine that loves repetitions, reporting +5.
		{"scripted engine", func(t *testing.T) string { return fakeEngine(t, "cp=500", "repeat") }, "", 40},
		// The built-in mover, a bishop up in a locked position where only
		// the kings can move.
		{"built-in mover", func(t *testing.T) string { return "" }, "k7/8/8/8/8/1p5p/1P5P/B6K w - - 0 1", 100},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{engine: e.engine(t)})
			id := h.newGame(fakelichess.GameSpec{InitialFEN: e.fen, ClockInitial: 300000, ClockIncrement: 2000}, rules.White)
			h.opponent(id, repeater(e.resign))
			st, rec := h.waitGameOver(id)
			if st.Status != lichess.StatusResign || st.Winner != "white" {
				t.Fatalf("game ended %s/%s at ply %d (count %d), want the opponent's resignation", st.Status, st.Winner, st.Ply, st.Count)
			}
			checkRecord(t, st, rec)
			if rec.RulesUsed[bot.RuleAvoidRepetition] == 0 {
				t.Errorf("the policy never had to avoid a repetition (rules %v): the test proves nothing", rec.RulesUsed)
			}
			for _, r := range h.moveRequests(id) {
				if r.Query.Get("offeringDraw") == "true" {
					t.Errorf("winning bot offered a draw: %s", r.Path)
				}
			}
			if n := len(h.drawYes(id)); n != 0 {
				t.Errorf("%d draw/yes sent", n)
			}
			checkNotices(t, h, id, st, rec)
		})
	}
}

func TestLosingBotTakesTheRepetition(t *testing.T) {
	engines := []struct {
		name   string
		engine func(t *testing.T) string
		fen    string
	}{
		{"scripted engine", func(t *testing.T) string { return fakeEngine(t, "cp=-500", "avoid") }, ""},
		{"built-in mover", func(t *testing.T) string { return "" }, noBlackQueen},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			h := newHarness(t, harnessOpt{engine: e.engine(t)})
			id := h.newGame(fakelichess.GameSpec{InitialFEN: e.fen, ClockInitial: 300000}, rules.Black)
			h.opponent(id, shuffler("g1f3", "f3g1"))
			st, rec := h.waitGameOver(id)
			if st.Status != lichess.StatusDraw {
				t.Fatalf("game ended %s/%s at ply %d, want a draw", st.Status, st.Winner, st.Ply)
			}
			checkRecord(t, st, rec)
			if rec.Termination != threefold.TermThreefoldClaimed && rec.Termination != threefold.TermThreefoldAutomatic {
				t.Fatalf("termination %s, want a threefold", rec.Termination)
			}
			// Every move sent with offeringDraw=true must be the one that
			// produced the third occurrence, and it must be in the record.
			offers := 0
			for _, r := range h.moveRequests(id) {
				if r.Query.Get("offeringDraw") != "true" {
					continue
				}
				offers++
				mv := r.Path[strings.LastIndexByte(r.Path, '/')+1:]
				if st.Moves[len(st.Moves)-1] != mv {
					t.Errorf("draw offered with %s, not with the last move %s", mv, st.Moves[len(st.Moves)-1])
				}
			}
			if rec.Termination == threefold.TermThreefoldClaimed && (offers != 1 || len(rec.Claims) != 1 || rec.Claims[0].Ply != st.Ply) {
				t.Errorf("claimed threefold: %d offers, claims %+v, final ply %d", offers, rec.Claims, st.Ply)
			}
			if n := len(h.drawYes(id)); n != 0 {
				t.Errorf("%d draw/yes sent (the position was never a threefold with the bot to move)", n)
			}
			checkNotices(t, h, id, st, rec)
		})
	}
}

func TestScriptedEngineClaimsAtTheExpectedPly(t *testing.T) {
	// Deterministic: the engine prefers knight moves that do not repeat;
	// the policy makes it repeat, then claim with the move that produces
	// the third occurrence of the start position at ply 8.
	h := newHarness(t, harnessOpt{engine: fakeEngine(t, "cp=-500", "avoid")})
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 300000}, rules.Black)
	h.opponent(id, shuffler("g1f3", "f3g1"))
	st, rec := h.waitGameOver(id)
	if st.Status != lichess.StatusDraw || rec.Termination != threefold.TermThreefoldClaimed {
		t.Fatalf("status %s termination %s", st.Status, rec.Termination)
	}
	if st.Ply != 8 || fmt.Sprint(rec.Occurrences) != "[0 4 8]" {
		t.Fatalf("ended at ply %d occurrences %v, want 8 and [0 4 8]", st.Ply, rec.Occurrences)
	}
	if rec.RulesUsed[bot.RuleSeekRepetition] == 0 || rec.RulesUsed[bot.RuleMakeThreefold] != 1 {
		t.Errorf("rules used %v", rec.RulesUsed)
	}
	var got []string
	_ = h.fake.WaitFor(h.ctx, func() bool {
		got = botChat(h, id)
		return len(got) > 0 && strings.HasPrefix(got[len(got)-1], "player: Good game")
	})
	want := []string{
		"player: Hi Mary! I am ThreefoldBot and I watch every repetition (FIDE 9.2). Good luck!",
	}
	if len(got) == 0 || got[0] != want[0] {
		t.Errorf("greeting %q", got)
	}
	joined := strings.Join(got, "\n")
	// The claim ended the game at once: the goodbye says it; the claim and
	// third-occurrence lines would have come after the end.
	want = append(want,
		"spectator: After 2... Nb8 this position occurred the second time (plies 0, 4).",
		"player: Good game, Mary. Drawn by threefold repetition, claimed (plies 0, 4, 8).")
	if joined != strings.Join(want, "\n") {
		t.Errorf("chat:\n%s\nwant:\n%s", joined, strings.Join(want, "\n"))
	}
	checkNoneAfterTheEnd(t, h, id)
}

func TestFullGameBuiltin(t *testing.T) {
	h := newHarness(t, harnessOpt{legacy: true})
	id := h.newGame(fakelichess.GameSpec{ClockInitial: 180000, ClockIncrement: 2000, Rated: true}, rules.White)
	h.opponent(id, builtinOpponent(3, 0))
	st, rec := h.waitGameOver(id)
	checkRecord(t, st, rec)
	if rec.Engine != "built-in" || rec.White.ID != fakelichess.BotUser || rec.BotColor != "white" || !rec.Rated {
		t.Errorf("record %+v", rec)
	}
	t.Logf("built-in vs built-in: %s %s after %d plies (%s)", st.Status, st.Winner, st.Ply, rec.Termination)
	if n := len(h.drawYes(id)); n != 0 {
		t.Errorf("%d draw/yes sent", n)
	}
}

func TestStockfish(t *testing.T) {
	sf := testenv.Stockfish(t)
	t.Run("full game", func(t *testing.T) {
		h := newHarness(t, harnessOpt{engine: sf})
		id := h.newGame(fakelichess.GameSpec{ClockInitial: 60000, ClockIncrement: 1000}, rules.Black)
		h.opponent(id, builtinOpponent(5, 200))
		st, rec := h.waitGameOver(id)
		checkRecord(t, st, rec)
		if !strings.Contains(strings.ToLower(rec.Engine), "stockfish") {
			t.Errorf("engine %q", rec.Engine)
		}
		if st.Winner == "white" {
			t.Errorf("Stockfish lost to the built-in mover: %s", st.Status)
		}
		t.Logf("Stockfish vs built-in: %s %s after %d plies (%s)", st.Status, st.Winner, st.Ply, rec.Termination)
	})
	t.Run("winning against a repeater", func(t *testing.T) {
		h := newHarness(t, harnessOpt{engine: sf})
		// The start position already occurred twice; Stockfish is a queen up.
		id := h.newGame(fakelichess.GameSpec{InitialFEN: noBlackQueen, Moves: strings.Fields("g1f3 g8f6 f3g1 f6g8"),
			ClockInitial: 60000, ClockIncrement: 1000}, rules.White)
		h.opponent(id, repeater(60))
		st, rec := h.waitGameOver(id)
		checkRecord(t, st, rec)
		if st.Winner != "white" {
			t.Fatalf("game ended %s/%s at ply %d, want a win", st.Status, st.Winner, st.Ply)
		}
	})
	t.Run("losing against a shuffler", func(t *testing.T) {
		h := newHarness(t, harnessOpt{engine: sf})
		id := h.newGame(fakelichess.GameSpec{InitialFEN: noBlackQueen, ClockInitial: 60000, ClockIncrement: 1000}, rules.Black)
		h.opponent(id, shuffler("g1f3", "f3g1"))
		st, rec := h.waitGameOver(id)
		checkRecord(t, st, rec)
		// Stockfish takes the repetition while it is behind; a shuffling
		// opponent may also let it out-play it. It must not lose, and a
		// draw must be the threefold.
		if st.Winner == "white" || (st.Status == lichess.StatusDraw && rec.Termination != threefold.TermThreefoldClaimed && rec.Termination != threefold.TermThreefoldAutomatic) {
			t.Fatalf("game ended %s/%s at ply %d (%s), want a threefold or a win", st.Status, st.Winner, st.Ply, rec.Termination)
		}
		t.Logf("Stockfish a queen down against a shuffler: %s %s at ply %d (%s)", st.Status, st.Winner, st.Ply, rec.Termination)
		if n := len(h.drawYes(id)); n != 0 {
			t.Errorf("%d draw/yes sent", n)
		}
	})
}

// TestChess960Game: a Chess960 game against the fake Lichess (which takes
// castling only as the king onto its rook there). The engine castles
// whenever it can; it sees castling only if the bot gave it the start in
// Shredder-FEN and the moves in Chess960 form. The bot castles with the
// king already on g1 (only the rook moves) or long across the board, and
// sends it as Lichess expects.
func TestChess960Game(t *testing.T) {
	h := newHarness(t, harnessOpt{engine: fakeEngine(t, "", "castle")})
	start := "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"
	id := h.newGame(fakelichess.GameSpec{Variant: "chess960", InitialFEN: start, ClockInitial: 180000, ClockIncrement: 2000}, rules.White)
	h.opponent(id, builtinOpponent(4, 12))
	st, rec := h.waitGameOver(id)
	checkRecord(t, st, rec)
	if len(st.Moves) == 0 || (st.Moves[0] != "g1h1" && st.Moves[0] != "g1b1") {
		t.Errorf("the bot's first move %v, want castling as g1h1 or g1b1", st.Moves)
	}
	if rec.Variant != "chess960" || rec.InitialFEN != "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1" {
		t.Errorf("record variant %q, initial FEN %q", rec.Variant, rec.InitialFEN)
	}
	if len(rec.SAN) == 0 || !strings.HasPrefix(rec.SAN[0], "O-O") {
		t.Errorf("record SAN %v, want castling first", rec.SAN)
	}
}

// TestOtherVariantResigned: a game in a variant with a repetition rule of
// its own (crazyhouse) that reaches the bot anyway is resigned at once.
func TestOtherVariantResigned(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	id := h.newGame(fakelichess.GameSpec{Variant: "crazyhouse", ClockInitial: 180000}, rules.White)
	g := h.fake.Game(id)
	if err := h.fake.WaitFor(h.ctx, func() bool { return lichess.Finished(g.State().Status) }); err != nil {
		t.Fatal(err)
	}
	// Resigning before the first move aborts the game, as on Lichess.
	if st := g.State(); st.Status != lichess.StatusAborted || st.Ply != 0 {
		t.Errorf("game ended %s/%s after %d plies, want resigned (aborted) at once", st.Status, st.Winner, st.Ply)
	}
	if !strings.Contains(h.logs.String(), "variant not supported") {
		t.Error("the log does not say why")
	}
}

// TestChess960GameBuiltin: the built-in mover plays Chess960 too (every
// move it sends is legal there, castling as the king onto its rook).
func TestChess960GameBuiltin(t *testing.T) {
	h := newHarness(t, harnessOpt{})
	id := h.newGame(fakelichess.GameSpec{Variant: "chess960", InitialFEN: "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
		ClockInitial: 180000, ClockIncrement: 2000}, rules.Black)
	h.opponent(id, builtinOpponent(6, 40))
	st, rec := h.waitGameOver(id)
	checkRecord(t, st, rec)
	if rec.Engine != "built-in" || rec.Variant != "chess960" || st.Ply < 2 {
		t.Errorf("record engine %q variant %q after %d plies (%s)", rec.Engine, rec.Variant, st.Ply, st.Status)
	}
}
