package fakelichess

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

func sortStrings(s []string) { sort.Strings(s) }

// SpectatorSpec describes a game others play, followed through
// /api/stream/game/{id} (and exported by /game/export/{id} and
// /api/user/{username}/current-game).
//
// As on Lichess since 2026-01-17, an ongoing game is delayed by 3 moves
// everywhere a spectator sees it, the way lila's move stream does it: the
// stream's positions from the fifth ply on come lichess.DelayPlies plies
// after the board (each move releases the position that many plies back;
// plies 1 to 4 are never held back), and the export lacks the last
// lichess.DelayPlies plies (but keeps the first 5). The stream's
// description line is the game as it is (lila's gameJsonView). When the
// game finishes, the held positions are released: one line each before
// the final description (the default, as lila flushes its buffer), or,
// with ReleaseJump, not at all: the final description jumps to the final
// position and the client must fill in the moves from the export.
type SpectatorSpec struct {
	ID           string
	White, Black string // player names (their lowercase is the user id)
	InitialFEN   string // "" for the start position
	// Variant is the game's variant key: "" (standard), "chess960" (the
	// start in X-FEN, as Lichess writes it) or another that the fake
	// only names (crazyhouse: its moves are not served).
	Variant string
	Moves   []string
	// Clock: positions carry wc/bc (seconds) when set.
	Clock bool
	// Undelayed serves every position at once, as Lichess did before the
	// delay (and does for its own trusted clients).
	Undelayed bool
	// ReleaseJump: at the end, the final description comes without the
	// held positions before it.
	ReleaseJump bool
	// WinnerOnlyInExport: the stream's final description does not name
	// the winner (the description does not promise it); the export does.
	WinnerOnlyInExport bool
}

// Spectated is a game on the spectator stream, advanced by the test.
type Spectated struct {
	s          *Server
	spec       SpectatorSpec
	rg         *rules.Game
	initialFEN string
	createdAt  int64
	positions  []string // position lines (first without lm), one per ply from 0
	fens       []string // the FEN at each ply
	ucis, sans []string // the move that led to ply i+1
	status     string
	winner     string
	raw        []string // recorded lines served as they are (SetRawGame)
}

// ID returns the game id.
func (sg *Spectated) ID() string { return sg.spec.ID }

// Finished reports whether Finish was called.
func (sg *Spectated) Finished() bool {
	sg.s.mu.Lock()
	defer sg.s.mu.Unlock()
	return lichess.Finished(sg.status)
}

// SetRawGame makes /api/stream/game/{id} send these lines (e.g. recorded
// ones of Lichess's) on every connection, then stay open.
func (s *Server) SetRawGame(id string, lines []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spect[id] = &Spectated{s: s, spec: SpectatorSpec{ID: id}, raw: lines, status: lichess.StatusStarted}
}

// SpectatorGame creates a game for the spectator stream.
func (s *Server) SpectatorGame(spec SpectatorSpec) (*Spectated, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if spec.ID == "" {
		spec.ID = s.newID()
	}
	v, _ := rules.ParseVariant(spec.Variant)
	start, _, err := rules.ParseStartVariant(spec.InitialFEN, v)
	if err != nil {
		return nil, fmt.Errorf("fakelichess: spectator game %s: %w", spec.ID, err)
	}
	sg := &Spectated{s: s, spec: spec, rg: rules.NewGame(start), initialFEN: start.FEN(), status: lichess.StatusStarted,
		createdAt: s.clk.Now().UnixMilli()}
	sg.positions = append(sg.positions, sg.positionLine(""))
	sg.fens = append(sg.fens, start.FEN())
	for _, m := range spec.Moves {
		if err := sg.play(m); err != nil {
			return nil, err
		}
	}
	s.spect[spec.ID] = sg
	s.spectOrd = append(s.spectOrd, sg)
	return sg, nil
}

// MustSpectatorGame is SpectatorGame that panics on error.
func (s *Server) MustSpectatorGame(spec SpectatorSpec) *Spectated {
	g, err := s.SpectatorGame(spec)
	if err != nil {
		panic(err)
	}
	return g
}

// visible (mu held) is how many plies a spectator sees on the stream: all
// of them once the game is over (or when it is undelayed); else lila's
// ApiMoveStream rule: the start position and plies 1 to 4 at once, every
// later one lichess.DelayPlies plies after the board.
func (sg *Spectated) visible() int {
	n := len(sg.ucis)
	if sg.spec.Undelayed || lichess.Finished(sg.status) || n <= delayKeepsFirstPlies {
		return n
	}
	return max(delayKeepsFirstPlies, n-lichess.DelayPlies)
}

