package chesscom

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/clock"
)

// DefaultPollInterval is used when Poll is given an interval <= 0.
const DefaultPollInterval = 60 * time.Second

// ArchiveWait is how long a daily game that left a player's current games
// is looked for in the player's monthly archives (for its final PGN: the
// last move may be the one that repeated) before it is reported in
// Update.Gone; at least archivePasses passes are made. It is the
// documented RefreshBound: the archive may get the game that late. The
// archives are revalidated with ETag (and not read at all while the copy
// held is within its max-age), so the search costs at most two 304s a pass.
const ArchiveWait = RefreshBound

const archivePasses = 3

// Update is one delivery of Poll.
type Update struct {
	Target Target
	// Seq numbers the deliveries of one Poll call from 1.
	Seq int
	// First marks the first delivery: it holds every current game of the
	// target (possibly none) and is made after the first complete pass.
	First bool
	// Games whose PGN (or finished state) changed since the last delivery;
	// on the first, every game. Each is a full snapshot: the whole PGN, not
	// the new moves. A game with Finished set is final and is not reported
	// again.
	Games []Game
	// Gone lists games (by URL) reported earlier that the target no longer
	// lists and whose final PGN could not be found (a player's daily game
	// that ended and is not, or not yet, in the monthly archive). Nothing
	// more will come for them.
	Gone []string
	// Delay is the known bound on how old the data of this delivery may be:
	// the largest Meta.Delay of the responses the games came from (the time
	// since their Last-Modified, at most RefreshBound). chess.com data may
	// be hours old.
	Delay time.Duration
	// ObservedAt is the client's Clock.Now() at the end of the pass.
	ObservedAt time.Time
}

// Poll follows target until ctx is done, calling fn with what changed.
//
// Contract:
//   - Each pass reads the target's resources one request at a time (the
//     client is serial), revalidating with ETag / Last-Modified; a 304 costs
//     no decoding and yields no update, and a resource whose copy is still
//     within the max-age chess.com gave it is not requested at all. A
//     player target reads the player's current daily games (last_activity
//     is the cheap change detector; a game that leaves the list is looked
//     up in the monthly archive for its final PGN); with AfterTheGame it
//     also reads the monthly archive for live games that ended. A club target reads the club's matches, then every
//     in-progress match (and each match that just finished, one last time),
//     then every board of those. A match target reads the match and its
//     boards; a board whose games carry no PGN is filled from the white
//     player's current games. A tournament target reads the tournament, its
//     rounds and every round group not yet finished. Finished boards, groups
//     and rounds are not read again.
//   - The first call of fn (Update.First) comes after the first complete
//     pass and holds every current game, possibly none. Later calls come
//     only when some game's PGN changed, a game finished, or a game went;
//     they hold only those games. Games are full snapshots (the whole PGN):
//     a consumer recomputes idempotently by game URL and ply.
//   - fn runs on Poll's goroutine: a slow consumer delays the next pass, and
//     nothing is dropped or queued. fn must not keep Update beyond the call
//     except by copying what it needs. An error from fn ends Poll and is
//     returned unchanged.
//   - Between passes Poll waits interval (DefaultPollInterval if <= 0)
//     through the client's Clock.
//   - Errors: if the first pass cannot read the target's root resource (the
//     player's games, the club's matches, the match, the tournament), Poll
//     returns that error (ErrNotFound for a target that does not exist).
//     Later, a root that answers 410 ends Poll with a *GoneError; any other
//     failure is logged and the pass is tried again after interval. A
//     non-root URL that fails is skipped for the pass, and one that answers
//     410 is dropped for good.
//   - Poll starts no goroutine and owns nothing after it returns: it
//     returns ctx.Err() when ctx is done. The Client may be shared by
//     several Polls; they then take turns for every request.
func (c *Client) Poll(ctx context.Context, target Target, interval time.Duration, fn func(Update) error) error {
	if fn == nil {
		return errors.New("chesscom: poll: nil callback")
	}
	if target.Path() == "" || target.ID == "" {
		return fmt.Errorf("chesscom: poll: %w: empty target", ErrUnknownTarget)
	}
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	p := &poller{
		c:           c,
		t:           target,
		games:       make(map[string]gameState),
		listed:      make(map[string]bool),
		pending:     make(map[string]*vanished),
		boardsDone:  make(map[string]bool),
		groupsDone:  make(map[string]bool),
		roundsDone:  make(map[string]bool),
		matchesDone: make(map[string]bool),
		active:      make(map[string]bool),
	}
	for seq := 1; ; {
		err := p.pass(ctx, seq == 1)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if seq == 1 || errors.Is(err, ErrGone) {
				return fmt.Errorf("chesscom: poll %s: %w", target, err)
			}
			c.log.Warn("chesscom: poll pass failed; retrying after the interval", "target", target.String(), "error", err)
		} else if seq == 1 || len(p.changed) > 0 || len(p.gone) > 0 {
			u := Update{Target: target, Seq: seq, First: seq == 1, Games: p.changed, Gone: p.gone, Delay: p.delay, ObservedAt: c.clock.Now()}
			p.changed, p.gone, p.delay = nil, nil, 0
			if err := fn(u); err != nil {
				return err
			}
			seq++
		}
		if err := clock.Sleep(ctx, c.clock, interval); err != nil {
			return err
		}
	}
}

