package fakelichess

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/http"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

func jsonMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	err := e.Encode(v)
	return b.Bytes(), err
}

// Step is one action of a scripted opponent. When it is the opponent's
// turn, steps run in order until one plays a move or ends the game; then
// the opponent waits for the bot. Wait delays the step on the server's
// clock.
type Step struct {
	Wait       time.Duration
	Move       string // UCI (e1g1 or e1h1 for castling)
	OfferDraw  bool   // offer a draw (before Move, if both are set)
	AcceptDraw bool   // accept the bot's offer (a draw if the bot offers)
	Chat       string // a line in the player chat
	Resign     bool
	// Takeback proposes to take back the opponent's last move (the bot's
	// answer comes through the takeback endpoint; a move declines it).
	Takeback bool
}

// GameSpec describes a bot game.
type GameSpec struct {
	ID           string // default: generated
	White, Black string // user ids; default White BotUser, Black Opponent
	// Bot is the player driven through the bot API (default: whichever of
	// White and Black is a BOT account, White if both). The other side is
	// the scripted opponent.
	Bot        string
	InitialFEN string   // "" for the start position
	Moves      []string // UCI moves already played
	// Variant is "" or "standard", "fromPosition", or "chess960": then
	// InitialFEN is a Chess960 position in X-FEN (as Lichess writes it;
	// "" chooses a start from the game id) and castling is accepted only
	// as the king onto its rook, as Lichess takes it in Chess960. Another
	// variant (crazyhouse) is only named: its moves follow standard chess.
	Variant string
	// ClockInitial and ClockIncrement in ms; zero: a correspondence game
	// without clock (times are then 2147483647).
	ClockInitial, ClockIncrement int64
	// DaysPerTurn makes a correspondence game (without ClockInitial).
	DaysPerTurn int
	// FirstMoveTime is how long each player has for its first move before
	// the game is aborted (gameState.expiration; default 30 s, as Lichess
	// gives in rapid). Enforced with Options.RunningClocks.
	FirstMoveTime time.Duration
	Rated         bool
	Script        []Step
}

// GameState is a snapshot of a fake game for assertions.
type GameState struct {
	ID           string
	Moves        []string // as written to the streams (king-to-rook castling by default)
	Status       string
	Winner       string
	WDraw, BDraw bool
	// WTakeback, BTakeback: a takeback proposal is pending.
	WTakeback, BTakeback bool
	// WTime, BTime: the clocks in ms as of the last move (unlimited:
	// 2147483647).
	WTime, BTime int64
	Ply          int
	// Count is the number of occurrences of the current position (rules).
	Count int
	FEN   string
}

// ChatMessage is a chat line recorded by the fake, with the ply of the
// game when it arrived and whether the game was over then.
type ChatMessage struct {
	User, Room, Text string
	Ply              int
	AfterEnd         bool
}

// Game is a bot game on the fake server.
type Game struct {
	s            *Server
	id           string
	white, black string
	bot          rules.Color
	start        rules.Position
	initialFEN   string
	variant      string // the variant key ("" standard)
	rg           *rules.Game
	ucis         []string
	status       string
	winner       string
	drawOffer    [2]bool // by color: an offer stands
	takeback     [2]bool // by color: a takeback proposal stands
	drawOfferPly [2]int  // last ply each side offered, -100 if never
	wtime, btime int64
	winc, binc   int64
	clockInitial int64
	rated        bool
	createdAt    int64
	chat         []ChatMessage
	script       []Step
	scriptPos    int
	scriptWait   bool
	gone         *lichess.OpponentGone
	goneAt       time.Time
	finishSent   bool
	daysPerTurn  int
	firstMove    time.Duration
	lastMoveAt   time.Time     // on the server's clock: the last move, or the start
	timer        clock.Timer   // flag fall, or the first-move deadline
	timerDone    chan struct{} // closed when timer is disarmed: its goroutine ends
}

// NewGame creates a bot game (and announces it with gameStart on the event
// streams of both players). If it is the opponent's turn, its script runs.
func (s *Server) NewGame(spec GameSpec) (*Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.newGameLocked(spec)
	if err != nil {
		return nil, err
	}
	s.announceStart(g)
	s.runScript(g)
	s.notify()
	return g, nil
}

