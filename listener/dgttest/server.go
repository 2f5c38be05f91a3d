// Package dgttest is a fake DGT LiveChess 2 server for tests. It speaks the
// websocket API at /api/v1.0 as LiveChess does, in the message shapes its
// API description gives and independent clients (lila's DGT connector,
// herohde/livechess-go, luno1977/dgt) read:
//
//   - {"id":N,"call":"eboards"} is answered {"response":"call","id":N,
//     "param":[…],"time":ms}, one EBoardResponse per board: serialnr,
//     source, state (ACTIVE, INACTIVE, NOTRESPONDING, DELAYED or null),
//     battery, comment, board (the piece placement), flipped, clock.
//   - {"id":N,"call":"subscribe","param":{"feed":"eboardevent","id":F,
//     "param":{"serialnr":S}}} is answered {"response":"call","id":N,
//     "param":null}, then by a first feed message that carries the board
//     and the clock but no move list; later feed messages
//     ({"response":"feed","id":F,"param":{serialnr, flipped, board, clock,
//     start, san, match}}) carry the whole reconstructed game: start (the
//     FEN the moves start from) and san (every move).
//   - A call LiveChess refuses (an unknown board, an unknown call, a
//     subscription the test refuses) is answered {"response":"error",
//     "id":N,"param":{"message":…,"stacktrace":null}}.
//
// Over HTTP on the same port it answers LiveChess's tournament calls as
// the livechess command-line tool reads them: GET /api/v1.0/tournaments
// ([{uuid, description, rounds}]), /api/v1.0/tournament/{uuid} ({uuid,
// name, …, rounds, eboards: the serials, board 1 first}) and
// /api/v1.0/round/{uuid}/{n} ({nr, date, pairings: [{nr, uuid, white,
// black (fname, mname, lname, title, federation, gender, fideid), live,
// result (WHITEWIN, BLACKWIN, DRAW, … or null)}]}), rounds counted from 0
// in the path as that tool asks for them (how LiveChess counts them is not
// documented).
//
// Each board keeps its current game and clock; a test changes them (Push,
// SetStart, SetClock), sends a board-only change (Lift), changes a
// board's state or the list of boards, refuses subscriptions, sends raw
// frames, or drops every connection (a LiveChess that quits).
package dgttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/threefold-chess/threefold/rules"
)

// Clock is a board's clock as LiveChess reports it: seconds left for each
// side, which side's clock runs (nil: stopped; true: White's), and when it
// was read (Unix milliseconds).
type Clock struct {
	White int   `json:"white"`
	Black int   `json:"black"`
	Run   *bool `json:"run"`
	Time  int64 `json:"time"`
}

type board struct {
	serial  string
	state   string // "" is null: not activated
	start   string // FEN the moves start from
	san     []string
	clock   *Clock
	refuse  string // answer subscriptions with this error
	flipped bool
	pieces  string // the pieces shown, when not those the moves reach (SetPieces)
}

// Tournament is an event in LiveChess: its boards (serials, board 1
// first) and its rounds.
type Tournament struct {
	UUID, Name string
	Boards     []string
	Rounds     []Round
}

// Round is one round's pairings, board 1 first.
type Round struct{ Pairings []Pairing }

// Pairing is one game of a round. Result is LiveChess's (WHITEWIN,
// BLACKWIN, DRAW, WHITEFORFAIT, BLACKFORFAIT), "" for none.
type Pairing struct {
	White, Black Player
	Live         bool
	Result       string
}

// Player is a player as LiveChess names one.
type Player struct{ First, Middle, Last, Title, FideID string }

// placement is the board field of the position the board's moves reach
// (as far as they can be played; LiveChess reports what the pieces show).
func (b *board) placement() string {
	if b.pieces != "" {
		return b.pieces
	}
	pos, err := rules.ParseFEN(b.start)
	if err != nil {
		pos = rules.StartPosition()
	}
	for _, tok := range b.san {
		m, err := pos.ParseSAN(tok)
		if err != nil {
			continue // a duplicate or a misread: the pieces did not move for it
		}
		pos.Play(m)
	}
	return strings.Fields(pos.FEN())[0]
}

// Server is a fake LiveChess server on a loopback address.
type Server struct {
	srv      *httptest.Server
	upgrader websocket.Upgrader

	mu          sync.Mutex
	boards      []*board // in the order of the eboards list
	tournaments []Tournament
	conns       map[*conn]bool
	subCh       chan string
	callsCh     chan string
}

type conn struct {
	ws   *websocket.Conn
	wmu  sync.Mutex
	subs map[string]int // serial -> feed id
}

func (c *conn) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteJSON(v)
}

