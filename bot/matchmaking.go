package bot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
)

// MatchmakingConfig makes an idle bot challenge other BOT accounts that
// are online (bot.matchmaking; the mapstructure tags are the keys of the
// config file).
type MatchmakingConfig struct {
	Enabled bool `mapstructure:"enabled"`
	// Idle is how long the bot waits with fewer than max_games games (or
	// since its last challenge) before it challenges someone.
	Idle time.Duration `mapstructure:"idle" range:"1s,24h"`
	// TimeControls are the real-time clocks offered in turn, as
	// minutes+seconds ("1+0", "3+2"); Days the correspondence days per
	// move offered in turn after them.
	TimeControls []string `mapstructure:"time_controls"`
	Days         []int    `mapstructure:"days"`
	Variant      string   `mapstructure:"variant"` // the variant key offered (standard)
	Rated        bool     `mapstructure:"rated"`
	// RatingDifference: only accounts whose rating in the game's category
	// is within this many points of the bot's (0: any).
	RatingDifference int      `mapstructure:"rating_difference" range:"0,4000"`
	Block            []string `mapstructure:"block"` // never challenged
	// DailyChallenges caps the challenges sent in any 24 hours (Lichess
	// limits the games a bot may start against other bots each day).
	DailyChallenges int `mapstructure:"daily_challenges" range:"0,100000"`
	// ChallengeTimeout: a challenge not answered in this time is cancelled
	// and counted as declined.
	ChallengeTimeout time.Duration `mapstructure:"challenge_timeout" range:"1s,720h"`
	// DeclineBackoff: an account that declined (or did not answer) is not
	// challenged again for this long, doubled at each decline in a row,
	// up to a week.
	DeclineBackoff time.Duration `mapstructure:"decline_backoff" range:"0s,720h"`
}

// offer is one kind of game the matchmaker offers.
type offer struct {
	req   lichess.ChallengeRequest
	speed string // Lichess's category: "bullet", …, "correspondence"
	show  string
}

// offers reads the time controls.
func (c MatchmakingConfig) offers() ([]offer, error) {
	var out []offer
	for _, tc := range c.TimeControls {
		limit, inc, err := lichess.ParseTimeControl(tc)
		if err != nil {
			return nil, fmt.Errorf("time control %q: %w", tc, err)
		}
		req := lichess.ChallengeRequest{Clock: true, Limit: limit, Increment: inc, Rated: c.Rated, Variant: c.Variant}
		if err := lichess.CheckChallengeRequest(req); err != nil {
			return nil, fmt.Errorf("time control %q: %w", tc, err)
		}
		out = append(out, offer{req: req, speed: lichess.Speed(limit, inc), show: tc})
	}
	for _, d := range c.Days {
		req := lichess.ChallengeRequest{Days: d, Rated: c.Rated, Variant: c.Variant}
		if err := lichess.CheckChallengeRequest(req); err != nil {
			return nil, err
		}
		out = append(out, offer{req: req, speed: "correspondence", show: strconv.Itoa(d) + " days"})
	}
	return out, nil
}

// matchAPI is the part of the Lichess client the matchmaker uses.
type matchAPI interface {
	OnlineBots(ctx context.Context, nb int) ([]lichess.User, error)
	CreateChallenge(ctx context.Context, username string, r lichess.ChallengeRequest) (*lichess.Challenge, error)
	CancelChallenge(ctx context.Context, challengeID string) error
}

// outgoing is a challenge the matchmaker sent that is not answered yet.
type outgoing struct {
	user string
	at   time.Time
}

// declineBackoff is how long an account is left alone after declines.
type declineBackoff struct {
	until    time.Time
	declines int
}

// matchmaker challenges online bots when the bot has room for a game. Its
// state is guarded by mu; the Bot calls its event methods from the event
// stream and run from its own goroutine.
type matchmaker struct {
	cfg    MatchmakingConfig
	offers []offer
	api    matchAPI
	clock  clock.Clock
	log    logger
	me     string
	// room reports how many more games the bot may start now.
	room func() int

	mu       sync.Mutex
	out      map[string]outgoing        // by challenge id
	backoffs map[string]*declineBackoff // by user id
	last     map[string]time.Time
	sent     []time.Time // challenges of the last 24 hours
	next     int         // the offer to make next
	ratings  map[string]int
	limitLog bool // the daily limit was logged
	// early holds the answers that came before the challenge was known
	// (Lichess may announce the game of an accepted challenge, or its
	// decline, before the answer to the challenge itself arrives): by
	// challenge id, the decline reason, "" for a game started.
	early map[string]earlyAnswer
}

