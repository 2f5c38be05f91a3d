package fakelichess

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
)

// Default accounts of a new server.
const (
	BotUser    = "threefoldbot" // a BOT account with BotToken
	BotToken   = "lip_FakeBotToken0123456789abcdef"
	WatchUser  = "watcher" // a normal account with WatchToken (study:read)
	WatchToken = "lip_FakeWatchToken0123456789abcd"
	Opponent   = "mary" // a normal account without a token, the usual opponent
)

// Keep-alive periods the fake uses (the real ones).
const (
	KeepAliveEvents    = 6 * time.Second  // every 6 s
	KeepAliveBotGame   = 7 * time.Second  // every 7 s
	KeepAliveIdle      = 50 * time.Second // after 50 s idle: game, games-by, TV
	KeepAliveBroadcast = 60 * time.Second // a space after 60 s idle
)

// Options configure a fake server.
type Options struct {
	// Prefix is the path the API is mounted under (default "/lichess");
	// requests outside it get 404, so absolute-URL bugs fail.
	Prefix string
	// Clock drives keep-alives and scripted waits; default the real clock.
	Clock clock.Clock
	// LegacyCastling writes castling as e1g1 in streams; by default the
	// fake writes king-to-rook (e1h1) as Lichess does since 2025.
	LegacyCastling bool
	// LegacyDrawFields writes wdraw/bdraw/wtakeback/btakeback even when
	// false (older servers); by default they appear only when true.
	LegacyDrawFields bool
	// OAuthUser is the account the /oauth page logs in (default BotUser).
	OAuthUser string
	// GameStreams and EventStreams are the per-IP stream limits enforced
	// (default 8 and 4, as Lichess); over them a stream gets 429.
	GameStreams, EventStreams int
	// FinishedRoundsStayOpen: a broadcast round's streams stay open after
	// Broadcast.Finish (keep-alives only), as Lichess may do: its
	// description does not promise to close them. By default they close.
	FinishedRoundsStayOpen bool
	// LegacyRoundFinished writes the deprecated "finished" flag of a
	// broadcast round; by default only finishedAt and ongoing say it, as
	// Lichess will once the flag is gone.
	LegacyRoundFinished bool
	// SlowKeepAlive, when set, replaces lila's keep-alive interval on every
	// stream but the event stream (whose 7 s the description promises; the
	// others it leaves open): the keep-alive is sent this often (or after
	// this long idle) instead.
	SlowKeepAlive time.Duration
	// RefuseAnonymousBroadcasts answers 401 to broadcast requests without
	// a token, as Lichess announces it may; by default they are served.
	RefuseAnonymousBroadcasts bool
	// RunningClocks makes the clocks of bot games run on Clock, as on
	// Lichess: from the second move of Black on, each move costs its
	// player the time since the last move (plus Lag for the bot's moves)
	// and earns the increment; a clock that runs out ends the game
	// (outoftime) at once; a correspondence game is lost when a move
	// takes longer than its days per turn; a player who does not make its
	// first move within the game's FirstMoveTime has the game aborted
	// (noStart). Without it the clocks stand still (older tests).
	RunningClocks bool
	// Lag is charged to every move of a bot on top of the time measured
	// on the server: the network delay Lichess sees before a move
	// arrives, which the bot's move overhead must cover.
	Lag time.Duration
}

// Request is one request the fake received.
type Request struct {
	Time      time.Time // on the server's clock
	Method    string
	Path      string // below the prefix
	Query     url.Values
	Body      string
	Token     string // the bearer token, "" if none
	UserAgent string
	Status    int // the status answered (200 for a stream that opened)
}

// Server is a fake Lichess. See the package documentation.
type Server struct {
	// URL is the base URL to give the client: scheme, host and prefix.
	URL    string
	Prefix string

	opts    Options
	clk     clock.Clock
	hs      *httptest.Server
	mu      sync.Mutex
	changed chan struct{}
	closing chan struct{}
	wg      sync.WaitGroup
	closed  bool
	nextID  int

	inflight, maxInflight int
	// recorded, if set (by the package's tests), runs in a request's
	// handler just after the request was recorded, i.e. from the moment
	// a test may see it.
	recorded func(idx int)

	users      map[string]*user
	tokens     map[string]*tokenRec
	requests   []Request
	faults     []*faultRec
	conns      map[*conn]bool
	games      map[string]*Game
	challenges map[string]*challenge
	spect      map[string]*Spectated
	spectOrd   []*Spectated // in order of creation
	summaries  map[string]*summaryRec
	summaryOrd []string
	idStreams  map[string]map[string]bool // games-by-ids stream id -> ids
	tv         map[string]*TVChannel
	rounds     map[string]*Broadcast
	groups     map[string]*broadcastGroup
	tourSpecs  map[string]TourSpec // DescribeTour
	exports    map[string]export
	oauth      map[string]*oauthCode
	online     map[string]*OnlineBot
}

