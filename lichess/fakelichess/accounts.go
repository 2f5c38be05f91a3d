package fakelichess

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/threefold-chess/threefold/lichess"
)

// ChallengeSpec describes a challenge sent to a user (by default from
// Opponent to BotUser). When it is accepted, a game starts with the same
// id, in which the challenger follows Script.
type ChallengeSpec struct {
	ID       string
	From, To string
	Rated    bool
	Variant  string // default "standard"
	// InitialFEN is the start of a "chess960" or "fromPosition" game;
	// a chess960 challenge without it gets a start chosen from its id.
	InitialFEN string
	// ClockLimit and ClockIncrement in seconds; Days per move for a
	// correspondence game; all zero: unlimited.
	ClockLimit, ClockIncrement int
	Days                       int
	// Color is the challenger's colour: "white", "black" or "random"
	// (default; the challenger then gets black).
	Color  string
	Script []Step
}

type challenge struct {
	spec              ChallengeSpec
	status            string
	declineReasonKey  string
	declineReasonText string
}

// Challenge sends a challenge to the destination's event streams and
// returns its id.
func (s *Server) Challenge(spec ChallengeSpec) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if spec.ID == "" {
		spec.ID = s.newID()
	}
	if spec.From == "" {
		spec.From = Opponent
	}
	if spec.To == "" {
		spec.To = BotUser
	}
	spec.From, spec.To = strings.ToLower(spec.From), strings.ToLower(spec.To)
	if spec.Variant == "" {
		spec.Variant = "standard"
	}
	if spec.Color == "" {
		spec.Color = "random"
	}
	ch := &challenge{spec: spec, status: "created"}
	s.challenges[spec.ID] = ch
	s.sendEventLocked(spec.To, ndjson(s.challengeJSON(ch, "challenge")))
	return spec.ID
}

// CancelChallenge cancels a challenge (challengeCanceled to its
// destination).
func (s *Server) CancelChallenge(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.challenges[id]
	if ch == nil || ch.status != "created" {
		return
	}
	ch.status = "canceled"
	s.sendEventLocked(ch.spec.To, ndjson(s.challengeJSON(ch, "challengeCanceled")))
}

// ChallengeStatus returns a challenge's status ("created", "accepted",
// "declined", "canceled", "" if unknown) and the decline reason key sent.
func (s *Server) ChallengeStatus(id string) (status, declineReason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.challenges[id]; ch != nil {
		return ch.status, ch.declineReasonKey
	}
	return "", ""
}

func (s *Server) challengeJSON(ch *challenge, typ string) map[string]any {
	var tmpl map[string]any
	_ = json.Unmarshal([]byte(payloadChallenge), &tmpl)
	tmpl["type"] = typ
	c := tmpl["challenge"].(map[string]any)
	sp := ch.spec
	c["id"], c["url"], c["status"] = sp.ID, "https://lichess.org/"+sp.ID, ch.status
	userJSON := func(id string) map[string]any {
		name, title := id, ""
		if u := s.users[id]; u != nil {
			name, title = u.Username, u.Title
		}
		m := map[string]any{"id": id, "name": name, "rating": 1500, "online": true}
		if title != "" {
			m["title"] = title
		}
		return m
	}
	c["challenger"], c["destUser"] = userJSON(sp.From), userJSON(sp.To)
	c["variant"] = variantJSON(sp.Variant)
	if sp.InitialFEN != "" {
		c["initialFen"] = sp.InitialFEN
	}
	c["rated"] = sp.Rated
	switch {
	case sp.ClockLimit > 0 || sp.ClockIncrement > 0:
		c["timeControl"] = map[string]any{"type": "clock", "limit": sp.ClockLimit, "increment": sp.ClockIncrement,
			"show": fmt.Sprintf("%d+%d", sp.ClockLimit/60, sp.ClockIncrement)}
		speed := lichessSpeed(int64(sp.ClockLimit), int64(sp.ClockIncrement))
		c["speed"] = speed
		c["perf"] = map[string]any{"icon": "", "name": strings.ToUpper(speed[:1]) + speed[1:]}
	case sp.Days > 0:
		c["timeControl"] = map[string]any{"type": "correspondence", "daysPerTurn": sp.Days}
	}
	c["color"] = sp.Color
	final := "black"
	if sp.Color == "white" {
		final = "white"
	}
	c["finalColor"] = final
	if typ == "challengeDeclined" {
		c["declineReasonKey"] = strings.ToLower(ch.declineReasonKey)
		c["declineReason"] = ch.declineReasonText
	} else {
		delete(c, "declineReasonKey")
		delete(c, "declineReason")
	}
	tmpl["compat"] = map[string]any{"bot": true, "board": true}
	return tmpl
}

// SendEvent sends a raw line (e.g. a recorded one of Lichess's)
// to the event streams of a user.
func (s *Server) SendEvent(userID, line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sendEventLocked(strings.ToLower(userID), strings.TrimRight(line, "\n")+"\n")
}

func (s *Server) sendEventLocked(uid, line string) {
	for c := range s.conns {
		if c.kind == "event" && c.key == uid {
			c.send(line)
		}
	}
	s.notify()
}

// KillEventStreams closes a user's event streams cleanly, as opening a
// second one does on Lichess.
func (s *Server) KillEventStreams(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.kind == "event" && c.key == strings.ToLower(userID) {
			c.close()
		}
	}
}

