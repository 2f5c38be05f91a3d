package bot

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/bot/book"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// gameAPI is the part of the Lichess client one game needs.
type gameAPI interface {
	StreamBotGame(ctx context.Context, gameID string, fn func(lichess.GameEvent) error) error
	Move(ctx context.Context, gameID, uci string, offeringDraw bool) error
	Chat(ctx context.Context, gameID, room, text string) error
	Draw(ctx context.Context, gameID string, accept bool) error
	Resign(ctx context.Context, gameID string) error
	ClaimVictory(ctx context.Context, gameID string) error
	ClaimDraw(ctx context.Context, gameID string) error
	Takeback(ctx context.Context, gameID string, accept bool) error
}

// game plays one game: it owns the goroutine that reads the game stream,
// the chat goroutine and the mover, and returns when the game is over (or
// its context ends). The Bot starts it and waits for it.
type game struct {
	id      string
	me      string // the bot's user id, lower case
	hint    string // our colour from the event stream, if known
	url     string
	api     gameAPI
	cfg     *Config
	clock   clock.Clock
	log     *slog.Logger
	mover   Mover
	release func(Mover) // gives the mover back when the game ends (nil: Close)
	sink    RecordSink
	book    *book.Book // nil: no opening book
	// bookRand draws the book's weighted choices: seeded by the engine's
	// seed and the game's id, so a game is replayed the same way.
	bookRand *rand.Rand
	onGame   func(threefold.GameState) // Options.OnGame
	stop     chan struct{}             // closed: resign the game now
	cancel   context.CancelFunc
	// correspondence games are left running when the bot stops.
	correspondence bool
	stopMu         sync.Once

	// Set from gameFull.
	full    *lichess.GameFull
	color   rules.Color
	t       *tracker
	pol     *policy
	chat    *chatter
	started time.Time

	st         lichess.GameState
	movedPly   int // ply at which our move was accepted
	claims     []threefold.BotClaim
	claimedPly int
	failures   int // failed attempts at the current ply
	failPly    int
	rulesUsed  map[string]int
	resigned   bool
	drawOffer  bool // a draw offer was pending in the last state
	oppOffer   bool // the opponent's draw offer is pending
	// offerPly is the ply at which the opponent's offer was answered.
	offerPly   int
	finished   bool
	outcome    string // "win", "draw" or "loss" once finished ("": aborted)
	timer      clock.Timer
	timerFor   string // "claim" or "retry"
	timerPly   int
	pendingDec Decision
	// The opponent left: claim the win (or the draw) when Lichess allows it.
	goneTimer  clock.Timer
	goneClaims int
	// takebackPly is the ply at which the opponent's takeback proposal
	// was answered (-1: none).
	takebackPly int
	// epoch counts the times the game was rebuilt (a takeback): a chat
	// notice said in an earlier epoch no longer holds.
	epoch int
	// The current repetition run: consecutive plies whose position
	// occurred before (runEnd is its last ply, -1 none), and the notice
	// kinds said about it: one notice per kind per cycle.
	runStart, runEnd int
	runSaid          map[string]bool
	// claimNotice is the chat line about the bot's own claim, said only if
	// the claim did not end the game at once (as Lichess ends a BOT's game
	// at the first threefold): otherwise the goodbye says it.
	claimNotice *pendingNotice
}

// pendingNotice is a notice waiting to learn whether it will hold.
type pendingNotice struct {
	ply  int
	vars ChatVars
}

// sayClaim says the pending claim notice if the game still runs at its
// ply; a finished game drops it.
func (g *game) sayClaim(finished bool) {
	n := g.claimNotice
	if n == nil || (!finished && g.t.ply() < n.ply) {
		return
	}
	g.claimNotice = nil
	if finished || g.t.ply() != n.ply {
		g.log.Info("claim notice not said: the game ended or moved on", "ply", n.ply)
		return
	}
	g.chat.say(NoticeClaim+"@"+itoa(g.epoch)+"."+itoa(n.ply), g.cfg.Chat.Claim, n.vars, n.ply)
}

func (g *game) resign() {
	g.stopMu.Do(func() { close(g.stop) })
}

