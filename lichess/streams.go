package lichess

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/rules"
)

// seenSet is a set of strings that forgets the oldest entries beyond max,
// so a stream that runs for weeks does not grow without bound.
type seenSet struct {
	max   int
	m     map[string]bool
	order []string
}

func newSeenSet(max int) *seenSet { return &seenSet{max: max, m: map[string]bool{}} }

func (s *seenSet) has(k string) bool { return s.m[k] }

func (s *seenSet) add(k string) {
	if s.m[k] {
		return
	}
	s.m[k] = true
	s.order = append(s.order, k)
	for len(s.order) > s.max {
		delete(s.m, s.order[0])
		s.order = s.order[1:]
	}
}

// StreamEvents follows the account's event stream (/api/stream/event) and
// calls fn for each event, until ctx is done or fn returns an error (which
// is returned). Lichess allows one event stream per account: opening
// another one closes this one, which then reconnects.
//
// Resumption is exact. After a reconnect Lichess sends gameStart for every
// game in progress and challenge for every pending challenge again; those
// already delivered are not delivered again: each id gets at most one
// gameStart and one gameFinish, or one challenge and one end (ids are never
// reused). What Lichess does not resend is reconciled: a game delivered as
// started that is no longer in /api/account/playing and whose export says
// it is over gets a gameFinish (built from its gameStart with the export's
// status and winner; Raw is nil), and a challenge delivered as pending that
// is no longer in /api/challenge gets a challengeCanceled (unless it became
// a game).
func (c *Client) StreamEvents(ctx context.Context, fn func(Event) error) error {
	started := map[string]GameEventInfo{} // delivered, not finished
	finished := newSeenSet(10000)
	pending := map[string]Challenge{} // delivered, not ended
	closedCh := newSeenSet(10000)
	gameID := func(g *GameEventInfo) string {
		if g.GameID != "" {
			return g.GameID
		}
		return g.ID
	}
	reconcile := func(ctx context.Context) error {
		if len(started) > 0 {
			playing, err := c.Playing(ctx)
			if err != nil {
				c.log.Warn("lichess: event stream: cannot check the games in progress after a reconnect", "err", c.redact(err.Error()))
			} else {
				now := map[string]bool{}
				for i := range playing {
					now[gameID(&playing[i])] = true
				}
				for _, id := range sortedKeys(started) {
					if now[id] {
						continue
					}
					info := started[id]
					ex, err := c.ExportGame(ctx, id)
					if err != nil || !Finished(ex.Status) {
						continue // still on, or unknown: the stream will tell
					}
					info.Status = Status{ID: statusIDs[ex.Status], Name: ex.Status}
					info.Winner = ex.Winner
					info.IsMyTurn = false
					delete(started, id)
					finished.add(id)
					c.log.Info("lichess: event stream: game finished while disconnected", "game", id, "status", info.Status.Name)
					if err := deliver(fn, Event{Type: EventGameFinish, Game: &info}); err != nil {
						return err
					}
				}
			}
		}
		if len(pending) > 0 {
			in, _, err := c.Challenges(ctx)
			if err != nil {
				c.log.Warn("lichess: event stream: cannot check the pending challenges after a reconnect", "err", c.redact(err.Error()))
				return nil
			}
			now := map[string]bool{}
			for _, ch := range in {
				now[ch.ID] = true
			}
			for _, id := range sortedKeys(pending) {
				if now[id] {
					continue
				}
				ch := pending[id]
				delete(pending, id)
				if _, ok := started[id]; ok || finished.has(id) {
					continue // accepted
				}
				ch.Status = "canceled"
				closedCh.add(EventChallengeCanceled + ":" + id)
				if err := deliver(fn, Event{Type: EventChallengeCanceled, Challenge: &ch}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return c.runStream(ctx, streamSpec{
		name:      "event",
		keepAlive: KeepAliveEvents, silence: SilenceEvents,
		req: func() request {
			return request{op: "stream events", method: http.MethodGet, path: "/api/stream/event", auth: true, accept: "application/x-ndjson"}
		},
		connected: func(ctx context.Context, n int) error {
			if n == 1 {
				return nil
			}
			return reconcile(ctx)
		},
		line: func(line []byte, _ int) error {
			var ev Event
			if err := json.Unmarshal(line, &ev); err != nil {
				return err
			}
			ev.Raw = append(json.RawMessage(nil), line...)
			switch ev.Type {
			case EventGameStart, EventGameFinish:
				if ev.Game == nil {
					return fmt.Errorf("%s without game", ev.Type)
				}
				id := gameID(ev.Game)
				if ev.Type == EventGameStart {
					if _, ok := started[id]; ok || finished.has(id) {
						return nil // a game id never starts twice
					}
					started[id] = *ev.Game
					delete(pending, id)
				} else {
					if finished.has(id) {
						return nil
					}
					finished.add(id)
					delete(started, id)
				}
			case EventChallenge:
				if ev.Challenge == nil {
					return fmt.Errorf("%s without challenge", ev.Type)
				}
				id := ev.Challenge.ID
				if _, ok := pending[id]; ok || closedCh.has(EventChallengeCanceled+":"+id) || closedCh.has(EventChallengeDeclined+":"+id) {
					return nil // a challenge id never comes back once ended
				}
				if _, ok := started[id]; ok || finished.has(id) {
					return nil // accepted already
				}
				pending[id] = *ev.Challenge
			case EventChallengeCanceled, EventChallengeDeclined:
				if ev.Challenge == nil {
					return fmt.Errorf("%s without challenge", ev.Type)
				}
				k := ev.Type + ":" + ev.Challenge.ID
				if closedCh.has(k) {
					return nil
				}
				closedCh.add(k)
				delete(pending, ev.Challenge.ID)
			}
			return deliver(fn, ev)
		},
	})
}

var statusIDs = map[string]int{StatusCreated: 10, StatusStarted: 20, StatusAborted: 25, StatusMate: 30, StatusResign: 31,
	StatusStalemate: 32, StatusTimeout: 33, StatusDraw: 34, StatusOutOfTime: 35, StatusCheat: 36, StatusNoStart: 37,
	StatusUnknownFinish: 38, StatusInsufficientMaterialClaim: 39, StatusVariantEnd: 60}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func deliver[T any](fn func(T) error, v T) error {
	if err := fn(v); err != nil {
		return errConsumer{err}
	}
	return nil
}

// StreamBotGame follows one game of the bot (/api/bot/game/stream/{id})
// and calls fn for each event, until the game is over and its final state
// delivered (nil), ctx is done, or fn returns an error.
//
// Resumption: the first line of every connection is gameFull, with all the
// moves; after a reconnect it is delivered with Resync set, and the consumer
// must take its state as the whole truth. A gameState equal to the last
// state delivered is not delivered again, nor is an opponentGone equal to
// the last one. Player-room chat lines written while the stream was down
// are fetched (/api/bot/game/{id}/chat) and delivered after the resync
// gameFull, each once; spectator-room lines of that time are lost.
func (c *Client) StreamBotGame(ctx context.Context, gameID string, fn func(GameEvent) error) error {
	var (
		conn      int
		haveState bool
		last      GameState
		lastGone  *OpponentGone
		said      []string       // the last player-room lines delivered (user, text)
		fetched   map[string]int // lines delivered from the history that the stream may still bring
		catchUp   bool           // fetch the history after this gameFull
	)
	chatKey := func(user, text string) string { return strings.ToLower(user) + "\x00" + text }
	remember := func(k string) {
		said = append(said, k)
		if len(said) > 200 {
			said = said[len(said)-100:]
		}
	}
	// reconcileChat delivers the player-room lines of the history that
	// come after the last one delivered (all of them if none was).
	// Lichess's own lines ("White offers draw") are skipped: the state
	// shows what they say.
	reconcileChat := func(ctx context.Context) error {
		hist, err := c.gameChat(ctx, gameID)
		if err != nil {
			c.log.Warn("lichess: bot game stream: cannot fetch the chat after a reconnect", "game", gameID, "err", c.redact(err.Error()))
			return nil
		}
		var keys []string
		for _, h := range hist {
			if !strings.EqualFold(h.User, "lichess") {
				keys = append(keys, chatKey(h.User, h.Text))
			}
		}
		start := 0
		if len(said) > 0 {
			// Where the last line delivered is in the history: its latest
			// occurrence preceded by the line delivered before it, else its
			// latest occurrence.
			lastSaid, best := said[len(said)-1], -1
			for j := len(keys) - 1; j >= 0; j-- {
				if keys[j] != lastSaid {
					continue
				}
				if best < 0 {
					best = j
				}
				if len(said) < 2 || (j > 0 && keys[j-1] == said[len(said)-2]) {
					best = j
					break
				}
			}
			if best < 0 {
				c.log.Warn("lichess: bot game stream: the chat history does not hold the last line seen; lines of the disconnection may be lost", "game", gameID)
				return nil
			}
			start = best + 1
		}
		fetched = map[string]int{}
		for _, k := range keys[start:] {
			user, text, _ := strings.Cut(k, "\x00")
			for _, h := range hist { // the user name as Lichess writes it
				if chatKey(h.User, h.Text) == k {
					user = h.User
					break
				}
			}
			fetched[k]++
			remember(k)
			l := ChatLine{Username: user, Text: text, Room: RoomPlayer}
			if err := deliver(fn, GameEvent{Type: GameEventChat, Chat: &l}); err != nil {
				return err
			}
		}
		return nil
	}
	return c.runStream(ctx, streamSpec{
		name:      "bot game " + gameID,
		keepAlive: KeepAliveBotGame, silence: SilenceBotGame,
		req: func() request {
			return request{op: "stream bot game " + gameID, method: http.MethodGet, path: "/api/bot/game/stream/" + url.PathEscape(gameID), auth: true, accept: "application/x-ndjson"}
		},
		connected: func(_ context.Context, n int) error {
			conn, catchUp, fetched = n, n > 1, nil
			return nil
		},
		line: func(line []byte, _ int) error {
			var head struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &head); err != nil {
				return err
			}
			ev := GameEvent{Type: head.Type, Raw: append(json.RawMessage(nil), line...)}
			switch head.Type {
			case GameEventFull:
				var f GameFull
				if err := json.Unmarshal(line, &f); err != nil {
					return err
				}
				ev.Full, ev.Resync = &f, conn > 1
				last, haveState = f.State, true
				if err := deliver(fn, ev); err != nil {
					return err
				}
				if catchUp {
					catchUp = false
					return reconcileChat(ctx)
				}
				return nil
			case GameEventState:
				var s GameState
				if err := json.Unmarshal(line, &s); err != nil {
					return err
				}
				fetched = nil // time has passed: the stream's chat lines are new
				if haveState && s == last {
					return nil
				}
				ev.State = &s
				last, haveState = s, true
			case GameEventChat:
				var l ChatLine
				if err := json.Unmarshal(line, &l); err != nil {
					return err
				}
				if l.Room == RoomPlayer && !strings.EqualFold(l.Username, "lichess") {
					k := chatKey(l.Username, l.Text)
					if fetched[k] > 0 {
						fetched[k]--
						return nil // already delivered from the history
					}
					remember(k)
				}
				ev.Chat = &l
			case GameEventOpponentGone:
				var g OpponentGone
				if err := json.Unmarshal(line, &g); err != nil {
					return err
				}
				if lastGone != nil && *lastGone == g {
					return nil
				}
				ev.OpponentGone, lastGone = &g, &g
			default:
				// An unknown type is passed on with Raw only.
			}
			return deliver(fn, ev)
		},
		ended: func(context.Context) (bool, error) { return haveState && Finished(last.Status), nil },
	})
}

// chatMessage is a line of /api/bot/game/{id}/chat.
type chatMessage struct {
	Text string `json:"text"`
	User string `json:"user"`
}

// gameChat reads a bot game's player chat (GET /api/bot/game/{id}/chat).
// The description says NDJSON, one message a line; lila has answered a
// JSON array: both are read.
func (c *Client) gameChat(ctx context.Context, gameID string) ([]chatMessage, error) {
	var body string
	op := "chat history of " + gameID
	if err := c.call(ctx, request{op: op, method: http.MethodGet, path: botGamePath(gameID, "/chat"), auth: true, accept: "application/x-ndjson"}, &body); err != nil {
		return nil, err
	}
	return decodeLines[chatMessage](op, body)
}

// StreamGame follows a game as a spectator (/api/stream/game/{id}, no
// token needed) until it ends (nil), ctx is done, or fn returns an error.
// It uses a spectator slot of the stream budget. The description is
// delivered on the first connection and again when its status (or winner)
// changes (the game ended); every position is delivered once, in order,
// across reconnects (Lichess resends all positions on each connection).
//
// Lichess delays an ongoing game by DelayPlies on this stream: each
// position comes up to DelayPlies plies after the board (its Behind says
// so), and when the game ends the positions held back arrive at once. A
// stream that ends on a final description ahead of the positions it sent
// (the held positions never sent) is filled in from the game's export,
// position by position, before the final description is delivered; so is
// the winner of a decisive end the description does not name. Nothing is
// lost either way: the consumer sees every position, at its true ply,
// then the final description.
func (c *Client) StreamGame(ctx context.Context, gameID string, fn func(SpectatorEvent) error) error {
	var (
		lastDesc  *SpectatorGame
		delivered int // positions delivered
		idx       int // position index on this connection
		startPly  int
		start     rules.Position // the position at startPly
		lms       []string       // the lm of each delivered position after the first
		export    *ExportedGame  // fetched once the game is over, when needed
	)
	over := func(g *SpectatorGame) bool { return g != nil && (Finished(g.Status.Name) || g.Status.ID >= 25) }
	exported := func() (*ExportedGame, error) {
		if export != nil {
			return export, nil
		}
		ex, err := c.ExportGame(ctx, gameID)
		if err != nil {
			return nil, err
		}
		export = ex
		return ex, nil
	}
	deliverPosition := func(p SpectatorPosition) error {
		delivered++
		if p.LastMove != "" {
			lms = append(lms, p.LastMove)
		}
		return deliver(fn, SpectatorEvent{Position: &p})
	}
	// fill delivers the positions a finished game's stream left out, up
	// to g.Turns, from the game's export (whose SAN moves are replayed
	// from the start and checked against those already delivered).
	fill := func(g *SpectatorGame) error {
		want := g.Turns - startPly + 1 // positions, the start included
		if delivered >= want {
			return nil
		}
		ex, err := exported()
		if err != nil {
			return fmt.Errorf("the final moves are not on the stream and the export failed: %w", err)
		}
		sans := strings.Fields(ex.Moves)
		if len(sans) < want-1 {
			return fmt.Errorf("the final moves are not on the stream, and the export has %d plies of %d", len(sans), want-1)
		}
		game := rules.NewGame(start)
		for i, san := range sans[:want-1] {
			pos := game.Position()
			m, err := pos.ParseSAN(san)
			if err == nil && i < len(lms) {
				var sent rules.Move
				if sent, err = pos.ParseUCI(lms[i]); err == nil && sent != m {
					err = fmt.Errorf("the export's %s is not the stream's %s", san, lms[i])
				}
			}
			if err == nil {
				err = game.Play(m)
			}
			if err != nil {
				return fmt.Errorf("the export does not replay at ply %d: %w", startPly+i+1, err)
			}
			if i+1 < delivered {
				continue
			}
			after := game.Position()
			ply := startPly + i + 1
			c.log.Debug("lichess: position filled in from the export", "game", gameID, "ply", ply)
			if err := deliverPosition(SpectatorPosition{FEN: after.FEN(), LastMove: m.UCI(), Ply: ply, Behind: g.Turns - ply}); err != nil {
				return err
			}
		}
		return nil
	}
	return c.runStream(ctx, streamSpec{
		name:      "game " + gameID,
		keepAlive: KeepAliveMoves, silence: SilenceMoves,
		pool: c.budget.games,
		req: func() request {
			return request{op: "stream game " + gameID, method: http.MethodGet, path: "/api/stream/game/" + url.PathEscape(gameID), optAuth: true, accept: "application/x-ndjson"}
		},
		connected: func(context.Context, int) error { idx = 0; return nil },
		line: func(line []byte, _ int) error {
			var probe struct {
				ID *string `json:"id"`
			}
			if err := json.Unmarshal(line, &probe); err != nil {
				return err
			}
			if probe.ID != nil {
				var g SpectatorGame
				if err := json.Unmarshal(line, &g); err != nil {
					return err
				}
				if lastDesc == nil {
					startPly = g.StartedAtTurn
					p, err := rules.ParseStart(StartFEN(g.InitialFEN))
					if err != nil {
						return fmt.Errorf("initialFen: %w", err)
					}
					start = p
				}
				if over(&g) {
					if g.Winner == "" && Result(g.Status.Name, "") == "*" && g.Status.Name != StatusAborted {
						// A decisive end without its winner: the export may
						// name it; else the result stays unknown.
						if ex, err := exported(); err == nil {
							g.Winner = ex.Winner
						}
					}
					if idx > 0 { // the end of this connection's positions
						if err := fill(&g); err != nil {
							var ce errConsumer
							if errors.As(err, &ce) {
								return err
							}
							// Delivered without it the game would end short:
							// the stream is opened again (a finished game's
							// stream has every position), or the export asked
							// again.
							c.log.Warn("lichess: game over, final positions missing; asking again", "game", gameID, "err", c.redact(err.Error()))
							return errIncomplete
						}
					}
				}
				if lastDesc != nil && lastDesc.Status == g.Status && lastDesc.Winner == g.Winner {
					lastDesc = &g
					return nil
				}
				lastDesc = &g
				return deliver(fn, SpectatorEvent{Game: &g})
			}
			var p SpectatorPosition
			if err := json.Unmarshal(line, &p); err != nil {
				return err
			}
			if p.FEN == "" {
				return fmt.Errorf("position without fen")
			}
			i := idx
			idx++
			if i < delivered {
				return nil
			}
			p.Ply = startPly + i
			if !over(lastDesc) {
				p.Behind = DelayPlies
			}
			return deliverPosition(p)
		},
		ended: func(context.Context) (bool, error) {
			if !over(lastDesc) {
				return false, nil
			}
			if err := fill(lastDesc); err != nil {
				var ce errConsumer
				if errors.As(err, &ce) {
					return false, err
				}
				c.log.Warn("lichess: game over, final positions missing; asking again", "game", gameID, "err", c.redact(err.Error()))
				return false, nil
			}
			return true, nil
		},
	})
}

// summaryDeduper delivers each (game, status) of the games-by streams once.
type summaryDeduper struct{ seen *seenSet }

func (d summaryDeduper) line(fn func(GameSummary) error, onFinish func(string)) func([]byte, int) error {
	return func(line []byte, _ int) error {
		var g GameSummary
		if err := json.Unmarshal(line, &g); err != nil {
			return err
		}
		if g.ID == "" {
			return fmt.Errorf("game without id")
		}
		k := fmt.Sprintf("%s:%d", g.ID, g.Status)
		if d.seen.has(k) {
			return nil
		}
		d.seen.add(k)
		if g.Status >= 25 && onFinish != nil {
			onFinish(g.ID)
		}
		return deliver(fn, g)
	}
}

// StreamGamesByUsers follows the games played between the given users
// (POST /api/stream/games-by-users, with the games already running): one
// GameSummary when a game starts and one when it finishes, each once across
// reconnects. It uses an events slot of the stream budget.
func (c *Client) StreamGamesByUsers(ctx context.Context, users []string, fn func(GameSummary) error) error {
	d := summaryDeduper{newSeenSet(20000)}
	body := strings.Join(users, ",")
	return c.runStream(ctx, streamSpec{
		name:      "games by users",
		keepAlive: KeepAliveMoves, silence: SilenceMoves,
		pool: c.budget.events,
		req: func() request {
			return request{op: "stream games by users", method: http.MethodPost, path: "/api/stream/games-by-users", query: url.Values{"withCurrentGames": {"true"}},
				body: body, contentType: "text/plain", optAuth: true, accept: "application/x-ndjson"}
		},
		line: d.line(fn, nil),
	})
}

// idSet is the set of game ids of a games-by-ids stream.
type idSet struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *idSet) body() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := make([]string, 0, len(s.ids))
	for id := range s.ids {
		l = append(l, id)
	}
	sort.Strings(l)
	return strings.Join(l, ",")
}

// StreamGamesByIDs follows the given games (POST /api/stream/games/{streamID})
// : a GameSummary when each starts (or already exists) and when it
// finishes, each once across reconnects. AddGameIDs adds games to the
// running stream (and to its reconnects). It uses an events slot of the
// stream budget. streamID is any string unique to this stream.
func (c *Client) StreamGamesByIDs(ctx context.Context, streamID string, ids []string, fn func(GameSummary) error) error {
	set := &idSet{ids: map[string]bool{}}
	for _, id := range ids {
		set.ids[id] = true
	}
	c.mu.Lock()
	c.idStreams[streamID] = set
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.idStreams[streamID] == set {
			delete(c.idStreams, streamID)
		}
		c.mu.Unlock()
	}()
	d := summaryDeduper{newSeenSet(20000)}
	onFinish := func(id string) {
		set.mu.Lock()
		delete(set.ids, id)
		set.mu.Unlock()
	}
	return c.runStream(ctx, streamSpec{
		name:      "games by ids " + streamID,
		keepAlive: KeepAliveMoves, silence: SilenceMoves,
		pool: c.budget.events,
		req: func() request {
			return request{op: "stream games by ids", method: http.MethodPost, path: "/api/stream/games/" + url.PathEscape(streamID),
				body: set.body(), contentType: "text/plain", optAuth: true, accept: "application/x-ndjson"}
		},
		line: d.line(fn, onFinish),
	})
}

