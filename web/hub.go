package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
)

// MaxAlerts is how many recent alerts the hub keeps for pages that connect.
const MaxAlerts = 200

// clientBuffer is how many messages may wait for a slow client before it is
// dropped.
const clientBuffer = 64

// SourceState is what the dashboard knows about one source.
type SourceState struct {
	Name      string    `json:"name"`
	Connected bool      `json:"connected"`
	Error     string    `json:"error,omitempty"`
	Since     time.Time `json:"since"`
	// Boards is the health of the e-boards of a source that follows them
	// (DGT LiveChess).
	Boards []threefold.BoardStatus `json:"boards,omitempty"`
}

// HubOptions configure a Hub. Every field is optional.
type HubOptions struct {
	Metrics *Metrics
	Logger  *slog.Logger
	Now     func() time.Time // default time.Now
	// MaxPlies bounds the plies of one game the hub replays and keeps
	// (default 20000, pgn.DefaultMaxPlies); beyond, the game needs attention.
	MaxPlies int
	// FinishedGrace is how long a finished game stays on the dashboard
	// (default 2h); then the hub forgets it.
	FinishedGrace time.Duration
}

// Hub holds the dashboard's state — the games followed, the recent alerts,
// the sources — and pushes every change to the pages connected over the
// websocket. Its input methods (Update, Alert, SourceStatus) are safe for
// concurrent use and never wait for a page: Run, in its own goroutine,
// does the pushing, and a page that cannot keep up is dropped.
type Hub struct {
	metrics *Metrics
	log     *slog.Logger
	now     func() time.Time

	maxPlies int
	grace    time.Duration

	mu        sync.Mutex
	games     map[string]*hubGame
	live      int // games not finished
	lastPrune time.Time
	alerts    []threefold.Alert
	sources   map[string]*SourceState
	clients   int                             // pages connected
	pages     map[string]map[*client]struct{} // the pages connected, by focus ("" for the index)
	// dirty are the games changed since the last push (hubGame.dirty), in
	// the order they came: push goes through them, not through the games.
	dirty   []*hubGame
	pending []threefold.Alert // alerts not yet pushed
	// lastKeys are the games whose last state came (a file read once),
	// finished or not: forgotten once pushed.
	lastKeys []string
	srcDirt  bool
	bot      *threefold.BotStatus // the bot's account, when the bot runs
	botDirt  bool
	closed   bool
	wake     chan struct{}
	// scratch is what push encodes a game's summary and its new part
	// from (h.mu held): views made and dropped on every update were a
	// third of what an update allocated.
	scratch struct{ summary, part GameView }
}

type hubGame struct {
	mu   sync.Mutex // serialises updates of one game
	key  string     // its GameKey
	t    tracker
	view *GameView // immutable once published; guarded by Hub.mu
	// pushed marks the view last pushed to the game's pages: every page
	// of the game has it, or a later one (the hello of a page that came
	// since). Guarded by Hub.mu.
	pushed  viewMark
	live    bool      // counted in Hub.live; guarded by Hub.mu
	last    bool      // its last update said Last; guarded by Hub.mu
	endedAt time.Time // when the hub saw it finished; guarded by Hub.mu
	// dirty: changed since the last push, first at dirtySince (it is in
	// Hub.dirty then). Guarded by Hub.mu.
	dirty      bool
	dirtySince time.Time
	// pages are the pages of this game, the set Hub.pages holds for its
	// key (nil: none), while the game is in Hub.games: push finds them
	// without looking its key up. Guarded by Hub.mu.
	pages map[*client]struct{}
}

// NewHub returns an empty hub. Call Run to push to pages.
func NewHub(opts HubOptions) *Hub {
	h := &Hub{metrics: opts.Metrics, log: opts.Logger, now: opts.Now, maxPlies: opts.MaxPlies, grace: opts.FinishedGrace,
		games: make(map[string]*hubGame), sources: make(map[string]*SourceState),
		pages: make(map[string]map[*client]struct{}), wake: make(chan struct{}, 1)}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.maxPlies <= 0 {
		h.maxPlies = 20000
	}
	if h.grace <= 0 {
		h.grace = 2 * time.Hour
	}
	return h
}

