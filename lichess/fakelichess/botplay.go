package fakelichess

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// lichessSpeed is Lichess's speed of a clock given in seconds.
func lichessSpeed(limit, inc int64) string {
	return lichess.Speed(time.Duration(limit)*time.Second, time.Duration(inc)*time.Second)
}

// clockMS returns the remaining time of side c in ms.
func (g *Game) clockMS(c rules.Color) *int64 {
	if c == rules.White {
		return &g.wtime
	}
	return &g.btime
}

// charge (mu held) makes side c pay for the move it is about to play, as
// Lichess's clock does: nothing for the first move of each side, then the
// time since the last move (plus lag) less nothing, and the increment
// after the move. It reports false, and ends the game, when the clock ran
// out before the move arrived.
func (g *Game) charge(c rules.Color, lag time.Duration) bool {
	if !g.s.opts.RunningClocks || g.over() {
		return true
	}
	now := g.s.clk.Now()
	spent := now.Sub(g.lastMoveAt) + lag
	switch {
	case g.clockInitial > 0 && g.rg.Ply() >= 2:
		left := g.clockMS(c)
		*left -= spent.Milliseconds()
		if *left <= 0 {
			*left = 0
			g.flag(c)
			return false
		}
		*left += g.winc
	case g.clockInitial == 0 && g.daysPerTurn > 0 && g.rg.Ply() >= 2:
		if spent > time.Duration(g.daysPerTurn)*24*time.Hour {
			g.flag(c)
			return false
		}
	}
	return true
}

// flag (mu held) ends the game on time for side c: the other side wins
// unless it cannot mate (then a draw), as on Lichess.
func (g *Game) flag(c rules.Color) {
	pos := g.rg.Position()
	winner := c.Other().String()
	if !pos.CanMate(c.Other()) {
		winner = ""
	}
	g.finish(lichess.StatusOutOfTime, winner)
}

// moved (mu held) restarts the clock after a move and arms the timer that
// ends the game when the side to move runs out of time (or does not make
// its first move).
func (g *Game) moved() {
	g.lastMoveAt = g.s.clk.Now()
	g.armTimer()
}

// disarm (mu held) stops the game's timer and ends the goroutine that
// waits for it.
func (g *Game) disarm() {
	if g.timer == nil {
		return
	}
	g.timer.Stop()
	close(g.timerDone)
	g.timer, g.timerDone = nil, nil
}

// armTimer (mu held) arms the flag or first-move timer of the side to move.
func (g *Game) armTimer() {
	g.disarm()
	if !g.s.opts.RunningClocks || g.over() || g.s.closed {
		return
	}
	var d time.Duration
	ply, side := g.rg.Ply(), g.turn()
	switch {
	case ply < 2 && g.clockInitial > 0:
		d = g.firstMove
	case g.clockInitial > 0:
		d = time.Duration(*g.clockMS(side)) * time.Millisecond
	case g.daysPerTurn > 0 && ply >= 2:
		d = time.Duration(g.daysPerTurn) * 24 * time.Hour
	default:
		return
	}
	t, done := g.s.clk.NewTimer(d), make(chan struct{})
	g.timer, g.timerDone = t, done
	s := g.s
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		select {
		case <-t.C():
		case <-done:
			return
		case <-s.closing:
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if g.timer != t || g.over() || g.rg.Ply() != ply {
			return
		}
		g.timer, g.timerDone = nil, nil
		if ply < 2 && g.clockInitial > 0 {
			g.finish(lichess.StatusNoStart, "")
		} else {
			if g.clockInitial > 0 {
				*g.clockMS(side) = 0
			}
			g.flag(side)
		}
		g.push()
	}()
}

// proposeTakeback (mu held) is a takeback/yes of side c: it accepts the
// other side's proposal (taking back to the proposer's turn), or proposes
// one.
func (g *Game) proposeTakeback(c rules.Color) error {
	switch {
	case g.over():
		return fmt.Errorf("game over")
	case g.takeback[c.Other()]:
		proposer := c.Other()
		n := 1
		if g.turn() == proposer {
			n = 2 // the proposer's last move is two plies back
		}
		if n > len(g.ucis) {
			return fmt.Errorf("nothing to take back")
		}
		g.takeback = [2]bool{}
		return g.takeBack(n)
	case len(g.ucis) > 0:
		g.takeback[c] = true
	}
	return nil
}

