package listener

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// WatcherOptions configures a Watcher. Every field is optional except Alert.
type WatcherOptions struct {
	// Alert receives every alert, once per id in the life of the watcher,
	// synchronously from Apply (alerts of one game in ply order). It must be
	// quick: put slow sinks behind a queue.
	Alert  func(threefold.Alert)
	Logger *slog.Logger
	// MaxPlies bounds the plies of one game that are replayed (default
	// pgn.DefaultMaxPlies); a game longer than that needs attention.
	MaxPlies int
	// FinishedGrace is how long a finished game stays in Status after it
	// finished (default DefaultFinishedGrace); then it is forgotten, so
	// that a watcher running for months does not grow with every game it
	// has seen.
	FinishedGrace time.Duration
	Clock         clock.Clock // default clock.Real
}

// DefaultFinishedGrace is how long a finished game is kept by default.
const DefaultFinishedGrace = 2 * time.Hour

// Attention marks a game whose last snapshot could not be replayed: the
// move at Ply (the Ply-th half-move) is illegal or unreadable. The game is
// followed up to the ply before, and again in full from the next snapshot
// that replays cleanly.
type Attention struct {
	Ply    int    `json:"ply"`
	Token  string `json:"token"`
	Reason string `json:"reason"`
}

// GameStatus is what the watcher knows about one followed game.
type GameStatus struct {
	Game      threefold.GameRef `json:"game"`
	Source    string            `json:"source"`
	Ply       int               `json:"ply"` // plies replayed
	Result    string            `json:"result,omitempty"`
	Finished  bool              `json:"finished"`
	Rebuilds  int               `json:"rebuilds"` // snapshots that did not extend what was seen
	Attention *Attention        `json:"attention,omitempty"`
	// DrawnAtPly is the ply at which a fifth occurrence or the 75-move rule
	// drew the game; moves recorded after it are not part of the game.
	DrawnAtPly *int      `json:"drawn_at_ply,omitempty"`
	Updated    time.Time `json:"updated"`
}

// Watcher follows every game of every snapshot it is given: one rules.Game
// per game (by Game.Site and Game.ID), fed incrementally, and alerts for
// the third occurrence, a claim by declared move, the fifth occurrence and
// the 50- and 75-move rules. When a snapshot corrects the moves (it no
// longer extends what was seen, or its start position changed), every
// alert raised beyond the correction that the corrected moves do not raise
// again is withdrawn: a KindWithdrawn alert names it. Should the event
// hold again later, it is raised again with a RevisedAlertID. Apply is
// safe for concurrent use; snapshots of different games never wait for
// each other's replay.
type Watcher struct {
	alert    func(threefold.Alert)
	log      *slog.Logger
	maxPlies int
	grace    time.Duration
	clock    clock.Clock

	mu        sync.Mutex
	games     map[gameKey]*tracked
	lastPrune time.Time
	// lastOf holds, by source, the games whose last state it took in
	// (GameState.Last), finished or not: forgotten at that source's next
	// state, unless a state without Last came since (another source),
	// once whoever reads the watcher about them (the recorder's
	// Termination) is done.
	lastOf map[string][]gameKey
}

type gameKey struct{ site, id string }