func (h *Hub) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// Update takes the state of one game into account: it replays the new
// plies with package rules and queues the new view for the pages.
func (h *Hub) Update(u threefold.GameState) {
	if u.Game.ID == "" {
		return
	}
	key := GameKey(u.Game)
	h.mu.Lock()
	g := h.games[key]
	if g == nil {
		g = &hubGame{key: key, pages: h.pages[key]}
		h.games[key] = g
	}
	h.mu.Unlock()

	g.mu.Lock()
	g.t.apply(&u, h.maxPlies)
	v := g.t.view(&u)
	now := h.now()
	if v.Updated.IsZero() {
		v.Updated = now
	}
	h.mu.Lock()
	if h.games[key] != g { // forgotten meanwhile: take it back
		h.games[key] = g
		g.pages = h.pages[key]
	}
	g.view = v
	g.last = u.Last
	if live := v.Status != "finished"; live != g.live {
		g.live = live
		if live {
			h.live++
		} else {
			h.live--
		}
	}
	if !u.Finished {
		g.endedAt = time.Time{}
	} else if g.endedAt.IsZero() {
		g.endedAt = now
	}
	h.pruneLocked(now)
	if h.metrics != nil {
		h.metrics.SetGamesFollowed(h.live)
	}
	if !g.dirty {
		g.dirty, g.dirtySince = true, now
		h.dirty = append(h.dirty, g)
	}
	if u.Last {
		h.lastKeys = append(h.lastKeys, key)
	}
	h.mu.Unlock()
	g.mu.Unlock()
	h.signal()
}

// pruneLocked forgets the games that finished more than the grace period
// ago, looking at most once per tenth of it. h.mu is held.
func (h *Hub) pruneLocked(now time.Time) {
	if now.Sub(h.lastPrune) < h.grace/10 {
		return
	}
	h.lastPrune = now
	for k, g := range h.games {
		if !g.endedAt.IsZero() && now.Sub(g.endedAt) >= h.grace {
			if g.live {
				h.live--
			}
			delete(h.games, k)
			g.dirty = false // push passes it by
		}
	}
}

// Alert records an alert for the feed and counts it.
func (h *Hub) Alert(a threefold.Alert) {
	if h.metrics != nil {
		h.metrics.Alert(a.Kind)
	}
	h.mu.Lock()
	for _, old := range h.alerts {
		if old.ID == a.ID && a.ID != "" {
			h.mu.Unlock()
			return
		}
	}
	h.alerts = append(h.alerts, a)
	if len(h.alerts) > MaxAlerts {
		h.alerts = append(h.alerts[:0:0], h.alerts[len(h.alerts)-MaxAlerts:]...)
	}
	h.pending = append(h.pending, a)
	h.mu.Unlock()
	h.signal()
}

// SourceStatus records whether a source is connected, and why not.
func (h *Hub) SourceStatus(name string, connected bool, err error) {
	h.mu.Lock()
	s := h.sources[name]
	if s == nil {
		s = &SourceState{Name: name}
		h.sources[name] = s
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if s.Connected != connected || s.Since.IsZero() {
		s.Since = h.now()
	}
	s.Connected, s.Error = connected, msg
	h.srcDirt = true
	h.mu.Unlock()
	if h.metrics != nil {
		h.metrics.SetSourceConnected(name, connected)
	}
	h.signal()
}

// SetBot records the bot's status (its ratings, its record, the games it
// plays) for the index page.
func (h *Hub) SetBot(s threefold.BotStatus) {
	h.mu.Lock()
	h.bot = &s
	h.botDirt = true
	h.mu.Unlock()
	h.signal()
}

// SourceBoards records the health of the e-boards a source follows.
func (h *Hub) SourceBoards(name string, boards []threefold.BoardStatus) {
	h.mu.Lock()
	s := h.sources[name]
	if s == nil {
		s = &SourceState{Name: name, Since: h.now()}
		h.sources[name] = s
	}
	s.Boards = boards
	h.srcDirt = true
	h.mu.Unlock()
	h.signal()
}

// SourceGone forgets a source that ended (a finished game, a file read
// once): it no longer counts in /healthz.
func (h *Hub) SourceGone(name string) {
	h.mu.Lock()
	delete(h.sources, name)
	h.srcDirt = true
	h.mu.Unlock()
	if h.metrics != nil {
		h.metrics.connected.DeleteLabelValues(name)
	}
	h.signal()
}

// Sources returns the state of every source, by name.
func (h *Hub) Sources() []SourceState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sourcesLocked()
}

