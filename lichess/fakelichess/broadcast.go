package fakelichess

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/threefold-chess/threefold/rules"
)

// Broadcast is a broadcast round: its games as PGN, which the test changes
// and the round's streams resend, each changed game in whole.
type Broadcast struct {
	s          *Server
	id, tour   string
	games      []*bgame
	finished   bool
	createdAt  int64 // ms, on the server's clock
	finishedAt int64
}

// broadcastGroup is a group of broadcast tournaments.
type broadcastGroup struct {
	id, name string
	tours    []string
}

// Group puts broadcast tournaments into a group (one event, several
// sections): /api/stream/broadcast/group/{id}.pgn then covers their rounds
// under way, and every round of these tournaments names the group.
func (s *Server) Group(groupID, name string, tourIDs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups[groupID] = &broadcastGroup{id: groupID, name: name, tours: tourIDs}
}

// groupOf (mu held) returns the group of a tournament, or nil.
func (s *Server) groupOf(tour string) *broadcastGroup {
	for _, id := range sortedKeys(s.groups) {
		g := s.groups[id]
		for _, t := range g.tours {
			if t == tour {
				return g
			}
		}
	}
	return nil
}

// started (mu held): a round is under way once it has a game.
func (b *Broadcast) started() bool { return len(b.games) > 0 }

// covers (mu held) reports whether stream c is to be sent the games of b.
func (b *Broadcast) covers(c *conn) bool {
	if c.kind != "broadcast" {
		return false
	}
	if c.key == "round:"+b.id {
		return true
	}
	return c.rounds[b.id]
}

type bgame struct{ key, pgn string }

// Broadcast returns the round with this id, creating it (empty, in tour
// "tour-"+roundID).
func (s *Server) Broadcast(roundID string) *Broadcast {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.rounds[roundID]
	if b == nil {
		b = &Broadcast{s: s, id: roundID, tour: "tour-" + roundID, createdAt: s.clk.Now().UnixMilli()}
		s.rounds[roundID] = b
	}
	return b
}

// SetTour puts the round in a tournament (for the tour stream).
func (b *Broadcast) SetTour(tourID string) *Broadcast {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	b.tour = tourID
	return b
}

// SetPGN sets games of the round from a PGN text of one or more games.
// A game is known by its GameURL (or Site) tag; a new game is added, a known
// one replaced. Every game that changed is sent to the streams.
func (b *Broadcast) SetPGN(pgn string) {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	for _, text := range splitPGN(pgn) {
		key := gameKey(text)
		found := false
		for _, g := range b.games {
			if g.key == key {
				found = true
				if g.pgn != text {
					g.pgn = text
					b.sendLocked(g)
				}
			}
		}
		if !found {
			g := &bgame{key: key, pgn: text}
			b.games = append(b.games, g)
			b.sendLocked(g)
		}
	}
}

// AppendMove adds a SAN move to a game, before its result. game is the
// game's GameURL or Site tag, or its last path segment (the chapter id).
func (b *Broadcast) AppendMove(game, san string) error {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	g := b.find(game)
	if g == nil {
		return fmt.Errorf("fakelichess: broadcast %s: no game %q", b.id, game)
	}
	tags, moves := cutPGN(g.pgn)
	rg, sans, result, err := replaySAN(moves)
	if err != nil {
		return fmt.Errorf("fakelichess: broadcast %s game %s: %w", b.id, game, err)
	}
	pos := rg.Position()
	m, err := pos.ParseSAN(san)
	if err != nil {
		return fmt.Errorf("fakelichess: broadcast %s game %s: %w", b.id, game, err)
	}
	sans = append(sans, pos.SAN(m))
	g.pgn = tags + "\n" + movetext(sans, result) + "\n"
	b.sendLocked(g)
	return nil
}