// AddGameIDs adds games to a running StreamGamesByIDs stream
// (POST /api/stream/games/{streamID}/add).
func (c *Client) AddGameIDs(ctx context.Context, streamID string, ids []string) error {
	c.mu.Lock()
	set := c.idStreams[streamID]
	c.mu.Unlock()
	if set != nil {
		set.mu.Lock()
		for _, id := range ids {
			set.ids[id] = true
		}
		set.mu.Unlock()
	}
	return c.call(ctx, request{op: "add games to stream " + streamID, method: http.MethodPost, path: "/api/stream/games/" + url.PathEscape(streamID) + "/add",
		body: strings.Join(ids, ","), contentType: "text/plain", optAuth: true}, nil)
}

// StreamTV follows a TV channel (/api/tv/{channel}/feed, or /api/tv/feed
// for channel ""). After a reconnect the first "featured" line is not
// delivered again when it is the game and position already delivered.
func (c *Client) StreamTV(ctx context.Context, channel string, fn func(TVEvent) error) error {
	path := "/api/tv/feed"
	if channel != "" {
		path = "/api/tv/" + url.PathEscape(channel) + "/feed"
	}
	var lastGame, lastFEN string
	return c.runStream(ctx, streamSpec{
		name:      "tv " + channel,
		keepAlive: KeepAliveMoves, silence: SilenceMoves,
		req: func() request {
			return request{op: "stream tv", method: http.MethodGet, path: path, optAuth: true, accept: "application/x-ndjson"}
		},
		line: func(line []byte, _ int) error {
			var raw struct {
				T string          `json:"t"`
				D json.RawMessage `json:"d"`
			}
			if err := json.Unmarshal(line, &raw); err != nil {
				return err
			}
			ev := TVEvent{Type: raw.T}
			switch raw.T {
			case "featured":
				var f TVFeatured
				if err := json.Unmarshal(raw.D, &f); err != nil {
					return err
				}
				if f.ID == lastGame && f.FEN == lastFEN {
					return nil
				}
				lastGame, lastFEN = f.ID, f.FEN
				ev.Featured = &f
			case "fen":
				var f TVFen
				if err := json.Unmarshal(raw.D, &f); err != nil {
					return err
				}
				if f.FEN == lastFEN {
					return nil
				}
				lastFEN = f.FEN
				ev.FEN = &f
			default:
				return fmt.Errorf("unknown tv line type %q", raw.T)
			}
			return deliver(fn, ev)
		},
	})
}