// init prepares the game's state before the first event.
func (g *game) init() {
	g.movedPly, g.claimedPly, g.failPly, g.takebackPly, g.offerPly = -1, -1, -1, -1, -1
	g.runStart, g.runEnd = -1, -1
	g.rulesUsed = map[string]int{}
	g.started = g.clock.Now()
	g.chat = newChatter(g.api, g.id, g.clock, g.cfg.Chat.MinInterval, g.log)
}

// run plays the game to its end.
func (g *game) run(ctx context.Context) {
	g.init()
	defer func() {
		if g.release != nil {
			g.release(g.mover)
		} else {
			g.mover.Close()
		}
	}()
	if s, ok := g.mover.(interface{ Start(context.Context) error }); ok {
		// Start the engine now rather than on the first move.
		if err := s.Start(ctx); err != nil {
			g.log.Warn("engine start failed; trying again at the first move", "game", g.id, "err", err)
		}
	}

	events := make(chan lichess.GameEvent, 64)
	streamCtx, cancelStream := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		g.stream(streamCtx, events)
	}()
	defer func() {
		cancelStream()
		wg.Wait()
	}()
	chatCtx, cancelChat := context.WithCancel(context.WithoutCancel(ctx))
	wg.Add(1)
	go func() {
		defer wg.Done()
		g.chat.run(chatCtx)
	}()
	defer func() {
		// Let the last lines (the goodbye) go out, but not forever.
		g.chat.close()
		t := g.clock.NewTimer(30 * time.Second)
		select {
		case <-g.chat.done:
		case <-t.C():
		case <-ctx.Done():
		}
		t.Stop()
		cancelChat()
	}()

	stop := g.stop
	var resignDeadline <-chan time.Time
	for !g.finished {
		var timerC, goneC <-chan time.Time
		if g.timer != nil {
			timerC = g.timer.C()
		}
		if g.goneTimer != nil {
			goneC = g.goneTimer.C()
		}
		select {
		case <-ctx.Done():
			g.log.Info("game left running: the bot stopped", "game", g.id)
			return
		case ev, ok := <-events:
			if !ok {
				g.log.Warn("game stream ended without a final state", "game", g.id)
				return
			}
			g.handle(ctx, ev)
		case <-timerC:
			g.timer = nil
			g.onTimer(ctx)
		case <-goneC:
			g.goneTimer = nil
			g.claimWhenGone(ctx)
		case <-stop:
			stop = nil
			g.doResign(ctx)
			t := g.clock.NewTimer(30 * time.Second)
			defer t.Stop()
			resignDeadline = t.C()
		case <-resignDeadline:
			g.log.Warn("no final state after resigning", "game", g.id)
			return
		}
	}
}