// takeBack (mu held) takes back the last n plies.
func (g *Game) takeBack(n int) error {
	moves := append([]string(nil), g.ucis[:len(g.ucis)-n]...)
	g.rg = rules.NewGame(g.start)
	g.ucis = g.ucis[:0]
	for _, u := range moves {
		if err := g.play(u); err != nil {
			return err
		}
	}
	g.drawOffer = [2]bool{}
	g.moved()
	return nil
}

func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := g.colorOf(uid)
	switch r.PathValue("accept") {
	case "yes", "true":
		if err := g.proposeTakeback(c); err != nil {
			writeError(w, http.StatusBadRequest, "You cannot take back now: "+err.Error())
			return
		}
	case "no", "false":
		g.takeback[c.Other()] = false
	default:
		writeError(w, http.StatusBadRequest, "accept must be yes or no")
		return
	}
	g.push()
	s.runScript(g)
	writeOK(w)
}

// claimable (mu held) reports whether the bot may claim the win or a draw:
// the opponent left and the time Lichess gave it to come back ran out.
func (g *Game) claimable() bool {
	return !g.over() && g.gone != nil && g.gone.Gone &&
		!g.s.clk.Now().Before(g.goneAt.Add(time.Duration(g.gone.ClaimWinInSeconds)*time.Second))
}

func (s *Server) handleClaimDraw(w http.ResponseWriter, r *http.Request) {
	g, _ := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !g.claimable() {
		writeError(w, http.StatusBadRequest, "You cannot claim a draw on this game")
		return
	}
	g.finish(lichess.StatusTimeout, "")
	g.push()
	writeOK(w)
}

// OnlineBot is a BOT account the fake lists as online (GET
// /api/bot/online) and that answers the challenges it receives at once:
// it declines them with Decline (a reason key) when set, else accepts and
// plays Script.
type OnlineBot struct {
	ID      string
	Ratings map[string]int // by perf ("bullet", "blitz", …); 1500 when absent
	Decline string
	Script  []Step
}

// AddOnlineBot registers an online BOT account.
func (s *Server) AddOnlineBot(b OnlineBot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b.ID = strings.ToLower(b.ID)
	if s.users[b.ID] == nil {
		s.users[b.ID] = &user{ID: b.ID, Username: b.ID, Title: "BOT"}
	}
	s.online[b.ID] = &b
}

// SetOffline takes a BOT account off the online list.
func (s *Server) SetOffline(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.online, strings.ToLower(id))
}

func (s *Server) handleOnlineBots(w http.ResponseWriter, r *http.Request) {
	nb := 100
	if v := r.URL.Query().Get("nb"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 512 {
			writeError(w, http.StatusBadRequest, "nb must be 1 to 512")
			return
		}
		nb = n
	}
	s.mu.Lock()
	ids := make([]string, 0, len(s.online))
	for id := range s.online {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) > nb {
		ids = ids[:nb]
	}
	var b strings.Builder
	for _, id := range ids {
		ob, u := s.online[id], s.users[id]
		perfs := map[string]any{}
		for _, p := range []string{"bullet", "blitz", "rapid", "classical", "correspondence"} {
			rating, ok := ob.Ratings[p]
			if !ok {
				rating = 1500
			}
			perfs[p] = map[string]any{"games": 100, "rating": rating, "rd": 60, "prog": 0}
		}
		b.WriteString(ndjson(map[string]any{"id": u.ID, "username": u.Username, "title": "BOT", "perfs": perfs,
			"createdAt": 1700000000000, "seenAt": s.clk.Now().UnixMilli()}))
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(b.String()))
}