// NewServer starts a fake with the given boards (serial numbers), each
// ACTIVE with an empty game from the standard start. Close it when done.
func NewServer(serials ...string) *Server {
	s := &Server{conns: map[*conn]bool{}, subCh: make(chan string, 1024), callsCh: make(chan string, 1024)}
	for _, serial := range serials {
		s.boards = append(s.boards, &board{serial: serial, state: "ACTIVE", start: rules.StartFEN})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1.0", s.serve)
	mux.HandleFunc("GET /api/v1.0/tournaments", s.serveTournaments)
	mux.HandleFunc("GET /api/v1.0/tournament/{uuid}", s.serveTournament)
	mux.HandleFunc("GET /api/v1.0/round/{uuid}/{n}", s.serveRound)
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the websocket URL of the API (ws://127.0.0.1:port/api/v1.0).
func (s *Server) URL() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/api/v1.0"
}

// Close drops every connection and stops the server.
func (s *Server) Close() {
	s.DropConnections()
	s.srv.Close()
}

// Subscribed delivers the serial of every board a client subscribes to
// (whether the subscription is accepted or refused).
func (s *Server) Subscribed() <-chan string { return s.subCh }

// Calls delivers the name of every call a client makes ("eboards",
// "subscribe", …), in order.
func (s *Server) Calls() <-chan string { return s.callsCh }

func (s *Server) board(serial string) *board {
	for _, b := range s.boards {
		if b.serial == serial {
			return b
		}
	}
	return nil
}

// boardLocked returns the board, adding it (ACTIVE) if it is not listed.
func (s *Server) boardLocked(serial string) *board {
	b := s.board(serial)
	if b == nil {
		b = &board{serial: serial, state: "ACTIVE", start: rules.StartFEN}
		s.boards = append(s.boards, b)
	}
	return b
}

// Push sets a board's move list (the whole game so far, from its start)
// and sends it to every client subscribed to the board.
func (s *Server) Push(serial string, san ...string) {
	s.mu.Lock()
	b := s.boardLocked(serial)
	b.san, b.pieces = slices.Clone(san), ""
	s.mu.Unlock()
	s.sendFeed(serial, true)
}

// SetPieces sends a board's move list with pieces that are not those the
// moves reach (placement is a FEN's board field): kings put in the centre
// to show a result, pieces knocked over.
func (s *Server) SetPieces(serial, placement string, san ...string) {
	s.mu.Lock()
	b := s.boardLocked(serial)
	b.san, b.pieces = slices.Clone(san), placement
	s.mu.Unlock()
	s.sendFeed(serial, true)
}

// SetTournaments sets LiveChess's tournaments.
func (s *Server) SetTournaments(ts ...Tournament) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tournaments = slices.Clone(ts)
}

// SetStart sets the position a board's moves start from (a set-up
// position, a Chess960 start) with its move list, and sends it.
func (s *Server) SetStart(serial, fen string, san ...string) {
	s.mu.Lock()
	b := s.boardLocked(serial)
	b.start, b.san, b.pieces = fen, slices.Clone(san), ""
	s.mu.Unlock()
	s.sendFeed(serial, true)
}

// SetClock sets a board's clock and sends it, with the board's game.
func (s *Server) SetClock(serial string, c Clock) {
	s.mu.Lock()
	b := s.boardLocked(serial)
	cp := c
	b.clock = &cp
	s.mu.Unlock()
	s.sendFeed(serial, true)
}

// Lift sends a board-only change: the board and clock, no move list (as
// LiveChess reports a piece lifted, before it knows a move).
func (s *Server) Lift(serial string) { s.sendFeed(serial, false) }

// SetState sets a board's state in the eboards list ("" is null: not
// activated).
func (s *Server) SetState(serial, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.boardLocked(serial).state = state
}

// AddBoard adds a board to the eboards list (ACTIVE, empty game).
func (s *Server) AddBoard(serial string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.boardLocked(serial)
}

// RemoveBoard takes a board off the eboards list.
func (s *Server) RemoveBoard(serial string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.boards = slices.DeleteFunc(s.boards, func(b *board) bool { return b.serial == serial })
}

// Refuse makes subscriptions to a board answer an error with message ("":
// accept them again).
func (s *Server) Refuse(serial, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.boardLocked(serial).refuse = message
}

// SendRaw sends one text frame to every connected client.
func (s *Server) SendRaw(frame string) {
	for _, c := range s.connections() {
		c.wmu.Lock()
		c.ws.WriteMessage(websocket.TextMessage, []byte(frame))
		c.wmu.Unlock()
	}
}

func (s *Server) connections() []*conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*conn
	for c := range s.conns {
		out = append(out, c)
	}
	return out
}

// DropConnections closes every client connection, as a LiveChess that
// quits or crashes does.
func (s *Server) DropConnections() {
	s.mu.Lock()
	var targets []*conn
	for c := range s.conns {
		targets = append(targets, c)
	}
	s.conns = map[*conn]bool{}
	s.mu.Unlock()
	for _, c := range targets {
		c.ws.Close()
	}
}

func now() int64 { return time.Now().UnixMilli() }

// eboardEvent is the param of a feed message; withMoves adds start and san
// (a first message after subscribing has neither).
func (b *board) eboardEvent(withMoves bool) map[string]any {
	p := map[string]any{"serialnr": b.serial, "flipped": b.flipped, "board": b.placement()}
	if b.clock != nil {
		p["clock"] = *b.clock
	}
	if withMoves {
		p["start"], p["san"], p["match"] = b.start, append([]string{}, b.san...), true
	}
	return p
}

