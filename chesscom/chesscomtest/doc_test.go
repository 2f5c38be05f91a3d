package chesscomtest_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
)

// The PubAPI has no machine-readable description. These tests hold the
// fake to what its public documentation (chess.com's "Published-Data API"
// page and support article) says: the fields of every endpoint threefold
// reads, with their JSON types, the caching headers and 304s, and the
// status codes 404, 410 and 429 with chess.com's error body. Where the
// documentation is silent and recorded responses speak (weak ETags,
// chess.com's own Last-Modified format, max-age 5 or 3600), the fake
// follows the recordings.

// A field rule: a JSON path, relative to an object, and the JSON type it
// must have ("string", "number", "bool", "object", "array", "string|object"
// …); an optional field ends in "?".
type fieldRule struct{ path, types string }

// endpoint is one documented PubAPI endpoint: the paths of the fake that
// are instances of it, and its fields.
type endpoint struct {
	name    string
	pattern *regexp.Regexp
	top     []fieldRule
	// each is checked on every element of the array named by list (a
	// list of top-level keys).
	list []string
	each []fieldRule
}

var (
	// current daily games (/games) and tournament group games: white and
	// black are profile URLs.
	dailyGame = []fieldRule{{"white", "string"}, {"black", "string"}, {"url", "string"}, {"fen", "string"},
		{"pgn", "string"}, {"turn", "string"}, {"move_by", "number"}, {"last_activity", "number"},
		{"start_time", "number?"}, {"time_control", "string"}, {"time_class", "string"}, {"rules", "string"},
		{"draw_offer", "string?"}, {"tournament", "string?"}, {"match", "string?"}}
	// finished games (monthly archives) and team-match board games: white
	// and black are objects.
	archivedGame = []fieldRule{{"white", "object"}, {"white.username", "string"}, {"white.rating", "number"},
		{"white.result", "string"}, {"white.@id", "string"}, {"black", "object"}, {"black.username", "string"},
		{"black.rating", "number"}, {"black.result", "string"}, {"black.@id", "string"}, {"url", "string"},
		{"fen", "string"}, {"pgn", "string"}, {"end_time", "number"}, {"time_control", "string"},
		{"time_class", "string"}, {"rules", "string"}, {"start_time", "number?"}, {"eco", "string?"},
		{"tournament", "string?"}, {"match", "string?"}, {"accuracies", "object?"}}
	// a team-match board game in progress has no result and no end yet.
	boardGame = []fieldRule{{"white", "object"}, {"white.username", "string"}, {"white.@id", "string"},
		{"white.result", "string?"}, {"black", "object"}, {"black.username", "string"}, {"black.@id", "string"},
		{"black.result", "string?"}, {"url", "string"}, {"fen", "string"}, {"pgn", "string?"},
		{"start_time", "number?"}, {"end_time", "number?"}, {"time_control", "string"}, {"time_class", "string"},
		{"rules", "string"}, {"match", "string"}}
)

