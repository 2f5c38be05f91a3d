package listener

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/rules"
)

// DGTSource follows the e-boards of a DGT LiveChess 2 server over its local
// websocket API (ws://localhost:1982/api/v1.0).
//
// It reads the list of boards ("eboards") when it connects and again every
// BoardsEvery, and subscribes to the "eboardevent" feed of every board
// LiveChess reports live (ACTIVE, DELAYED or NOTRESPONDING); boards added
// later are followed when they appear, boards switched off (INACTIVE) or
// never activated are not. A subscription LiveChess refuses ("response":
// "error") is logged, shown as failing in the boards' health (OnBoards, and
// the state kept for `threefold status`) and asked again at the next read
// of the list.
//
// A feed message carries the board's whole reconstructed game: the start
// position ("start") and every move ("san"). The first message after
// subscribing carries only the pieces and the clock: when they show the
// position of the game known for the board (kept across restarts), that
// game is shown at once, and a board set up at the start shows a game with
// no move yet. LiveChess may report a move twice, several moves in one
// message, and moves misread while pieces are in the air that it corrects
// a moment later: a change is taken only once it has stood for Settle, so a
// change superseded within the hold is never seen (the watcher withdraws
// the alerts of a correction that comes later).
//
// Each game has a stable id: host/serial/first-seen (UTC, to the second),
// kept with the source's state (State), so that a board restarted mid-game
// keeps its game id. A new game starts when the board goes back to an empty
// move list, when the start position changes, or when the list no longer
// shares its first move with a game of more than two plies (a corrected
// first move is the same game); the game before is then reported finished.
// A server that goes away is reconnected with backoff. Games are over the
// board: their states carry AudienceArbiters.
type DGTSource struct {
	URL    string // ws://host:port/api/v1.0
	Clock  clock.Clock
	Logger *slog.Logger
	Dialer *websocket.Dialer // default websocket.DefaultDialer
	// MaxFailures ends Run with an error after this many connection attempts
	// in a row that fail without ever reaching the server; 0 retries forever.
	MaxFailures int
	// Settle is how long a board's change must stand before it is taken (0:
	// at once).
	Settle time.Duration
	// BoardsEvery is how often the list of boards is read again; 0 means
	// DefaultDGTBoardsEvery.
	BoardsEvery time.Duration
	// State, if set, keeps the games on the boards (and their health)
	// across restarts.
	State StateKeeper
	// OnState, if set, is told when the connection to the server is made
	// (connected) and when it is lost or cannot be made (with the reason).
	OnState func(connected bool, err error)
	// OnBoards, if set, is told the health of every board, each time a
	// message of LiveChess changes it.
	OnBoards func([]threefold.BoardStatus)
	// HTTPClient reads LiveChess's tournaments (board numbers, players,
	// results); default a client with a 10 s timeout.
	HTTPClient *http.Client
}

// DefaultDGTBoardsEvery is how often a DGT source reads the list of boards
// again by default.
const DefaultDGTBoardsEvery = 30 * time.Second

// dgtMaxCorrection is the most plies a game may have for a list that
// changes its first move to be a correction rather than a new game.
const dgtMaxCorrection = 2

// Name implements Source.
func (s *DGTSource) Name() string { return english.Sprintf(i18n.SourceDGT, s.URL) }

// The keep-alive of the DGT connection.
const (
	dgtPing    = 30 * time.Second
	dgtSilence = 95 * time.Second
)

// dgtMessage is any message of LiveChess.
type dgtMessage struct {
	Response string          `json:"response"` // "call", "feed" or "error"
	ID       json.Number     `json:"id"`       // the call's id, or the feed's
	Param    json.RawMessage `json:"param"`
}

// dgtEBoard is one entry of the eboards list (EBoardResponse).
type dgtEBoard struct {
	Serial string  `json:"serialnr"`
	State  *string `json:"state"` // null: not activated
	Board  string  `json:"board"`
}

// dgtFeed is the param of a feed message (EBoardEventResponse). San is nil
// in a message without a move list.
type dgtFeed struct {
	Serial string    `json:"serialnr"`
	Board  string    `json:"board"`
	Clock  *dgtClock `json:"clock"`
	Start  string    `json:"start"`
	SAN    []string  `json:"san"`
}