// MustNewGame is NewGame that panics on a bad spec (for tests).
func (s *Server) MustNewGame(spec GameSpec) *Game {
	g, err := s.NewGame(spec)
	if err != nil {
		panic(err)
	}
	return g
}

func (s *Server) newGameLocked(spec GameSpec) (*Game, error) {
	if spec.ID == "" {
		spec.ID = s.newID()
	}
	if spec.White == "" && spec.Black == "" {
		spec.White, spec.Black = BotUser, Opponent
	}
	if s.games[spec.ID] != nil {
		return nil, fmt.Errorf("fakelichess: game %s exists", spec.ID)
	}
	g := &Game{s: s, id: spec.ID, white: strings.ToLower(spec.White), black: strings.ToLower(spec.Black),
		status: lichess.StatusStarted, rated: spec.Rated, createdAt: s.clk.Now().UnixMilli(), script: spec.Script,
		clockInitial: spec.ClockInitial, drawOfferPly: [2]int{-100, -100}, daysPerTurn: spec.DaysPerTurn,
		firstMove: spec.FirstMoveTime, lastMoveAt: s.clk.Now()}
	if g.firstMove <= 0 {
		g.firstMove = 30 * time.Second
	}
	switch bot := strings.ToLower(spec.Bot); {
	case bot == g.black:
		g.bot = rules.Black
	case bot == g.white:
		g.bot = rules.White
	case s.isBot(g.white):
		g.bot = rules.White
	case s.isBot(g.black):
		g.bot = rules.Black
	}
	g.start = rules.StartPosition()
	g.initialFEN = "startpos"
	g.variant = spec.Variant
	switch v, _ := rules.ParseVariant(spec.Variant); {
	case v == rules.Chess960:
		fen := spec.InitialFEN
		if fen == "" {
			p, _ := rules.Chess960Start(int(crc32.ChecksumIEEE([]byte(spec.ID)) % 960))
			fen = p.FEN()
		}
		p, _, err := rules.ParseFENVariant(fen, rules.Chess960)
		if err != nil {
			return nil, fmt.Errorf("fakelichess: game %s: %w", spec.ID, err)
		}
		g.start, g.initialFEN = p, p.FEN()
	case spec.InitialFEN != "":
		p, err := rules.ParseFEN(spec.InitialFEN)
		if err != nil {
			return nil, fmt.Errorf("fakelichess: game %s: %w", spec.ID, err)
		}
		g.start, g.initialFEN = p, spec.InitialFEN
	}
	g.rg = rules.NewGame(g.start)
	for _, u := range spec.Moves {
		if err := g.play(u); err != nil {
			return nil, fmt.Errorf("fakelichess: game %s: %w", spec.ID, err)
		}
	}
	if spec.ClockInitial > 0 {
		g.wtime, g.btime = spec.ClockInitial, spec.ClockInitial
		g.winc, g.binc = spec.ClockIncrement, spec.ClockIncrement
	} else {
		g.wtime, g.btime = 2147483647, 2147483647
	}
	for _, u := range []string{g.white, g.black} {
		if x := s.users[u]; x != nil {
			x.played = true
		}
	}
	s.games[g.id] = g
	g.armTimer()
	return g, nil
}

func (s *Server) isBot(id string) bool {
	u := s.users[id]
	return u != nil && u.Title == "BOT"
}

// Game returns a game by id (nil if none).
func (s *Server) Game(id string) *Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.games[id]
}

// ID returns the game id.
func (g *Game) ID() string { return g.id }

// State returns a snapshot of the game.
func (g *Game) State() GameState {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	pos := g.rg.Position()
	return GameState{ID: g.id, Moves: append([]string(nil), g.ucis...), Status: g.status, Winner: g.winner,
		WDraw: g.drawOffer[rules.White], BDraw: g.drawOffer[rules.Black], WTakeback: g.takeback[rules.White], BTakeback: g.takeback[rules.Black], WTime: g.wtime, BTime: g.btime,
		Ply: g.rg.Ply(), Count: g.rg.Count(), FEN: pos.FEN()}
}

// Chat returns the chat lines of the game so far.
func (g *Game) Chat() []ChatMessage {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return append([]ChatMessage(nil), g.chat...)
}