type vanished struct {
	since  time.Time // when the game was first missed
	passes int       // archive searches so far
}

type gameState struct {
	last     time.Time // last_activity
	hash     uint64    // FNV-1a of the PGN
	n        int       // PGN length
	finished bool
	seen     time.Time // when a pass last read it (a finished game: when it was marked so, or read again)
}

// forgetFinishedAfter: a finished game that no pass has read for this long
// leaves the poller's memory (forgetFinished), so that a player followed
// for months does not grow it. Every place that lists a finished game (the
// month archives of now and of RefreshBound ago, a board not yet read to
// its end) is read at every pass, from the client's cache at worst, so
// such a game is not listed any more: were it read again, it would be
// delivered once more, and the watcher and the store recognise it.
const forgetFinishedAfter = 48 * time.Hour

type poller struct {
	c *Client
	t Target

	games    map[string]gameState // every game reported, by URL (finished ones until forgetFinished)
	forgotAt time.Time            // the last forgetFinished

	// player target
	listed  map[string]bool      // games in the last list read
	pending map[string]*vanished // games that left the list, looked for in the archives
	since   time.Time            // AfterTheGame: live games that ended before this are not reported

	// match / club / tournament targets
	boardsDone  map[string]bool
	groupsDone  map[string]bool
	roundsDone  map[string]bool
	matchesDone map[string]bool
	active      map[string]bool // club: matches in progress at the last read

	// per pass
	changed    []Game
	gone       []string
	delay      time.Duration
	playerMemo map[string][]Game
}

func (p *poller) pass(ctx context.Context, first bool) error {
	p.playerMemo = nil
	var err error
	switch p.t.Kind {
	case KindPlayer:
		err = p.passPlayer(ctx, first)
	case KindClub:
		err = p.passClub(ctx)
	case KindMatch:
		_, err = p.passMatch(ctx, p.c.URL(matchPath(p.t)), true)
	case KindTournament:
		err = p.passTournament(ctx)
	default:
		err = fmt.Errorf("%w: kind %q", ErrUnknownTarget, p.t.Kind)
	}
	if err == nil { // a failing pass read nothing: what it lists is not gone
		p.forgetFinished(p.c.clock.Now())
	}
	// On an error, what this pass found stays queued: the next successful
	// pass delivers it.
	return err
}

