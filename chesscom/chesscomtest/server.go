// Package chesscomtest is a fake chess.com PubAPI for tests, serving recorded payloads.
//
// It is a fake chess.com PubAPI for tests: an httptest
// server mounted under a path prefix that serves the recorded payloads of
// testdata/ (documented PubAPI shapes; the moves are real games from the
// shared repetition corpus), answers conditional requests with 304 from
// ETag / Last-Modified, records every request, counts requests in flight,
// and injects faults (429 with or without Retry-After, 410, 404, a burst of
// 5xx, a 301, a response held until the test releases it). A test can make
// a daily game progress by appending moves to its PGN.
//
// The headers have the shapes chess.com really sends, not the textbook
// ones: weak ETags (W/"…"), a Last-Modified in chess.com's own format
// ("Friday, 18-Oct-2024 09:12:33 GMT+0000"), and a Cache-Control max-age
// of 5 s or 3600 s depending on the endpoint (MaxAgeFor). Errors come with
// chess.com's JSON body ({"code":0,"message":"…"}); a 410 means no data
// will ever be at that URL.
package chesscomtest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed testdata
var recorded embed.FS

// Recorded names of the payloads in testdata/ (the fake's initial state).
const (
	Player         = "ivan_daily"           // two current daily games, archives 2026/10 and 2026/11
	Club           = "threefold-club"       // one daily match in progress
	MatchID        = "1700001"              // daily team match, 2 boards (board 2, game 2 has no PGN)
	LiveMatchID    = "1800001"              // live team match, finished, 1 board
	Tournament     = "threefold-daily-open" // 1 round, 1 group, 3 games (1 finished)
	BoardPGNPlayer = "rob_ranger"           // whose current games hold the PGN board 2 lacks
)

// Epoch is the Last-Modified time of every recorded payload; each change
// made through the Server moves a resource's Last-Modified one second on.
var Epoch = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// Request is one request the fake received (recorded when it arrives;
// Status is 0 while it is being answered).
type Request struct {
	Method          string
	Path            string // without the prefix, e.g. /pub/player/x/games
	Query           string
	UserAgent       string
	IfNoneMatch     string
	IfModifiedSince string
	Status          int // what the fake answered
}

// Fault is an answer to inject instead of the resource.
type Fault struct {
	// Status to answer (429, 410, 404, 500, 503, 301, …); 0 with Hold set
	// serves the resource normally after the hold.
	Status int
	// RetryAfter is sent as the Retry-After header when not empty.
	RetryAfter string
	// Location for a redirect status (a path on the fake, or a URL).
	Location string
	// Hold, when not nil, makes the handler wait until it is closed (or the
	// client goes away) before answering: a slow response without timing.
	Hold <-chan struct{}
	// Started, when not nil, is closed when the held request has arrived.
	Started chan<- struct{}
}

type resource struct {
	body    []byte
	etag    string
	lastMod time.Time
}

// Server is the fake. Its methods are safe for concurrent use.
type Server struct {
	srv    *httptest.Server
	prefix string

	mu          sync.Mutex
	res         map[string]*resource
	faults      map[string][]Fault // by path; "" matches any path
	reqs        []Request
	inFlight    int
	maxInFlight int
	version     int
	now         func() time.Time // nil: Epoch plus one second a change
	maxAge      int              // -1: MaxAgeFor the path
	etags       bool
	lastMods    bool
}

// New starts a fake serving the recorded payloads under prefix (e.g.
// "/chesscom"; "" for none). Close it when done. The client's base URL is
// URL().
func New(prefix string) *Server {
	s := &Server{
		prefix: "/" + strings.Trim(prefix, "/"),
		res:    make(map[string]*resource),
		faults: make(map[string][]Fault),
		maxAge: -1,
		etags:  true, lastMods: true,
	}
	if s.prefix == "/" {
		s.prefix = ""
	}
	err := fs.WalkDir(recorded, "testdata/pub", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := recorded.ReadFile(p)
		if err != nil {
			return err
		}
		key := strings.TrimSuffix(strings.TrimPrefix(p, "testdata"), ".json")
		s.res[key] = &resource{body: b, etag: etagOf(b), lastMod: Epoch}
		return nil
	})
	if err != nil {
		panic("chesscomtest: embedded testdata: " + err.Error()) // a build defect, not input
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the base URL to give the client: the server's address and prefix.
func (s *Server) URL() string { return s.srv.URL + s.prefix }

// Client returns an *http.Client for the fake.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Close shuts the server down, waiting for its handlers. Release every
// held fault first.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// etagOf is a weak ETag, as chess.com sends them.
func etagOf(b []byte) string {
	h := fnv.New64a()
	h.Write(b)
	return fmt.Sprintf(`W/"%016x"`, h.Sum64())
}

// LastModifiedFormat is how chess.com writes Last-Modified: not an HTTP
// date (full weekday, four-digit year, "GMT+0000").
const LastModifiedFormat = "Monday, 02-Jan-2006 15:04:05 GMT-0700"

// MaxAgeFor is the Cache-Control max-age (seconds) the fake sends for a
// PubAPI path: 5 for what changes with every move (a player's current
// games and games to move, team matches and their boards, tournament
// groups), 3600 for the rest (archives, club match lists, tournaments and
// their rounds). chess.com sends only these two values; which endpoint
// gets which is read from recorded responses, the documentation says
// nothing of it.
func MaxAgeFor(p string) int {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(segs) >= 4 && segs[0] == "pub" && segs[1] == "player" && segs[3] == "games":
		if len(segs) == 4 || (len(segs) == 5 && segs[4] == "to-move") {
			return 5
		}
	case len(segs) >= 3 && segs[0] == "pub" && segs[1] == "match":
		return 5
	case len(segs) == 5 && segs[0] == "pub" && segs[1] == "tournament":
		return 5
	}
	return 3600
}