// parse (mu held) reads a UCI move in the current position.
func (g *Game) parse(u string) (rules.Move, error) {
	pos := g.rg.Position()
	m, err := pos.ParseUCI(u)
	if err == nil && m.IsCastling() && g.start.Variant() == rules.Chess960 && u != m.UCIChess960() {
		return m, fmt.Errorf("castling in Chess960 is the king onto its rook (%s), not %s", m.UCIChess960(), u)
	}
	return m, err
}

// play (mu held) plays a UCI move and records it in the stream form.
func (g *Game) play(u string) error {
	pos := g.rg.Position()
	m, err := pos.ParseUCI(u)
	if err != nil {
		return err
	}
	out := m.UCIChess960() // castling as the king onto its rook, as Lichess streams it
	if g.s.opts.LegacyCastling {
		out = m.UCI()
	}
	if err := g.rg.Play(m); err != nil {
		return err
	}
	g.ucis = append(g.ucis, out)
	return nil
}

func (g *Game) turn() rules.Color {
	p := g.rg.Position()
	return p.Turn()
}

func (g *Game) over() bool { return lichess.Finished(g.status) }

// afterMove (mu held) ends the game the way Lichess does after a move:
// mate, stalemate, and the automatic draws (insufficient material, 50
// moves, fivefold, and the first threefold since a BOT plays).
func (g *Game) afterMove() {
	pos := g.rg.Position()
	mover := pos.Turn().Other()
	switch {
	case pos.Status() == rules.Checkmate:
		g.finish(lichess.StatusMate, mover.String())
	case pos.Status() == rules.Stalemate:
		g.finish(lichess.StatusStalemate, "")
	case pos.InsufficientMaterial(), pos.HalfmoveClock() >= 100, g.rg.Count() >= 3, g.rg.Ply() >= 600:
		g.finish(lichess.StatusDraw, "")
	}
}

// finish (mu held) ends the game and tells everyone.
func (g *Game) finish(status, winner string) {
	if g.over() {
		return
	}
	g.status, g.winner = status, winner
	g.drawOffer = [2]bool{}
	g.takeback = [2]bool{}
	g.disarm()
}

// push (mu held) sends the current state to the game's streams, and when
// the game is over closes them and announces gameFinish.
func (g *Game) push() {
	s := g.s
	line := ndjson(g.stateJSON())
	for c := range s.conns {
		if c.kind == "botgame" && c.key == g.id {
			c.send(line)
			if g.over() {
				c.close()
			}
		}
	}
	if g.over() && !g.finishSent {
		g.finishSent = true
		s.announce(g, "gameFinish")
	}
	s.notify()
}

func (g *Game) sendLine(v any) {
	line := ndjson(v)
	for c := range g.s.conns {
		if c.kind == "botgame" && c.key == g.id {
			c.send(line)
		}
	}
	g.s.notify()
}

type stateOut struct {
	Type       string          `json:"type"`
	Moves      string          `json:"moves"`
	WTime      int64           `json:"wtime"`
	BTime      int64           `json:"btime"`
	WInc       int64           `json:"winc"`
	BInc       int64           `json:"binc"`
	WDraw      *bool           `json:"wdraw,omitempty"`
	BDraw      *bool           `json:"bdraw,omitempty"`
	WTakeback  *bool           `json:"wtakeback,omitempty"`
	BTakeback  *bool           `json:"btakeback,omitempty"`
	Status     string          `json:"status"`
	Winner     string          `json:"winner,omitempty"`
	Expiration *expirationJSON `json:"expiration,omitempty"`
}

type expirationJSON struct {
	IdleMillis   int64 `json:"idleMillis"`
	MillisToMove int64 `json:"millisToMove"`
}

func (g *Game) stateJSON() stateOut {
	flag := func(b bool) *bool {
		if b || g.s.opts.LegacyDrawFields {
			return &b
		}
		return nil
	}
	out := stateOut{Type: "gameState", Moves: strings.Join(g.ucis, " "), WTime: g.wtime, BTime: g.btime, WInc: g.winc, BInc: g.binc,
		WDraw: flag(g.drawOffer[rules.White]), BDraw: flag(g.drawOffer[rules.Black]), WTakeback: flag(g.takeback[rules.White]), BTakeback: flag(g.takeback[rules.Black]), Status: g.status, Winner: g.winner}
	if !g.over() && g.rg.Ply() < 2 && g.clockInitial > 0 {
		out.Expiration = &expirationJSON{IdleMillis: g.s.clk.Now().Sub(g.lastMoveAt).Milliseconds(), MillisToMove: g.firstMove.Milliseconds()}
	}
	return out
}