// forgetFinished drops the finished games no pass has read for
// forgetFinishedAfter, looking at most once an hour.
func (p *poller) forgetFinished(now time.Time) {
	if now.Sub(p.forgotAt) < time.Hour {
		return
	}
	p.forgotAt = now
	for u, st := range p.games {
		if st.finished && now.Sub(st.seen) >= forgetFinishedAfter {
			delete(p.games, u)
		}
	}
}

func matchPath(t Target) string {
	u := t
	u.Board = ""
	return u.Path()
}

// consider records g and queues it for delivery if it changed.
func (p *poller) consider(g Game, m Meta) {
	if g.URL == "" {
		p.c.log.Debug("chesscom: game without url skipped", "target", p.t.String())
		return
	}
	now := p.c.clock.Now()
	st, seen := p.games[g.URL]
	if seen && st.finished {
		st.seen = now
		p.games[g.URL] = st
		return
	}
	if seen && !g.LastActivity.IsZero() && g.LastActivity.Equal(st.last) && g.Finished == st.finished {
		return // last_activity unchanged: nothing happened in this game
	}
	h := fnv.New64a()
	h.Write([]byte(g.PGN))
	ns := gameState{last: g.LastActivity, hash: h.Sum64(), n: len(g.PGN), finished: g.Finished, seen: now}
	p.games[g.URL] = ns
	if seen && ns.hash == st.hash && ns.n == st.n && ns.finished == st.finished {
		return // activity without a new move (a draw offer, a chat window)
	}
	p.changed = append(p.changed, g)
	p.delay = max(p.delay, m.Delay())
}

func (p *poller) passPlayer(ctx context.Context, first bool) error {
	games, meta, err := p.c.Games(ctx, p.t.Path())
	if err != nil {
		return err
	}
	if p.t.AfterTheGame {
		p.findLiveGames(ctx, first)
	}
	if meta.NotModified && !first && len(p.pending) == 0 {
		return nil
	}
	now := make(map[string]bool, len(games))
	for _, g := range games {
		if g.URL == "" {
			continue
		}
		now[g.URL] = true
		delete(p.pending, g.URL)
		p.consider(g, meta)
	}
	for u := range p.listed {
		if !now[u] {
			if _, ok := p.pending[u]; !ok {
				p.pending[u] = &vanished{since: p.c.clock.Now()}
			}
		}
	}
	p.listed = now
	if len(p.pending) > 0 {
		p.findFinished(ctx)
	}
	return nil
}

// findLiveGames reports the player's live games that ended since the
// first pass (and up to RefreshBound before it, the documented lag of the
// archive), from the monthly archives of now and of RefreshBound ago. A
// live game is only in the archive, after it ended: it is reported once,
// finished, marked AfterTheGame.
func (p *poller) findLiveGames(ctx context.Context, first bool) {
	now := p.c.clock.Now().UTC()
	if first || p.since.IsZero() {
		p.since = now.Add(-RefreshBound)
	}
	months := []time.Time{time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)}
	if back := now.Add(-RefreshBound); back.Month() != now.Month() || back.Year() != now.Year() {
		months = append(months, time.Date(back.Year(), back.Month(), 1, 0, 0, 0, 0, time.UTC))
	}
	for _, mo := range months {
		games, meta, err := p.c.MonthGames(ctx, p.t.ID, mo.Year(), int(mo.Month()))
		if err != nil {
			if !errors.Is(err, ErrNotFound) && ctx.Err() == nil {
				p.c.log.Warn("chesscom: archive read for live games failed", "target", p.t.String(), "error", err)
			}
			continue
		}
		for _, g := range games {
			if g.TimeClass == "daily" || g.EndTime.IsZero() || g.EndTime.Before(p.since) {
				continue
			}
			g.Finished, g.AfterTheGame = true, true
			p.consider(g, meta)
		}
	}
}