type earlyAnswer struct {
	at     time.Time
	reason string
}

// logger is the part of slog.Logger the matchmaker uses.
type logger interface {
	Info(msg string, args ...any)
	Warn(msg string, args ...any)
	Debug(msg string, args ...any)
}

func newMatchmaker(cfg MatchmakingConfig, api matchAPI, clk clock.Clock, log logger, me string, ratings map[string]int, room func() int) (*matchmaker, error) {
	offers, err := cfg.offers()
	if err != nil {
		return nil, err
	}
	if len(offers) == 0 {
		return nil, errors.New("no time control to offer")
	}
	return &matchmaker{cfg: cfg, offers: offers, api: api, clock: clk, log: log, me: me, room: room,
		out: map[string]outgoing{}, backoffs: map[string]*declineBackoff{}, last: map[string]time.Time{}, ratings: ratings,
		early: map[string]earlyAnswer{}}, nil
}

// pending is the number of challenges sent and not answered.
func (m *matchmaker) pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.out)
}

// run challenges someone every Idle while there is room, until ctx ends.
func (m *matchmaker) run(ctx context.Context) {
	t := m.clock.NewTimer(m.cfg.Idle)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		m.tick(ctx)
		t.Reset(m.cfg.Idle)
	}
}

// tick cancels challenges left unanswered and, if the bot has room and
// the day's budget allows, challenges one bot.
func (m *matchmaker) tick(ctx context.Context) {
	now := m.clock.Now()
	m.mu.Lock()
	var stale []string
	for id, o := range m.out {
		if now.Sub(o.at) >= m.cfg.ChallengeTimeout {
			stale = append(stale, id)
		}
	}
	m.mu.Unlock()
	for _, id := range stale {
		if err := m.api.CancelChallenge(ctx, id); err != nil && !errors.Is(err, lichess.ErrNotFound) {
			m.log.Warn("matchmaking: cannot cancel an unanswered challenge", "challenge", id, "err", err)
		}
		m.answered(id, "no answer")
	}
	if m.room() <= 0 {
		return
	}
	m.mu.Lock()
	cut := 0
	for cut < len(m.sent) && now.Sub(m.sent[cut]) >= 24*time.Hour {
		cut++
	}
	m.sent = m.sent[cut:]
	if m.cfg.DailyChallenges > 0 && len(m.sent) >= m.cfg.DailyChallenges {
		if !m.limitLog {
			m.limitLog = true
			m.log.Info("matchmaking: daily challenge limit reached", "limit", m.cfg.DailyChallenges, "next_at", m.sent[0].Add(24*time.Hour))
		}
		m.mu.Unlock()
		return
	}
	m.limitLog = false
	of := m.offers[m.next%len(m.offers)]
	m.next++
	m.mu.Unlock()

	bots, err := m.api.OnlineBots(ctx, 200)
	if err != nil {
		m.log.Warn("matchmaking: cannot list the online bots", "err", err)
		return
	}
	target, why := m.choose(bots, of, now)
	if target == "" {
		m.log.Info("matchmaking: nobody to challenge", "offer", of.show, "why", why)
		return
	}
	ch, err := m.api.CreateChallenge(ctx, target, of.req)
	if err != nil {
		m.log.Warn("matchmaking: challenge refused", "user", target, "offer", of.show, "err", err)
		var ae *lichess.APIError
		if errors.As(err, &ae) && ae.Status == 400 {
			m.declined(target, "refused: "+ae.Message)
		}
		return
	}
	m.mu.Lock()
	m.sent = append(m.sent, now)
	m.last[target] = now
	m.out[ch.ID] = outgoing{user: target, at: now}
	early, answered := m.early[ch.ID]
	delete(m.early, ch.ID)
	m.mu.Unlock()
	m.log.Info("matchmaking: challenged", "user", target, "challenge", ch.ID, "offer", of.show, "rated", of.req.Rated)
	if answered {
		if early.reason == "" {
			m.started(ch.ID)
		} else {
			m.answered(ch.ID, early.reason)
		}
	}
}