func (g *Game) playerJSON(id string) map[string]any {
	u := g.s.users[id]
	name, title := id, any(nil)
	if u != nil {
		name = u.Username
		if u.Title != "" {
			title = u.Title
		}
	}
	return map[string]any{"id": id, "name": name, "title": title, "rating": 1500}
}

func (g *Game) fullJSON() map[string]any {
	speed, perf := "correspondence", "Correspondence"
	m := map[string]any{
		"id": g.id, "variant": variantJSON(g.variant),
		"rated": g.rated, "createdAt": g.createdAt, "white": g.playerJSON(g.white), "black": g.playerJSON(g.black),
		"initialFen": g.initialFEN, "type": "gameFull", "state": g.stateJSON(),
	}
	if g.clockInitial > 0 {
		speed = lichessSpeed(g.clockInitial/1000, g.winc/1000)
		perf = strings.ToUpper(speed[:1]) + speed[1:]
		m["clock"] = map[string]any{"initial": g.clockInitial, "increment": g.winc}
	} else if g.daysPerTurn > 0 {
		m["daysPerTurn"] = g.daysPerTurn
	}
	m["speed"], m["perf"] = speed, map[string]any{"name": perf}
	return m
}

// eventInfo renders the GameEventInfo of g from the point of view of the
// user uid, on the shape of payloadGameStart or payloadGameFinish.
func (g *Game) eventInfo(uid string, typ string) map[string]any {
	var tmpl map[string]any
	line := payloadGameStart
	if typ == "gameFinish" {
		line = payloadGameFinish
	}
	_ = json.Unmarshal([]byte(line), &tmpl)
	info := tmpl["game"].(map[string]any)
	color := rules.White
	opp := g.black
	if uid == g.black {
		color, opp = rules.Black, g.white
	}
	pos := g.rg.Position()
	info["fullId"] = g.id + "abcd"
	info["gameId"], info["id"] = g.id, g.id
	info["fen"] = pos.FEN()
	info["color"] = color.String()
	info["variant"] = variantJSON(g.variant)
	last := ""
	if len(g.ucis) > 0 {
		last = g.ucis[len(g.ucis)-1]
	}
	info["lastMove"] = last
	info["status"] = map[string]any{"id": statusID(g.status), "name": g.status}
	info["hasMoved"] = g.rg.Ply() > 0
	info["isMyTurn"] = !g.over() && pos.Turn() == color
	info["rated"] = g.rated
	info["compat"] = map[string]any{"bot": true, "board": false}
	switch {
	case g.clockInitial > 0:
		info["speed"] = lichessSpeed(g.clockInitial/1000, g.winc/1000)
		info["secondsLeft"] = *g.clockMS(color) / 1000
	default:
		info["speed"] = "correspondence"
		delete(info, "secondsLeft")
	}
	info["perf"] = info["speed"]
	ou := g.s.users[opp]
	oname := opp
	if ou != nil {
		oname = ou.Username
	}
	info["opponent"] = map[string]any{"id": opp, "username": oname, "rating": 1500}
	info["rating"] = 1500 // as gameFull says; no rating changes on the fake
	if _, ok := info["ratingDiff"]; ok {
		info["ratingDiff"] = 0
	}
	delete(info, "winner")
	if g.winner != "" {
		info["winner"] = g.winner
	}
	return tmpl
}

func statusID(name string) int {
	ids := map[string]int{"created": 10, "started": 20, "aborted": 25, "mate": 30, "resign": 31, "stalemate": 32, "timeout": 33,
		"draw": 34, "outoftime": 35, "cheat": 36, "noStart": 37, "unknownFinish": 38, "insufficientMaterialClaim": 39, "variantEnd": 60}
	return ids[name]
}

// announceStart / announce (mu held) send gameStart / gameFinish to the
// event streams of both players.
func (s *Server) announceStart(g *Game) { s.announce(g, "gameStart") }