// findFinished looks for vanished games in the current and the previous
// month's archive of the player.
func (p *poller) findFinished(ctx context.Context) {
	now := p.c.clock.Now().UTC()
	months := []time.Time{now, time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0)}
	failed := false
	for _, mo := range months {
		if len(p.pending) == 0 {
			break
		}
		games, meta, err := p.c.MonthGames(ctx, p.t.ID, mo.Year(), int(mo.Month()))
		if err != nil {
			if !errors.Is(err, ErrNotFound) {
				failed = true
				p.c.log.Warn("chesscom: archive lookup failed", "target", p.t.String(), "error", err)
			}
			continue
		}
		for _, g := range games {
			if _, ok := p.pending[g.URL]; ok {
				g.Finished = true
				p.consider(g, meta)
				delete(p.pending, g.URL)
				if st, ok := p.games[g.URL]; ok && !st.finished { // consider skipped it (same PGN): mark final
					st.finished, st.seen = true, p.c.clock.Now()
					p.games[g.URL] = st
				}
			}
		}
	}
	if failed {
		return // try again next pass without counting this one
	}
	now = p.c.clock.Now()
	for u, v := range p.pending {
		v.passes++
		if v.passes >= archivePasses && now.Sub(v.since) >= ArchiveWait {
			delete(p.pending, u)
			if st, ok := p.games[u]; ok && !st.finished {
				st.finished, st.seen = true, now
				p.games[u] = st
				p.gone = append(p.gone, u)
			}
		}
	}
	slices.Sort(p.gone)
}

func (p *poller) passClub(ctx context.Context) error {
	cm, _, err := fetch(ctx, p.c, p.t.Path(), DecodeClubMatches)
	if err != nil {
		return err
	}
	now := make(map[string]bool, len(cm.InProgress))
	for _, m := range cm.InProgress {
		if m.URL == "" {
			continue
		}
		u := p.c.URL(m.URL)
		now[u] = true
		if p.matchesDone[u] {
			continue
		}
		p.subMatch(ctx, u, false)
	}
	// Matches that left in_progress: one last read of their boards, then done.
	for u := range p.active {
		if !now[u] && !p.matchesDone[u] {
			p.subMatch(ctx, u, true)
		}
	}
	p.active = now
	return nil
}

func (p *poller) subMatch(ctx context.Context, u string, last bool) {
	status, err := p.passMatch(ctx, u, false)
	switch {
	case errors.Is(err, ErrGone):
		p.matchesDone[u] = true
	case err != nil:
		p.c.log.Warn("chesscom: match read failed", "target", p.t.String(), "match", u, "error", err)
	case last || status == "finished":
		p.matchesDone[u] = true
	}
}

// passMatch reads a match and its boards; it returns the match status.
func (p *poller) passMatch(ctx context.Context, u string, root bool) (string, error) {
	m, _, err := p.c.Match(ctx, u)
	if err != nil {
		return "", err
	}
	// A live match's boards are built from its id: its games are live
	// games, and the players' links are not needed to find them.
	live := strings.Contains(u, "/pub/match/live/")
	var boards []string
	if root && p.t.Board != "" {
		boards = []string{strings.TrimRight(u, "/") + "/" + p.t.Board}
	} else {
		if !live {
			boards = m.BoardURLs()
		}
		if len(boards) == 0 {
			for i := 1; i <= m.Boards; i++ {
				boards = append(boards, strings.TrimRight(u, "/")+"/"+strconv.Itoa(i))
			}
		}
		if len(boards) == 0 {
			boards = m.BoardURLs()
		}
	}
	finished := m.Status == "finished"
	matchURL := m.ID
	if matchURL == "" {
		matchURL = u
	}
	for _, b := range boards {
		bu := p.c.URL(b)
		if p.boardsDone[bu] {
			continue
		}
		mb, meta, err := p.c.MatchBoard(ctx, bu)
		if err != nil {
			if errors.Is(err, ErrGone) {
				p.boardsDone[bu] = true
			} else if ctx.Err() == nil {
				p.c.log.Warn("chesscom: board read failed", "target", p.t.String(), "board", bu, "error", err)
			}
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			continue
		}
		done := len(mb.Games) > 0
		for _, g := range mb.Games {
			if g.Match == "" {
				g.Match = matchURL
			}
			// A daily game in progress may come without its PGN: the
			// player's current daily games have it. A live game is never
			// there (that endpoint holds daily games only).
			if g.PGN == "" && !g.Finished && !live {
				g = p.fillFromPlayer(ctx, g)
			}
			if g.PGN == "" {
				done = false
				continue
			}
			p.consider(g, meta)
			if !g.Finished {
				done = false
			}
		}
		if finished || (done && len(mb.Games) >= 2) {
			p.boardsDone[bu] = true
		}
	}
	return m.Status, ctx.Err()
}