// delayKeepsFirstPlies: lila's move stream never holds back the first 5
// lines (the start position and plies 1 to 4).
const delayKeepsFirstPlies = 4

func (sg *Spectated) positionLine(lm string) string {
	pos := sg.rg.Position()
	m := map[string]any{"fen": pos.FEN()}
	if lm != "" {
		m["lm"] = lm
	}
	if sg.spec.Clock {
		m["wc"], m["bc"] = 180, 180
	}
	return ndjson(orderedPosition(m))
}

// orderedPosition keeps Lichess's key order fen, lm, wc, bc.
func orderedPosition(m map[string]any) json.RawMessage {
	var b strings.Builder
	b.WriteString("{")
	first := true
	for _, k := range []string{"fen", "lm", "wc", "bc"} {
		if v, ok := m[k]; ok {
			if !first {
				b.WriteString(",")
			}
			first = false
			kb, _ := json.Marshal(k)
			vb, _ := json.Marshal(v)
			b.Write(kb)
			b.WriteString(":")
			b.Write(vb)
		}
	}
	b.WriteString("}")
	return json.RawMessage(b.String())
}

func (sg *Spectated) play(u string) error {
	pos := sg.rg.Position()
	m, err := pos.ParseUCI(u)
	if err != nil {
		return fmt.Errorf("fakelichess: spectator game %s: %w", sg.spec.ID, err)
	}
	san := pos.SAN(m)
	if err := sg.rg.Play(m); err != nil {
		return err
	}
	sg.ucis, sg.sans = append(sg.ucis, u), append(sg.sans, san)
	sg.positions = append(sg.positions, sg.positionLine(u))
	pos = sg.rg.Position()
	sg.fens = append(sg.fens, pos.FEN())
	return nil
}

// descLine is the description of the game as it is now (lila sends its
// gameJsonView undelayed).
func (sg *Spectated) descLine() string {
	var m map[string]any
	_ = json.Unmarshal([]byte(payloadSpectatorDesc), &m)
	ply := len(sg.ucis)
	fen := sg.fens[ply]
	m["id"], m["initialFen"], m["fen"] = sg.spec.ID, sg.initialFEN, fen
	if sg.spec.Variant != "" {
		m["variant"] = variantJSON(sg.spec.Variant)
	}
	lastMove := ""
	if ply > 0 {
		lastMove = sg.ucis[ply-1]
	}
	m["turns"], m["startedAtTurn"], m["lastMove"] = ply, 0, lastMove
	m["player"] = "white"
	if f := strings.Fields(fen); len(f) > 1 && f[1] == "b" {
		m["player"] = "black"
	}
	m["createdAt"] = sg.createdAt
	m["status"] = map[string]any{"id": statusID(sg.status), "name": sg.status}
	m["players"] = map[string]any{
		"white": map[string]any{"user": map[string]any{"name": sg.spec.White, "id": strings.ToLower(sg.spec.White)}, "rating": 2000},
		"black": map[string]any{"user": map[string]any{"name": sg.spec.Black, "id": strings.ToLower(sg.spec.Black)}, "rating": 2000},
	}
	if sg.winner != "" && !sg.spec.WinnerOnlyInExport {
		m["winner"] = sg.winner
	}
	return ndjson(m)
}

// sendToStreams (mu held) sends lines to every open stream of the game.
func (sg *Spectated) sendToStreams(lines ...string) {
	for c := range sg.s.conns {
		if c.kind == "game" && c.key == sg.spec.ID {
			for _, l := range lines {
				c.send(l)
			}
		}
	}
}

// Move plays a move and sends the position it releases to the game's
// streams: its own when the game is undelayed, else the position
// lichess.DelayPlies plies back (none in the first plies).
func (sg *Spectated) Move(uci string) error {
	sg.s.mu.Lock()
	defer sg.s.mu.Unlock()
	if lichess.Finished(sg.status) {
		return fmt.Errorf("fakelichess: spectator game %s is over", sg.spec.ID)
	}
	before := sg.visible()
	if err := sg.play(uci); err != nil {
		return err
	}
	sg.sendToStreams(sg.positions[before+1 : sg.visible()+1]...)
	sg.s.notify()
	return nil
}