func (h *Hub) sourcesLocked() []SourceState {
	out := make([]SourceState, 0, len(h.sources))
	for _, s := range h.sources {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Games returns the summary view of every game, by key.
func (h *Hub) Games() []*GameView {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gamesLocked()
}

func (h *Hub) gamesLocked() []*GameView {
	out := make([]*GameView, 0, len(h.games))
	for _, g := range h.games {
		if g.view != nil {
			out = append(out, g.view.Summary())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Game returns the full view of a game (with Repeated).
func (h *Hub) Game(key string) (*GameView, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[key]
	if g == nil || g.view == nil {
		return nil, false
	}
	return g.view.full(), true
}

// Alerts returns the recent alerts, oldest first.
func (h *Hub) Alerts() []threefold.Alert {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]threefold.Alert(nil), h.alerts...)
}

// message is what the pages receive, one JSON object per websocket message.
type message struct {
	Type string    `json:"type"` // "hello", "game", "alert", "sources", "bot"
	Game *GameView `json:"game,omitempty"`
	// From, in a game page's "game" message, says that Game holds the
	// per-ply lists from ply From on, and Group from ply GroupFrom on: the
	// page has the plies before (GameView.Since). 0: the whole view.
	From      int                  `json:"from,omitempty"`
	GroupFrom int                  `json:"group_from,omitempty"`
	Games     []*GameView          `json:"games,omitempty"`
	Alert     *threefold.Alert     `json:"alert,omitempty"`
	Alerts    []threefold.Alert    `json:"alerts,omitempty"`
	Sources   []SourceState        `json:"sources,omitempty"`
	Bot       *threefold.BotStatus `json:"bot,omitempty"`
}

func encode(m message) []byte {
	b, _ := json.Marshal(m) // only our own types: cannot fail
	return b
}

// State is the hello message's content, for GET /api/state.
func (h *Hub) state(focus string) message {
	m := message{Type: "hello", Alerts: h.alerts, Sources: h.sourcesLocked()}
	if m.Alerts == nil {
		m.Alerts = []threefold.Alert{}
	}
	if focus != "" {
		if g := h.games[focus]; g != nil && g.view != nil {
			m.Game = g.view.full()
		}
		return m
	}
	m.Games = h.gamesLocked()
	m.Bot = h.bot
	return m
}

// register adds a page; its first message is the hello with the state so
// far, so nothing is missed between the two.
func (h *Hub) register(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	c.send <- encode(h.state(c.focus))
	set := h.pages[c.focus]
	if set == nil {
		set = make(map[*client]struct{})
		h.pages[c.focus] = set
		if g := h.games[c.focus]; g != nil {
			g.pages = set
		}
	}
	set[c] = struct{}{}
	h.clients++
	return true
}

func (h *Hub) unregister(c *client) {
	h.mu.Lock()
	h.dropLocked(c)
	h.mu.Unlock()
}

// dropLocked forgets a page (h.mu held); it reports whether it was there.
func (h *Hub) dropLocked(c *client) bool {
	set := h.pages[c.focus]
	if _, ok := set[c]; !ok {
		return false
	}
	delete(set, c)
	if len(set) == 0 {
		delete(h.pages, c.focus)
		if g := h.games[c.focus]; g != nil {
			g.pages = nil
		}
	}
	h.clients--
	return true
}

// Clients returns how many pages are connected.
func (h *Hub) Clients() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.clients
}

// Run pushes changes to the connected pages until ctx is done, then
// disconnects them all and returns.
func (h *Hub) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			h.mu.Lock()
			h.closed = true
			for _, set := range h.pages {
				for c := range set {
					c.stop()
				}
			}
			clear(h.pages)
			for _, g := range h.games {
				g.pages = nil
			}
			h.clients = 0
			h.mu.Unlock()
			return nil
		case <-h.wake:
			h.push()
		}
	}
}