// choose picks the bot to challenge with an offer: online, not us, not
// blocked, not backing off, within the rating range; the one challenged
// least recently (then by name).
func (m *matchmaker) choose(bots []lichess.User, of offer, now time.Time) (string, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mine, ok := m.ratings[of.speed]
	if !ok {
		mine = 1500
	}
	busy := map[string]bool{}
	for _, o := range m.out {
		busy[o.user] = true
	}
	type cand struct {
		id   string
		last time.Time
	}
	var cands []cand
	skipped := map[string]int{}
	for _, u := range bots {
		id := strings.ToLower(u.ID)
		switch {
		case id == "" || id == m.me || u.Disabled:
			continue
		case containsFold(m.cfg.Block, id):
			skipped["blocked"]++
			continue
		case busy[id]:
			skipped["challenged already"]++
			continue
		}
		if b := m.backoffs[id]; b != nil && now.Before(b.until) {
			skipped["backing off"]++
			continue
		}
		if d := m.cfg.RatingDifference; d > 0 {
			p, ok := u.Perfs[of.speed]
			r := 1500
			if ok && p.Rating > 0 {
				r = p.Rating
			}
			if r < mine-d || r > mine+d {
				skipped["outside the rating range"]++
				continue
			}
		}
		cands = append(cands, cand{id: id, last: m.last[id]})
	}
	if len(cands) == 0 {
		return "", fmt.Sprintf("%d online, skipped %v", len(bots), skipped)
	}
	sort.Slice(cands, func(i, j int) bool {
		if !cands[i].last.Equal(cands[j].last) {
			return cands[i].last.Before(cands[j].last)
		}
		return cands[i].id < cands[j].id
	})
	return cands[0].id, ""
}

// answered forgets an outgoing challenge; a decline (or no answer) backs
// off from its account.
func (m *matchmaker) answered(id, declineReason string) {
	m.mu.Lock()
	o, ok := m.out[id]
	delete(m.out, id)
	if !ok {
		m.noteEarly(id, declineReason)
	}
	m.mu.Unlock()
	if ok && declineReason != "" {
		m.declined(o.user, declineReason)
	}
}

// declined backs off from an account.
func (m *matchmaker) declined(user, reason string) {
	m.mu.Lock()
	b := m.backoffs[user]
	if b == nil {
		b = &declineBackoff{}
		m.backoffs[user] = b
	}
	b.declines++
	d := m.cfg.DeclineBackoff
	for i := 1; i < b.declines && d < 7*24*time.Hour; i++ {
		d *= 2
	}
	d = min(d, 7*24*time.Hour)
	b.until = m.clock.Now().Add(d)
	m.mu.Unlock()
	m.log.Info("matchmaking: challenge declined; backing off", "user", user, "reason", reason, "declines", b.declines, "for", d)
}

// started is told of every game that starts: one of ours was accepted.
func (m *matchmaker) started(id string) {
	m.mu.Lock()
	o, ok := m.out[id]
	delete(m.out, id)
	if ok {
		delete(m.backoffs, o.user)
	} else {
		m.noteEarly(id, "")
	}
	m.mu.Unlock()
	if ok {
		m.log.Info("matchmaking: challenge accepted", "user", o.user, "challenge", id)
	}
}

// noteEarly (mu held) keeps an answer to a challenge not known yet, for
// an hour.
func (m *matchmaker) noteEarly(id, reason string) {
	now := m.clock.Now()
	for k, e := range m.early {
		if now.Sub(e.at) > time.Hour {
			delete(m.early, k)
		}
	}
	m.early[id] = earlyAnswer{at: now, reason: reason}
}

// rated records the bot's rating in a category after a game.
func (m *matchmaker) rated(speed string, rating int) {
	if speed == "" || rating <= 0 {
		return
	}
	m.mu.Lock()
	m.ratings[speed] = rating
	m.mu.Unlock()
}