// Finish ends the game: the positions held back are released (one line
// each, or none with ReleaseJump), the description is sent again with
// the final status and position, and the streams close. An empty winner
// with a decisive status is a finished game whose winner Lichess does not
// say.
func (sg *Spectated) Finish(status, winner string) {
	sg.s.mu.Lock()
	defer sg.s.mu.Unlock()
	before := sg.visible()
	sg.status, sg.winner = status, winner
	if !sg.spec.ReleaseJump {
		sg.sendToStreams(sg.positions[before+1:]...)
	}
	sg.sendToStreams(sg.descLine())
	for c := range sg.s.conns {
		if c.kind == "game" && c.key == sg.spec.ID {
			c.close()
		}
	}
	sg.s.notify()
}

func (s *Server) handleSpectatorStream(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sg := s.spect[r.PathValue("id")]
	if sg == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "No such game")
		return
	}
	c := s.openConn(w, "game", sg.spec.ID, r.UserAgent(), []string{"game"}, s.opts.GameStreams)
	if c == nil {
		s.mu.Unlock()
		return
	}
	if sg.raw != nil {
		for _, l := range sg.raw {
			c.send(l + "\n")
		}
		s.mu.Unlock()
		s.serveStream(w, r, c, keepAlive{every: KeepAliveIdle, idle: true, text: "\n"}, "application/x-ndjson")
		return
	}
	// As lila: the description, every position a spectator may see, and
	// for a finished game the description again before the end.
	c.send(sg.descLine())
	for _, p := range sg.positions[:sg.visible()+1] {
		c.send(p)
	}
	if lichess.Finished(sg.status) {
		c.send(sg.descLine())
		c.close()
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveIdle, idle: true, text: "\n"}, "application/x-ndjson")
}

// Summary is a game of the games-by-users / games-by-ids streams.
type Summary struct {
	ID           string
	White, Black string // user ids
	Status       string // "started" (default), "mate", "resign", "draw", ...
	Winner       string
}

type summaryRec struct {
	Summary
	line string
}

// PublishGame records a game start or finish and sends it to the
// games-by-users streams that follow both players and to the games-by-ids
// streams that follow its id.
func (s *Server) PublishGame(sum Summary) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sum.Status == "" {
		sum.Status = lichess.StatusStarted
	}
	sum.White, sum.Black = strings.ToLower(sum.White), strings.ToLower(sum.Black)
	var m map[string]any
	_ = json.Unmarshal([]byte(payloadGameSummary), &m)
	m["id"], m["status"], m["statusName"] = sum.ID, statusID(sum.Status), sum.Status
	m["players"] = map[string]any{"white": map[string]any{"userId": sum.White, "rating": 2000}, "black": map[string]any{"userId": sum.Black, "rating": 2000}}
	if sum.Winner != "" {
		m["winner"] = sum.Winner
	}
	rec := &summaryRec{Summary: sum, line: ndjson(m)}
	if s.summaries[sum.ID] == nil {
		s.summaryOrd = append(s.summaryOrd, sum.ID)
	}
	s.summaries[sum.ID] = rec
	for c := range s.conns {
		if s.follows(c, rec) {
			c.send(rec.line)
		}
	}
	s.notify()
}

func (s *Server) follows(c *conn, rec *summaryRec) bool {
	switch c.kind {
	case "games-by-users":
		users := map[string]bool{}
		for _, u := range strings.Split(c.key, ",") {
			users[strings.ToLower(strings.TrimSpace(u))] = true
		}
		return users[rec.White] && users[rec.Black]
	case "games-by-ids":
		return s.idStreams[c.key][rec.ID]
	}
	return false
}

func (s *Server) handleGamesByUsers(w http.ResponseWriter, r *http.Request) {
	body, _ := readBody(r)
	if n := len(strings.Split(body, ",")); n > 300 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Too many ids: %d, expected up to 300", n))
		return
	}
	s.mu.Lock()
	c := s.openConn(w, "games-by-users", body, r.UserAgent(), eventsPool, s.opts.EventStreams)
	if c == nil {
		s.mu.Unlock()
		return
	}
	if r.URL.Query().Get("withCurrentGames") == "true" {
		for _, id := range s.summaryOrd {
			if rec := s.summaries[id]; rec.Status == lichess.StatusStarted && s.follows(c, rec) {
				c.send(rec.line)
			}
		}
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveIdle, idle: true, text: "\n"}, "application/x-ndjson")
}