// tracked is the state of one game: its tracker, the tokens it was fed (a
// shared, read-only view of the snapshot's Moves, not a copy) and what has
// been alerted.
type tracked struct {
	// What an update reads and writes comes first, in a few cache lines
	// (a followed board's state is cold by its next update when many
	// boards are followed); what alerts, corrections and status need
	// follows.
	mu        sync.Mutex
	game      *rules.Game // replay.Game() while the game is followed, nil once it finished
	plies     int         // plies replayed (kept once the game finished)
	checked   int         // verdicts were evaluated for every ply <= checked
	seventyAt int         // 1 + the ply at which the 75-move rule drew the game; 0 while it has not
	fifty     bool        // FiftyMoves at ply checked
	seventy   bool        // SeventyFiveMoves at ply checked
	afterEnd  bool        // moves after the game was drawn by rule have been reported in the log
	finished  bool
	last      bool // the last snapshot said Last: no state of it follows from its source
	notation  rules.Notation
	termOK    bool
	attention *Attention
	start     string // the start and notation of the last snapshot
	result    string
	updated   time.Time
	clocks    []*threefold.ClockReading // the last snapshot's clocks (a read-only view)
	// term is the true end of the finished game by its moves, when termOK:
	// the last snapshot said finished and every one of its moves replayed.
	term   threefold.Termination
	ref    threefold.GameRef
	source string
	// pending holds the alerts raised beyond a correction, until the
	// corrected moves raise them again (kept) or pass their ply without
	// doing so (withdrawn).
	pending map[string]pendingAlert
	replay  rules.Replay      // the game; it keeps the tokens replayed as a read-only view of the snapshot's Moves
	sans    sanWindow         // the moves of the current reversible stretch, for the SAN of the alerts' proofs
	emitted map[string]raised // every alert raised and not withdrawn, by id
	// revisions: AlertID → times its event was withdrawn
	revisions map[string]int
	attnToken string // the bad token in full (Attention.Token is an excerpt)
	rebuilds  int
	endedAt   time.Time // when the watcher first saw it finished (its clock)
}

// raised is what the watcher keeps of an alert it raised: enough to
// withdraw it.
type raised struct {
	kind     threefold.AlertKind
	ply      int
	move     string // UCI of the declared move (claim_by_move)
	fen      string
	claimant string
	san      string
	variant  string
}

// pendingAlert is a raised alert beyond a correction of the moves made at
// ply from+1.
type pendingAlert struct {
	raised
	from int
}