func (s *Server) announce(g *Game, typ string) {
	for _, uid := range []string{g.white, g.black} {
		for c := range s.conns {
			if c.kind == "event" && c.key == uid {
				c.send(ndjson(g.eventInfo(uid, typ)))
			}
		}
	}
	s.notify()
}

// runScript (mu held) lets the scripted opponent act while it is its turn.
func (s *Server) runScript(g *Game) {
	for !g.over() && g.turn() != g.bot && g.scriptPos < len(g.script) && !g.scriptWait {
		st := g.script[g.scriptPos]
		if st.Wait > 0 {
			if s.closed {
				return
			}
			g.scriptWait = true
			g.script[g.scriptPos].Wait = 0
			t := s.clk.NewTimer(st.Wait)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer t.Stop()
				select {
				case <-t.C():
				case <-s.closing:
					return
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				g.scriptWait = false
				s.runScript(g)
			}()
			return
		}
		g.scriptPos++
		opp := g.bot.Other()
		if st.Chat != "" {
			g.addChat(g.player(opp), lichess.RoomPlayer, st.Chat)
		}
		if st.OfferDraw {
			g.offerDraw(opp)
			g.push()
		}
		if st.AcceptDraw && g.drawOffer[g.bot] {
			g.finish(lichess.StatusDraw, "")
			g.push()
		}
		if st.Resign {
			g.finish(lichess.StatusResign, g.bot.String())
			g.push()
		}
		if st.Takeback && !g.over() {
			_ = g.proposeTakeback(opp)
			g.push()
		}
		if st.Move != "" {
			if err := g.opponentPlay(st.Move); err != nil {
				panic(fmt.Sprintf("fakelichess: game %s: script move %d: %v", g.id, g.scriptPos, err))
			}
		}
	}
}

func (g *Game) player(c rules.Color) string {
	if c == rules.White {
		return g.white
	}
	return g.black
}

// offerDraw (mu held) is lila's Drawer.yes for side c: a threefold on the
// board ends the game, an offer of the other side is accepted, otherwise
// the offer is recorded (at most once per 20 plies, from ply 2).
func (g *Game) offerDraw(c rules.Color) {
	switch {
	case g.over():
	case g.rg.Count() >= 3:
		g.finish(lichess.StatusDraw, "")
	case g.drawOffer[c.Other()]:
		g.finish(lichess.StatusDraw, "")
	case g.rg.Ply() >= 2 && !g.drawOffer[c] && g.drawOfferPly[c] < g.rg.Ply()-20:
		g.drawOffer[c] = true
		g.drawOfferPly[c] = g.rg.Ply()
		g.addChat("lichess", lichess.RoomPlayer, c.String()+" offers draw")
	}
}

// opponentPlay (mu held) plays the opponent's move: it declines the bot's
// pending offer, as a move does on Lichess.
func (g *Game) opponentPlay(u string) error {
	if g.over() {
		return fmt.Errorf("game over")
	}
	if g.turn() == g.bot {
		return fmt.Errorf("not the opponent's turn")
	}
	if _, err := g.parse(u); err != nil {
		return err
	}
	if !g.charge(g.bot.Other(), 0) {
		g.push()
		return nil
	}
	if err := g.play(u); err != nil {
		return err
	}
	g.drawOffer[g.bot] = false
	g.takeback = [2]bool{}
	g.moved()
	g.afterMove()
	g.push()
	return nil
}

func (g *Game) addChat(user, room, text string) {
	g.chat = append(g.chat, ChatMessage{User: user, Room: room, Text: text, Ply: g.rg.Ply(), AfterEnd: g.over()})
	name := user
	if u := g.s.users[user]; u != nil {
		name = u.Username
	}
	g.sendLine(map[string]any{"type": "chatLine", "username": name, "text": text, "room": room})
}

// OpponentMove plays a move for the scripted side now.
func (g *Game) OpponentMove(uci string) error {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	if err := g.opponentPlay(uci); err != nil {
		return fmt.Errorf("fakelichess: game %s: opponent move %s: %w", g.id, uci, err)
	}
	g.s.runScript(g)
	return nil
}

// OpponentChat writes a line in the player chat for the opponent.
func (g *Game) OpponentChat(text string) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	g.addChat(g.player(g.bot.Other()), lichess.RoomPlayer, text)
}

// OpponentOfferDraw makes the opponent offer (or accept) a draw.
func (g *Game) OpponentOfferDraw() {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	g.offerDraw(g.bot.Other())
	g.push()
}