func (s *Server) sendFeed(serial string, withMoves bool) {
	s.mu.Lock()
	b := s.board(serial)
	if b == nil {
		s.mu.Unlock()
		return
	}
	param := b.eboardEvent(withMoves)
	targets := map[*conn]int{}
	for c := range s.conns {
		if id, ok := c.subs[serial]; ok {
			targets[c] = id
		}
	}
	s.mu.Unlock()
	for c, id := range targets {
		c.write(map[string]any{"response": "feed", "id": id, "param": param, "time": now()})
	}
}

type request struct {
	ID    json.Number `json:"id"`
	Call  string      `json:"call"`
	Param struct {
		Feed  string      `json:"feed"`
		ID    json.Number `json:"id"`
		Param struct {
			Serial string `json:"serialnr"`
		} `json:"param"`
	} `json:"param"`
}

func errorReply(id json.Number, message string) map[string]any {
	return map[string]any{"response": "error", "id": id, "param": map[string]any{"message": message, "stacktrace": nil}, "time": now()}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws, subs: map[string]int{}}
	s.mu.Lock()
	s.conns[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		ws.Close()
	}()
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var req request
		if json.Unmarshal(data, &req) != nil {
			continue
		}
		select {
		case s.callsCh <- req.Call:
		default:
		}
		switch req.Call {
		case "eboards":
			s.mu.Lock()
			list := make([]map[string]any, 0, len(s.boards))
			for _, b := range s.boards {
				e := map[string]any{"serialnr": b.serial, "source": nil, "state": nil, "battery": nil, "comment": nil,
					"board": b.placement(), "flipped": b.flipped, "clock": nil}
				if b.state != "" {
					e["state"], e["source"] = b.state, "COM3"
				}
				if b.clock != nil {
					e["clock"] = *b.clock
				}
				list = append(list, e)
			}
			s.mu.Unlock()
			c.write(map[string]any{"response": "call", "id": req.ID, "param": list, "time": now()})
		case "subscribe":
			serial := req.Param.Param.Serial
			select {
			case s.subCh <- serial:
			default:
			}
			s.mu.Lock()
			b := s.board(serial)
			var refuse string
			var first map[string]any
			switch {
			case req.Param.Feed != "eboardevent":
				refuse = "Unknown feed " + req.Param.Feed
			case b == nil:
				refuse = "EBoard " + serial + " not found"
			case b.refuse != "":
				refuse = b.refuse
			default:
				id, _ := req.Param.ID.Int64()
				c.subs[serial] = int(id)
				first = b.eboardEvent(false)
			}
			s.mu.Unlock()
			if refuse != "" {
				c.write(errorReply(req.ID, refuse))
				continue
			}
			c.write(map[string]any{"response": "call", "id": req.ID, "param": nil, "time": now()})
			c.write(map[string]any{"response": "feed", "id": req.Param.ID, "param": first, "time": now()})
		default:
			c.write(errorReply(req.ID, "Unknown call "+req.Call))
		}
	}
}

func (s *Server) tournament(uuid string) (Tournament, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tournaments {
		if t.UUID == uuid {
			return t, true
		}
	}
	return Tournament{}, false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) serveTournaments(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	list := make([]map[string]any, 0, len(s.tournaments))
	for _, t := range s.tournaments {
		list = append(list, map[string]any{"uuid": t.UUID, "description": t.Name, "rounds": len(t.Rounds)})
	}
	s.mu.Unlock()
	writeJSON(w, list)
}

func (s *Server) serveTournament(w http.ResponseWriter, r *http.Request) {
	t, ok := s.tournament(r.PathValue("uuid"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	writeJSON(w, map[string]any{"uuid": t.UUID, "name": t.Name, "description": t.Name, "location": "", "country": "",
		"rounds": len(t.Rounds), "eboards": t.Boards})
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (p Player) json() map[string]any {
	return map[string]any{"fname": nullable(p.First), "mname": nullable(p.Middle), "lname": nullable(p.Last),
		"title": nullable(p.Title), "federation": nil, "gender": nil, "fideid": nullable(p.FideID)}
}

func (s *Server) serveRound(w http.ResponseWriter, r *http.Request) {
	t, ok := s.tournament(r.PathValue("uuid"))
	n, err := strconv.Atoi(r.PathValue("n"))
	if !ok || err != nil || n < 0 || n >= len(t.Rounds) {
		http.NotFound(w, r)
		return
	}
	pairings := []map[string]any{}
	for i, p := range t.Rounds[n].Pairings {
		pairings = append(pairings, map[string]any{"nr": i + 1, "uuid": fmt.Sprintf("%s-%d-%d", t.UUID, n, i+1),
			"white": p.White.json(), "black": p.Black.json(), "live": p.Live, "result": nullable(p.Result)})
	}
	writeJSON(w, map[string]any{"nr": n + 1, "date": nil, "pairings": pairings})
}