// stream follows the game stream, reconnecting on errors, and hands the
// events to run. It closes events when the stream ends with the game.
func (g *game) stream(ctx context.Context, events chan<- lichess.GameEvent) {
	retry := backoff.Backoff{Policy: backoff.Policy{Initial: time.Second, Max: 30 * time.Second, NoJitter: true}}
	for {
		err := g.api.StreamBotGame(ctx, g.id, func(ev lichess.GameEvent) error {
			select {
			case events <- ev:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			close(events)
			return
		}
		var ae *lichess.AuthError
		if errors.Is(err, lichess.ErrNotFound) || errors.As(err, &ae) {
			g.log.Error("game stream refused; giving up on this game", "game", g.id, "err", err)
			close(events)
			return
		}
		wait := retry.Next()
		g.log.Warn("game stream failed; reconnecting", "game", g.id, "err", err, "in", wait)
		t := g.clock.NewTimer(wait)
		select {
		case <-t.C():
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

func (g *game) handle(ctx context.Context, ev lichess.GameEvent) {
	switch {
	case ev.Full != nil:
		first := g.full == nil
		if first {
			if !g.setup(ctx, ev.Full) {
				g.finished = true
				return
			}
		}
		if ev.Resync {
			g.log.Info("game stream resumed", "game", g.id, "ply", len(ev.Full.State.MoveList()))
			// A move we sent may have been lost with the connection: the
			// state below is the truth, and if it is still our turn at
			// that ply we move again.
			g.movedPly = -1
		}
		g.state(ctx, ev.Full.State, first)
	case ev.State != nil:
		if g.full == nil {
			g.log.Warn("game state before gameFull ignored", "game", g.id)
			return
		}
		g.state(ctx, *ev.State, false)
	case ev.Chat != nil:
		g.log.Debug("chat line", "game", g.id, "room", ev.Chat.Room, "user", ev.Chat.Username, "text", ev.Chat.Text)
	case ev.OpponentGone != nil:
		og := ev.OpponentGone
		g.log.Info("opponent gone", "gone", og.Gone, "claim_win_in_s", og.ClaimWinInSeconds)
		if g.goneTimer != nil {
			g.goneTimer.Stop()
			g.goneTimer = nil
		}
		if og.Gone && !g.finished {
			g.goneClaims = 0
			g.goneTimer = g.clock.NewTimer(time.Duration(og.ClaimWinInSeconds)*time.Second + 500*time.Millisecond)
		}
	}
}

// setup reads the immutable part of the game. It returns false when the
// bot cannot play this game.
func (g *game) setup(ctx context.Context, f *lichess.GameFull) bool {
	g.full = f
	switch {
	case strings.EqualFold(f.White.ID, g.me):
		g.color = rules.White
	case strings.EqualFold(f.Black.ID, g.me):
		g.color = rules.Black
	case g.hint == "black":
		g.color = rules.Black
	default:
		g.color = rules.White
	}
	g.log = g.log.With("game", g.id, "color", g.color.String())
	if _, err := rules.ParseVariant(f.Variant.Key); err != nil {
		g.log.Error("variant not supported; resigning", "variant", f.Variant.Key, "err", err)
		_ = g.api.Resign(ctx, g.id)
		return false
	}
	t, err := newTracker(f.InitialFEN, f.Variant.Key)
	if err != nil {
		g.log.Error("cannot read the initial position; resigning", "fen", f.InitialFEN, "err", err)
		_ = g.api.Resign(ctx, g.id)
		return false
	}
	g.t = t
	g.pol = &policy{cfg: g.cfg.Policy, mover: g.mover}
	g.log.Info("game started", "white", f.White.Name, "black", f.Black.Name, "variant", f.Variant.Key,
		"speed", f.Speed, "rated", f.Rated, "engine", g.mover.Name())
	return true
}

func (g *game) playerName(c rules.Color) string {
	p := g.full.White
	if c == rules.Black {
		p = g.full.Black
	}
	if p.Name != "" {
		return p.Name
	}
	if p.ID != "" {
		return p.ID
	}
	if p.AILevel > 0 {
		return "Stockfish level " + itoa(p.AILevel)
	}
	return c.String()
}

func (g *game) vars() ChatVars {
	return ChatVars{Me: g.playerName(g.color), Opponent: g.playerName(g.color.Other()), Ply: g.t.ply(), Move: g.t.lastMoveLabel()}
}

func (g *game) state(ctx context.Context, s lichess.GameState, first bool) {
	events, rebuilt, err := g.t.sync(s.Moves, first)
	if rebuilt {
		g.log.Warn("move list does not extend the previous one (takeback or mismatch); rebuilt the game", "ply", g.t.ply())
		g.movedPly = -1
		g.epoch++
		g.runStart, g.runEnd = -1, -1
	}
	if err != nil {
		g.log.Error("move list has an illegal move; waiting for the next state", "err", err)
	}
	// The chat learns where the game is before anything is said about it:
	// a notice that is already untrue (the game just ended) is never sent.
	g.chat.update(g.t.ply(), g.epoch, lichess.Finished(s.Status))
	if first && g.t.ply() < 2 {
		g.chat.say(NoticeGreeting, g.cfg.Chat.Greeting, g.vars(), WhileGameRuns)
	}
	g.sayClaim(lichess.Finished(s.Status))
	for _, e := range events {
		g.notice(e)
	}
	g.st = s
	g.report(s)
	if lichess.Finished(s.Status) {
		g.finish(ctx)
		return
	}
	g.drawOffer = s.WDraw || s.BDraw
	g.oppOffer = s.WDraw && g.color == rules.Black || s.BDraw && g.color == rules.White
	if err != nil {
		return
	}
	if g.answerTakeback(ctx, s) {
		return // the next state has the shorter game
	}
	g.maybeMove(ctx)
}

// answerTakeback answers the opponent's takeback proposal by the policy
// (bot.takebacks), once per proposal. It reports whether the bot accepted,
// in which case it must not move before the next state.
func (g *game) answerTakeback(ctx context.Context, s lichess.GameState) bool {
	proposed := s.WTakeback
	if g.color == rules.White {
		proposed = s.BTakeback
	}
	if !proposed || g.takebackPly == g.t.ply() {
		return false
	}
	g.takebackPly = g.t.ply()
	accept := g.cfg.Takebacks == TakebacksAccept || (g.cfg.Takebacks == TakebacksCasual && !g.full.Rated)
	if err := g.api.Takeback(ctx, g.id, accept); err != nil {
		g.log.Warn("takeback answer failed", "ply", g.t.ply(), "accept", accept, "err", err)
		return false
	}
	g.log.Info("takeback proposed by the opponent", "ply", g.t.ply(), "accepted", accept, "policy", g.cfg.Takebacks, "rated", g.full.Rated)
	return accept
}

// report hands the game's state to Options.OnGame.
func (g *game) report(s lichess.GameState) {
	if g.onGame == nil {
		return
	}
	finished := lichess.Finished(s.Status)
	res := "*"
	if finished {
		res = lichess.Result(s.Status, s.Winner)
	}
	g.onGame(threefold.GameState{
		Game:     threefold.GameRef{Site: "lichess", ID: g.id, URL: g.url, White: g.playerName(rules.White), Black: g.playerName(rules.Black)},
		StartFEN: g.t.startFEN, Notation: rules.UCI, Moves: append([]string(nil), g.t.uci...),
		Result: res, Finished: finished, ObservedAt: g.clock.Now(), PlyAnchor: true, Audience: threefold.AudienceOperator})
}

// notice says what a repetition at one ply means: once per kind of event
// (second, third, fifth occurrence) in each repetition cycle, the run of
// consecutive plies whose positions occurred before, so that a 4-ply cycle
// played again gives one line, not four. A third or fifth occurrence is
// news only while it is the current position (the claim is possible only
// then); a second one stays true while the game runs.
func (g *game) notice(e repEvent) {
	if g.runEnd < 0 || e.Ply != g.runEnd+1 {
		g.runStart, g.runSaid = e.Ply, map[string]bool{}
	}
	g.runEnd = e.Ply
	v := g.vars()
	v.Ply, v.Count, v.Move = e.Ply, e.Count, e.Move
	v.Plies = joinPlies(e.Occurrences)
	v.Claimant = g.playerName(e.Claimant)
	kind, line, until := NoticeSecond, g.cfg.Chat.Second, WhileGameRuns
	switch {
	case e.Count >= 5:
		kind, line, until = NoticeFifth, g.cfg.Chat.Fifth, e.Ply
	case e.Count >= 3:
		kind, line, until = NoticeThird, g.cfg.Chat.Third, e.Ply
	}
	said := g.runSaid[kind]
	g.log.Info("repetition", "ply", e.Ply, "count", e.Count, "occurrences", e.Occurrences, "move", e.Move,
		"claimant", e.Claimant.String(), "cycle_from", g.runStart, "noticed_in_cycle", said)
	if said {
		return
	}
	g.runSaid[kind] = true
	g.chat.say(kind+"@"+itoa(g.epoch)+"."+itoa(e.Ply), line, v, until)
}

func (g *game) ourTurn() bool { return g.t.turn() == g.color }

func (g *game) clockFor(c rules.Color) (remaining, inc time.Duration) {
	if c == rules.White {
		return time.Duration(g.st.WTime) * time.Millisecond, time.Duration(g.st.WInc) * time.Millisecond
	}
	return time.Duration(g.st.BTime) * time.Millisecond, time.Duration(g.st.BInc) * time.Millisecond
}

// maybeMove thinks and moves when it is the bot's turn and it has not
// moved at this ply yet.
func (g *game) maybeMove(ctx context.Context) {
	if !g.ourTurn() || g.finished || g.resigned {
		return
	}
	ply := g.t.ply()
	if g.movedPly == ply || (g.timer != nil && g.timerPly == ply) {
		return
	}
	if d, ok := g.bookMove(); ok {
		g.rulesUsed[d.Rule]++
		pos := g.t.game.Position()
		g.log.Info("move chosen", "ply", ply, "move", d.Move.UCI(), "san", pos.SAN(d.Move), "rule", d.Rule, "by", d.By, "weight", d.Score)
		g.sendMove(ctx, d)
		return
	}
	remaining, inc := g.clockFor(g.color)
	lim := moveLimit(g.cfg.Engine, remaining, inc, ply)
	// An engine that never answers must not cost the game: past the
	// deadline the engine is told to stop and its move is taken.
	deadline := thinkDeadline(lim, g.cfg.Engine.Slack)
	if left, ok := g.st.Expiration.Left(); ok {
		// The first move is due before Lichess aborts the game: plan for
		// half of what is left of it, and stop thinking well before.
		due := max(left/2-g.cfg.Engine.MoveOverhead, time.Millisecond)
		if deadline > due {
			lim.MoveTime = min(lim.MoveTime, max(due/3, time.Millisecond))
			deadline = due
			g.log.Info("first move due before Lichess aborts the game", "ply", ply, "left", left, "limit", lim.MoveTime, "deadline", deadline)
		}
	}
	// The engine and the context count in real time; lim and deadline are
	// on the game's clock (the same unless a test runs it faster).
	engineLim := lim
	engineLim.MoveTime = clock.RealDuration(g.clock, lim.MoveTime)
	thinkCtx, cancel := context.WithTimeout(ctx, clock.RealDuration(g.clock, deadline))
	defer cancel()
	go func() {
		select {
		case <-g.stop:
			cancel()
		case <-thinkCtx.Done():
		}
	}()
	began := g.clock.Now()
	d, err := g.pol.decide(thinkCtx, g.t, engineLim)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		select {
		case <-g.stop:
			return
		default:
		}
		g.log.Error("no move found", "ply", ply, "err", err)
		g.retryLater(ply)
		return
	}
	g.rulesUsed[d.Rule]++
	pos := g.t.game.Position()
	g.log.Info("move chosen", "ply", ply, "move", d.Move.UCI(), "san", pos.SAN(d.Move), "rule", d.Rule, "mode", d.Mode,
		"eval_cp", d.Eval, "score_cp", d.Score, "by", d.By, "depth", d.Depth, "avoided", d.Avoided,
		"offer_draw", d.OfferDraw, "claim", d.Claim, "limit", lim.MoveTime, "took", g.clock.Now().Sub(began))
	if d.Claim && g.claimedPly != ply {
		g.claim(ctx, d)
		return
	}
	if g.oppOffer && g.offerPly != ply && g.answerDrawOffer(ctx, d) {
		return
	}
	g.sendMove(ctx, d)
}

// newBookRand returns the generator of a game's book choices.
func newBookRand(seed int64, gameID string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(gameID))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

// bookMove chooses a move from the opening book (bot.book) in a standard
// game up to max_moves, unless the opponent offers a draw (the engine's
// evaluation answers it). A book move that repeats a position is never
// played: the book knows nothing of the game's repetitions.
func (g *game) bookMove() (Decision, bool) {
	if g.book == nil || g.oppOffer {
		return Decision{}, false
	}
	pos := g.t.game.Position()
	if pos.Variant() != rules.Standard || pos.FullmoveNumber() > g.cfg.Book.MaxMoves {
		return Decision{}, false
	}
	cands, err := g.book.Moves(g.t.game)
	if err != nil {
		g.log.Warn("opening book unreadable; the engine moves", "err", err)
		return Decision{}, false
	}
	fresh := cands[:0]
	for _, c := range cands {
		if len(g.t.game.OccurrencesOf(c.Move)) == 0 {
			fresh = append(fresh, c)
		}
	}
	c, ok := book.Choose(fresh, g.cfg.Book.Choice, g.bookRand)
	if !ok {
		return Decision{}, false
	}
	return Decision{Move: c.Move, Rule: RuleBook, Mode: "even", Score: c.Weight, By: "book"}, true
}

// answerDrawOffer answers the opponent's pending draw offer by the policy
// (bot.draw_offers) with the evaluation of the search just made, and logs
// why. It reports whether it accepted: the game should then end, and the
// move is played only if it does not (after claim_wait).
func (g *game) answerDrawOffer(ctx context.Context, d Decision) bool {
	ply := g.t.ply()
	g.offerPly = ply
	pos := g.t.game.Position()
	ans := g.cfg.Draws.AnswerDrawOffer(d.Eval, pos.FullmoveNumber())
	if d.OfferDraw {
		ans = DrawAnswer{true, "the policy seeks a draw itself (" + d.Rule + ")"}
	}
	verdict := "declined"
	if ans.Accept {
		verdict = "accepted"
	}
	g.log.Info("draw offer from the opponent "+verdict, "ply", ply, "move_number", pos.FullmoveNumber(), "eval_cp", d.Eval,
		"by", d.By, "depth", d.Depth, "why", ans.Why)
	if ans.Accept {
		g.chat.hold(ctx, ply)
	}
	if err := g.api.Draw(ctx, g.id, ans.Accept); err != nil {
		g.log.Warn("draw offer answer failed", "ply", ply, "accept", ans.Accept, "err", err)
		if ans.Accept {
			g.chat.release()
		}
		return false
	}
	if !ans.Accept {
		return false
	}
	g.pendingDec = d
	g.setTimer("accept", ply, g.claimWait())
	return true
}

// claimWait is how long to wait for a claim or an accepted offer to end
// the game before playing on: Policy.ClaimWait, at most a tenth of the
// bot's clock.
func (g *game) claimWait() time.Duration {
	wait := g.cfg.Policy.ClaimWait
	if remaining, _ := g.clockFor(g.color); remaining > 0 && remaining < unlimitedMS*time.Millisecond && remaining/10 < wait {
		wait = remaining / 10
	}
	return wait
}

// thinkDeadline bounds all the searches for one move: the planned time,
// as much again for the policy's second search, and some slack.
func thinkDeadline(lim SearchLimit, slack time.Duration) time.Duration {
	if slack <= 0 {
		slack = 3 * time.Second
	}
	if lim.MoveTime <= 0 {
		return time.Minute
	}
	return 2*lim.MoveTime + slack
}

// claim sends draw/yes for the threefold on the board and gives the game
// a moment to end before playing on.
func (g *game) claim(ctx context.Context, d Decision) {
	ply := g.t.ply()
	g.claimedPly = ply
	g.chat.hold(ctx, ply)
	if err := g.api.Draw(ctx, g.id, true); err != nil {
		g.log.Warn("draw claim failed", "ply", ply, "err", err)
		g.chat.release()
	} else {
		g.claims = append(g.claims, threefold.BotClaim{Ply: ply, How: "draw_yes"})
		g.log.Info("claimed a draw by threefold repetition", "ply", ply, "occurrences", g.t.game.Occurrences())
		v := g.vars()
		v.Claimant, v.Count, v.Plies = g.playerName(g.color), g.t.game.Count(), joinPlies(g.t.game.Occurrences())
		g.claimNotice = &pendingNotice{ply: ply, vars: v}
	}
	g.pendingDec = d
	g.setTimer("claim", ply, g.claimWait())
}

func (g *game) setTimer(what string, ply int, d time.Duration) {
	if g.timer != nil {
		g.timer.Stop()
	}
	g.timer, g.timerFor, g.timerPly = g.clock.NewTimer(d), what, ply
}

func (g *game) onTimer(ctx context.Context) {
	if g.finished || !g.ourTurn() || g.t.ply() != g.timerPly || g.movedPly == g.timerPly {
		return
	}
	switch g.timerFor {
	case "claim":
		g.log.Info("the claim did not end the game; playing on", "ply", g.timerPly)
		g.chat.release()
		g.sayClaim(false)
		g.sendMove(ctx, g.pendingDec)
	case "accept":
		g.log.Info("accepting the draw offer did not end the game; playing on", "ply", g.timerPly)
		g.chat.release()
		g.sendMove(ctx, g.pendingDec)
	default:
		g.maybeMove(ctx)
	}
}

func (g *game) retryLater(ply int) {
	if g.failPly != ply {
		g.failPly, g.failures = ply, 0
	}
	g.failures++
	d := 200 * time.Millisecond * time.Duration(g.failures)
	if g.failures > 10 {
		d = 5 * time.Second
	}
	g.setTimer("retry", ply, d)
}

// moveMayEnd reports whether Lichess may end the game on the bot's move
// d: mate or stalemate, a dead position, the fifth occurrence, the
// hundredth reversible ply, or a draw offered with a third occurrence or
// against the opponent's offer.
func (g *game) moveMayEnd(d Decision) bool {
	n := g.t.countAfter(d.Move)
	if n >= 5 || d.OfferDraw && (n >= 3 || g.oppOffer) {
		return true
	}
	pos := g.t.game.Position()
	pos.Play(d.Move)
	return pos.Status() != rules.Ongoing || pos.InsufficientMaterial() || pos.HalfmoveClock() >= 100
}

func (g *game) sendMove(ctx context.Context, d Decision) {
	ply := g.t.ply()
	uciMove := d.Move.UCIChess960() // castling as king-to-rook (e1h1): Lichess accepts it in every game
	if g.moveMayEnd(d) {
		// No notice may reach Lichess after the move that ends the game.
		g.chat.hold(ctx, ply)
		defer func() {
			if g.movedPly != ply { // not sent
				g.chat.release()
			}
		}()
	}
	for attempt := 1; ; attempt++ {
		err := g.api.Move(ctx, g.id, uciMove, d.OfferDraw)
		if err == nil {
			g.movedPly = ply
			if d.OfferDraw && !d.Claim && g.t.countAfter(d.Move) >= 3 {
				occ := append(g.t.game.OccurrencesOf(d.Move), ply+1)
				g.claims = append(g.claims, threefold.BotClaim{Ply: ply + 1, How: "move_offering_draw", Move: uciMove})
				g.log.Info("claimed a draw with a move producing the third occurrence", "ply", ply+1, "move", uciMove, "occurrences", occ)
				v := g.vars()
				v.Claimant, v.Count, v.Plies, v.Ply = g.playerName(g.color), len(occ), joinPlies(occ), ply+1
				g.claimNotice = &pendingNotice{ply: ply + 1, vars: v}
			}
			return
		}
		if ctx.Err() != nil {
			return
		}
		var rl *lichess.RateLimitError
		if errors.As(err, &rl) && attempt < 5 {
			// The client holds the next request until the pause is over.
			g.log.Warn("move rate limited; sending it again after the pause", "ply", ply, "move", uciMove, "pause", rl.Pause)
			continue
		}
		var ae *lichess.APIError
		if errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 {
			// "Not your turn, or game already over": the stream will tell.
			g.log.Warn("move refused", "ply", ply, "move", uciMove, "err", err)
			g.retryLater(ply)
			return
		}
		g.log.Warn("move failed", "ply", ply, "move", uciMove, "err", err)
		g.retryLater(ply)
		return
	}
}

// claimWhenGone ends the game after the opponent left, once Lichess's
// time for it to come back is over: the win, or the draw when the bot has
// no material to mate with (a lone king, or a king and one minor piece),
// since a win on time would be a draw then too (FIDE 6.9). Lichess refuses
// while the opponent may still come back, so a refusal is tried again a
// few times.
func (g *game) claimWhenGone(ctx context.Context) {
	if g.finished || g.resigned {
		return
	}
	pos := g.t.game.Position()
	what, claim := "win", g.api.ClaimVictory
	if !pos.CanMate(g.color) {
		what, claim = "draw", g.api.ClaimDraw
	}
	g.chat.hold(ctx, g.t.ply())
	err := claim(ctx, g.id)
	if err == nil {
		g.log.Info("claimed the "+what+": the opponent left", "ply", g.t.ply())
		return
	}
	g.chat.release()
	g.goneClaims++
	g.log.Info(what+" not claimable yet", "attempt", g.goneClaims, "err", err)
	if g.goneClaims < 10 {
		g.goneTimer = g.clock.NewTimer(5 * time.Second)
	}
}
func (g *game) doResign(ctx context.Context) {
	if g.finished || g.resigned {
		return
	}
	g.resigned = true
	g.log.Info("resigning: the bot is stopping")
	if g.t != nil {
		g.chat.hold(ctx, g.t.ply())
	}
	err := g.api.Resign(ctx, g.id)
	var ae *lichess.APIError
	switch {
	case err == nil:
	case errors.As(err, &ae) && ae.Status == http.StatusBadRequest:
		// "This game cannot be resigned": it ended while the bot was
		// stopping, and the stream is about to say how.
		g.log.Info("resign refused: the game is already over", "err", err)
	default:
		g.log.Warn("resign failed", "err", err)
	}
}

// finish records the game and says goodbye.
func (g *game) finish(ctx context.Context) {
	g.finished = true
	for _, t := range []*clock.Timer{&g.timer, &g.goneTimer} {
		if *t != nil {
			(*t).Stop()
			*t = nil
		}
	}
	s := g.st
	term, occ := classify(classifyInput{Status: s.Status, Winner: s.Winner, Game: g.t.game, Claims: g.claims, DrawOffered: g.drawOffer})
	pos := g.t.game.Position()
	rec := threefold.BotRecord{
		Site:        "lichess",
		GameID:      g.id,
		URL:         g.url,
		White:       threefold.BotPlayer{ID: g.full.White.ID, Name: g.full.White.Name, Title: g.full.White.Title, Rating: g.full.White.Rating},
		Black:       threefold.BotPlayer{ID: g.full.Black.ID, Name: g.full.Black.Name, Title: g.full.Black.Title, Rating: g.full.Black.Rating},
		BotColor:    g.color.String(),
		Variant:     g.full.Variant.Key,
		Speed:       g.full.Speed,
		Rated:       g.full.Rated,
		InitialFEN:  g.t.start.FEN(),
		Moves:       append([]string{}, g.t.uci...),
		SAN:         append([]string{}, g.t.san...),
		Plies:       g.t.ply(),
		FinalFEN:    pos.FEN(),
		Status:      s.Status,
		Winner:      s.Winner,
		Result:      lichess.Result(s.Status, s.Winner),
		Termination: term,
		Occurrences: occ,
		Claims:      g.claims,
		Engine:      g.mover.Name(),
		StartedAt:   g.started.UTC(),
		EndedAt:     g.clock.Now().UTC(),
		RulesUsed:   g.rulesUsed,
	}
	if rec.Variant == "" {
		rec.Variant = "standard"
	}
	g.log.Info("game over", "status", s.Status, "winner", s.Winner, "result", rec.Result, "termination", string(term),
		"occurrences", occ, "plies", rec.Plies, "claims", len(g.claims))
	if data, err := json.Marshal(rec); err == nil {
		g.log.Info("game record", "record", string(data))
	}
	if s.Status != lichess.StatusAborted && s.Status != lichess.StatusNoStart {
		switch s.Winner {
		case "":
			g.outcome = "draw"
		case rec.BotColor:
			g.outcome = "win"
		default:
			g.outcome = "loss"
		}
	}
	if g.sink != nil {
		if err := g.sink.WriteRecord(ctx, rec); err != nil {
			g.log.Error("record not written", "err", err)
		}
	}
	v := g.vars()
	v.Ending = endingText(i18n.For(g.cfg.Chat.Lang), term, s.Winner, occ)
	v.Result = rec.Result
	v.Plies = joinPlies(occ)
	g.chat.sayFinal(NoticeGoodbye, g.cfg.Chat.Goodbye, v)
}
