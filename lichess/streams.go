package lichess

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
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

func (s *seenSet) remove(k string) { delete(s.m, k) }

// StreamEvents follows the account's event stream (/api/stream/event) and
// calls fn for each event, until ctx is done or fn returns an error (which
// is returned). Lichess allows one event stream per account: opening
// another one closes this one, which then reconnects.
//
// Resumption: after a reconnect Lichess sends gameStart for every game in
// progress and challenge for every pending challenge again; they are not
// delivered again. A gameStart or challenge is delivered once per id until
// a gameFinish (or a challenge's end) for that id; a gameFinish once per id.
// A game that finishes while the stream is down gets no gameFinish: its
// bot game stream ends with the final state.
func (c *Client) StreamEvents(ctx context.Context, fn func(Event) error) error {
	started := newSeenSet(10000)
	finished := newSeenSet(10000)
	challenges := newSeenSet(10000)
	closedCh := newSeenSet(10000)
	return c.runStream(ctx, streamSpec{
		name:      "event",
		keepAlive: KeepAliveEvents,
		req: func() request {
			return request{op: "stream events", method: http.MethodGet, path: "/api/stream/event", auth: true, accept: "application/x-ndjson"}
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
				id := ev.Game.GameID
				if id == "" {
					id = ev.Game.ID
				}
				if ev.Type == EventGameStart {
					if started.has(id) {
						return nil
					}
					started.add(id)
					finished.remove(id)
					challenges.remove(id)
				} else {
					if finished.has(id) {
						return nil
					}
					finished.add(id)
					started.remove(id)
				}
			case EventChallenge:
				if ev.Challenge == nil {
					return fmt.Errorf("%s without challenge", ev.Type)
				}
				if challenges.has(ev.Challenge.ID) {
					return nil
				}
				challenges.add(ev.Challenge.ID)
				closedCh.remove(ev.Challenge.ID)
			case EventChallengeCanceled, EventChallengeDeclined:
				if ev.Challenge == nil {
					return fmt.Errorf("%s without challenge", ev.Type)
				}
				k := ev.Type + ":" + ev.Challenge.ID
				if closedCh.has(k) {
					return nil
				}
				closedCh.add(k)
				challenges.remove(ev.Challenge.ID)
			}
			return deliver(fn, ev)
		},
	})
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
// the last one.
func (c *Client) StreamBotGame(ctx context.Context, gameID string, fn func(GameEvent) error) error {
	var (
		conn      int
		haveState bool
		last      GameState
		lastGone  *OpponentGone
	)
	return c.runStream(ctx, streamSpec{
		name:      "bot game " + gameID,
		keepAlive: KeepAliveBotGame,
		req: func() request {
			return request{op: "stream bot game " + gameID, method: http.MethodGet, path: "/api/bot/game/stream/" + url.PathEscape(gameID), auth: true, accept: "application/x-ndjson"}
		},
		connected: func(n int) { conn = n },
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
			case GameEventState:
				var s GameState
				if err := json.Unmarshal(line, &s); err != nil {
					return err
				}
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
		ended: func() bool { return haveState && Finished(last.Status) },
	})
}