var endpoints = []endpoint{
	{name: "player's current daily games", pattern: regexp.MustCompile(`^/pub/player/[^/]+/games$`),
		top: []fieldRule{{"games", "array"}}, list: []string{"games"}, each: dailyGame},
	{name: "player's games to move", pattern: regexp.MustCompile(`^/pub/player/[^/]+/games/to-move$`),
		top: []fieldRule{{"games", "array"}}, list: []string{"games"},
		each: []fieldRule{{"url", "string"}, {"move_by", "number"}, {"last_activity", "number"}, {"draw_offer", "bool?"}}},
	{name: "player's archive list", pattern: regexp.MustCompile(`^/pub/player/[^/]+/games/archives$`),
		top: []fieldRule{{"archives", "array"}}},
	{name: "player's monthly archive", pattern: regexp.MustCompile(`^/pub/player/[^/]+/games/\d{4}/\d{2}$`),
		top: []fieldRule{{"games", "array"}}, list: []string{"games"}, each: archivedGame},
	{name: "club's team matches", pattern: regexp.MustCompile(`^/pub/club/[^/]+/matches$`),
		top:  []fieldRule{{"finished", "array"}, {"in_progress", "array"}, {"registered", "array"}},
		list: []string{"finished", "in_progress", "registered"},
		each: []fieldRule{{"name", "string"}, {"@id", "string"}, {"opponent", "string"}, {"time_class", "string"},
			{"start_time", "number?"}, {"result", "string?"}}},
	{name: "team match", pattern: regexp.MustCompile(`^/pub/match/(live/)?\d+$`),
		top: []fieldRule{{"name", "string"}, {"url", "string"}, {"@id", "string"}, {"start_time", "number"},
			{"end_time", "number?"}, {"status", "string"}, {"boards", "number"}, {"settings", "object"},
			{"settings.rules", "string"}, {"settings.time_class", "string"}, {"settings.time_control", "string"},
			{"teams", "object"}, {"teams.team1", "object"}, {"teams.team1.@id", "string"}, {"teams.team1.name", "string"},
			{"teams.team1.score", "number"}, {"teams.team1.players", "array"}, {"teams.team2", "object"},
			{"teams.team2.@id", "string"}, {"teams.team2.name", "string"}, {"teams.team2.score", "number"},
			{"teams.team2.players", "array"}, {"description", "string?"}}},
	{name: "team-match board", pattern: regexp.MustCompile(`^/pub/match/(live/)?\d+/\d+$`),
		top: []fieldRule{{"board_scores", "object"}, {"games", "array"}}, list: []string{"games"}, each: boardGame},
	{name: "tournament", pattern: regexp.MustCompile(`^/pub/tournament/[^/]+$`),
		top: []fieldRule{{"name", "string"}, {"url", "string"}, {"creator", "string"}, {"status", "string"},
			{"description", "string?"}, {"finish_time", "number?"}, {"settings", "object"}, {"settings.type", "string"},
			{"settings.rules", "string"}, {"settings.time_class", "string"}, {"settings.time_control", "string"},
			{"settings.is_rated", "bool"}, {"settings.total_rounds", "number"}, {"players", "array"}, {"rounds", "array"}},
		list: []string{"players"}, each: []fieldRule{{"username", "string"}, {"status", "string"}}},
	{name: "tournament round", pattern: regexp.MustCompile(`^/pub/tournament/[^/]+/\d+$`),
		top:  []fieldRule{{"groups", "array"}, {"players", "array"}},
		list: []string{"players"}, each: []fieldRule{{"username", "string"}, {"is_advancing", "bool"}}},
	{name: "tournament round group", pattern: regexp.MustCompile(`^/pub/tournament/[^/]+/\d+/\d+$`),
		top:  []fieldRule{{"fair_play_removals", "array"}, {"games", "array"}, {"players", "array"}},
		list: []string{"games"}, each: dailyGame},
}

// lookup follows a dotted path ("teams.team1.@id") in a decoded object.
func lookup(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// checkFields returns what in obj breaks the rules.
func checkFields(obj map[string]any, rules []fieldRule) []string {
	var bad []string
	for _, r := range rules {
		types, optional := strings.CutSuffix(r.types, "?")
		v, ok := lookup(obj, r.path)
		if !ok {
			if !optional {
				bad = append(bad, r.path+": missing")
			}
			continue
		}
		if got := jsonType(v); !strings.Contains("|"+types+"|", "|"+got+"|") {
			bad = append(bad, fmt.Sprintf("%s: %s, want %s", r.path, got, types))
		}
	}
	return bad
}

// violations checks one payload of the fake against its endpoint.
func violations(e endpoint, body []byte) []string {
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return []string{"not a JSON object: " + err.Error()}
	}
	bad := checkFields(doc, e.top)
	for _, key := range e.list {
		items, _ := doc[key].([]any)
		for i, it := range items {
			obj, ok := it.(map[string]any)
			if !ok {
				bad = append(bad, fmt.Sprintf("%s[%d]: %s, want object", key, i, jsonType(it)))
				continue
			}
			for _, b := range checkFields(obj, e.each) {
				bad = append(bad, fmt.Sprintf("%s[%d].%s", key, i, b))
			}
		}
	}
	return bad
}

func TestPayloadsHaveTheDocumentedFields(t *testing.T) {
	s := chesscomtest.New("")
	defer s.Close()
	covered := map[string]int{}
	for _, p := range s.Paths() {
		var e *endpoint
		for i := range endpoints {
			if endpoints[i].pattern.MatchString(p) {
				e = &endpoints[i]
				break
			}
		}
		if e == nil {
			t.Errorf("%s: the fake serves a path of no documented endpoint", p)
			continue
		}
		covered[e.name]++
		for _, v := range violations(*e, s.Body(p)) {
			t.Errorf("%s (%s): %s", p, e.name, v)
		}
	}
	for _, e := range endpoints {
		if covered[e.name] == 0 {
			t.Errorf("no recorded payload of %s", e.name)
		}
	}
}