// SetResult sets the Result tag and the movetext result of a game.
func (b *Broadcast) SetResult(game, result string) error {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	g := b.find(game)
	if g == nil {
		return fmt.Errorf("fakelichess: broadcast %s: no game %q", b.id, game)
	}
	tags, moves := cutPGN(g.pgn)
	_, sans, _, err := replaySAN(moves)
	if err != nil {
		return err
	}
	tags = regexp.MustCompile(`(?m)^\[Result "[^"]*"\]`).ReplaceAllString(tags, `[Result "`+result+`"]`)
	g.pgn = tags + "\n" + movetext(sans, result) + "\n"
	b.sendLocked(g)
	return nil
}

// Finish ends the round (finishedAt is set, ongoing false): its streams
// close, and later ones send the games and close; with
// Options.FinishedRoundsStayOpen they stay open, keep-alives only. A
// tournament or group stream closes when every round it covers is over.
func (b *Broadcast) Finish() {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	b.finished = true
	b.finishedAt = b.s.clk.Now().UnixMilli()
	if !b.s.opts.FinishedRoundsStayOpen {
		for c := range b.s.conns {
			if !b.covers(c) {
				continue
			}
			open := false
			for id := range c.rounds {
				if r := b.s.rounds[id]; r != nil && !r.finished {
					open = true
				}
			}
			if !open {
				c.close()
			}
		}
	}
	b.s.notify()
}

// PGN returns the round's games as one PGN text.
func (b *Broadcast) PGN() string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	return b.pgnLocked()
}

func (b *Broadcast) pgnLocked() string {
	var sb strings.Builder
	for _, g := range b.games {
		sb.WriteString(g.pgn + "\n\n")
	}
	return sb.String()
}

func (b *Broadcast) find(game string) *bgame {
	for _, g := range b.games {
		if g.key == game || strings.HasSuffix(g.key, "/"+game) {
			return g
		}
	}
	return nil
}

func (b *Broadcast) sendLocked(g *bgame) {
	for c := range b.s.conns {
		if b.covers(c) {
			c.send(g.pgn + "\n\n")
		}
	}
	b.s.notify()
}

// splitPGN cuts a PGN text into games at each [Event tag that follows
// movetext; each game ends with one newline.
func splitPGN(text string) []string {
	var games []string
	var cur strings.Builder
	seenMoves := false
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && seenMoves {
			games = append(games, strings.TrimSpace(cur.String())+"\n")
			cur.Reset()
			seenMoves = false
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			seenMoves = true
		}
		cur.WriteString(line + "\n")
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		games = append(games, s+"\n")
	}
	return games
}

var tagRe = regexp.MustCompile(`(?m)^\[(\w+) "([^"]*)"\]`)

func gameKey(pgn string) string {
	tags := map[string]string{}
	for _, m := range tagRe.FindAllStringSubmatch(pgn, -1) {
		tags[m[1]] = m[2]
	}
	for _, k := range []string{"GameURL", "Site"} {
		if strings.HasPrefix(tags[k], "http") {
			return tags[k]
		}
	}
	return tags["Event"] + "|" + tags["Round"] + "|" + tags["White"] + "|" + tags["Black"]
}

// cutPGN splits a game into its tag section (ending with a newline) and
// its movetext.
func cutPGN(pgn string) (tags, moves string) {
	var tb, mb strings.Builder
	for _, line := range strings.Split(pgn, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && mb.Len() == 0 {
			tb.WriteString(t + "\n")
		} else if t != "" {
			mb.WriteString(t + " ")
		}
	}
	return tb.String(), mb.String()
}

var commentRe = regexp.MustCompile(`\{[^}]*\}|;[^\n]*`)

