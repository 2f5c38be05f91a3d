package listener

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/rules"
)

// DGTSource follows every e-board of a DGT LiveChess 2 server over its local
// websocket API (ws://localhost:1982/api/v1.0): it asks for the boards
// ("eboards"), subscribes to the "eboardevent" feed of each, and turns each
// feed message's SAN list (the board's whole game so far) into a snapshot.
// LiveChess may report the same move twice and several moves in one
// message; a repeated token that cannot be played is dropped as a
// duplicate. When a board's list starts over (a new game set up), the
// board's next game gets a new id (serial/2, serial/3, …, counted for the
// life of the source). A server that goes away is reconnected with backoff;
// the first messages after a reconnect are full snapshots again. Games are
// over the board: snapshots carry threefold.AudienceArbiters.
type DGTSource struct {
	URL    string // ws://host:port/api/v1.0
	Clock  clock.Clock
	Logger *slog.Logger
	Dialer *websocket.Dialer // default websocket.DefaultDialer
	// MaxFailures ends Run with an error after this many connection attempts
	// in a row that fail without ever reaching the server; 0 retries forever.
	MaxFailures int
	// OnState, if set, is told when the connection to the server is made
	// (connected) and when it is lost or cannot be made (with the reason).
	OnState func(connected bool, err error)
}

// Name implements Source.
func (s *DGTSource) Name() string { return "dgt " + s.URL }

// The keep-alive of the DGT connection.
const (
	dgtPing    = 30 * time.Second
	dgtSilence = 95 * time.Second
)

type dgtMessage struct {
	Response string          `json:"response"`
	ID       json.Number     `json:"id"`
	Param    json.RawMessage `json:"param"`
}

type dgtBoard struct {
	Serial string `json:"serialnr"`
	State  string `json:"state"`
}

type dgtFeed struct {
	Serial string   `json:"serialnr"`
	Board  string   `json:"board"`
	SAN    []string `json:"san"`
}

// dgtGame is the state of one board: the raw list last reported, the list
// after removing duplicates, and the position it reaches.
type dgtGame struct {
	gen   int
	raw   []string
	moves []string
	pos   rules.Position
	stuck bool // a token could not be played: later tokens are passed on as they are
}

// Run implements Source.
func (s *DGTSource) Run(ctx context.Context, emit Emit) error {
	clk := clock.Or(s.Clock)
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") {
		return fmt.Errorf("dgt: bad url %q: want ws://host:port/api/v1.0", s.URL)
	}
	boards := map[string]*dgtGame{}
	bo := backoff.Backoff{Policy: backoff.Policy{Initial: time.Second, Max: 30 * time.Second, NoJitter: true}}
	failures := 0
	for {
		reached, err := s.session(ctx, clk, u.Host, boards, emit, log)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var stop stopError
		if errors.As(err, &stop) {
			return stop.err
		}
		if reached {
			failures = 0
			bo.Reset()
		} else {
			failures++
			if s.MaxFailures > 0 && failures >= s.MaxFailures {
				return fmt.Errorf("dgt: %s unreachable after %d attempts: %w", s.URL, failures, err)
			}
		}
		d := bo.Next()
		if s.OnState != nil {
			s.OnState(false, err)
		}
		log.Warn("dgt: connection lost; reconnecting", "url", s.URL, "err", err, "in", d)
		if err := clock.Sleep(ctx, clk, d); err != nil {
			return err
		}
	}
}

// stopError carries an error returned by emit: it ends Run.
type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }

func (s *DGTSource) session(ctx context.Context, clk clock.Clock, host string, boards map[string]*dgtGame, emit Emit, log *slog.Logger) (reached bool, err error) {
	d := s.Dialer
	if d == nil {
		d = websocket.DefaultDialer
	}
	conn, _, err := d.DialContext(ctx, s.URL, nil)
	if err != nil {
		return false, fmt.Errorf("dgt: dial: %w", err)
	}
	if s.OnState != nil {
		s.OnState(true, nil)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	var wmu sync.Mutex // gorilla allows one writer at a time
	// A silent server is detected: every dgtPing a ping is sent, and a read
	// that sees nothing (not even the pong) for dgtSilence fails.
	conn.SetReadDeadline(time.Now().Add(dgtSilence))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(dgtSilence)) })
	wg.Add(1)
	go func() { // closes the connection when ctx ends, so ReadMessage returns; sends the pings
		defer wg.Done()
		// Wall-clock time: the keep-alive is the network's business, not
		// something a test steps through.
		ping := time.NewTicker(dgtPing)
		defer ping.Stop()
		for {
			select {
			case <-ctx.Done():
				conn.Close()
				return
			case <-done:
				conn.Close()
				return
			case <-ping.C:
				wmu.Lock()
				conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second))
				wmu.Unlock()
			}
		}
	}()
	defer func() { close(done); wg.Wait() }()

	conn.SetReadLimit(1 << 20)
	nextID := 1
	call := func(v map[string]any) error {
		v["id"] = nextID
		nextID++
		wmu.Lock()
		defer wmu.Unlock()
		return conn.WriteJSON(v)
	}
	if err := call(map[string]any{"call": "eboards"}); err != nil {
		return false, fmt.Errorf("dgt: eboards: %w", err)
	}
	subs := map[string]string{} // subscription id -> serial
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			return reached, fmt.Errorf("dgt: read: %w", err)
		}
		conn.SetReadDeadline(time.Now().Add(dgtSilence))
		reached = true
		var m dgtMessage
		if err := json.Unmarshal(data, &m); err != nil {
			log.Warn("dgt: malformed message skipped", "url", s.URL, "err", err)
			continue
		}
		switch {
		case m.Response == "call" && m.ID.String() == "1":
			var list []dgtBoard
			if err := json.Unmarshal(m.Param, &list); err != nil {
				log.Warn("dgt: malformed eboards reply", "url", s.URL, "err", err)
				continue
			}
			for _, b := range list {
				if b.Serial == "" {
					continue
				}
				subID := strconv.Itoa(len(subs) + 1)
				subs[subID] = b.Serial
				req := map[string]any{"call": "subscribe", "param": map[string]any{
					"feed": "eboardevent", "id": len(subs), "param": map[string]any{"serialnr": b.Serial}}}
				if err := call(req); err != nil {
					return true, fmt.Errorf("dgt: subscribe %s: %w", b.Serial, err)
				}
				log.Info("dgt: following board", "url", s.URL, "serial", b.Serial, "state", b.State)
			}
		case m.Response == "feed":
			var f dgtFeed
			if err := json.Unmarshal(m.Param, &f); err != nil || f.SAN == nil {
				continue // not a move list (clock or board-only event)
			}
			serial := f.Serial
			if serial == "" {
				serial = subs[m.ID.String()]
			}
			if serial == "" {
				continue
			}
			g := boards[serial]
			if g == nil {
				g = &dgtGame{gen: 1, pos: rules.StartPosition()}
				boards[serial] = g
			}
			changed, newGame := g.update(f.SAN)
			if newGame {
				log.Info("dgt: new game on board", "url", s.URL, "serial", serial, "game", g.gen)
			}
			if !changed {
				continue
			}
			id := host + "/" + serial
			if g.gen > 1 {
				id += "/" + strconv.Itoa(g.gen)
			}
			err := emit(threefold.GameState{
				Game:       threefold.GameRef{Site: "dgt", ID: id},
				Source:     s.Name(),
				Notation:   rules.SAN,
				Moves:      g.moves,
				Result:     "*",
				ObservedAt: clk.Now(),
				Audience:   threefold.AudienceArbiters,
			})
			if err != nil {
				return true, stopError{err}
			}
		}
	}
}

// update takes a board's reported SAN list. It returns whether the
// de-duplicated move list changed, and whether a new game started.
func (g *dgtGame) update(raw []string) (changed, newGame bool) {
	k := 0
	for k < len(g.raw) && k < len(raw) && g.raw[k] == raw[k] {
		k++
	}
	if k == len(g.raw) && len(raw) == len(g.raw) {
		return false, false // the same list again
	}
	if k < len(g.raw) {
		// Not an extension: a takeback on the board, or a new game.
		if len(raw) == 0 || (k == 0 && len(g.moves) > 0) {
			g.gen++
			newGame = true
		}
		old := g.moves
		g.raw, g.moves, g.pos, g.stuck = nil, nil, rules.StartPosition(), false
		g.add(raw)
		return newGame || !slices.Equal(old, g.moves), newGame
	}
	before := len(g.moves)
	g.add(raw[len(g.raw):])
	return len(g.moves) != before, false
}

func (g *dgtGame) add(toks []string) {
	for _, tok := range toks {
		g.raw = append(g.raw, tok)
		if g.stuck {
			g.moves = append(g.moves, tok)
			continue
		}
		m, err := g.pos.ParseSAN(tok)
		if err != nil {
			if n := len(g.moves); n > 0 && g.moves[n-1] == tok {
				continue // LiveChess reported the same move twice
			}
			g.stuck = true // the watcher will flag it
			g.moves = append(g.moves, tok)
			continue
		}
		g.pos.Play(m)
		g.moves = append(g.moves, tok)
	}
}