// The checker itself: a payload without a documented field, or with a
// field of the wrong type, is a violation.
func TestDocumentedFieldsCheckerFails(t *testing.T) {
	e := endpoints[0]
	tests := []struct {
		name, body string
		want       string
	}{
		{"pgn missing", `{"games":[{"white":"w","black":"b","url":"u","fen":"f","turn":"white","move_by":1,"last_activity":1,"time_control":"1/86400","time_class":"daily","rules":"chess"}]}`, "games[0].pgn: missing"},
		{"white as an object", `{"games":[{"white":{},"black":"b","url":"u","fen":"f","pgn":"p","turn":"white","move_by":1,"last_activity":1,"time_control":"1/86400","time_class":"daily","rules":"chess"}]}`, "games[0].white: object, want string"},
		{"no games", `{}`, "games: missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := violations(e, []byte(tt.body))
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("violations %q, want [%q]", got, tt.want)
			}
		})
	}
}

// TestHeadersHaveChessComShapes: weak ETags, chess.com's Last-Modified
// format, max-age 5 on what changes with every move and 3600 on the rest,
// and conditional requests with those validators answered 304.
func TestHeadersHaveChessComShapes(t *testing.T) {
	s := chesscomtest.New("")
	defer s.Close()
	tests := []struct {
		path   string
		maxAge string
	}{
		{"/pub/player/ivan_daily/games", "5"},
		{"/pub/player/ivan_daily/games/to-move", "5"},
		{"/pub/player/ivan_daily/games/archives", "3600"},
		{"/pub/player/ivan_daily/games/2026/11", "3600"},
		{"/pub/club/threefold-club/matches", "3600"},
		{"/pub/match/1700001", "5"},
		{"/pub/match/1700001/1", "5"},
		{"/pub/match/live/1800001/1", "5"},
		{"/pub/tournament/threefold-daily-open", "3600"},
		{"/pub/tournament/threefold-daily-open/1", "3600"},
		{"/pub/tournament/threefold-daily-open/1/1", "5"},
	}
	weak := regexp.MustCompile(`^W/"[^"]+"$`)
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, _ := get(t, s, s.URL()+tt.path, nil)
			etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			if !weak.MatchString(etag) {
				t.Errorf("ETag %q, want a weak one (W/\"…\")", etag)
			}
			lt, err := time.Parse(chesscomtest.LastModifiedFormat, lm)
			if err != nil || !strings.HasSuffix(lm, " GMT+0000") || !strings.Contains(lm, "day, ") {
				t.Errorf("Last-Modified %q, want chess.com's \"Sunday, 29-Nov-2026 00:00:00 GMT+0000\" (%v)", lm, err)
			} else if !lt.Equal(chesscomtest.Epoch) {
				t.Errorf("Last-Modified %s, want %s", lt, chesscomtest.Epoch)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age="+tt.maxAge {
				t.Errorf("Cache-Control %q, want max-age=%s", cc, tt.maxAge)
			}
			for _, h := range []map[string]string{{"If-None-Match": etag}, {"If-Modified-Since": lm}} {
				if r, _ := get(t, s, s.URL()+tt.path, h); r.StatusCode != 304 {
					t.Errorf("conditional %v: %d, want 304", h, r.StatusCode)
				}
			}
		})
	}
}

// TestErrorsHaveChessComShapes: 404 for what does not exist, and the
// injected 410 and 429, each with chess.com's JSON error body.
func TestErrorsHaveChessComShapes(t *testing.T) {
	s := chesscomtest.New("")
	defer s.Close()
	s.Fail("/pub/match/1700001/2", chesscomtest.Fault{Status: 410})
	s.Fail("/pub/player/ivan_daily/games", chesscomtest.Fault{Status: 429, RetryAfter: "60"})
	tests := []struct {
		name, path string
		status     int
	}{
		{"no such player", "/pub/player/nobody_at_all/games", 404},
		{"gone for good", "/pub/match/1700001/2", 410},
		{"too many requests", "/pub/player/ivan_daily/games", 429},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, s, s.URL()+tt.path, nil)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			var e struct {
				Code    *float64 `json:"code"`
				Message string   `json:"message"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Code == nil || e.Message == "" {
				t.Errorf("body %q: want {\"code\":0,\"message\":…} (%v)", body, err)
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
			}
		})
	}
}