// replaySAN plays a movetext (comments, NAGs and numbers are skipped;
// variations are not supported) and returns the game, its SAN moves and
// its result token.
func replaySAN(moves string) (*rules.Game, []string, string, error) {
	rg := rules.NewGame(rules.StartPosition())
	var sans []string
	result := "*"
	for _, tok := range strings.Fields(commentRe.ReplaceAllString(moves, " ")) {
		switch {
		case tok == "*" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2":
			result = tok
			continue
		case strings.HasPrefix(tok, "$"):
			continue
		}
		tok = strings.TrimLeft(tok, "0123456789.")
		if tok == "" {
			continue
		}
		m, err := rg.PlaySAN(tok)
		if err != nil {
			return nil, nil, "", err
		}
		_ = m
		sans = append(sans, tok)
	}
	return rg, sans, result, nil
}

func movetext(sans []string, result string) string {
	var b strings.Builder
	for i, s := range sans {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(s + " ")
	}
	b.WriteString(result)
	return b.String()
}

// roundInfoLocked renders a round as BroadcastRoundInfo.
func (s *Server) roundInfoLocked(b *Broadcast) map[string]any {
	m := map[string]any{"id": b.id, "name": "Round " + b.id, "slug": "round-" + strings.ToLower(b.id),
		"url": "https://lichess.org/broadcast/tournament/round-" + strings.ToLower(b.id) + "/" + b.id, "createdAt": b.createdAt,
		"ongoing": b.started() && !b.finished, "startsAt": b.createdAt}
	if b.finished {
		m["finishedAt"] = b.finishedAt
	}
	if s.opts.LegacyRoundFinished {
		m["finished"] = b.finished
	}
	return m
}

func (s *Server) tourInfoLocked(tour string) map[string]any {
	var created int64
	for _, b := range s.rounds {
		if b.tour == tour && (created == 0 || b.createdAt < created) {
			created = b.createdAt
		}
	}
	name := "Tournament " + tour
	spec := s.tourSpecs[tour]
	if spec.Name != "" {
		name = spec.Name
	}
	m := map[string]any{"id": tour, "name": name, "slug": "tournament", "createdAt": created,
		"url": "https://lichess.org/broadcast/tournament/" + tour}
	if spec.Tier > 0 {
		m["tier"] = spec.Tier
	}
	return m
}

func (s *Server) groupJSONLocked(g *broadcastGroup) map[string]any {
	tours := []any{}
	for _, t := range g.tours {
		active, live := false, false
		for _, b := range s.rounds {
			if b.tour == t && !b.finished {
				active = true
				live = live || b.started()
			}
		}
		tours = append(tours, map[string]any{"id": t, "name": "Tournament " + t, "active": active, "live": live})
	}
	return map[string]any{"id": g.id, "slug": "group", "name": g.name, "tours": tours}
}