// push sends what changed since the last push. Sending never blocks: a
// page whose buffer is full is dropped (it reconnects and gets a hello).
// Its cost is that of the games that changed and of the pages that get
// them: a game's page gets its game, the index pages every game's summary;
// the other pages are not looked at.
func (h *Hub) push() {
	h.mu.Lock()
	defer h.mu.Unlock()
	var msgs []pageMessage
	add := func(to map[*client]struct{}, data []byte) { msgs = append(msgs, pageMessage{to: to, data: data}) }
	addAll := func(data []byte) { msgs = append(msgs, pageMessage{all: true, data: data}) }
	index := h.pages[""]
	now := h.now()
	dirty := h.dirty
	h.dirty = dirty[:0] // h.mu is held: nothing is appended meanwhile
	slices.SortFunc(dirty, func(a, b *hubGame) int { return strings.Compare(a.key, b.key) })
	for _, g := range dirty {
		if !g.dirty {
			continue // listed twice (forgotten, then taken back), or forgotten since (pruneLocked)
		}
		g.dirty = false
		v := g.view
		v.summaryInto(&h.scratch.summary)
		add(index, encode(message{Type: "game", Game: &h.scratch.summary}))
		if len(g.pages) > 0 {
			part, from, groupFrom := v.since(g.pushed, &h.scratch.part)
			add(g.pages, encode(message{Type: "game", Game: part, From: from, GroupFrom: groupFrom}))
		}
		g.pushed = v.mark()
		if h.metrics != nil {
			h.metrics.ObserveUpdateLatency(now.Sub(g.dirtySince))
		}
	}
	// A game whose last state came is on the pages now; no state of it
	// follows (watch --once of a file of millions of games holds the
	// games being read, not every finished game for the grace period nor
	// a game without a result to the end).
	for _, k := range h.lastKeys {
		if g := h.games[k]; g != nil && g.last {
			if g.live {
				h.live--
				if h.metrics != nil {
					h.metrics.SetGamesFollowed(h.live)
				}
			}
			delete(h.games, k)
		}
	}
	h.lastKeys = h.lastKeys[:0]
	for i := range h.pending {
		addAll(encode(message{Type: "alert", Alert: &h.pending[i]}))
	}
	h.pending = nil
	if h.srcDirt {
		h.srcDirt = false
		addAll(encode(message{Type: "sources", Sources: h.sourcesLocked()}))
	}
	if h.botDirt {
		h.botDirt = false
		add(index, encode(message{Type: "bot", Bot: h.bot}))
	}
	// In order, page by page: a page gets its messages in the order they
	// were added.
	for _, m := range msgs {
		if !m.all {
			for c := range m.to {
				h.sendLocked(c, m.data)
			}
			continue
		}
		for _, set := range h.pages {
			for c := range set {
				h.sendLocked(c, m.data)
			}
		}
	}
}

// pageMessage is a message push sends to a set of pages (the index
// pages, a game's pages; a set a drop empties meanwhile gets nothing), or
// to every page (all).
type pageMessage struct {
	to   map[*client]struct{}
	all  bool
	data []byte
}

// sendLocked sends data to a page without waiting (h.mu held): a page
// whose buffer is full is dropped, and gets nothing more.
func (h *Hub) sendLocked(c *client, data []byte) {
	select {
	case c.send <- data:
	default:
		if !h.dropLocked(c) {
			return
		}
		h.log.Warn("dashboard: page too slow, dropped", "remote", c.remote)
		c.stop()
		if h.metrics != nil {
			h.metrics.dropped.Inc()
		}
	}
}