// StreamGame follows a game as a spectator (/api/stream/game/{id}, no
// token needed) until it ends (nil), ctx is done, or fn returns an error.
// It uses a spectator slot of the stream budget. The description is
// delivered on the first connection and again when its status changes (the
// game ended); every position is delivered once, in order, across
// reconnects (Lichess resends all positions on each connection).
func (c *Client) StreamGame(ctx context.Context, gameID string, fn func(SpectatorEvent) error) error {
	var (
		lastDesc  *SpectatorGame
		delivered int // positions delivered
		idx       int // position index on this connection
		startPly  int
	)
	return c.runStream(ctx, streamSpec{
		name:      "game " + gameID,
		keepAlive: KeepAliveMoves,
		pool:      c.budget.games,
		req: func() request {
			return request{op: "stream game " + gameID, method: http.MethodGet, path: "/api/stream/game/" + url.PathEscape(gameID), optAuth: true, accept: "application/x-ndjson"}
		},
		connected: func(int) { idx = 0 },
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
				if idx == 0 {
					startPly = g.StartedAtTurn
				}
				if lastDesc != nil && lastDesc.Status == g.Status {
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
			delivered = i + 1
			p.Ply = startPly + i
			return deliver(fn, SpectatorEvent{Position: &p})
		},
		ended: func() bool { return lastDesc != nil && lastDesc.Status.ID >= 25 },
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
		keepAlive: KeepAliveMoves,
		pool:      c.budget.events,
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
		keepAlive: KeepAliveMoves,
		pool:      c.budget.events,
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
		keepAlive: KeepAliveMoves,
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

// StreamBroadcastRound follows a broadcast round's PGN stream
// (/api/stream/broadcast/round/{id}.pgn) and calls fn with the whole PGN of
// one game each time that game changes. A game whose PGN is exactly the one
// delivered last for it (as after a reconnect, when Lichess resends every
// game) is not delivered again. The stream ends (nil) when Lichess closes it
// cleanly. It uses an events slot of the stream budget.
func (c *Client) StreamBroadcastRound(ctx context.Context, roundID string, fn func(pgn string) error) error {
	return c.streamPGN(ctx, "broadcast round "+roundID, "/api/stream/broadcast/round/"+url.PathEscape(roundID)+".pgn", fn)
}

// StreamBroadcastTour is StreamBroadcastRound for every round of a
// broadcast tournament (/api/stream/broadcast/tour/{id}.pgn).
func (c *Client) StreamBroadcastTour(ctx context.Context, tourID string, fn func(pgn string) error) error {
	return c.streamPGN(ctx, "broadcast tour "+tourID, "/api/stream/broadcast/tour/"+url.PathEscape(tourID)+".pgn", fn)
}

func (c *Client) streamPGN(ctx context.Context, name, path string, fn func(string) error) error {
	last := map[string]string{} // game key -> PGN delivered
	var sp pgnSplitter
	emit := func(pgn string) error {
		if pgn == "" {
			return nil
		}
		k := pgnKey(pgn)
		if last[k] == pgn {
			return nil
		}
		last[k] = pgn
		return deliver(fn, pgn)
	}
	return c.runStream(ctx, streamSpec{
		name:      name,
		keepAlive: KeepAliveBroadcast,
		pool:      c.budget.events,
		raw:       true,
		req: func() request {
			return request{op: "stream " + name, method: http.MethodGet, path: path, optAuth: true, accept: "application/x-chess-pgn"}
		},
		connected: func(int) { sp = pgnSplitter{} },
		line: func(line []byte, _ int) error {
			if pgn, ok := sp.add(line); ok {
				return emit(pgn)
			}
			return nil
		},
		ended: func() bool {
			if err := emit(sp.flush()); err != nil {
				return false
			}
			return true
		},
	})
}

// pgnSplitter cuts a PGN text, line by line, into games: tags, a blank
// line, movetext, a blank line. Whitespace-only lines (the keep-alive is a
// single space) count as blank; leading spaces are dropped.
type pgnSplitter struct {
	b        strings.Builder
	inMoves  bool // movetext lines seen
	haveTags bool
}

func (s *pgnSplitter) add(line []byte) (string, bool) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		if s.inMoves {
			return s.flush(), true
		}
		return "", false
	}
	var out string
	var ok bool
	if t[0] == '[' && (s.inMoves || (!s.haveTags && s.b.Len() > 0)) {
		out, ok = s.flush(), true
	}
	if t[0] == '[' && !s.inMoves {
		s.haveTags = true
	} else if t[0] != '[' {
		s.inMoves = true
	}
	s.b.Write(t)
	s.b.WriteByte('\n')
	return out, ok
}

func (s *pgnSplitter) flush() string {
	out := s.b.String()
	*s = pgnSplitter{}
	return out
}

// pgnKey identifies a broadcast game: its GameURL or Site tag, else its
// Event, Round, White and Black tags.
func pgnKey(pgn string) string {
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
	for _, k := range []string{"GameURL", "Site"} {
		if v := tags[k]; strings.HasPrefix(v, "http") {
			return v
		}
	}
	return tags["Event"] + "\x00" + tags["Round"] + "\x00" + tags["White"] + "\x00" + tags["Black"]
}