func (s *Server) handleBroadcastRound(w http.ResponseWriter, r *http.Request) {
	if !s.authBroadcast(w, r) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.rounds[r.PathValue("id")]
	if b == nil {
		writeError(w, http.StatusNotFound, "No such broadcast round")
		return
	}
	games := []any{}
	for _, g := range b.games {
		tags := map[string]string{}
		for _, m := range tagRe.FindAllStringSubmatch(g.pgn, -1) {
			tags[m[1]] = m[2]
		}
		_, moves := cutPGN(g.pgn)
		rg, _, result, err := replaySAN(moves)
		game := map[string]any{"id": g.key[strings.LastIndex(g.key, "/")+1:], "name": tags["White"] + " - " + tags["Black"],
			"players": []any{map[string]any{"name": tags["White"]}, map[string]any{"name": tags["Black"]}}, "thinkTime": 0}
		if err == nil {
			p := rg.Position()
			game["fen"] = p.FEN()
			if ms := rg.Moves(); len(ms) > 0 {
				game["lastMove"] = ms[len(ms)-1].UCI()
			}
		}
		if result == "1/2-1/2" {
			result = "½-½"
		}
		game["status"] = result
		games = append(games, game)
	}
	out := map[string]any{"round": s.roundInfoLocked(b), "tour": s.tourInfoLocked(b.tour), "study": map[string]any{"writeable": false},
		"games": games, "photos": map[string]any{}}
	if g := s.groupOf(b.tour); g != nil {
		out["group"] = s.groupJSONLocked(g)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleBroadcastTour(w http.ResponseWriter, r *http.Request) {
	if !s.authBroadcast(w, r) {
		return
	}
	id := r.PathValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	rounds := []any{}
	for _, rid := range sortedKeys(s.rounds) {
		if b := s.rounds[rid]; b.tour == id {
			rounds = append(rounds, s.roundInfoLocked(b))
		}
	}
	if len(rounds) == 0 {
		writeError(w, http.StatusNotFound, "No such broadcast tournament")
		return
	}
	out := map[string]any{"tour": s.tourInfoLocked(id), "rounds": rounds}
	if g := s.groupOf(id); g != nil {
		out["group"] = g.name
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleBroadcastRoundPGN(w http.ResponseWriter, r *http.Request) {
	if !s.authBroadcast(w, r) {
		return
	}
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.rounds[id]
	if !ok || b == nil {
		writeError(w, http.StatusNotFound, "No such broadcast round")
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn")
	fmt.Fprint(w, b.pgnLocked())
}

func (s *Server) handleBroadcastRoundStream(w http.ResponseWriter, r *http.Request) {
	if !s.authBroadcast(w, r) {
		return
	}
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	s.mu.Lock()
	b := s.rounds[id]
	if !ok || b == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "No such broadcast round")
		return
	}
	c := s.openConn(w, "broadcast", "round:"+id, r.UserAgent(), eventsPool, s.opts.EventStreams)
	if c == nil {
		s.mu.Unlock()
		return
	}
	for _, g := range b.games {
		c.send(g.pgn + "\n\n")
	}
	if b.finished && !s.opts.FinishedRoundsStayOpen {
		c.close()
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveBroadcast, idle: true, text: " "}, "application/x-chess-pgn")
}

// serveRounds (mu held on entry, released) streams the rounds under way of
// these tournaments: their games now, and the changes of those rounds
// (not of rounds that start later, as on Lichess).
func (s *Server) serveRounds(w http.ResponseWriter, r *http.Request, key string, tours []string) {
	var rounds []*Broadcast
	for _, rid := range sortedKeys(s.rounds) {
		if b := s.rounds[rid]; slices.Contains(tours, b.tour) && b.started() {
			rounds = append(rounds, b)
		}
	}
	c := s.openConn(w, "broadcast", key, r.UserAgent(), eventsPool, s.opts.EventStreams)
	if c == nil {
		s.mu.Unlock()
		return
	}
	c.rounds = map[string]bool{}
	open := false
	for _, b := range rounds {
		c.rounds[b.id] = true
		open = open || !b.finished
		for _, g := range b.games {
			c.send(g.pgn + "\n\n")
		}
	}
	if len(rounds) > 0 && !open && !s.opts.FinishedRoundsStayOpen {
		c.close()
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveBroadcast, idle: true, text: " "}, "application/x-chess-pgn")
}

func (s *Server) handleBroadcastTourStream(w http.ResponseWriter, r *http.Request) {
	if !s.authBroadcast(w, r) {
		return
	}
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	s.mu.Lock()
	known := false
	for _, b := range s.rounds {
		known = known || b.tour == id
	}
	if !ok || !known {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "No such broadcast tournament")
		return
	}
	s.serveRounds(w, r, "tour:"+id, []string{id})
}

func (s *Server) handleBroadcastGroupStream(w http.ResponseWriter, r *http.Request) {
	if !s.authBroadcast(w, r) {
		return
	}
	id, ok := strings.CutSuffix(r.PathValue("file"), ".pgn")
	s.mu.Lock()
	g := s.groups[id]
	if !ok || g == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "No such broadcast group")
		return
	}
	s.serveRounds(w, r, "group:"+id, g.tours)
}