// Continuation says how a recorded in-progress game goes on in the real
// game it was taken from.
type Continuation struct {
	PliesNow     int      `json:"plies_now"`    // plies in the recorded PGN
	Rest         string   `json:"rest"`         // the remaining movetext, numbered from 1 (renumber when appending)
	RestSANs     []string `json:"rest_sans"`    // the remaining moves
	CorpusIndex  string   `json:"corpus_index"` // [CorpusIndex] of the game in repetitions.pgn
	Event        string   `json:"event"`
	White, Black string
	FinalFEN     string `json:"final_fen"`
}

// Continuations returns, by game URL, how each recorded in-progress game
// continues.
func Continuations() (map[string]Continuation, error) {
	b, err := recorded.ReadFile("testdata/continuations.json")
	if err != nil {
		return nil, err
	}
	var m map[string]Continuation
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// SetMaxAge sets the Cache-Control max-age (seconds) of every answer;
// 0 sends no Cache-Control, -1 goes back to MaxAgeFor each path.
func (s *Server) SetMaxAge(sec int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxAge = sec
}

// SetValidators turns ETag and Last-Modified headers on or off.
func (s *Server) SetValidators(etag, lastModified bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.etags, s.lastMods = etag, lastModified
}

// Body returns a copy of the payload at path ("/pub/..."), nil if none.
func (s *Server) Body(p string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.res[p]; r != nil {
		return bytes.Clone(r.body)
	}
	return nil
}

// Paths returns every path the fake serves, sorted.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.res))
	for p := range s.res {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Set replaces (or adds) the payload at path; it gets a new ETag and a
// Last-Modified one second later than any before (or the SetClock time).
func (s *Server) Set(p string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setLocked(p, body)
}

func (s *Server) setLocked(p string, body []byte) {
	s.version++
	lm := Epoch.Add(time.Duration(s.version) * time.Second)
	if s.now != nil {
		lm = s.now()
	}
	s.res[p] = &resource{body: bytes.Clone(body), etag: etagOf(body), lastMod: lm}
}

// SetClock makes every later change (Set, UpdateGame, AppendMoves) carry
// now() as its Last-Modified, so a test can tell how old the data is on
// its own clock. nil goes back to Epoch plus one second a change.
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// Delete removes the payload at path: it answers 404 from now on.
func (s *Server) Delete(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.res, p)
}

// UpdateGame applies edit to every game object (in any "games" array) whose
// "url" is gameURL, in every payload, and stores the changed payloads. It
// returns how many games it edited.
func (s *Server) UpdateGame(gameURL string, edit func(game map[string]any)) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p, r := range s.res {
		var doc map[string]any
		if err := json.Unmarshal(r.body, &doc); err != nil {
			continue
		}
		games, ok := doc["games"].([]any)
		if !ok {
			continue
		}
		changed := false
		for _, g := range games {
			gm, ok := g.(map[string]any)
			if !ok || gm["url"] != gameURL {
				continue
			}
			edit(gm)
			changed = true
			n++
		}
		if changed {
			b, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				return n, fmt.Errorf("chesscomtest: update %s: %w", p, err)
			}
			s.setLocked(p, append(b, '\n'))
		}
	}
	return n, nil
}

// AppendMoves appends SAN moves to the game's PGN (numbered as they should
// be; e.g. "25. Be4 Qh5 26. Bf3") before its result token, moves its
// last_activity one minute on and, when fen is not "", sets its fen (the
// fake does not compute positions; the watcher replays the PGN anyway).
func (s *Server) AppendMoves(gameURL, moves, fen string) (int, error) {
	return s.UpdateGame(gameURL, func(g map[string]any) {
		pgn, _ := g["pgn"].(string)
		g["pgn"] = appendMovetext(pgn, moves)
		if la, ok := g["last_activity"].(float64); ok {
			g["last_activity"] = la + 60
		}
		if fen != "" {
			g["fen"] = fen
		}
	})
}