// fillFromPlayer takes a board game's current PGN from the white player's
// current daily games (one read per player per pass).
func (p *poller) fillFromPlayer(ctx context.Context, g Game) Game {
	for _, name := range []string{g.White, g.Black} {
		if name == "" {
			continue
		}
		key := strings.ToLower(name)
		if p.playerMemo == nil {
			p.playerMemo = make(map[string][]Game)
		}
		games, ok := p.playerMemo[key]
		if !ok {
			var err error
			games, _, err = p.c.PlayerGames(ctx, key)
			if err != nil {
				p.c.log.Debug("chesscom: player games for a board failed", "player", key, "error", err)
			}
			p.playerMemo[key] = games
		}
		for _, pg := range games {
			if pg.URL == g.URL && pg.PGN != "" {
				g.PGN, g.FEN, g.LastActivity, g.Turn = pg.PGN, pg.FEN, pg.LastActivity, pg.Turn
				return g
			}
		}
	}
	return g
}

func (p *poller) passTournament(ctx context.Context) error {
	switch {
	case p.t.Group != "":
		return p.passGroup(ctx, p.c.URL(p.t.Path()), true)
	case p.t.Round != "":
		return p.passRound(ctx, p.c.URL(p.t.Path()), true)
	}
	tour, _, err := p.c.Tournament(ctx, p.t.ID)
	if err != nil {
		return err
	}
	for _, r := range tour.Rounds {
		ru := p.c.URL(r)
		if p.roundsDone[ru] {
			continue
		}
		if err := p.passRound(ctx, ru, false); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.c.log.Warn("chesscom: round read failed", "target", p.t.String(), "round", ru, "error", err)
		}
	}
	return nil
}

func (p *poller) passRound(ctx context.Context, u string, root bool) error {
	r, _, err := p.c.TournamentRound(ctx, u)
	if err != nil {
		if !root && errors.Is(err, ErrGone) {
			p.roundsDone[u] = true
		}
		return err
	}
	all := len(r.Groups) > 0
	for _, g := range r.Groups {
		gu := p.c.URL(g)
		if p.groupsDone[gu] {
			continue
		}
		if err := p.passGroup(ctx, gu, false); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.c.log.Warn("chesscom: group read failed", "target", p.t.String(), "group", gu, "error", err)
		}
		if !p.groupsDone[gu] {
			all = false
		}
	}
	if all {
		p.roundsDone[u] = true
	}
	return nil
}

func (p *poller) passGroup(ctx context.Context, u string, root bool) error {
	grp, meta, err := p.c.TournamentGroup(ctx, u)
	if err != nil {
		if !root && errors.Is(err, ErrGone) {
			p.groupsDone[u] = true
		}
		return err
	}
	done := len(grp.Games) > 0
	for _, g := range grp.Games {
		if g.Tournament == "" {
			g.Tournament = p.c.URL("/pub/tournament/" + esc(p.t.ID))
		}
		p.consider(g, meta)
		if !g.Finished {
			done = false
		}
	}
	if done {
		p.groupsDone[u] = true
	}
	return nil
}