type user struct {
	ID, Username, Title string
	played              bool
}

type tokenRec struct {
	user    string
	scopes  []string
	revoked bool
}

// New starts a fake server. Close it when done.
func New(opts Options) *Server {
	if opts.Prefix == "" {
		opts.Prefix = "/lichess"
	}
	opts.Prefix = "/" + strings.Trim(opts.Prefix, "/")
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.OAuthUser == "" {
		opts.OAuthUser = BotUser
	}
	if opts.GameStreams <= 0 {
		opts.GameStreams = lichess.MaxGameStreams
	}
	if opts.EventStreams <= 0 {
		opts.EventStreams = lichess.MaxEventStreams
	}
	s := &Server{
		Prefix: opts.Prefix, opts: opts, clk: opts.Clock,
		changed: make(chan struct{}), closing: make(chan struct{}),
		users: map[string]*user{}, tokens: map[string]*tokenRec{}, conns: map[*conn]bool{},
		games: map[string]*Game{}, challenges: map[string]*challenge{}, spect: map[string]*Spectated{},
		summaries: map[string]*summaryRec{}, idStreams: map[string]map[string]bool{}, tv: map[string]*TVChannel{},
		rounds: map[string]*Broadcast{}, groups: map[string]*broadcastGroup{}, tourSpecs: map[string]TourSpec{}, exports: map[string]export{}, oauth: map[string]*oauthCode{},
		online: map[string]*OnlineBot{},
	}
	s.AddUser(BotUser, "ThreefoldBot", "BOT")
	s.AddToken(BotToken, BotUser, lichess.ScopeBotPlay, "challenge:read", "challenge:write")
	s.AddUser(WatchUser, "Watcher", "")
	s.AddToken(WatchToken, WatchUser, lichess.ScopeStudyRead)
	s.AddUser(Opponent, "Mary", "")
	s.hs = httptest.NewServer(s.handler())
	s.URL = s.hs.URL + s.Prefix
	return s
}

// Close ends every stream, stops the server and waits for its goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	s.hs.CloseClientConnections()
	s.hs.Close()
	s.wg.Wait()
}

// AddUser registers an account; title "BOT" makes it a bot.
func (s *Server) AddUser(id, username, title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[strings.ToLower(id)] = &user{ID: strings.ToLower(id), Username: username, Title: title}
}

// AddToken registers a token of an account with scopes.
func (s *Server) AddToken(token, userID string, scopes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = &tokenRec{user: strings.ToLower(userID), scopes: scopes}
}

// TokenValid reports whether a token is registered and not revoked.
func (s *Server) TokenValid(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tokens[token]
	return t != nil && !t.revoked
}

// TokenScopes returns the scopes of a token (nil if unknown).
func (s *Server) TokenScopes(token string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tokens[token]; t != nil {
		return append([]string(nil), t.scopes...)
	}
	return nil
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the requests with this method ("" any) whose path
// matches pattern, where "*" stands for one path segment.
func (s *Server) RequestsTo(method, pattern string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && pathMatch(pattern, r.Path) {
			out = append(out, r)
		}
	}
	return out
}

// WaitFor blocks until cond() holds, checking again after every change of
// the server's state (a request, a stream opening or closing, a move),
// or until ctx is done. cond may call the server's methods.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("fakelichess: condition not met: %w", ctx.Err())
		}
	}
}

// notify (mu held) wakes WaitFor.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) newID() string {
	s.nextID++
	return fmt.Sprintf("fake%04d", s.nextID)
}

// Streams returns how many streams of a kind are open: "event",
// "botgame", "game", "games-by-users", "games-by-ids", "tv",
// "broadcast".
func (s *Server) Streams(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		if c.kind == kind {
			n++
		}
	}
	return n
}

// KillStreams closes every open stream of a kind (see Streams) cleanly,
// as Lichess does when it restarts or replaces a stream.
func (s *Server) KillStreams(kind string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.kind == kind {
			c.close()
		}
	}
}