// OpponentResign makes the opponent resign.
func (g *Game) OpponentResign() {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	g.finish(lichess.StatusResign, g.bot.String())
	g.push()
}

// OpponentGone sends opponentGone to the game stream.
func (g *Game) OpponentGone(gone bool, claimWinInSeconds int) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	og := &lichess.OpponentGone{Gone: gone, ClaimWinInSeconds: claimWinInSeconds}
	g.gone, g.goneAt = og, g.s.clk.Now()
	g.sendLine(map[string]any{"type": "opponentGone", "gone": og.Gone, "claimWinInSeconds": og.ClaimWinInSeconds})
}

// Finish ends the game with a status ("outoftime", "timeout", ...) and
// winner ("white", "black" or "").
func (g *Game) Finish(status, winner string) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	g.finish(status, winner)
	g.push()
}

// SendRaw sends a raw line (e.g. a recorded one of Lichess's)
// to the game's streams, without changing the game.
func (g *Game) SendRaw(line string) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	line = strings.TrimRight(line, "\n") + "\n"
	for c := range g.s.conns {
		if c.kind == "botgame" && c.key == g.id {
			c.send(line)
		}
	}
	g.s.notify()
}

// KillStreams closes the game's streams cleanly (as a second stream with
// the same User-Agent does on Lichess).
func (g *Game) KillStreams() {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	for c := range g.s.conns {
		if c.kind == "botgame" && c.key == g.id {
			c.close()
		}
	}
}

// botGame finds the game of a bot request and checks that the token's
// user plays in it; it answers the error itself and returns nil.
func (s *Server) botGame(w http.ResponseWriter, r *http.Request) (*Game, string) {
	uid := s.auth(w, r, lichess.ScopeBotPlay)
	if uid == "" {
		return nil, ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.isBot(uid) {
		writeError(w, http.StatusBadRequest, "This endpoint can only be used with a Bot account. See https://lichess.org/api#operation/botAccountUpgrade")
		return nil, ""
	}
	g := s.games[r.PathValue("id")]
	if g == nil {
		writeError(w, http.StatusNotFound, "No such game")
		return nil, ""
	}
	if g.white != uid && g.black != uid {
		writeError(w, http.StatusNotFound, "Not your game")
		return nil, ""
	}
	return g, uid
}

func (g *Game) colorOf(uid string) rules.Color {
	if uid == g.white {
		return rules.White
	}
	return rules.Black
}

func (s *Server) handleBotGameStream(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	ua := r.UserAgent()
	for c := range s.conns { // one stream per (game, player, User-Agent)
		if c.kind == "botgame" && c.key == g.id && c.ua == uid+"\x00"+ua {
			c.close()
		}
	}
	c := s.openConn(w, "botgame", g.id, uid+"\x00"+ua, nil, 0)
	if c == nil {
		s.mu.Unlock()
		return
	}
	c.send(ndjson(g.fullJSON()))
	if g.over() {
		c.close()
	} else if g.gone != nil && g.gone.Gone {
		left := g.goneAt.Add(time.Duration(g.gone.ClaimWinInSeconds) * time.Second).Sub(s.clk.Now())
		c.send(ndjson(map[string]any{"type": "opponentGone", "gone": true, "claimWinInSeconds": max(0, int((left+time.Second-1)/time.Second))}))
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveBotGame, text: "\n"}, "application/x-ndjson")
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := g.colorOf(uid)
	u := r.PathValue("move")
	if len(u) < 4 || len(u) > 5 {
		writeError(w, http.StatusBadRequest, "Invalid UCI: "+u)
		return
	}
	if g.over() || g.turn() != c {
		writeError(w, http.StatusBadRequest, "Not your turn, or game already over")
		return
	}
	switch r.URL.Query().Get("offeringDraw") {
	case "true":
		g.offerDraw(c)
	case "false":
		if g.drawOffer[c.Other()] {
			g.drawOffer[c.Other()] = false
		}
	}
	if g.over() { // the offer drew the game (a threefold on the board)
		g.push()
		writeOK(w)
		return
	}
	if _, err := g.parse(u); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Piece on %s cannot move to %s", u[:2], u[2:4]))
		return
	}
	if !g.charge(c, s.opts.Lag) {
		g.push()
		writeError(w, http.StatusBadRequest, "Not your turn, or game already over")
		return
	}
	if err := g.play(u); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Piece on %s cannot move to %s", u[:2], u[2:4]))
		return
	}
	g.drawOffer[c.Other()] = false
	g.takeback = [2]bool{}
	g.moved()
	g.afterMove()
	g.push()
	s.runScript(g)
	writeOK(w)
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	room, text := r.PostForm.Get("room"), r.PostForm.Get("text")
	if (room != lichess.RoomPlayer && room != lichess.RoomSpectator) || strings.TrimSpace(text) == "" || len([]rune(text)) > lichess.ChatMaxLen {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"text": []string{"error.maxLength"}}})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g.addChat(uid, room, text)
	writeOK(w)
}