// appendMovetext inserts moves before the trailing result token.
func appendMovetext(pgn, moves string) string {
	t := strings.TrimRight(pgn, " \n\r\t")
	for _, res := range []string{"*", "1-0", "0-1", "1/2-1/2"} {
		if strings.HasSuffix(t, " "+res) || strings.HasSuffix(t, "\n"+res) {
			body := strings.TrimRight(t[:len(t)-len(res)], " \n")
			return body + " " + strings.TrimSpace(moves) + " " + res + "\n"
		}
	}
	return t + " " + strings.TrimSpace(moves) + "\n"
}

// Fail queues faults for the next requests to path ("" for any path), in
// order: each request takes the first queued fault of its path, else the
// first of "".
func (s *Server) Fail(p string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[p] = append(s.faults[p], faults...)
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// RequestsTo returns the requests to one path.
func (s *Server) RequestsTo(p string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == p {
			out = append(out, r)
		}
	}
	return out
}

// MaxInFlight is the largest number of requests the fake was serving at
// the same time.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.mu.Unlock()
	s.answer(w, r)
	s.mu.Lock()
	s.inFlight--
	s.mu.Unlock()
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	p, ok := strings.CutPrefix(r.URL.Path, s.prefix)
	if !ok || (s.prefix != "" && p != "" && !strings.HasPrefix(p, "/")) {
		p = r.URL.Path
		ok = false
	}
	p = path.Clean("/" + p)
	rec := Request{Method: r.Method, Path: p, Query: r.URL.RawQuery, UserAgent: r.UserAgent(),
		IfNoneMatch: r.Header.Get("If-None-Match"), IfModifiedSince: r.Header.Get("If-Modified-Since")}

	s.mu.Lock()
	idx := len(s.reqs)
	s.reqs = append(s.reqs, rec) // recorded on arrival; the status is filled in below
	var f *Fault
	for _, key := range []string{p, ""} {
		if q := s.faults[key]; len(q) > 0 {
			f = &q[0]
			s.faults[key] = q[1:]
			break
		}
	}
	s.mu.Unlock()

	if f != nil && f.Hold != nil {
		if f.Started != nil {
			close(f.Started)
		}
		select {
		case <-f.Hold:
		case <-r.Context().Done():
		}
	}
	finish := func(status int) {
		s.mu.Lock()
		s.reqs[idx].Status = status
		s.mu.Unlock()
	}
	if !ok {
		http.NotFound(w, r)
		finish(http.StatusNotFound)
		return
	}
	if f != nil && f.Status != 0 {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		if f.Location != "" {
			loc := f.Location
			if strings.HasPrefix(loc, "/") {
				loc = s.prefix + loc
			}
			w.Header().Set("Location", loc)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.Status)
		fmt.Fprintf(w, `{"code":0,"message":"fault injected: %d"}`, f.Status)
		finish(f.Status)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.WriteHeader(http.StatusMethodNotAllowed)
		finish(http.StatusMethodNotAllowed)
		return
	}
	s.mu.Lock()
	res := s.res[p]
	maxAge, etags, lastMods := s.maxAge, s.etags, s.lastMods
	s.mu.Unlock()
	if res == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"code":0,"message":"Data provider not found for key \"%s\"."}`, p)
		finish(http.StatusNotFound)
		return
	}
	h := w.Header()
	if etags {
		h.Set("ETag", res.etag)
	}
	if lastMods {
		h.Set("Last-Modified", res.lastMod.UTC().Format(LastModifiedFormat))
	}
	if maxAge < 0 {
		maxAge = MaxAgeFor(p)
	}
	if maxAge > 0 {
		h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", maxAge))
	}
	if notModified(r, res, etags, lastMods) {
		w.WriteHeader(http.StatusNotModified)
		finish(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(res.body)
	}
	finish(http.StatusOK)
}

func notModified(r *http.Request, res *resource, etags, lastMods bool) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if !etags {
			return false
		}
		for _, t := range strings.Split(inm, ",") {
			// The weak comparison (RFC 9110 8.8.3.2): W/ does not count.
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == strings.TrimPrefix(res.etag, "W/") {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && lastMods {
		t, err := time.Parse(LastModifiedFormat, ims)
		if err != nil {
			t, err = http.ParseTime(ims)
		}
		if err == nil && !res.lastMod.Truncate(time.Second).After(t) {
			return true
		}
	}
	return false
}