func pathMatch(pattern, path string) bool {
	if pattern == "" {
		return true
	}
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if ps[i] != "*" && ps[i] != xs[i] {
			return false
		}
	}
	return true
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeOK(w http.ResponseWriter) { writeJSON(w, http.StatusOK, map[string]bool{"ok": true}) }

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// handler records every request, applies injected faults and routes the
// rest below the prefix.
func (s *Server) handler() http.Handler {
	mux := s.routes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		r.Body.Close()
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		path := r.URL.Path
		rec := Request{Method: r.Method, Query: r.URL.Query(), Body: string(body), UserAgent: r.UserAgent()}
		if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
			rec.Token = strings.TrimPrefix(a, "Bearer ")
		}
		sw := &statusRecorder{ResponseWriter: w}
		if !strings.HasPrefix(path, s.Prefix+"/") {
			rec.Path = path
			s.record(rec, http.StatusNotFound)
			http.Error(w, "not under the prefix "+s.Prefix, http.StatusNotFound)
			return
		}
		rec.Path = strings.TrimPrefix(path, s.Prefix)
		rec.Time = s.clk.Now()
		idx, f := s.recordTakingFault(rec)
		if s.recorded != nil {
			s.recorded(idx)
		}
		st := &reqState{idx: idx}
		s.enter()
		defer s.leave(st)
		if f != nil && f.Hold != nil {
			select {
			case <-f.Hold:
			case <-r.Context().Done():
			case <-s.closing:
			}
			if r.Context().Err() != nil {
				return // the client gave up
			}
		}
		if f != nil && f.Status != 0 {
			s.setStatus(idx, f.Status)
			if f.Body != "" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(f.Status)
				io.WriteString(w, f.Body)
			} else {
				http.Error(w, http.StatusText(f.Status), f.Status)
			}
			return
		}
		r2 := r.Clone(context.WithValue(context.WithValue(r.Context(), faultKey{}, f), stateKey{}, st))
		r2.URL.Path = rec.Path
		r2.URL.RawPath = ""
		defer func() { s.setStatus(idx, sw.status) }()
		mux.ServeHTTP(sw, r2)
	})
}

type reqState struct {
	streaming bool
	idx       int
}

type stateKey struct{}

func (s *Server) enter() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight++
	if s.inflight > s.maxInflight {
		s.maxInflight = s.inflight
	}
}

func (s *Server) leave(st *reqState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !st.streaming {
		s.inflight--
	}
}

// streamStarted: a stream whose headers are out no longer counts as a
// request in flight.
func (s *Server) streamStarted(r *http.Request) {
	st, _ := r.Context().Value(stateKey{}).(*reqState)
	s.mu.Lock()
	defer s.mu.Unlock()
	if st != nil && !st.streaming {
		st.streaming = true
		s.inflight--
		s.requests[st.idx].Status = http.StatusOK
		s.notify()
	}
}

// MaxInFlight returns the largest number of requests (streams count until
// their headers are sent) the server was answering at the same time.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInflight
}

func (s *Server) record(rec Request, status int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordLocked(rec, status)
}

// recordTakingFault records a request and takes the fault it meets in one
// step: once a test can see the request (Requests, WaitFor), its fault is
// settled. Were they two steps, a test that saw the request and moved on
// (advancing a fake clock until the client gave up and asked again) could
// have the retry take the fault meant for the first request, whose
// handler had not yet got round to it.
func (s *Server) recordTakingFault(rec Request) (int, *faultRec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordLocked(rec, 0), s.takeFaultLocked(rec.Method, rec.Path)
}

// recordLocked (mu held) appends rec with status and wakes WaitFor.
func (s *Server) recordLocked(rec Request, status int) int {
	rec.Status = status
	s.requests = append(s.requests, rec)
	s.notify()
	return len(s.requests) - 1
}

func (s *Server) setStatus(i, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.requests[i].Status == 0 {
		s.requests[i].Status = status
		s.notify()
	}
}

// auth checks the bearer token and scopes (any one of them suffices, as
// lila's Scoped(...) does). It writes Lichess's error answer (401 "Missing
// authorization header" or "No such token"; 403 "Missing scope: …" with
// the X-OAuth-Scopes and X-Accepted-OAuth-Scopes headers) and returns ""
// when the request is refused.
func (s *Server) auth(w http.ResponseWriter, r *http.Request, anyScope ...string) string {
	a := r.Header.Get("Authorization")
	if !strings.HasPrefix(a, "Bearer ") {
		writeError(w, http.StatusUnauthorized, "Missing authorization header")
		return ""
	}
	return s.checkToken(w, strings.TrimPrefix(a, "Bearer "), anyScope)
}

func (s *Server) checkToken(w http.ResponseWriter, token string, anyScope []string) string {
	s.mu.Lock()
	t := s.tokens[token]
	s.mu.Unlock()
	if t == nil || t.revoked {
		writeError(w, http.StatusUnauthorized, "No such token")
		return ""
	}
	if len(anyScope) > 0 {
		ok := false
		for _, want := range anyScope {
			for _, have := range t.scopes {
				ok = ok || have == want
			}
		}
		if !ok {
			w.Header().Set("X-OAuth-Scopes", strings.Join(t.scopes, ","))
			w.Header().Set("X-Accepted-OAuth-Scopes", strings.Join(anyScope, ","))
			writeError(w, http.StatusForbidden, "Missing scope: "+strings.Join(anyScope, ", "))
			return ""
		}
	}
	return t.user
}