func (s *Server) handleCreateChallenge(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeChallengeWrite, lichess.ScopeBotPlay, "board:play")
	if uid == "" {
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	dest := strings.ToLower(r.PathValue("username"))
	if s.users[dest] == nil {
		writeError(w, http.StatusBadRequest, "No such user: "+dest)
		return
	}
	if dest == uid {
		writeError(w, http.StatusBadRequest, "You cannot challenge yourself")
		return
	}
	spec := ChallengeSpec{ID: s.newID(), From: uid, To: dest, Rated: f.Get("rated") == "true", Variant: f.Get("variant"), Color: f.Get("color"), InitialFEN: f.Get("fen")}
	if spec.Variant == "" {
		spec.Variant = "standard"
	}
	if spec.Color == "" {
		spec.Color = "random"
	}
	if f.Has("clock.limit") || f.Has("clock.increment") {
		limit, err1 := strconv.Atoi(f.Get("clock.limit"))
		inc, err2 := strconv.Atoi(f.Get("clock.increment"))
		if err1 != nil || err2 != nil || limit < 0 || limit > 10800 || inc < 0 || inc > 60 {
			writeError(w, http.StatusBadRequest, "Invalid clock")
			return
		}
		spec.ClockLimit, spec.ClockIncrement = limit, inc
	} else if d := f.Get("days"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > 14 {
			writeError(w, http.StatusBadRequest, "Invalid days")
			return
		}
		spec.Days = n
	}
	ch := &challenge{spec: spec, status: "created"}
	s.challenges[spec.ID] = ch
	s.sendEventLocked(dest, ndjson(s.challengeJSON(ch, "challenge")))
	out := s.challengeJSON(ch, "challenge")["challenge"].(map[string]any)
	out["direction"] = "out"
	writeJSON(w, http.StatusOK, out)
	if ob := s.online[dest]; ob != nil {
		if ob.Decline != "" {
			s.declineLocked(ch, ob.Decline)
		} else {
			ch.spec.Script = ob.Script
			_, _ = s.acceptLocked(ch, uid)
		}
	}
}

// AnswerChallenge makes the destination of a challenge the bot sent
// accept it (reason "") or decline it with a reason key.
func (s *Server) AnswerChallenge(id, declineReason string, script []Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.challenges[id]
	if ch == nil || ch.status != "created" {
		return fmt.Errorf("fakelichess: no open challenge %s", id)
	}
	if declineReason != "" {
		s.declineLocked(ch, declineReason)
		return nil
	}
	ch.spec.Script = script
	_, err := s.acceptLocked(ch, ch.spec.From)
	return err
}

// acceptLocked starts the game of an accepted challenge; botUID is the
// player driven through the bot API (the other side follows the script).
func (s *Server) acceptLocked(ch *challenge, botUID string) (*Game, error) {
	ch.status = "accepted"
	white, black := ch.spec.To, ch.spec.From
	if ch.spec.Color == "white" {
		white, black = ch.spec.From, ch.spec.To
	}
	spec := GameSpec{ID: ch.spec.ID, White: white, Black: black, Bot: botUID, Rated: ch.spec.Rated, Script: ch.spec.Script,
		Variant: ch.spec.Variant, InitialFEN: ch.spec.InitialFEN,
		ClockInitial: int64(ch.spec.ClockLimit) * 1000, ClockIncrement: int64(ch.spec.ClockIncrement) * 1000, DaysPerTurn: ch.spec.Days}
	g, err := s.newGameLocked(spec)
	if err != nil {
		return nil, err
	}
	s.announceStart(g)
	s.runScript(g)
	return g, nil
}

// declineLocked declines a challenge and tells the challenger.
func (s *Server) declineLocked(ch *challenge, reason string) {
	ch.status = "declined"
	ch.declineReasonKey = reason
	ch.declineReasonText = "I'm not accepting challenges at the moment."
	s.sendEventLocked(ch.spec.From, ndjson(s.challengeJSON(ch, "challengeDeclined")))
}

func (s *Server) handleCancelChallenge(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeChallengeWrite, lichess.ScopeBotPlay, "board:play")
	if uid == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.challenges[r.PathValue("id")]
	if ch == nil || ch.spec.From != uid {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "Not found."})
		return
	}
	switch ch.status {
	case "created":
		ch.status = "canceled"
		s.sendEventLocked(ch.spec.To, ndjson(s.challengeJSON(ch, "challengeCanceled")))
	case "accepted":
		g := s.games[ch.spec.ID]
		if g == nil || g.over() || g.rg.Ply() >= 2 {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "Not found."})
			return
		}
		g.finish(lichess.StatusAborted, "")
		g.push()
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "Not found."})
		return
	}
	writeOK(w)
}

// ChallengesFrom returns the ids of the challenges a user sent, oldest first.
func (s *Server) ChallengesFrom(userID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, id := range sortedKeys(s.challenges) {
		if s.challenges[id].spec.From == strings.ToLower(userID) {
			out = append(out, id)
		}
	}
	return out
}

// ChallengeInfo returns a challenge's spec as the fake understood it.
func (s *Server) ChallengeInfo(id string) (ChallengeSpec, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.challenges[id]
	if ch == nil {
		return ChallengeSpec{}, false
	}
	return ch.spec, true
}