// dgtClock is a board's clock: the seconds left for each side.
type dgtClock struct {
	White *float64 `json:"white"`
	Black *float64 `json:"black"`
}

func (c *dgtClock) reading() *threefold.ClockReading {
	if c == nil || c.White == nil || c.Black == nil {
		return nil
	}
	return &threefold.ClockReading{WhiteS: *c.White, BlackS: *c.Black}
}

// dgtError is the param of an error response.
type dgtError struct {
	Message string `json:"message"`
}

// dgtBoard is what the source knows of one board.
type dgtBoard struct {
	serial    string
	state     string // LiveChess's, "" for null
	listed    bool   // in the last list read
	placement string
	clock     *threefold.ClockReading // the clock last reported
	lastSeen  time.Time
	refused   string   // LiveChess's error to the last subscription, "" if none
	entry     dgtEntry // what LiveChess's tournaments say of the board
	// per connection
	subscribed  bool
	subscribing bool
	// the game, and a change not yet taken
	game     *dgtGame
	pending  *dgtFeed
	settleAt time.Time
}

// dgtState is what a DGT source keeps across restarts: per board, its
// health (what `threefold status` shows) and its game.
type dgtState struct {
	Boards []dgtSavedBoard `json:"boards"`
}

type dgtSavedBoard struct {
	threefold.BoardStatus
	FirstSeen time.Time                 `json:"first_seen,omitzero"`
	Start     string                    `json:"start,omitempty"`
	Moves     []string                  `json:"moves,omitempty"`  // LiveChess's list, as taken
	Clocks    []*threefold.ClockReading `json:"clocks,omitempty"` // after each ply without duplicates
	Finished  bool                      `json:"finished,omitempty"`
	Result    string                    `json:"result,omitempty"`
}

// dgtRun is the state of one Run, across connections.
type dgtRun struct {
	s      *DGTSource
	clk    clock.Clock
	log    *slog.Logger
	host   string
	emit   Emit
	boards map[string]*dgtBoard
	saved  []byte // the state last saved
}

// Run implements Source.
func (s *DGTSource) Run(ctx context.Context, emit Emit) error {
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") {
		return fmt.Errorf("dgt: bad url %q: want ws://host:port/api/v1.0", s.URL)
	}
	r := &dgtRun{s: s, clk: clock.Or(s.Clock), log: s.Logger, host: u.Host, emit: emit, boards: map[string]*dgtBoard{}}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.load(ctx)
	bo := backoff.Backoff{Policy: backoff.Policy{Initial: time.Second, Max: 30 * time.Second, NoJitter: true}}
	failures := 0
	for {
		reached, err := r.session(ctx)
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
		r.log.Warn("dgt: connection lost; reconnecting", "url", s.URL, "err", err, "in", d)
		if err := clock.Sleep(ctx, r.clk, d); err != nil {
			return err
		}
	}
}

// stopError carries an error returned by emit: it ends Run.
type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }

// load takes the games kept by an earlier run.
func (r *dgtRun) load(ctx context.Context) {
	if r.s.State == nil {
		return
	}
	data, err := r.s.State.LoadState(ctx)
	if err != nil {
		r.log.Warn("dgt: the games kept by the last run could not be read; games already on the boards get new ids", "url", r.s.URL, "err", err)
		return
	}
	if len(data) == 0 {
		return
	}
	var st dgtState
	if err := json.Unmarshal(data, &st); err != nil {
		r.log.Warn("dgt: the games kept by the last run are unreadable; games already on the boards get new ids", "url", r.s.URL, "err", err)
		return
	}
	r.saved = data
	for _, sb := range st.Boards {
		if sb.Serial == "" {
			continue
		}
		b := r.board(sb.Serial)
		b.state, b.placement = sb.State, sb.Placement
		if sb.Game == "" {
			continue
		}
		g := newDGTGame(sb.Game, sb.FirstSeen, sb.Start)
		g.add(sb.Moves, nil)
		copy(g.clocks, sb.Clocks)
		g.finished, g.result = sb.Finished, sb.Result
		b.game = g
	}
}

func (r *dgtRun) board(serial string) *dgtBoard {
	b := r.boards[serial]
	if b == nil {
		b = &dgtBoard{serial: serial}
		r.boards[serial] = b
	}
	return b
}