// BroadcastCheckInterval is how often a broadcast stream that stays open
// is checked against the round's (or tournament's) state: Lichess does not
// promise to close the stream of a finished round, and a tournament stream
// covers only the rounds under way when it opened.
const BroadcastCheckInterval = 5 * time.Minute

// broadcastRoundOver looks a round up and reports whether it is over (or
// gone). An error (other than not found) means: unknown.
func (c *Client) broadcastRoundOver(ctx context.Context, roundID string) (bool, error) {
	r, err := c.BroadcastRound(ctx, roundID)
	if errors.Is(err, ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return r.Round.Over(), nil
}

// StreamBroadcastRound follows a broadcast round's PGN stream
// (/api/stream/broadcast/round/{id}.pgn) and calls fn with the whole PGN of
// one game each time that game changes. A game whose PGN is exactly the one
// delivered last for it (as after a reconnect, when Lichess resends every
// game) is not delivered again. The stream ends (nil) once the round is
// over (finishedAt, or the deprecated finished flag) or gone: checked when
// Lichess closes the stream and every BroadcastCheckInterval while it stays
// open. It uses an events slot of the stream budget.
func (c *Client) StreamBroadcastRound(ctx context.Context, roundID string, fn func(pgn string) error) error {
	over := func(ctx context.Context) bool {
		done, err := c.broadcastRoundOver(ctx, roundID)
		if err != nil && ctx.Err() == nil {
			c.log.Warn("lichess: broadcast round cannot be checked", "round", roundID, "err", c.redact(err.Error()))
		}
		return done
	}
	return c.streamPGN(ctx, pgnFeed{name: "broadcast round " + roundID, path: "/api/stream/broadcast/round/" + url.PathEscape(roundID) + ".pgn",
		over: over}, fn)
}

// BroadcastTour returns a broadcast tournament and its rounds
// (/api/broadcast/{tourId}).
func (c *Client) BroadcastTour(ctx context.Context, tourID string) (*BroadcastTour, error) {
	var t BroadcastTour
	if err := c.call(ctx, request{op: "broadcast tour " + tourID, method: http.MethodGet, path: "/api/broadcast/" + url.PathEscape(tourID), optAuth: true}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// StreamBroadcastTour is StreamBroadcastRound for every round of a
// broadcast tournament (/api/stream/broadcast/tour/{id}.pgn). Lichess's
// stream covers the rounds under way when it opens: when a later round
// starts, the stream is opened again to cover it (games already delivered
// are not delivered again). It ends when every round is over.
//
// Lichess's tournament and group addresses look alike
// (/broadcast/SLUG/ID): an id that is no tournament is followed as a
// broadcast group (/api/stream/broadcast/group/{id}.pgn), every round of
// every tournament of the group, until no tournament of it is active.
func (c *Client) StreamBroadcastTour(ctx context.Context, tourID string, fn func(pgn string) error) error {
	if _, err := c.BroadcastTour(ctx, tourID); errors.Is(err, ErrNotFound) {
		c.log.Info("lichess: no broadcast tournament with this id; following it as a broadcast group", "id", tourID)
		return c.StreamBroadcastGroup(ctx, tourID, fn)
	}
	var covered map[string]bool // rounds under way when the stream opened; nil: unknown
	underWay := func(t *BroadcastTour) map[string]bool {
		m := map[string]bool{}
		for _, r := range t.Rounds {
			if r.Ongoing || r.Over() {
				m[r.ID] = true
			}
		}
		return m
	}
	lookup := func(ctx context.Context) *BroadcastTour {
		t, err := c.BroadcastTour(ctx, tourID)
		if errors.Is(err, ErrNotFound) {
			return &BroadcastTour{Rounds: []BroadcastRoundInfo{{Finished: true}}} // gone: over
		}
		if err != nil {
			if ctx.Err() == nil {
				c.log.Warn("lichess: broadcast tournament cannot be checked", "tour", tourID, "err", c.redact(err.Error()))
			}
			return nil
		}
		return t
	}
	return c.streamPGN(ctx, pgnFeed{name: "broadcast tour " + tourID, path: "/api/stream/broadcast/tour/" + url.PathEscape(tourID) + ".pgn",
		connected: func(ctx context.Context) {
			covered = nil
			if t := lookup(ctx); t != nil {
				covered = underWay(t)
			}
		},
		over: func(ctx context.Context) bool {
			t := lookup(ctx)
			return t != nil && t.Over()
		},
		poll: func(ctx context.Context) pollAction {
			t := lookup(ctx)
			switch {
			case t == nil:
				return pollContinue
			case t.Over():
				return pollStop
			case covered == nil:
				covered = underWay(t)
			default:
				for _, r := range t.Rounds {
					if r.Ongoing && !covered[r.ID] {
						return pollReconnect
					}
				}
			}
			return pollContinue
		}}, fn)
}

// StreamBroadcastGroup follows every round of every tournament of a
// broadcast group (/api/stream/broadcast/group/{id}.pgn), like
// StreamBroadcastTour. The group's state is read from the round of a game
// the stream sent: it ends when no tournament of the group is active.
func (c *Client) StreamBroadcastGroup(ctx context.Context, groupID string, fn func(pgn string) error) error {
	var mu sync.Mutex
	lastRound := "" // a round of the group, from a game's URL
	over := func(ctx context.Context) bool {
		mu.Lock()
		id := lastRound
		mu.Unlock()
		if id == "" {
			return false
		}
		r, err := c.BroadcastRound(ctx, id)
		if err != nil || r.Group == nil {
			return false
		}
		for _, t := range r.Group.Tours {
			if t.Active || t.Live {
				return false
			}
		}
		return true
	}
	seen := func(pgn string) error {
		if id := broadcastRoundID(pgn); id != "" {
			mu.Lock()
			lastRound = id
			mu.Unlock()
		}
		return fn(pgn)
	}
	return c.streamPGN(ctx, pgnFeed{name: "broadcast group " + groupID, path: "/api/stream/broadcast/group/" + url.PathEscape(groupID) + ".pgn",
		over: over, poll: func(ctx context.Context) pollAction {
			if over(ctx) {
				return pollStop
			}
			return pollContinue
		}}, seen)
}

// broadcastRoundID reads the round id of a broadcast game from its
// [BroadcastURL] (…/ROUNDSLUG/ROUNDID) or [GameURL] (…/ROUNDID/GAMEID).
func broadcastRoundID(pgn string) string {
	tags := pgnTags(pgn)
	if u := tags["BroadcastURL"]; strings.Contains(u, "/broadcast/") {
		return u[strings.LastIndex(u, "/")+1:]
	}
	if u := strings.TrimRight(tags["GameURL"], "/"); strings.Contains(u, "/broadcast/") {
		u = u[:strings.LastIndex(u, "/")]
		return u[strings.LastIndex(u, "/")+1:]
	}
	return ""
}

// pgnFeed is one broadcast PGN stream: where it is, whether its feed is
// over (asked when Lichess closes it), and, optionally, what to do on each
// connection and every BroadcastCheckInterval while it stays open.
type pgnFeed struct {
	name, path string
	over       func(context.Context) bool
	connected  func(context.Context)
	poll       func(context.Context) pollAction
}

func (c *Client) streamPGN(ctx context.Context, f pgnFeed, fn func(string) error) error {
	last := newPGNSeen()
	sp := pgnSplitter{max: c.maxPGN}
	emit := func(pgn string) error {
		if pgn == "" || !last.fresh(pgn) {
			return nil
		}
		return deliver(fn, pgn)
	}
	poll := f.poll
	if poll == nil {
		poll = func(ctx context.Context) pollAction {
			if f.over(ctx) {
				return pollStop
			}
			return pollContinue
		}
	}
	return c.runStream(ctx, streamSpec{
		name:      f.name,
		keepAlive: KeepAliveBroadcast, silence: SilenceBroadcast,
		pool: c.budget.events,
		raw:  true,
		req: func() request {
			return request{op: "stream " + f.name, method: http.MethodGet, path: f.path, optAuth: true, accept: "application/x-chess-pgn"}
		},
		connected: func(ctx context.Context, _ int) error {
			sp = pgnSplitter{max: c.maxPGN}
			if f.connected != nil {
				f.connected(ctx)
			}
			return nil
		},
		line: func(line []byte, _ int) error {
			if pgn, ok := sp.add(line); ok && pgn != "" {
				return emit(pgn)
			}
			return errIncomplete
		},
		ended: func(ctx context.Context) (bool, error) {
			if err := emit(sp.flush()); err != nil {
				return false, err
			}
			return f.over(ctx), nil
		},
		poll:      poll,
		pollEvery: BroadcastCheckInterval,
	})
}

// pgnSplitter cuts a PGN text, line by line, into games: tags, a blank
// line, movetext, a blank line. Whitespace-only lines (the keep-alive is a
// single space) count as blank; leading and trailing spaces are dropped. A
// game comes out as its tag lines, one blank line and its movetext lines.
// A game whose text grows past max bytes keeps no more lines (it ends just
// past max, so that a PGN reader with the same limit reports it).
type pgnSplitter struct {
	max      int
	cut      bool // past max: lines are no longer kept
	b        strings.Builder
	inMoves  bool // movetext lines seen
	haveTags bool
	// haveEvent: the tag section has its [Event tag. A second one before
	// any movetext means the game before was cut (a truncated line): it is
	// dropped, and the new game starts.
	haveEvent bool
}

func (s *pgnSplitter) add(line []byte) (string, bool) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		if s.inMoves {
			return s.flush(), true
		}
		return "", false
	}
	// A tag line starts with '[' and a letter ("[%clk" is a comment).
	tag := len(t) > 1 && t[0] == '[' && (t[1]|0x20 >= 'a' && t[1]|0x20 <= 'z')
	var out string
	var ok bool
	if tag && (s.inMoves || (!s.haveTags && s.b.Len() > 0)) {
		out, ok = s.flush(), true
	}
	event := tag && bytes.HasPrefix(t, []byte("[Event "))
	if event && s.haveEvent && !s.inMoves {
		*s = pgnSplitter{max: s.max}
	}
	if event {
		s.haveEvent = true
	}
	if tag && !s.inMoves {
		s.haveTags = true
	} else if !tag {
		if !s.inMoves && s.haveTags {
			s.b.WriteByte('\n') // the blank line between tags and movetext
		}
		s.inMoves = true
	}
	if s.cut {
		return out, ok
	}
	s.b.Write(t)
	s.b.WriteByte('\n')
	s.cut = s.max > 0 && s.b.Len() > s.max
	return out, ok
}

func (s *pgnSplitter) flush() string {
	out := s.b.String()
	*s = pgnSplitter{max: s.max}
	return out
}

// pgnSeen remembers, by game, a hash of the PGN last delivered while the
// game is not over, so that a resend of the same text is not delivered
// twice. A finished game leaves it: it would otherwise grow with every
// game of a broadcast followed for months (a finished game resent after a
// reconnect is delivered again; the consumer sees it is the same).
type pgnSeen struct {
	seed maphash.Seed
	last map[string]uint64
}

func newPGNSeen() *pgnSeen { return &pgnSeen{seed: maphash.MakeSeed(), last: map[string]uint64{}} }

// fresh reports whether pgn is not the text last delivered for its game,
// and records it.
func (p *pgnSeen) fresh(pgn string) bool {
	k := pgnKey(pgn)
	h := maphash.String(p.seed, pgn)
	if v, ok := p.last[k]; ok && v == h {
		return false
	}
	if pgnFinished(pgn) {
		delete(p.last, k)
	} else {
		p.last[k] = h
	}
	return true
}

// pgnFinished reports whether a game's PGN ends with a result other than
// "*": the game is over.
func pgnFinished(pgn string) bool {
	t := strings.TrimRight(pgn, " \t\r\n")
	for _, r := range []string{"1-0", "0-1", "1/2-1/2", "½-½"} {
		if strings.HasSuffix(t, r) {
			return true
		}
	}
	return false
}

// pgnKey identifies a broadcast game: its GameURL or Site tag, else its
// Event, Round, White and Black tags.
func pgnKey(pgn string) string {
	tags := pgnTags(pgn)
	for _, k := range []string{"GameURL", "Site"} {
		if v := tags[k]; strings.HasPrefix(v, "http") {
			return v
		}
	}
	return tags["Event"] + "\x00" + tags["Round"] + "\x00" + tags["White"] + "\x00" + tags["Black"]
}

// pgnTags reads the tag pairs of one game.
func pgnTags(pgn string) map[string]string {
	tags := map[string]string{}
	for _, l := range strings.Split(pgn, "\n") {
		if !strings.HasPrefix(l, "[") {
			continue
		}
		l = strings.TrimSuffix(strings.TrimPrefix(l, "["), "]")
		name, val, ok := strings.Cut(l, " ")
		if ok {
			tags[name] = strings.Trim(val, `"`)
		}
	}
	return tags
}
