package fakelichess

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/threefold-chess/threefold/lichess"
)

// TourSpec describes a broadcast tournament for the listings
// (/api/broadcast, /api/broadcast/top, /api/broadcast/search and
// /api/broadcast/by/{username}). Its rounds are the Broadcasts put in it
// with SetTour; a tournament without rounds is not listed.
type TourSpec struct {
	Name     string // "Tournament " + id when empty
	Tier     int    // Lichess's tier of featured tournaments (0: none)
	Official bool   // listed by /api/broadcast and /api/broadcast/top
	Owner    string // the user id of its creator (/api/broadcast/by/{username})
}

// DescribeTour sets what the listings say of a broadcast tournament.
func (s *Server) DescribeTour(tourID string, spec TourSpec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tourSpecs[tourID] = spec
}

// listedTour (mu held) is a tournament with its rounds, as the listings
// see it.
type listedTour struct {
	id     string
	spec   TourSpec
	rounds []*Broadcast // by id
}

func (t listedTour) active() bool {
	return slices.ContainsFunc(t.rounds, func(b *Broadcast) bool { return !b.finished })
}

func (t listedTour) live() bool {
	return slices.ContainsFunc(t.rounds, func(b *Broadcast) bool { return b.started() && !b.finished })
}

// lastFinished is when its last round finished (0 while one is not).
func (t listedTour) lastFinished() int64 {
	var last int64
	for _, b := range t.rounds {
		last = max(last, b.finishedAt)
	}
	return last
}

// preview is the round a listing shows: the one on now, else the next,
// else the last to finish.
func (t listedTour) preview() *Broadcast {
	if i := slices.IndexFunc(t.rounds, func(b *Broadcast) bool { return b.started() && !b.finished }); i >= 0 {
		return t.rounds[i]
	}
	if i := slices.IndexFunc(t.rounds, func(b *Broadcast) bool { return !b.finished }); i >= 0 {
		return t.rounds[i]
	}
	last := t.rounds[0]
	for _, b := range t.rounds {
		if b.finishedAt > last.finishedAt {
			last = b
		}
	}
	return last
}

// toursLocked (mu held) returns the tournaments that have rounds, active
// ones first by tier (highest first), then finished ones, latest first.
func (s *Server) toursLocked() []listedTour {
	byID := map[string]*listedTour{}
	for _, rid := range sortedKeys(s.rounds) {
		b := s.rounds[rid]
		t := byID[b.tour]
		if t == nil {
			t = &listedTour{id: b.tour, spec: s.tourSpecs[b.tour]}
			byID[b.tour] = t
		}
		t.rounds = append(t.rounds, b)
	}
	var out []listedTour
	for _, id := range sortedKeys(byID) {
		out = append(out, *byID[id])
	}
	slices.SortStableFunc(out, func(a, b listedTour) int {
		switch {
		case a.active() != b.active():
			if a.active() {
				return -1
			}
			return 1
		case a.active():
			return b.spec.Tier - a.spec.Tier
		}
		return int(b.lastFinished() - a.lastFinished())
	})
	return out
}

// previewLocked renders a tournament as BroadcastWithLastRound.
func (s *Server) previewLocked(t listedTour) map[string]any {
	m := map[string]any{"tour": s.tourInfoLocked(t.id), "round": s.roundInfoLocked(t.preview())}
	if g := s.groupOf(t.id); g != nil {
		m["group"] = g.name
	}
	return m
}

// page renders one page of a paginated listing of previews.
func page(items []map[string]any, n, per int, withCount bool) map[string]any {
	from := min((n-1)*per, len(items))
	to := min(from+per, len(items))
	out := map[string]any{"currentPage": n, "maxPerPage": per, "currentPageResults": items[from:to], "previousPage": nil, "nextPage": nil}
	if n > 1 {
		out["previousPage"] = n - 1
	}
	if to < len(items) {
		out["nextPage"] = n + 1
	}
	if withCount {
		out["nbResults"], out["nbPages"] = len(items), max(1, (len(items)+per-1)/per)
	}
	return out
}

// intParam reads a positive integer query parameter (def when absent).
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want %d to %d", name, lo, hi)
	}
	return n, nil
}

// handleOfficialBroadcasts serves /api/broadcast: NDJSON, one official
// tournament with its rounds a line.
func (s *Server) handleOfficialBroadcasts(w http.ResponseWriter, r *http.Request) {
	nb, err := intParam(r, "nb", 20, 1, 100)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	live := r.URL.Query().Get("live") == "true"
	s.mu.Lock()
	var lines []string
	for _, t := range s.toursLocked() {
		if !t.spec.Official || live && !t.live() || len(lines) == nb {
			continue
		}
		rounds := []any{}
		for _, b := range t.rounds {
			rounds = append(rounds, s.roundInfoLocked(b))
		}
		m := map[string]any{"tour": s.tourInfoLocked(t.id), "rounds": rounds, "defaultRoundId": t.preview().id}
		if g := s.groupOf(t.id); g != nil {
			m["group"] = g.name
		}
		lines = append(lines, ndjson(m))
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	for _, l := range lines {
		fmt.Fprint(w, l)
	}
}

// handleTopBroadcasts serves /api/broadcast/top: the official tournaments
// under way (page 1 only), then a page of finished ones.
func (s *Server) handleTopBroadcasts(w http.ResponseWriter, r *http.Request) {
	n, err := intParam(r, "page", 1, 1, 20)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	active, past := []map[string]any{}, []map[string]any{}
	for _, t := range s.toursLocked() {
		switch {
		case !t.spec.Official:
		case t.active():
			active = append(active, s.previewLocked(t))
		default:
			past = append(past, s.previewLocked(t))
		}
	}
	s.mu.Unlock()
	if n > 1 {
		active = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"active": active, "upcoming": []any{}, "past": page(past, n, 20, false)})
}

// handleSearchBroadcasts serves /api/broadcast/search: the tournaments
// whose name holds q (any case), a page of 20.
func (s *Server) handleSearchBroadcasts(w http.ResponseWriter, r *http.Request) {
	n, err := intParam(r, "page", 1, 1, 20)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	s.mu.Lock()
	found := []map[string]any{}
	for _, t := range s.toursLocked() {
		if name, _ := s.tourInfoLocked(t.id)["name"].(string); q != "" && strings.Contains(strings.ToLower(name), q) {
			found = append(found, s.previewLocked(t))
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page(found, n, 20, false))
}

// handleUserBroadcasts serves /api/broadcast/by/{username} (study:read):
// the tournaments the user created, a page of 20, without rounds.
func (s *Server) handleUserBroadcasts(w http.ResponseWriter, r *http.Request) {
	if a := r.Header.Get("Authorization"); !strings.HasPrefix(a, "Bearer ") {
		writeError(w, http.StatusUnauthorized, "Missing authorization header")
		return
	} else if s.checkToken(w, strings.TrimPrefix(a, "Bearer "), []string{lichess.ScopeStudyRead}) == "" {
		return
	}
	n, err := intParam(r, "page", 1, 1, 1000)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	user := strings.ToLower(r.PathValue("username"))
	s.mu.Lock()
	found := []map[string]any{}
	for _, t := range s.toursLocked() {
		if strings.ToLower(t.spec.Owner) == user {
			found = append(found, map[string]any{"tour": s.tourInfoLocked(t.id)})
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page(found, n, 20, true))
}