// dgtSession is one connection to LiveChess.
type dgtSession struct {
	*dgtRun
	ctx    context.Context
	conn   *websocket.Conn
	wmu    sync.Mutex // gorilla allows one writer at a time
	nextID int64
	calls  map[int64]dgtCall        // calls waiting for their answer, by id
	feeds  map[int64]string         // feed id -> serial
	settle clock.Timer              // fires when the earliest pending change is due (nil before the first)
	due    time.Time                // when settle fires (zero: stopped)
	list   clock.Timer              // fires when the list of boards is to be read again
	every  time.Duration            // BoardsEvery
	frames chan dgtFrame            // from the reader
	done   chan struct{}            // closed when the session ends
	wg     sync.WaitGroup           // the reader and the keep-alive
	subFor map[string]int64         // serial -> feed id asked for
	roster chan map[string]dgtEntry // LiveChess's tournaments, read in the background
	asking bool                     // a read of the tournaments is under way
	reads  context.Context          // the reads in the background; cancelled when the session ends
	cancel context.CancelFunc
}

type dgtCall struct {
	kind   string // "eboards" or "subscribe"
	serial string
}

type dgtFrame struct {
	data []byte
	err  error
}

func (r *dgtRun) session(ctx context.Context) (reached bool, err error) {
	d := r.s.Dialer
	if d == nil {
		d = websocket.DefaultDialer
	}
	conn, _, err := d.DialContext(ctx, r.s.URL, nil)
	if err != nil {
		return false, fmt.Errorf("dgt: dial: %w", err)
	}
	if r.s.OnState != nil {
		r.s.OnState(true, nil)
	}
	s := &dgtSession{dgtRun: r, ctx: ctx, conn: conn, calls: map[int64]dgtCall{}, feeds: map[int64]string{},
		subFor: map[string]int64{}, frames: make(chan dgtFrame), done: make(chan struct{}), every: r.s.BoardsEvery,
		roster: make(chan map[string]dgtEntry, 1)}
	s.reads, s.cancel = context.WithCancel(ctx)
	if s.every <= 0 {
		s.every = DefaultDGTBoardsEvery
	}
	for _, b := range r.boards {
		b.subscribed, b.subscribing = false, false
	}
	s.start()
	defer s.stop()
	if err := s.call(dgtCall{kind: "eboards"}, nil); err != nil {
		return false, err
	}
	s.armSettle()
	for {
		select {
		case <-ctx.Done():
			return reached, ctx.Err()
		case f := <-s.frames:
			if f.err != nil {
				return reached, fmt.Errorf("dgt: read: %w", f.err)
			}
			reached = true
			if err := s.handle(f.data); err != nil {
				return true, err
			}
		case <-s.settleC():
			s.due = time.Time{}
			if err := s.settleDue(); err != nil {
				return reached, err
			}
			s.armSettle()
		case <-s.list.C():
			if err := s.call(dgtCall{kind: "eboards"}, nil); err != nil {
				return reached, err
			}
			s.list.Reset(s.every)
		case entries := <-s.roster:
			s.asking = false
			if err := s.takeRoster(entries); err != nil {
				return reached, err
			}
		}
	}
}