func (s *Server) handleGamesByIDs(w http.ResponseWriter, r *http.Request) {
	body, _ := readBody(r)
	id := r.PathValue("id")
	s.mu.Lock()
	c := s.openConn(w, "games-by-ids", id, r.UserAgent(), eventsPool, s.opts.EventStreams)
	if c == nil {
		s.mu.Unlock()
		return
	}
	set := map[string]bool{}
	for _, g := range strings.Split(body, ",") {
		if g = strings.TrimSpace(g); g != "" {
			set[g] = true
		}
	}
	s.idStreams[id] = set
	for _, gid := range s.summaryOrd {
		if rec := s.summaries[gid]; set[gid] {
			c.send(rec.line)
		}
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveIdle, idle: true, text: "\n"}, "application/x-ndjson")
}

func (s *Server) handleGamesByIDsAdd(w http.ResponseWriter, r *http.Request) {
	body, _ := readBody(r)
	id := r.PathValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.idStreams[id]
	if set == nil {
		writeError(w, http.StatusNotFound, "No such stream")
		return
	}
	for _, g := range strings.Split(body, ",") {
		if g = strings.TrimSpace(g); g != "" && !set[g] {
			set[g] = true
			if rec := s.summaries[g]; rec != nil {
				for c := range s.conns {
					if c.kind == "games-by-ids" && c.key == id {
						c.send(rec.line)
					}
				}
			}
		}
	}
	writeOK(w)
}

// TVChannel is a TV feed ("" is the featured game of /api/tv/feed).
type TVChannel struct {
	s        *Server
	name     string
	featured string // the last featured line (with the current fen)
	featMap  map[string]any
}

// TV returns a TV channel, creating it.
func (s *Server) TV(channel string) *TVChannel {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tv[channel]
	if t == nil {
		t = &TVChannel{s: s, name: channel}
		s.tv[channel] = t
	}
	return t
}

// Feature features a game (a "featured" line); line "" uses the fake's own
// one.
func (t *TVChannel) Feature(line string) {
	if line == "" {
		line = payloadTVFeatured
	}
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	t.featMap = nil
	_ = json.Unmarshal([]byte(line), &t.featMap)
	t.featured = ndjson(t.featMap)
	t.sendLocked(t.featured)
}

// Move sends a "fen" line: the position after lm.
func (t *TVChannel) Move(fen, lm string, wc, bc int) {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	if t.featMap != nil {
		t.featMap["d"].(map[string]any)["fen"] = fen
		t.featured = ndjson(t.featMap)
	}
	t.sendLocked(ndjson(map[string]any{"t": "fen", "d": map[string]any{"fen": fen, "lm": lm, "wc": wc, "bc": bc}}))
}

func (t *TVChannel) sendLocked(line string) {
	for c := range t.s.conns {
		if c.kind == "tv" && c.key == t.name {
			c.send(line)
		}
	}
	t.s.notify()
}

func (s *Server) handleTV(w http.ResponseWriter, r *http.Request) {
	ch := r.PathValue("channel")
	s.mu.Lock()
	c := s.openConn(w, "tv", ch, r.UserAgent(), nil, 0)
	if c == nil {
		s.mu.Unlock()
		return
	}
	if t := s.tv[ch]; t != nil && t.featured != "" {
		c.send(t.featured)
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveIdle, idle: true, text: "\n"}, "application/x-ndjson")
}

type export struct{ json, pgn string }

var standardFEN = func() string { p := rules.StartPosition(); return p.FEN() }()

// SetExport sets what /game/export/{id} answers for a game that is not a
// bot game of the fake (JSON with Accept: application/json, else PGN).
func (s *Server) SetExport(id, jsonText, pgn string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exports[id] = export{json: jsonText, pgn: pgn}
}

func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	ex, ok := s.exports[id]
	if g := s.games[id]; g != nil {
		ex, ok = g.export(), true
	}
	if sg := s.spect[id]; sg != nil && sg.raw == nil {
		ex, ok = sg.export(), true
	}
	if !ok {
		writeError(w, http.StatusNotFound, "No such game")
		return
	}
	writeExport(w, r, ex)
}