func (s *Server) handleEventStream(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeBotPlay, "challenge:read", "board:play")
	if uid == "" {
		return
	}
	s.mu.Lock()
	for c := range s.conns { // one event stream per user: kill the previous one
		if c.kind == "event" && c.key == uid {
			c.close()
		}
	}
	c := s.openConn(w, "event", uid, r.UserAgent(), nil, 0)
	if c == nil {
		s.mu.Unlock()
		return
	}
	for _, id := range sortedKeys(s.games) {
		if g := s.games[id]; !g.over() && (g.white == uid || g.black == uid) {
			c.send(ndjson(g.eventInfo(uid, "gameStart")))
		}
	}
	for _, id := range sortedKeys(s.challenges) {
		if ch := s.challenges[id]; ch.status == "created" && ch.spec.To == uid {
			c.send(ndjson(s.challengeJSON(ch, "challenge")))
		}
	}
	s.mu.Unlock()
	s.serveStream(w, r, c, keepAlive{every: KeepAliveEvents, text: "\n"}, "application/x-ndjson")
}

func (s *Server) handleListChallenges(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeBotPlay, "challenge:read", "board:play")
	if uid == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, out := []any{}, []any{}
	for _, id := range sortedKeys(s.challenges) {
		ch := s.challenges[id]
		if ch.status != "created" {
			continue
		}
		j := s.challengeJSON(ch, "challenge")["challenge"]
		if ch.spec.To == uid {
			in = append(in, j)
		}
		if ch.spec.From == uid {
			out = append(out, j)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"in": in, "out": out})
}

func (s *Server) handleAccept(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeBotPlay, "challenge:write", "board:play")
	if uid == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.challenges[r.PathValue("id")]
	if ch == nil || ch.status != "created" || ch.spec.To != uid {
		writeError(w, http.StatusNotFound, "Challenge not found")
		return
	}
	if _, err := s.acceptLocked(ch, uid); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeOK(w)
}

func (s *Server) handleDecline(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeBotPlay, "challenge:write", "board:play")
	if uid == "" {
		return
	}
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.challenges[r.PathValue("id")]
	if ch == nil || ch.status != "created" || ch.spec.To != uid {
		writeError(w, http.StatusNotFound, "Challenge not found")
		return
	}
	reason := r.PostForm.Get("reason")
	if reason == "" {
		reason = "generic"
	}
	s.declineLocked(ch, reason)
	writeOK(w)
}

func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r)
	if uid == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var m map[string]any
	_ = json.Unmarshal([]byte(payloadAccount), &m)
	u := s.users[uid]
	m["id"], m["username"], m["url"] = u.ID, u.Username, "https://lichess.org/@/"+u.Username
	if u.Title != "" {
		m["title"] = u.Title
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *Server) handleUpgrade(w http.ResponseWriter, r *http.Request) {
	uid := s.auth(w, r, lichess.ScopeBotPlay)
	if uid == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[uid]
	switch {
	case u.Title == "BOT":
		writeError(w, http.StatusBadRequest, "This account is already a bot account")
	case u.played:
		writeError(w, http.StatusBadRequest, "This account has played games and cannot become a bot account")
	default:
		u.Title = "BOT"
		writeOK(w)
	}
}

func (s *Server) handleTokenTest(w http.ResponseWriter, r *http.Request) {
	body, _ := readBody(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]any{}
	for _, t := range strings.Split(body, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		rec := s.tokens[t]
		if rec == nil || rec.revoked {
			out[t] = nil
			continue
		}
		out[t] = map[string]any{"userId": rec.user, "scopes": strings.Join(rec.scopes, ","), "expires": nil}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request) {
	if s.auth(w, r) == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")].revoked = true
	w.WriteHeader(http.StatusNoContent)
}

type oauthCode struct {
	clientID, redirect, challenge string
	scopes                        []string
	user                          string
}

// OAuthCodes returns how many authorisation codes were issued and not yet
// exchanged.
func (s *Server) OAuthCodes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.oauth)
}

// handleAuthorize is the /oauth page: it checks the PKCE parameters and,
// the user approving at once, redirects to redirect_uri with a code.
func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	switch {
	case err != nil || redirect.Scheme == "" || redirect.Host == "":
		http.Error(w, "invalid redirect_uri", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code", q.Get("client_id") == "", q.Get("code_challenge_method") != "S256", q.Get("code_challenge") == "":
		http.Error(w, "invalid request: need response_type=code, client_id, code_challenge_method=S256 and code_challenge", http.StatusBadRequest)
		return
	}
	code := "liu_" + randomHex(12)
	s.mu.Lock()
	s.oauth[code] = &oauthCode{clientID: q.Get("client_id"), redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
		scopes: strings.Fields(q.Get("scope")), user: s.opts.OAuthUser}
	s.notify()
	s.mu.Unlock()
	v := redirect.Query()
	v.Set("code", code)
	if st := q.Get("state"); st != "" {
		v.Set("state", st)
	}
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusSeeOther)
}

// handleTokenExchange checks the code, client, redirect and PKCE verifier
// and issues a new token with the scopes asked.
func (s *Server) handleTokenExchange(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.oauth[f.Get("code")]
	if f.Get("grant_type") != "authorization_code" || c == nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown or used code"})
		return
	}
	delete(s.oauth, f.Get("code"))
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	switch {
	case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "hash of code_verifier does not match code_challenge"})
	case f.Get("client_id") != c.clientID:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client", "error_description": "client_id mismatch"})
	case f.Get("redirect_uri") != c.redirect:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "redirect_uri mismatch"})
	default:
		tok := "lio_" + randomHex(16)
		s.tokens[tok] = &tokenRec{user: c.user, scopes: c.scopes}
		s.notify()
		writeJSON(w, http.StatusOK, map[string]any{"token_type": "Bearer", "access_token": tok, "expires_in": 31536000})
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func readBody(r *http.Request) (string, error) {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