// handleChatHistory answers the player-room chat as [{"text","user"}];
// Lichess's own lines have user "lichess".
func (s *Server) handleChatHistory(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("what") != "chat" {
		http.NotFound(w, r)
		return
	}
	g, _ := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// As the description says: NDJSON, one message a line (lila has
	// answered a JSON array; the client reads both).
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	for _, m := range g.chat {
		if m.Room != lichess.RoomPlayer {
			continue
		}
		name := m.User
		if u := s.users[m.User]; u != nil {
			name = u.Username
		}
		fmt.Fprint(w, ndjson(map[string]string{"text": m.Text, "user": name}))
	}
}

func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := g.colorOf(uid)
	switch r.PathValue("accept") {
	case "yes", "true", "True", "1", "on":
		g.offerDraw(c)
	default:
		if g.drawOffer[c.Other()] {
			g.drawOffer[c.Other()] = false
		}
	}
	g.push()
	s.runScript(g)
	writeOK(w) // Lichess always answers ok
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case g.over():
		writeError(w, http.StatusBadRequest, "This game cannot be resigned")
		return
	case g.rg.Ply() < 2:
		g.finish(lichess.StatusAborted, "")
	default:
		g.finish(lichess.StatusResign, g.colorOf(uid).Other().String())
	}
	g.push()
	writeOK(w)
}

func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request) {
	g, _ := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if g.over() || g.rg.Ply() >= 2 {
		writeError(w, http.StatusBadRequest, "This game can no longer be aborted")
		return
	}
	g.finish(lichess.StatusAborted, "")
	g.push()
	writeOK(w)
}

func (s *Server) handleClaimVictory(w http.ResponseWriter, r *http.Request) {
	g, uid := s.botGame(w, r)
	if g == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !g.claimable() {
		writeError(w, http.StatusBadRequest, "You cannot claim the win on this game")
		return
	}
	g.finish(lichess.StatusTimeout, g.colorOf(uid).String())
	g.push()
	writeOK(w)
}

func (s *Server) handlePlaying(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r)
	if uid == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := []any{}
	myTurn := 0
	for _, g := range s.games {
		if g.over() || (g.white != uid && g.black != uid) {
			continue
		}
		info := g.eventInfo(uid, "gameStart")["game"].(map[string]any)
		info["status"] = g.status // the bare name here, unlike the event stream
		if info["isMyTurn"] == true {
			myTurn++
		}
		now = append(now, info)
	}
	writeJSON(w, http.StatusOK, map[string]any{"nowPlaying": now, "nbMyTurn": myTurn})
}

// variantJSON is a variant as Lichess describes it: key, name and short
// name ("" is standard).
func variantJSON(key string) map[string]any {
	names := map[string][2]string{
		"standard": {"Standard", "Std"}, "chess960": {"Chess960", "960"}, "fromPosition": {"From Position", "FEN"},
		"crazyhouse": {"Crazyhouse", "Crazy"}, "atomic": {"Atomic", "Atom"}, "threeCheck": {"Three-check", "3check"},
		"kingOfTheHill": {"King of the Hill", "KotH"}, "horde": {"Horde", "Horde"}, "racingKings": {"Racing Kings", "Racing"},
		"antichess": {"Antichess", "Anti"},
	}
	if key == "" {
		key = "standard"
	}
	n, ok := names[key]
	if !ok {
		n = [2]string{key, key}
	}
	return map[string]any{"key": key, "name": n[0], "short": n[1]}
}