// start starts the reader, the keep-alive and the timers.
func (s *dgtSession) start() {
	conn := s.conn
	conn.SetReadLimit(1 << 20)
	// A silent server is detected: every dgtPing a ping is sent, and a read
	// that sees nothing (not even the pong) for dgtSilence fails. Wall-clock
	// time: the keep-alive is the network's business, not something a test
	// steps through.
	conn.SetReadDeadline(time.Now().Add(dgtSilence))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(dgtSilence)) })
	s.list = s.clk.NewTimer(s.every)
	s.wg.Add(2)
	go func() { // closes the connection when the session ends; sends the pings
		defer s.wg.Done()
		ping := time.NewTicker(dgtPing)
		defer ping.Stop()
		for {
			select {
			case <-s.ctx.Done():
				conn.Close()
				return
			case <-s.done:
				conn.Close()
				return
			case <-ping.C:
				s.wmu.Lock()
				conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second))
				s.wmu.Unlock()
			}
		}
	}()
	go func() { // reads the frames
		defer s.wg.Done()
		for {
			_, data, err := conn.ReadMessage()
			if err == nil {
				conn.SetReadDeadline(time.Now().Add(dgtSilence))
			}
			select {
			case s.frames <- dgtFrame{data, err}:
			case <-s.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
}

func (s *dgtSession) stop() {
	s.cancel()
	close(s.done)
	s.wg.Wait()
	if s.settle != nil {
		s.settle.Stop()
	}
	s.list.Stop()
}

// settleC is the settle timer's channel (nil, never ready, before the
// first pending change).
func (s *dgtSession) settleC() <-chan time.Time {
	if s.settle == nil {
		return nil
	}
	return s.settle.C()
}

// call sends a call; param is its param (nil for none).
func (s *dgtSession) call(c dgtCall, param any) error {
	s.nextID++
	id := s.nextID
	s.calls[id] = c
	v := map[string]any{"id": id, "call": c.kind}
	if param != nil {
		v["param"] = param
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.conn.WriteJSON(v); err != nil {
		return fmt.Errorf("dgt: %s: %w", c.kind, err)
	}
	return nil
}

func (s *dgtSession) subscribe(b *dgtBoard) error {
	feed, ok := s.subFor[b.serial]
	if !ok {
		feed = int64(len(s.subFor) + 1)
		s.subFor[b.serial] = feed
		s.feeds[feed] = b.serial
	}
	b.subscribing = true
	return s.call(dgtCall{kind: "subscribe", serial: b.serial},
		map[string]any{"feed": "eboardevent", "id": feed, "param": map[string]any{"serialnr": b.serial}})
}

// handle takes one message of LiveChess.
func (s *dgtSession) handle(data []byte) error {
	var m dgtMessage
	if err := json.Unmarshal(data, &m); err != nil {
		s.log.Warn("dgt: malformed message skipped", "url", s.s.URL, "err", err)
		return nil
	}
	id, idErr := m.ID.Int64()
	switch m.Response {
	case "call":
		c, ok := s.calls[id]
		if idErr != nil || !ok {
			return nil
		}
		delete(s.calls, id)
		switch c.kind {
		case "eboards":
			var list []dgtEBoard
			if err := json.Unmarshal(m.Param, &list); err != nil {
				s.log.Warn("dgt: malformed eboards reply", "url", s.s.URL, "err", err)
				return nil
			}
			return s.takeList(list)
		case "subscribe":
			b := s.board(c.serial)
			b.subscribed, b.subscribing, b.refused = true, false, ""
			s.log.Info("dgt: following board", "url", s.s.URL, "serial", b.serial, "state", b.state)
			s.changed(true)
		}
	case "error":
		var e dgtError
		_ = json.Unmarshal(m.Param, &e)
		msg := strings.TrimSpace(e.Message)
		if msg == "" {
			msg = "LiveChess answered an error without a message"
		}
		c, ok := s.calls[id]
		if idErr != nil || !ok {
			s.log.Warn("dgt: LiveChess answered an error", "url", s.s.URL, "id", m.ID.String(), "message", msg)
			return nil
		}
		delete(s.calls, id)
		switch c.kind {
		case "subscribe":
			b := s.board(c.serial)
			b.subscribing = false
			if b.refused != msg {
				s.log.Warn("dgt: LiveChess refused to follow a board; asking again at the next read of the board list",
					"url", s.s.URL, "serial", b.serial, "message", msg)
			}
			b.refused = msg
			s.changed(true)
		default:
			s.log.Warn("dgt: LiveChess refused a call", "url", s.s.URL, "call", c.kind, "message", msg)
		}
	case "feed":
		var f dgtFeed
		if err := json.Unmarshal(m.Param, &f); err != nil {
			return nil
		}
		serial := f.Serial
		if serial == "" && idErr == nil {
			serial = s.feeds[id]
		}
		if serial == "" {
			return nil
		}
		return s.takeFeed(s.board(serial), &f)
	}
	return nil
}

// followable: LiveChess has the board live (its state says it is there,
// well or not).
func followable(state string) bool {
	return state == "ACTIVE" || state == "DELAYED" || state == "NOTRESPONDING"
}

// takeList takes the list of boards: it subscribes to every live board
// not followed yet (again, to one refused before).
func (s *dgtSession) takeList(list []dgtEBoard) error {
	seen := make(map[string]bool, len(list))
	for _, e := range list {
		if e.Serial == "" {
			continue
		}
		seen[e.Serial] = true
		b := s.board(e.Serial)
		b.listed, b.state = true, ""
		if e.State != nil {
			b.state = *e.State
		}
		if e.Board != "" {
			b.placement = e.Board
		}
		if followable(b.state) && !b.subscribed && !b.subscribing {
			if err := s.subscribe(b); err != nil {
				return err
			}
		}
	}
	for serial, b := range s.boards {
		if !seen[serial] {
			b.listed = false
			if b.game == nil {
				delete(s.boards, serial) // a board of an old event: forgotten
			}
		}
	}
	s.changed(true)
	s.askRoster() // the tournaments of these boards: numbers, players, results
	return nil
}

// takeFeed takes one feed message of a board.
func (s *dgtSession) takeFeed(b *dgtBoard, f *dgtFeed) error {
	b.lastSeen = s.clk.Now()
	if f.Board != "" {
		b.placement = f.Board
	}
	if c := f.Clock.reading(); c != nil {
		b.clock = c
	}
	if f.SAN == nil {
		// The pieces and the clock, no move list: the first message after
		// subscribing, or a piece lifted.
		if err := s.showKnown(b); err != nil {
			return err
		}
		s.changed(false)
		return nil
	}
	b.pending = f
	if s.s.Settle <= 0 {
		return s.take(b)
	}
	b.settleAt = b.lastSeen.Add(s.s.Settle)
	s.armSettle()
	s.changed(false)
	return nil
}

// showKnown shows, from a message without moves, the game the board holds
// when the pieces are where it leaves them, or a game with no move yet on a
// board set up at the start.
func (s *dgtSession) showKnown(b *dgtBoard) error {
	if b.placement == "" || b.pending != nil {
		return nil
	}
	g := b.game
	if g == nil || g.finished {
		if b.placement != startPlacement {
			return nil
		}
		g = s.newGame(b, "")
	}
	if g.shown || boardField(g.pos) != b.placement {
		return nil
	}
	s.save()
	return s.emitGame(b, g)
}

var startPlacement = boardField(rules.StartPosition())

func boardField(p rules.Position) string { return strings.Fields(p.FEN())[0] }

// armSettle makes the settle timer fire when the earliest pending change
// is due.
func (s *dgtSession) armSettle() {
	var first time.Time
	for _, b := range s.boards {
		if b.pending != nil && (first.IsZero() || b.settleAt.Before(first)) {
			first = b.settleAt
		}
	}
	switch {
	case first.IsZero():
		if !s.due.IsZero() {
			s.settle.Stop()
			s.due = time.Time{}
		}
	case s.due.IsZero() || first.Before(s.due):
		s.due = first
		d := max(first.Sub(s.clk.Now()), 0)
		if s.settle == nil {
			s.settle = s.clk.NewTimer(d)
		} else {
			s.settle.Reset(d)
		}
	}
}

// settleDue takes every pending change that has stood for Settle, in the
// order of the boards' serials.
func (s *dgtSession) settleDue() error {
	now := s.clk.Now()
	var due []*dgtBoard
	for _, b := range s.boards {
		if b.pending != nil && !b.settleAt.After(now) {
			due = append(due, b)
		}
	}
	sort.Slice(due, func(i, j int) bool { return due[i].serial < due[j].serial })
	for _, b := range due {
		if err := s.take(b); err != nil {
			return err
		}
	}
	return nil
}

// take takes a board's pending change: the same game, or a new one. Kings
// put in the centre end the game with the result they show.
func (s *dgtSession) take(b *dgtBoard) error {
	f := b.pending
	b.pending = nil
	start := normalStart(f.Start)
	san := f.SAN
	g := b.game
	newGame := false
	switch {
	case g == nil:
		newGame = true
	case g.start != start:
		newGame = true // a set-up position or a Chess960 start on the board
	case len(san) == 0 && len(g.raw) > 0:
		newGame = true // the board is back at the start
	case len(san) > 0 && len(g.moves) > dgtMaxCorrection && (len(g.raw) == 0 || g.raw[0] != san[0]):
		newGame = true // another first move after more than a correction could change
	case g.finished && len(g.raw) == 0 && len(san) > 0:
		newGame = true // the first move after a game that ended without one
	}
	if newGame {
		if g != nil && !g.finished {
			g.finished = true
			s.log.Info("dgt: game over on board: a new game is set up", "url", s.s.URL, "serial", b.serial, "game", g.id)
			if err := s.emitGame(b, g); err != nil {
				return err
			}
		}
		g = s.newGame(b, start)
		s.log.Info("dgt: new game on board", "url", s.s.URL, "serial", b.serial, "game", g.id)
	}
	result, kings := kingsResult(b.placement)
	if kings {
		// The king LiveChess read as a move, if any, came with the kings;
		// what was taken before stands.
		san = san[:max(len(withoutCentreKings(san)), min(len(g.raw), len(san)))]
	}
	clock := f.Clock.reading()
	if clock == nil {
		clock = b.clock
	}
	changed := g.update(san, clock)
	if kings && !g.finished {
		g.finished, g.result, changed = true, result, true
		s.log.Info("dgt: game over on board: the kings show the result", "url", s.s.URL, "serial", b.serial, "game", g.id, "result", result)
	}
	s.changed(true)
	if !changed && g.shown {
		return nil
	}
	s.save()
	return s.emitGame(b, g)
}

// normalStart is the start a feed gives as rules.ParseStart reads it back:
// "" for the standard start however it is written (without clocks, say); a
// Chess960 position in Shredder-FEN when its castling rights hold only
// under the Chess960 reading (the king off e1, a rook off its corner), as
// a board set up for Freestyle has them; otherwise the FEN as given, or as
// standard chess reads it when its castling field names files.
func normalStart(fen string) string {
	fen = strings.TrimSpace(fen)
	if fen == "" {
		return ""
	}
	std, _, err := rules.ParseFENVariant(fen, rules.Standard)
	if err != nil {
		return fen // the watcher reports it
	}
	if c960, _, err := rules.ParseFENVariant(fen, rules.Chess960); err == nil && castlingField(c960.FEN()) != castlingField(std.FEN()) {
		return rules.WriteStart(c960)
	}
	if std.FEN() == rules.StartFEN {
		return ""
	}
	if strings.ContainsAny(castlingField(fen), "ABCDEFGHabcdefgh") {
		return std.FEN()
	}
	return fen
}

// castlingField is the castling field of a FEN.
func castlingField(fen string) string {
	if f := strings.Fields(fen); len(f) >= 3 {
		return f[2]
	}
	return ""
}

// askRoster starts a read of LiveChess's tournaments, unless one is under
// way; its result comes on s.roster.
func (s *dgtSession) askRoster() {
	if s.asking {
		return
	}
	s.asking = true
	hc := s.s.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	base := s.s.URL
	if rest, ok := strings.CutPrefix(base, "wss://"); ok {
		base = "https://" + rest
	} else {
		base = "http://" + strings.TrimPrefix(base, "ws://")
	}
	ctx := s.reads // ends with the session
	serials := make(map[string]bool, len(s.boards))
	for serial := range s.boards {
		serials[serial] = true
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		entries, err := dgtRoster(ctx, hc, strings.TrimRight(base, "/"), serials)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Debug("dgt: LiveChess's tournaments could not be read; board numbers and players unknown", "url", s.s.URL, "err", err)
			}
			entries = nil
		}
		select {
		case s.roster <- entries:
		case <-s.done:
		}
	}()
}

// takeRoster takes what LiveChess's tournaments say of the boards (nil:
// they could not be read; what was known stays): numbers, players, and
// the results arbiters entered, which end the games.
func (s *dgtSession) takeRoster(entries map[string]dgtEntry) error {
	if entries == nil {
		return nil
	}
	serials := make([]string, 0, len(s.boards))
	for serial := range s.boards {
		serials = append(serials, serial)
	}
	sort.Strings(serials)
	for _, serial := range serials {
		b := s.boards[serial]
		e := entries[serial]
		if e == b.entry {
			continue
		}
		b.entry = e
		g := b.game
		if g == nil || !g.shown {
			continue
		}
		if e.result != "" && !g.finished && len(g.moves) > 0 {
			g.finished, g.result = true, e.result
			s.log.Info("dgt: game over on board: LiveChess has its result", "url", s.s.URL, "serial", b.serial, "game", g.id, "result", e.result)
		}
		s.save()
		if err := s.emitGame(b, g); err != nil {
			return err
		}
	}
	s.changed(false)
	return nil
}

// newGame starts a board's next game, first seen now.
func (s *dgtSession) newGame(b *dgtBoard, start string) *dgtGame {
	now := s.clk.Now().UTC()
	id := s.host + "/" + b.serial + "/" + now.Format("20060102T150405Z")
	if b.game != nil {
		// A second game first seen in the same second: id-2, id-3, …
		switch rest, ok := strings.CutPrefix(b.game.id, id); {
		case ok && rest == "":
			id += "-2"
		case ok && strings.HasPrefix(rest, "-"):
			n, _ := strconv.Atoi(rest[1:])
			id += "-" + strconv.Itoa(max(n, 1)+1)
		}
	}
	b.game = newDGTGame(id, now, start)
	return b.game
}

// emitGame hands the state of a board's game on, with the board's number
// and players where LiveChess's tournaments know them.
func (s *dgtSession) emitGame(b *dgtBoard, g *dgtGame) error {
	g.shown = true
	result := g.result
	if result == "" {
		result = "*"
	}
	err := s.emit(threefold.GameState{
		Game:       threefold.GameRef{Site: "dgt", ID: g.id, White: b.entry.white, Black: b.entry.black, Board: b.entry.board},
		Source:     s.s.Name(),
		StartFEN:   g.start,
		Notation:   rules.SAN,
		Moves:      g.moves,
		Clocks:     g.clocks,
		Result:     result,
		Finished:   g.finished,
		ObservedAt: s.clk.Now(),
		Audience:   threefold.AudienceArbiters,
	})
	if err != nil {
		return stopError{err}
	}
	return nil
}

// status is the health of every board, by serial.
func (r *dgtRun) status() []threefold.BoardStatus {
	out := make([]threefold.BoardStatus, 0, len(r.boards))
	for _, b := range r.boards {
		st := threefold.BoardStatus{Serial: b.serial, Board: b.entry.board, State: b.state, Followed: b.subscribed,
			Placement: b.placement, LastSeen: b.lastSeen}
		switch {
		case b.refused != "":
			st.Failing = "LiveChess refused to follow it: " + b.refused
		case !b.listed:
			st.Failing = "not in LiveChess's list of boards"
		case b.state == "":
			st.Failing = "not activated in LiveChess"
		case b.state == "INACTIVE":
			st.Failing = "switched off in LiveChess (INACTIVE)"
		}
		if b.game != nil && !b.game.finished {
			st.Game = b.game.id
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Serial < out[j].Serial })
	return out
}

// changed reports the boards' health; keep saves it too (a change worth
// keeping: a subscription, a state, a game).
func (s *dgtSession) changed(keep bool) {
	if s.s.OnBoards != nil {
		s.s.OnBoards(s.status())
	}
	if keep {
		s.save()
	}
}

// save keeps the games and the health of the boards, when it changed.
func (r *dgtRun) save() {
	if r.s.State == nil {
		return
	}
	var st dgtState
	for _, bs := range r.status() {
		b := r.boards[bs.Serial]
		bs.LastSeen, bs.Placement = time.Time{}, b.placement
		sb := dgtSavedBoard{BoardStatus: bs}
		if g := b.game; g != nil {
			sb.Game, sb.FirstSeen, sb.Start, sb.Moves = g.id, g.firstSeen, g.start, g.raw
			sb.Clocks, sb.Finished, sb.Result = g.clocks, g.finished, g.result
		}
		st.Boards = append(st.Boards, sb)
	}
	data, err := json.Marshal(st)
	if err != nil || slices.Equal(data, r.saved) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.s.State.SaveState(ctx, data); err != nil {
		r.log.Warn("dgt: the games on the boards could not be kept; after a restart they get new ids", "url", r.s.URL, "err", err)
		return
	}
	r.saved = data
}