// handleCurrentGame serves /api/user/{username}/current-game: the user's
// ongoing spectated game, else the last one they played (the most recently
// created of the fake's spectated games that has them as a player), under
// the same 3-move delay as the export; 404 when they have none.
func (s *Server) handleCurrentGame(w http.ResponseWriter, r *http.Request) {
	user := strings.ToLower(r.PathValue("username"))
	s.mu.Lock()
	defer s.mu.Unlock()
	var last *Spectated
	for _, sg := range slices.Backward(s.spectOrd) {
		if sg.raw != nil || (strings.ToLower(sg.spec.White) != user && strings.ToLower(sg.spec.Black) != user) {
			continue
		}
		if !lichess.Finished(sg.status) {
			writeExport(w, r, sg.export())
			return
		}
		if last == nil {
			last = sg
		}
	}
	if last == nil {
		writeError(w, http.StatusNotFound, "No current game")
		return
	}
	writeExport(w, r, last.export())
}

func writeExport(w http.ResponseWriter, r *http.Request, ex export) {
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, ex.json)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn")
	fmt.Fprint(w, ex.pgn)
}

// exported is a game as /game/export/{id} renders it.
type exported struct {
	id, white, black string // user ids (names as given)
	initialFEN       string // "" for the standard start
	sans             []string
	status, winner   string
	rated            bool
	speed            string
	createdAt        int64
}

// exportedPlies is how many plies an export shows of a game of n plies:
// all of them once it is over, else lila's PgnDump rule: the last
// lichess.DelayPlies held back, the first 5 always kept.
func exportedPlies(n int, over bool) int {
	if over {
		return n
	}
	return min(n, max(n-lichess.DelayPlies, 5))
}

// render renders the game as Lichess exports it: SAN moves and
// lichess.Result.
func (e exported) render() export {
	result := lichess.Result(e.status, e.winner)
	var mt strings.Builder
	for i, san := range e.sans {
		if i%2 == 0 {
			fmt.Fprintf(&mt, "%d. ", i/2+1)
		}
		mt.WriteString(san + " ")
	}
	mt.WriteString(result)
	var tags strings.Builder
	fmt.Fprintf(&tags, "[Event \"Casual game\"]\n[Site \"https://lichess.org/%s\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n",
		e.id, e.white, e.black, result)
	if e.initialFEN != "" {
		fmt.Fprintf(&tags, "[FEN \"%s\"]\n[SetUp \"1\"]\n", e.initialFEN)
	}
	pgn := tags.String() + "\n" + mt.String() + "\n\n\n"
	m := map[string]any{"id": e.id, "rated": e.rated, "variant": "standard", "speed": e.speed, "perf": e.speed,
		"createdAt": e.createdAt, "lastMoveAt": e.createdAt, "status": e.status,
		"players": map[string]any{"white": map[string]any{"user": map[string]any{"name": e.white, "id": strings.ToLower(e.white)}, "rating": 1500},
			"black": map[string]any{"user": map[string]any{"name": e.black, "id": strings.ToLower(e.black)}, "rating": 1500}},
		"moves": strings.Join(e.sans, " "), "pgn": pgn}
	if e.initialFEN != "" {
		m["initialFen"] = e.initialFEN
		m["variant"] = "fromPosition"
	}
	if e.winner != "" {
		m["winner"] = e.winner
	}
	return export{json: ndjson(m), pgn: pgn}
}

// export (mu held) renders a bot game as Lichess exports it: the last
// plies held back while it is on.
func (g *Game) export() export {
	rg := rules.NewGame(g.start)
	var sans []string
	for _, m := range g.rg.Moves() {
		p := rg.Position()
		sans = append(sans, p.SAN(m))
		_ = rg.Play(m)
	}
	e := exported{id: g.id, white: g.white, black: g.black, status: g.status, winner: g.winner, rated: g.rated,
		speed: "correspondence", createdAt: g.createdAt, sans: sans[:exportedPlies(len(sans), g.over())]}
	if g.initialFEN != "" && g.initialFEN != standardFEN {
		e.initialFEN = g.initialFEN
	}
	return e.render()
}

// export (mu held) renders a spectated game as Lichess exports it: the
// last plies held back while it is on, unless it is undelayed.
func (sg *Spectated) export() export {
	n := len(sg.sans)
	if !sg.spec.Undelayed {
		n = exportedPlies(n, lichess.Finished(sg.status))
	}
	e := exported{id: sg.spec.ID, white: sg.spec.White, black: sg.spec.Black, status: sg.status, winner: sg.winner,
		speed: "blitz", createdAt: sg.createdAt, sans: sg.sans[:n]}
	if sg.initialFEN != standardFEN {
		e.initialFEN = sg.initialFEN
	}
	return e.render()
}