// NewWatcher returns a watcher that reports alerts to opts.Alert.
func NewWatcher(opts WatcherOptions) *Watcher {
	w := &Watcher{alert: opts.Alert, log: opts.Logger, games: make(map[gameKey]*tracked), lastOf: make(map[string][]gameKey),
		maxPlies: opts.MaxPlies, grace: opts.FinishedGrace, clock: clock.Or(opts.Clock)}
	if w.maxPlies <= 0 {
		w.maxPlies = pgn.DefaultMaxPlies
	}
	if w.grace <= 0 {
		w.grace = DefaultFinishedGrace
	}
	if w.alert == nil {
		w.alert = func(threefold.Alert) {}
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	return w
}

// Run runs every source until ctx is done or the source ends, feeding
// their snapshots to Apply. A source that fails is logged and the others
// go on; Run returns when all have returned, with the errors of those that
// failed (nil if all ended cleanly or because ctx was cancelled).
func (w *Watcher) Run(ctx context.Context, sources ...Source) error {
	var wg sync.WaitGroup
	errs := make([]error, len(sources))
	for i, src := range sources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := src.Run(ctx, func(s threefold.GameState) error {
				if s.Source == "" {
					s.Source = src.Name()
				}
				w.Apply(s)
				return nil
			})
			switch {
			case err == nil:
				w.log.Info("source ended", "source", src.Name())
			case ctx.Err() != nil && errors.Is(err, ctx.Err()):
			default:
				w.log.Error("source stopped; the other sources go on", "source", src.Name(), "err", err)
				errs[i] = fmt.Errorf("%s: %w", src.Name(), err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Apply takes one snapshot into account. It is idempotent: a snapshot seen
// before changes nothing and raises nothing. A snapshot that extends what
// was seen costs only its new plies; one that does not (a correction, a
// takeback) rebuilds the game from its start and is logged.
func (w *Watcher) Apply(s threefold.GameState) {
	if s.Game.ID == "" {
		w.log.Warn("snapshot without a game id ignored", "source", s.Source)
		return
	}
	k := gameKey{s.Game.Site, s.Game.ID}
	now := w.clock.Now()
	w.mu.Lock()
	w.pruneLocked(now)
	w.forgetLastLocked(s.Source)
	t := w.games[k]
	if t == nil {
		t = &tracked{ref: s.Game, checked: -1}
		w.games[k] = t
	}
	w.mu.Unlock()

	t.mu.Lock()
	if s.Finished && !t.finished {
		t.endedAt = now
	}
	w.apply(t, &s)
	t.mu.Unlock()
	if s.Last {
		w.mu.Lock()
		w.lastOf[s.Source] = append(w.lastOf[s.Source], k)
		w.mu.Unlock()
	}
}

// forgetLastLocked forgets the games whose last state source sent before
// this one (w.mu held): watch --once of a file of millions of games holds
// the games being read, not every game for the grace period (a finished
// one) or to the end (one without a result).
func (w *Watcher) forgetLastLocked(source string) {
	keys := w.lastOf[source]
	if len(keys) == 0 {
		return
	}
	for _, k := range keys {
		if t := w.games[k]; t != nil && t.mu.TryLock() {
			if t.last {
				delete(w.games, k)
			}
			t.mu.Unlock()
		}
	}
	w.lastOf[source] = keys[:0]
}

// pruneLocked forgets the games that finished more than the grace period
// ago, looking at most once per tenth of it. w.mu is held.
func (w *Watcher) pruneLocked(now time.Time) {
	if now.Sub(w.lastPrune) < w.grace/10 {
		return
	}
	w.lastPrune = now
	for k, t := range w.games {
		if !t.mu.TryLock() {
			continue // being updated: not finished for long
		}
		if t.finished && now.Sub(t.endedAt) >= w.grace {
			delete(w.games, k)
		}
		t.mu.Unlock()
	}
}

// Games returns how many games the watcher holds (followed, or finished
// within the grace period).
func (w *Watcher) Games() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.games)
}

func (w *Watcher) apply(t *tracked, s *threefold.GameState) {
	t.term, t.termOK = "", false
	t.ref = s.Game
	t.source = s.Source
	t.result = s.Result
	t.finished = s.Finished
	t.last = s.Last
	t.updated = s.ObservedAt
	t.clocks = s.Clocks
	if t.game != nil && (s.StartFEN != t.start || s.Notation != t.notation) {
		// A new start: every verdict is asked again, from ply 0.
		t.suspect(-1)
		t.checked, t.fifty, t.seventy, t.seventyAt, t.afterEnd = -1, false, false, 0, false
	}
	t.start, t.notation = s.StartFEN, s.Notation
	moves := s.Moves
	if len(moves) > w.maxPlies {
		moves = moves[:w.maxPlies]
	}
	c, err := t.replay.Rewind(s.StartFEN, s.Notation, moves, func(st rules.Step) {
		if st.Ply == 0 { // (re)started
			t.game = st.Game
			t.game.DropMoves() // the SAN of the proofs needs only t.sans
		}
		t.follow(st)
		if st.Ply == 0 && t.checked < 0 {
			w.check(t, s) // ply 0: a FEN may already carry a 50-move clock
		}
	})
	switch {
	case c.Rebuilt && c.NewStart:
		w.log.Info("start position changed; rebuilding", "game", t.ref.ID, "source", s.Source)
		t.rebuilds++
	case c.Rebuilt:
		w.log.Info("snapshot no longer extends what was seen (correction or takeback); rebuilding",
			"game", t.ref.ID, "source", s.Source, "from_ply", c.Kept+1, "had_plies", c.Had, "now_plies", len(moves))
		t.rebuilds++
		t.suspect(c.Kept)
	}
	if err != nil {
		t.game, t.plies = t.replay.Game(), t.replay.Ply()
		w.markAttention(t, s, err)
		return
	}
	if c.Rebuilt && !c.NewStart && t.checked > c.Kept {
		if t.seventyAt > c.Kept+1 {
			t.seventyAt = 0
		}
		t.afterEnd = false
		t.checked = c.Kept
		v := t.game.Verdict()
		t.fifty, t.seventy = v.FiftyMoves, v.SeventyFiveMoves
	}
	err = t.replay.Extend(moves, func(st rules.Step) {
		t.follow(st)
		w.check(t, s)
	})
	t.plies = t.replay.Ply()
	switch {
	case err != nil:
	case len(moves) < len(s.Moves):
		err = &rules.ReplayError{Ply: len(moves) + 1, Token: s.Moves[len(moves)],
			Err: fmt.Errorf("more than %d plies (limit pgn.max_plies)", w.maxPlies)}
	case s.ReadError != "":
		err = &rules.ReplayError{Ply: len(moves) + 1, Err: fmt.Errorf("the source could not read the game past ply %d: %s", len(moves), s.ReadError)}
	}
	if err != nil {
		w.markAttention(t, s, err)
		w.withdrawPending(t, s, false) // what lies beyond the bad move waits for a snapshot that replays
		return
	}
	w.withdrawPending(t, s, true)
	if t.attention != nil {
		w.log.Info("game replays cleanly again", "game", t.ref.ID, "source", s.Source, "ply", t.replay.Ply())
		t.attention = nil
	}
	if s.Finished {
		t.term, t.termOK = t.termination()
		// A finished game keeps only what status and de-duplication need;
		// should it be sent again, it is replayed (raising nothing twice).
		t.replay.Reset()
		t.game, t.sans = nil, sanWindow{}
	}
}

// termination is how the game replayed to its end ended by its moves, as
// store.MovesTermination says, without replaying it again: the first of a
// fifth occurrence and the 75-move rule, else checkmate, stalemate or
// insufficient material of the last position, else "". ok is false when
// the answer would need the replay (the 75-move rule already at ply 0).
func (t *tracked) termination() (threefold.Termination, bool) {
	five, seventy := t.game.FivefoldPly(), t.seventyAt-1
	switch {
	case seventy == 0 || seventy > t.game.Ply():
		// MovesTermination looks from ply 1 on; a ply beyond the game is
		// of a longer version of it.
		return "", false
	case five >= 0 && (seventy < 0 || five <= seventy):
		return threefold.TermFivefold, true
	case seventy > 0:
		return threefold.TermSeventyFiveMoves, true
	}
	switch v := t.game.Verdict(); {
	case v.Checkmate:
		return threefold.TermCheckmate, true
	case v.Stalemate:
		return threefold.TermStalemate, true
	case v.InsufficientMaterial:
		return threefold.TermInsufficient, true
	}
	return "", true
}

// Termination says how a finished game the watcher took in ended by its
// moves (checkmate, stalemate, a fifth occurrence, the 75-move rule,
// insufficient material; "" when the moves do not say), as
// store.MovesTermination does, from the replay the watcher made, and the
// plies of that snapshot. ok is false when the watcher does not say: it
// does not hold the game, the game's last snapshot was not finished, or
// not all of its moves were replayed (an illegal move, pgn.max_plies).
func (w *Watcher) Termination(site, id string) (term threefold.Termination, plies int, ok bool) {
	w.mu.Lock()
	t := w.games[gameKey{site, id}]
	w.mu.Unlock()
	if t == nil {
		return "", 0, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.term, t.plies, t.termOK
}

// drawnAt returns the ply at which the rules drew the game by themselves
// (a fifth occurrence or the 75-move rule), or -1.
func (t *tracked) drawnAt() int {
	end := t.game.FivefoldPly()
	if s := t.seventyAt - 1; s >= 0 && (end < 0 || s < end) {
		end = s
	}
	return end
}

// markAttention records the move (or start position) the replay could not
// play; the game is followed up to the ply before.
func (w *Watcher) markAttention(t *tracked, s *threefold.GameState, err error) {
	var re *rules.ReplayError
	if !errors.As(err, &re) {
		re = &rules.ReplayError{Ply: t.replay.Ply() + 1, Err: err}
	}
	a := &Attention{Ply: re.Ply, Token: safetext.Excerpt(re.Token), Reason: re.Err.Error()}
	if t.attention == nil || *t.attention != *a || t.attnToken != re.Token {
		switch {
		case a.Ply == 0:
			w.log.Warn("game needs attention: bad start position", "game", t.ref.ID, "source", s.Source, "fen", safetext.Excerpt(s.StartFEN), "err", a.Reason)
		case a.Token == "":
			w.log.Warn("game needs attention: following the game up to the ply before",
				"game", t.ref.ID, "source", s.Source, "ply", a.Ply, "err", a.Reason)
		default:
			w.log.Warn("game needs attention: move cannot be played; following the game up to the ply before",
				"game", t.ref.ID, "source", s.Source, "ply", a.Ply, "move", a.Token, "err", a.Reason)
		}
	}
	t.attention, t.attnToken = a, re.Token
}

// check evaluates the verdict at the current ply, if not done before, and
// raises its alerts.
func (w *Watcher) check(t *tracked, s *threefold.GameState) {
	ply := t.game.Ply()
	if ply <= t.checked {
		return
	}
	t.checked = ply
	// The fifth occurrence (9.6.1) and the 75-move rule (9.6.2) end the
	// game: moves recorded after that are not part of it and raise nothing.
	if end := t.drawnAt(); end >= 0 && ply > end {
		if !t.afterEnd {
			t.afterEnd = true
			w.log.Info("moves recorded after the game was drawn by rule; they are not part of the game and raise no alert",
				"game", t.ref.ID, "source", s.Source, "drawn_at_ply", end, "ply", ply)
		}
		return
	}
	fifty, seventy := t.fifty, t.seventy
	// The cheap questions first: most plies raise nothing, and Verdict
	// allocates.
	g := t.game
	pos := g.Position()
	if g.Count() < 3 && pos.HalfmoveClock() < 99 && !g.CanClaimRepetition() {
		t.fifty, t.seventy = false, false
		return
	}
	v := g.Verdict()
	t.fifty, t.seventy = v.FiftyMoves, v.SeventyFiveMoves
	var kinds []threefold.AlertKind
	// A fifth occurrence (9.6.1) or the 75-move rule (9.6.2) ends the game
	// at this ply: it is drawn, and nobody may claim anything there.
	drawn := (v.Fivefold && v.Count == 5) || (v.SeventyFiveMoves && !seventy)
	switch {
	case drawn:
	case v.Threefold:
		kinds = append(kinds, threefold.KindThreefold)
	case len(v.ClaimMoves) > 0:
		kinds = append(kinds, threefold.KindClaimByMove)
	}
	if v.Fivefold && v.Count == 5 {
		kinds = append(kinds, threefold.KindFivefold)
	}
	if v.FiftyMoves && !fifty && !drawn {
		kinds = append(kinds, threefold.KindFiftyMoves)
	}
	if v.SeventyFiveMoves && !seventy {
		kinds = append(kinds, threefold.KindSeventyFiveMoves)
	}
	if v.SeventyFiveMoves && t.seventyAt == 0 {
		t.seventyAt = ply + 1
	}
	if len(kinds) == 0 {
		return
	}
	sans := t.sanHistory()
	for _, kind := range kinds {
		a := w.buildAlert(t, s, v, sans, kind)
		if t.emitted == nil {
			t.emitted = make(map[string]raised)
		}
		if _, dup := t.emitted[a.ID]; dup {
			delete(t.pending, a.ID) // raised again by the corrected moves: it holds
			continue
		}
		t.emitted[a.ID] = raised{kind: a.Kind, ply: a.Ply, move: a.Move, fen: a.FEN, claimant: a.Claimant, san: a.SAN, variant: a.Variant}
		w.alert(a)
	}
}

// suspect puts every alert raised beyond ply k in pending: the moves from
// ply k+1 on were corrected.
func (t *tracked) suspect(k int) {
	for id, r := range t.emitted {
		if r.ply > k {
			if t.pending == nil {
				t.pending = make(map[string]pendingAlert)
			}
			if p, ok := t.pending[id]; !ok || k < p.from {
				t.pending[id] = pendingAlert{raised: r, from: k}
			}
		}
	}
}

// withdrawPending withdraws, in ply order, every pending alert whose ply
// the corrected moves have reached without raising it again, or every one
// when all is set (the snapshot replayed to its end: alerts beyond it are
// about moves taken back).
func (w *Watcher) withdrawPending(t *tracked, s *threefold.GameState, all bool) {
	if len(t.pending) == 0 {
		return
	}
	reached := t.replay.Ply()
	ids := make([]string, 0, len(t.pending))
	for id, p := range t.pending {
		if all || p.ply <= reached {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := t.pending[ids[i]], t.pending[ids[j]]
		if a.ply != b.ply {
			return a.ply < b.ply
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		p := t.pending[id]
		delete(t.pending, id)
		delete(t.emitted, id)
		if t.revisions == nil {
			t.revisions = make(map[string]int)
		}
		t.revisions[threefold.AlertID(t.ref, p.kind, p.ply, p.move)]++
		reason := english.Sprintf(i18n.ReasonCorrected, strconv.Itoa(p.from+1))
		if p.ply > reached {
			reason = english.Sprintf(i18n.ReasonTookBack, strconv.Itoa(p.from+1), strconv.Itoa(reached))
		}
		if p.from < 0 {
			reason = english.Sprintf(i18n.ReasonStartChanged)
		}
		w.log.Info("alert withdrawn", "game", t.ref.ID, "source", s.Source, "alert", id, "kind", p.kind, "ply", p.ply, "reason", reason)
		w.alert(threefold.Alert{
			ID:            threefold.AlertID(t.ref, threefold.KindWithdrawn, p.ply, id),
			Kind:          threefold.KindWithdrawn,
			Ply:           p.ply,
			Occurrences:   []int{},
			FEN:           p.fen,
			Claimant:      p.claimant,
			Move:          p.move,
			SAN:           p.san,
			Game:          t.ref,
			Source:        s.Source,
			ObservedAt:    s.ObservedAt,
			DelayS:        s.Delay.Seconds(),
			DelayPlies:    s.DelayPlies,
			Audience:      s.Audience,
			Withdraws:     id,
			WithdrawnKind: p.kind,
			Reason:        reason,
			Variant:       p.variant,
		})
	}
}

// alertVariant is the Variant of an alert about a game from start.
func alertVariant(start rules.Position) string {
	if start.Variant() == rules.Chess960 {
		return start.Variant().String()
	}
	return ""
}

// sanWindow holds the moves that produced the plies of the current
// reversible stretch, from the last capture or pawn move on (every
// occurrence of the current position, and of any position a declared move
// could reach, lies there), and their SAN once an alert asked for it. The
// stretch is at most 150 plies while the game goes on (the 75-move rule
// ends it), and nothing is kept once the game is drawn by rule: the
// watcher's memory does not grow with the length of the game.
type sanWindow struct {
	base  int // moves[i] produced ply base+1+i
	moves []rules.Move
	sans  []string       // the SAN of moves[:len(sans)], computed when asked
	start rules.Position // the position at ply base
	pos   rules.Position // the position at ply base+len(sans)
}

// follow takes the ply a replay reached into the window: ply 0 or an
// irreversible move starts it again; a ply after the game was drawn by
// rule (it raises nothing) is left out.
func (t *tracked) follow(st rules.Step) {
	w := &t.sans
	switch {
	case st.Ply == 0:
		*w = sanWindow{start: st.Game.Position(), pos: st.Game.Position(), moves: w.moves[:0], sans: w.sans[:0]}
	case t.drawnAfter(st.Ply - 1):
	case st.Game.HalfmoveClock() == 0:
		// The move that ends the stretch produced its first ply: kept,
		// from the position before it.
		w.base, w.start, w.pos = st.Ply-1, *st.Before, *st.Before
		w.moves, w.sans = append(w.moves[:0], st.Move), w.sans[:0]
	default:
		w.moves = append(w.moves, st.Move)
	}
}

// drawnAfter reports whether the game was drawn by rule at ply p or
// before.
func (t *tracked) drawnAfter(p int) bool {
	end := t.drawnAt()
	return end >= 0 && end <= p
}

// at returns the SAN of the move that produced ply p ("" for ply 0 or a
// ply outside the stretch, or not asked for).
func (w *sanWindow) at(p int) string {
	if i := p - w.base - 1; i >= 0 && i < len(w.sans) {
		return w.sans[i]
	}
	return ""
}

// sanHistory computes the SAN of the window's moves not written yet and
// returns the window: each move's SAN is computed once, and only in games
// that raise an alert.
func (t *tracked) sanHistory() *sanWindow {
	w := &t.sans
	for _, m := range w.moves[len(w.sans):] {
		w.sans = append(w.sans, w.pos.SAN(m))
		w.pos.Play(m)
	}
	return w
}

func (w *Watcher) buildAlert(t *tracked, s *threefold.GameState, v rules.Verdict, sans *sanWindow, kind threefold.AlertKind) threefold.Alert {
	pos := t.game.Position()
	ply := t.game.Ply()
	a := threefold.Alert{
		Kind:        kind,
		Ply:         ply,
		Count:       v.Count,
		Occurrences: append([]int(nil), v.Occurrences...),
		FEN:         pos.FEN(),
		Claimant:    v.Turn.String(),
		SAN:         sans.at(ply),
		Game:        t.ref,
		Source:      s.Source,
		ObservedAt:  s.ObservedAt,
		DelayS:      s.Delay.Seconds(),
		DelayPlies:  s.DelayPlies,
		Audience:    s.Audience,
		Variant:     alertVariant(t.game.Start()),
	}
	switch kind {
	case threefold.KindThreefold, threefold.KindFivefold:
		a.NearRepetitions = threefold.NearRepetitionsOf(t.game, 0)
	case threefold.KindClaimByMove:
		next := t.game.Clone()
		next.Play(v.ClaimMoves[0])
		a.NearRepetitions = threefold.NearRepetitionsOf(next, 0)
	}
	if kind == threefold.KindClaimByMove {
		m := v.ClaimMoves[0]
		a.Move = m.UCI()
		a.MoveSAN = pos.SAN(m)
		a.Occurrences = t.game.OccurrencesOf(m)
		a.Count = len(a.Occurrences) + 1 // with the declared move
		for _, o := range v.ClaimMoves[1:] {
			a.OtherMovesSAN = append(a.OtherMovesSAN, pos.SAN(o))
		}
	}
	if a.Occurrences == nil {
		a.Occurrences = []int{}
	}
	sort.Ints(a.Occurrences)
	a.OccurrenceSAN = make([]string, len(a.Occurrences))
	for i, p := range a.Occurrences {
		a.OccurrenceSAN[i] = sans.at(p)
	}
	if len(t.clocks) > 0 {
		var known bool
		clocks := make([]*threefold.ClockReading, len(a.Occurrences))
		for i, p := range a.Occurrences {
			if p >= 1 && p <= len(t.clocks) && t.clocks[p-1] != nil {
				c := *t.clocks[p-1]
				clocks[i], known = &c, true
			}
		}
		if known {
			a.OccurrenceClocks = clocks
		}
	}
	a.ID = threefold.RevisedAlertID(t.ref, kind, ply, a.Move, t.revisions[threefold.AlertID(t.ref, kind, ply, a.Move)])
	if s.PlyAnchor && a.Game.URL != "" {
		a.Game.URL += "#" + strconv.Itoa(ply)
	}
	return a
}

// ReportAttention logs, at WARN, every game whose record could not be
// replayed to its end (watch does at its end).
func (w *Watcher) ReportAttention() {
	for _, st := range w.Status() {
		if a := st.Attention; a != nil {
			w.log.Warn("game needs attention", "game", st.Game.ID, "source", st.Source, "ply", a.Ply, "move", a.Token, "reason", a.Reason)
		}
	}
}

// Status returns what the watcher knows about every game, ordered by site
// and id.
func (w *Watcher) Status() []GameStatus {
	w.mu.Lock()
	ts := make([]*tracked, 0, len(w.games))
	for _, t := range w.games {
		ts = append(ts, t)
	}
	w.mu.Unlock()
	out := make([]GameStatus, 0, len(ts))
	for _, t := range ts {
		t.mu.Lock()
		st := GameStatus{Game: t.ref, Source: t.source, Ply: t.plies, Result: t.result, Finished: t.finished,
			Rebuilds: t.rebuilds, Updated: t.updated}
		if t.attention != nil {
			a := *t.attention
			st.Attention = &a
		}
		if t.game != nil {
			if end := t.drawnAt(); end >= 0 {
				st.DrawnAtPly = &end
			}
		}
		t.mu.Unlock()
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Game.Site != out[j].Game.Site {
			return out[i].Game.Site < out[j].Game.Site
		}
		return out[i].Game.ID < out[j].Game.ID
	})
	return out
}
