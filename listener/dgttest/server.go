// Package dgttest is a fake DGT LiveChess 2 server for tests: it speaks the
// websocket API the lila DGT connector uses (an "eboards" call, "subscribe"
// to the "eboardevent" feed of a board, feed messages carrying the board's
// SAN list), keeps each board's current move list and sends it to a client
// when it subscribes, so a test never races the connection. It can resend a
// list (LiveChess reports moves twice), send raw frames, and drop every
// connection (a server that goes away).
package dgttest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
)

// Server is a fake LiveChess server on a loopback address.
type Server struct {
	srv      *httptest.Server
	upgrader websocket.Upgrader

	mu     sync.Mutex
	boards []string            // serials, in order
	lists  map[string][]string // current SAN list per serial
	conns  map[*conn]bool
	subs   int // subscriptions ever made
	subCh  chan string
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

// NewServer starts a fake with the given boards (serial numbers), each with
// an empty move list. Close it when done.
func NewServer(serials ...string) *Server {
	s := &Server{lists: map[string][]string{}, conns: map[*conn]bool{}, subCh: make(chan string, 1024)}
	s.boards = append(s.boards, serials...)
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1.0", s.serve)
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

// Subscribed delivers the serial of every board a client subscribes to.
func (s *Server) Subscribed() <-chan string { return s.subCh }

// Push sets a board's SAN list (the whole game so far) and sends it to
// every subscribed client.
func (s *Server) Push(serial string, san ...string) {
	s.mu.Lock()
	list := append([]string{}, san...)
	s.lists[serial] = list
	targets := map[*conn]int{}
	for c := range s.conns {
		if id, ok := c.subs[serial]; ok {
			targets[c] = id
		}
	}
	s.mu.Unlock()
	for c, id := range targets {
		c.write(feed(id, serial, list))
	}
}

// SendRaw sends one text frame to every connected client.
func (s *Server) SendRaw(frame string) {
	s.mu.Lock()
	var targets []*conn
	for c := range s.conns {
		targets = append(targets, c)
	}
	s.mu.Unlock()
	for _, c := range targets {
		c.wmu.Lock()
		c.ws.WriteMessage(websocket.TextMessage, []byte(frame))
		c.wmu.Unlock()
	}
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

func feed(id int, serial string, san []string) map[string]any {
	return map[string]any{"response": "feed", "id": id, "param": map[string]any{
		"serialnr": serial, "board": "", "san": san}}
}

type request struct {
	ID    int    `json:"id"`
	Call  string `json:"call"`
	Param struct {
		Feed  string `json:"feed"`
		ID    int    `json:"id"`
		Param struct {
			Serial string `json:"serialnr"`
		} `json:"param"`
	} `json:"param"`
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
		switch req.Call {
		case "eboards":
			s.mu.Lock()
			var list []map[string]any
			for _, b := range s.boards {
				list = append(list, map[string]any{"serialnr": b, "state": "ACTIVE"})
			}
			s.mu.Unlock()
			c.write(map[string]any{"response": "call", "id": req.ID, "param": list})
		case "subscribe":
			serial := req.Param.Param.Serial
			s.mu.Lock()
			c.subs[serial] = req.Param.ID
			list := s.lists[serial]
			s.subs++
			s.mu.Unlock()
			c.write(map[string]any{"response": "call", "id": req.ID, "param": nil})
			if list != nil {
				c.write(feed(req.Param.ID, serial, list))
			}
			select {
			case s.subCh <- serial:
			default:
			}
		}
	}
}