// authBroadcast checks a broadcast request: a token sent must be valid
// and hold study:read (a bot:play token gets 403, as on Lichess); no token
// is served (Lichess rate-limits anonymous calls heavily) unless
// RefuseAnonymousBroadcasts. It answers the refusal itself and returns
// false.
func (s *Server) authBroadcast(w http.ResponseWriter, r *http.Request) bool {
	a := r.Header.Get("Authorization")
	if !strings.HasPrefix(a, "Bearer ") {
		if s.opts.RefuseAnonymousBroadcasts {
			writeError(w, http.StatusUnauthorized, "Missing authorization header")
			return false
		}
		return true
	}
	return s.checkToken(w, strings.TrimPrefix(a, "Bearer "), []string{lichess.ScopeStudyRead}) != ""
}

func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	// OAuth and account.
	m.HandleFunc("GET /oauth", s.handleAuthorize)
	m.HandleFunc("POST /api/token", s.handleTokenExchange)
	m.HandleFunc("DELETE /api/token", s.handleRevoke)
	m.HandleFunc("POST /api/token/test", s.handleTokenTest)
	m.HandleFunc("GET /api/account", s.handleAccount)
	m.HandleFunc("GET /api/account/playing", s.handlePlaying)
	m.HandleFunc("POST /api/bot/account/upgrade", s.handleUpgrade)
	// Bot play.
	m.HandleFunc("GET /api/stream/event", s.handleEventStream)
	m.HandleFunc("GET /api/bot/game/stream/{id}", s.handleBotGameStream)
	m.HandleFunc("POST /api/bot/game/{id}/move/{move}", s.handleMove)
	m.HandleFunc("POST /api/bot/game/{id}/chat", s.handleChat)
	m.HandleFunc("GET /api/bot/game/{id}/{what}", s.handleChatHistory) // {what} is chat (a pattern ending in /chat would clash with the stream's)
	m.HandleFunc("POST /api/bot/game/{id}/draw/{accept}", s.handleDraw)
	m.HandleFunc("POST /api/bot/game/{id}/resign", s.handleResign)
	m.HandleFunc("POST /api/bot/game/{id}/abort", s.handleAbort)
	m.HandleFunc("POST /api/bot/game/{id}/claim-victory", s.handleClaimVictory)
	m.HandleFunc("POST /api/bot/game/{id}/claim-draw", s.handleClaimDraw)
	m.HandleFunc("POST /api/bot/game/{id}/takeback/{accept}", s.handleTakeback)
	m.HandleFunc("GET /api/bot/online", s.handleOnlineBots)
	m.HandleFunc("POST /api/challenge/{id}/cancel", s.handleCancelChallenge)
	m.HandleFunc("POST /api/challenge/{username}", s.handleCreateChallenge)
	m.HandleFunc("GET /api/challenge", s.handleListChallenges)
	m.HandleFunc("POST /api/challenge/{id}/accept", s.handleAccept)
	m.HandleFunc("POST /api/challenge/{id}/decline", s.handleDecline)
	// Spectating.
	m.HandleFunc("GET /api/stream/game/{id}", s.handleSpectatorStream)
	m.HandleFunc("POST /api/stream/games-by-users", s.handleGamesByUsers)
	m.HandleFunc("POST /api/stream/games/{id}", s.handleGamesByIDs)
	m.HandleFunc("POST /api/stream/games/{id}/add", s.handleGamesByIDsAdd)
	m.HandleFunc("GET /api/tv/feed", s.handleTV)
	m.HandleFunc("GET /api/tv/{channel}/feed", s.handleTV)
	m.HandleFunc("GET /game/export/{id}", s.handleExport)
	m.HandleFunc("GET /api/user/{username}/current-game", s.handleCurrentGame)
	m.HandleFunc("GET /api/broadcast/{tour}/{round}/{id}", s.handleBroadcastRound)
	m.HandleFunc("GET /api/broadcast", s.handleOfficialBroadcasts)
	m.HandleFunc("GET /api/broadcast/top", s.handleTopBroadcasts)
	m.HandleFunc("GET /api/broadcast/search", s.handleSearchBroadcasts)
	m.HandleFunc("GET /api/broadcast/by/{username}", s.handleUserBroadcasts)
	m.HandleFunc("GET /api/broadcast/{id}", s.handleBroadcastTour)
	m.HandleFunc("GET /api/broadcast/round/{file}", s.handleBroadcastRoundPGN)
	m.HandleFunc("GET /api/stream/broadcast/round/{file}", s.handleBroadcastRoundStream)
	m.HandleFunc("GET /api/stream/broadcast/tour/{file}", s.handleBroadcastTourStream)
	m.HandleFunc("GET /api/stream/broadcast/group/{file}", s.handleBroadcastGroupStream)
	return m
}
