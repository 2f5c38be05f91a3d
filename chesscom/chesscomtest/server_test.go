package chesscomtest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/chesscom/chesscomtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func get(t *testing.T, s *chesscomtest.Server, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	hc := s.Client()
	defer hc.CloseIdleConnections()
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestServesUnderPrefixWithValidators(t *testing.T) {
	s := chesscomtest.New("/cc")
	defer s.Close()
	const p = "/pub/player/ivan_daily/games"
	resp, body := get(t, s, s.URL()+p, nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"games"`) {
		t.Fatalf("status %d body %.80q", resp.StatusCode, body)
	}
	etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if etag == "" || lm == "" || resp.Header.Get("Cache-Control") != "public, max-age=5" {
		t.Fatalf("headers %v", resp.Header)
	}
	tests := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"if-none-match", map[string]string{"If-None-Match": etag}, 304},
		{"if-none-match in a list", map[string]string{"If-None-Match": `"x", ` + etag}, 304},
		{"if-none-match strong form of the weak tag", map[string]string{"If-None-Match": strings.TrimPrefix(etag, "W/")}, 304},
		{"if-none-match stale", map[string]string{"If-None-Match": `"stale"`}, 200},
		{"if-modified-since", map[string]string{"If-Modified-Since": lm}, 304},
		{"if-modified-since earlier", map[string]string{"If-Modified-Since": "Sat, 28 Nov 2026 00:00:00 GMT"}, 200},
		{"unconditional", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if resp, _ := get(t, s, s.URL()+p, tt.hdr); resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
	// Without the prefix: 404.
	if resp, _ := get(t, s, strings.TrimSuffix(s.URL(), "/cc")+p, nil); resp.StatusCode != 404 {
		t.Errorf("without prefix: %d", resp.StatusCode)
	}
	// A change gives a new ETag and a later Last-Modified.
	s.Set(p, []byte(`{"games":[]}`))
	resp, body = get(t, s, s.URL()+p, map[string]string{"If-None-Match": etag})
	if resp.StatusCode != 200 || body != `{"games":[]}` || resp.Header.Get("ETag") == etag || resp.Header.Get("Last-Modified") == lm {
		t.Errorf("after Set: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	reqs := s.RequestsTo(p)
	if len(reqs) != len(tests)+3 || reqs[1].IfNoneMatch != etag || reqs[1].Status != 304 || reqs[len(reqs)-2].Status != 404 {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestFaultsInOrder(t *testing.T) {
	s := chesscomtest.New("")
	defer s.Close()
	const p = "/pub/tournament/threefold-daily-open"
	s.Fail("", chesscomtest.Fault{Status: 503})
	s.Fail(p, chesscomtest.Fault{Status: 429, RetryAfter: "3"}, chesscomtest.Fault{Status: 410})
	want := []int{429, 410, 503, 200}
	for i, w := range want {
		resp, _ := get(t, s, s.URL()+p, nil)
		if resp.StatusCode != w {
			t.Errorf("request %d: %d, want %d", i, resp.StatusCode, w)
		}
		if w == 429 && resp.Header.Get("Retry-After") != "3" {
			t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}
	s.Fail(p, chesscomtest.Fault{Status: 301, Location: "/pub/club/threefold-club/matches"})
	resp, body := get(t, s, s.URL()+p, nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "in_progress") {
		t.Errorf("redirect not followed by net/http: %d", resp.StatusCode)
	}
}

func TestAppendMovesEditsEveryCopy(t *testing.T) {
	s := chesscomtest.New("/x")
	defer s.Close()
	const url = "https://www.chess.com/game/daily/901000022" // on board 2 (no PGN) and in rob_ranger's games
	before := s.Body("/pub/player/rob_ranger/games")
	n, err := s.AppendMoves(url, "53. Kg2", "8/8/8/8/8/8/8/K6k w - - 0 1")
	if err != nil || n != 2 {
		t.Fatalf("edited %d, err %v; want 2", n, err)
	}
	games, err := chesscom.DecodeGames(s.Body("/pub/player/rob_ranger/games"))
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if !strings.HasSuffix(g.PGN, " 53. Kg2 *\n") || g.FEN != "8/8/8/8/8/8/8/K6k w - - 0 1" {
		t.Errorf("pgn tail %q, fen %q", g.PGN[len(g.PGN)-30:], g.FEN)
	}
	old, _ := chesscom.DecodeGames(before)
	if !g.LastActivity.After(old[0].LastActivity) {
		t.Error("last_activity did not move")
	}
	if n, _ := s.AppendMoves("https://www.chess.com/game/daily/1", "1. e4", ""); n != 0 {
		t.Errorf("edited %d games of an unknown URL", n)
	}
}

// TestRecordedPayloadsDecode: every recorded payload has the documented
// shape, and every in-progress game named in the continuations is there.
func TestRecordedPayloadsDecode(t *testing.T) {
	s := chesscomtest.New("")
	defer s.Close()
	seen := map[string]chesscom.Game{}
	for _, p := range s.Paths() {
		b := s.Body(p)
		var err error
		switch {
		case strings.HasPrefix(p, "/pub/player/") && strings.HasSuffix(p, "/archives"):
			_, err = chesscom.DecodeArchives(b)
		case strings.HasPrefix(p, "/pub/player/"):
			var gs []chesscom.Game
			gs, err = chesscom.DecodeGames(b)
			for _, g := range gs {
				seen[g.URL] = g
			}
		case strings.HasSuffix(p, "/matches"):
			_, err = chesscom.DecodeClubMatches(b)
		case strings.HasPrefix(p, "/pub/match/"):
			if rest := strings.TrimPrefix(strings.TrimPrefix(p, "/pub/match/"), "live/"); strings.Contains(rest, "/") {
				var mb chesscom.MatchBoard
				mb, err = chesscom.DecodeMatchBoard(b)
				for _, g := range mb.Games {
					seen[g.URL] = g
				}
			} else {
				_, err = chesscom.DecodeMatch(b)
			}
		case strings.Count(p, "/") == 3:
			_, err = chesscom.DecodeTournament(b)
		case strings.Count(p, "/") == 4:
			_, err = chesscom.DecodeTournamentRound(b)
		default:
			var g chesscom.TournamentGroup
			g, err = chesscom.DecodeTournamentGroup(b)
			for _, gm := range g.Games {
				seen[gm.URL] = gm
			}
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	conts, err := chesscomtest.Continuations()
	if err != nil {
		t.Fatal(err)
	}
	if len(conts) < 7 {
		t.Fatalf("%d continuations", len(conts))
	}
	for url, c := range conts {
		g, ok := seen[url]
		if !ok {
			t.Errorf("continuation for %s: no such game", url)
			continue
		}
		if g.Finished || len(c.RestSANs) == 0 || c.FinalFEN == "" {
			t.Errorf("%s: finished %v, %d moves to come", url, g.Finished, len(c.RestSANs))
		}
		if g.PGN != "" && !strings.Contains(g.PGN, "[CurrentPosition \""+g.FEN+"\"]") {
			t.Errorf("%s: fen %q not the PGN's CurrentPosition", url, g.FEN)
		}
	}
}
