package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

func TestNewRefusesPublicAddressWithoutToken(t *testing.T) {
	tests := []struct {
		name    string
		addr    string
		token   string
		wantErr error
	}{
		{name: "loopback v4", addr: "127.0.0.1:8080"},
		{name: "loopback v6", addr: "[::1]:0"},
		{name: "localhost", addr: "localhost:9000"},
		{name: "all interfaces", addr: ":8080", wantErr: ErrTokenRequired},
		{name: "unspecified v4", addr: "0.0.0.0:8080", wantErr: ErrTokenRequired},
		{name: "lan address", addr: "192.168.1.5:8080", wantErr: ErrTokenRequired},
		{name: "lan address with token", addr: "192.168.1.5:8080", token: "s3cret"},
		{name: "all interfaces with token", addr: ":8080", token: "s3cret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Options{Addr: tc.addr, Token: tc.token, Hub: NewHub(HubOptions{})})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("New(%q, token %q) = %v, want %v", tc.addr, tc.token, err, tc.wantErr)
			}
		})
	}
	if _, err := New(Options{Addr: "no-port", Hub: NewHub(HubOptions{})}); err == nil {
		t.Fatal("New accepted an address without a port")
	}
}

// newTestServer serves a dashboard with one game and returns its URL.
func newTestServer(t *testing.T, token string) (*httptest.Server, *Hub, *Metrics) {
	t.Helper()
	m := NewMetrics()
	hub := NewHub(HubOptions{Metrics: m})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = hub.Run(ctx) }()
	addr := "127.0.0.1:0"
	if token != "" {
		addr = "0.0.0.0:0"
	}
	s, err := New(Options{Addr: addr, Token: token, Hub: hub, Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { cancel(); <-done; ts.Close() })
	return ts, hub, m
}

func get(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestTokenCheckedOnEveryPath(t *testing.T) {
	ts, _, _ := newTestServer(t, "s3cret")
	for _, path := range []string{"/", "/game?key=x/y", "/ws", "/api/state", "/api/claim?game=x/y", "/healthz", "/metrics"} {
		tests := []struct {
			name   string
			query  string
			header http.Header
			want   int
		}{
			{name: "none", want: http.StatusUnauthorized},
			{name: "wrong query", query: "token=nope", want: http.StatusUnauthorized},
			{name: "wrong bearer", header: http.Header{"Authorization": {"Bearer nope"}}, want: http.StatusUnauthorized},
			{name: "bearer beats query", query: "token=s3cret", header: http.Header{"Authorization": {"Bearer nope"}}, want: http.StatusUnauthorized},
			{name: "query", query: "token=s3cret", want: 0},
			{name: "bearer", header: http.Header{"Authorization": {"Bearer s3cret"}}, want: 0},
		}
		for _, tc := range tests {
			t.Run(path+" "+tc.name, func(t *testing.T) {
				u := ts.URL + path
				if tc.query != "" {
					if strings.Contains(u, "?") {
						u += "&" + tc.query
					} else {
						u += "?" + tc.query
					}
				}
				code, _ := get(t, u, tc.header)
				if tc.want != 0 && code != tc.want {
					t.Fatalf("GET %s = %d, want %d", u, code, tc.want)
				}
				if tc.want == 0 && code == http.StatusUnauthorized {
					t.Fatalf("GET %s with the token = 401", u)
				}
			})
		}
	}
}

func wsURL(ts *httptest.Server, q string) string {
	return "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws" + q
}

func TestWebsocketOriginCheck(t *testing.T) {
	ts, _, _ := newTestServer(t, "")
	host := strings.TrimPrefix(ts.URL, "http://")
	tests := []struct {
		name   string
		origin string
		ok     bool
	}{
		{name: "no origin (not a browser)", ok: true},
		{name: "same host", origin: "http://" + host, ok: true},
		{name: "other host", origin: "http://evil.example", ok: false},
		{name: "same name other port", origin: "http://127.0.0.1:1", ok: false},
		{name: "garbage", origin: "::", ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			c, resp, err := websocket.DefaultDialer.Dial(wsURL(ts, ""), h)
			if tc.ok {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				c.Close()
				return
			}
			if err == nil {
				c.Close()
				t.Fatal("a foreign origin was accepted")
			}
			if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("foreign origin: %v, want 403", resp)
			}
		})
	}
}

func TestHealthz(t *testing.T) {
	ts, hub, _ := newTestServer(t, "")
	check := func(want int, wantConnected map[string]bool) {
		t.Helper()
		code, body := get(t, ts.URL+"/healthz", nil)
		if code != want {
			t.Fatalf("healthz = %d, want %d: %s", code, want, body)
		}
		var h Health
		if err := json.Unmarshal([]byte(body), &h); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, s := range h.Sources {
			got[s.Name] = s.Connected
		}
		if len(got) != len(wantConnected) {
			t.Fatalf("sources %v, want %v", got, wantConnected)
		}
		for k, v := range wantConnected {
			if got[k] != v {
				t.Fatalf("sources %v, want %v", got, wantConnected)
			}
		}
	}
	check(http.StatusOK, map[string]bool{})
	hub.SourceStatus("lichess broadcast round r1", true, nil)
	check(http.StatusOK, map[string]bool{"lichess broadcast round r1": true})
	hub.SourceStatus("chess.com player x", false, errors.New("410 gone"))
	check(http.StatusServiceUnavailable, map[string]bool{"lichess broadcast round r1": true, "chess.com player x": false})
	hub.SourceStatus("chess.com player x", true, nil)
	check(http.StatusOK, map[string]bool{"lichess broadcast round r1": true, "chess.com player x": true})
}

func TestMetricsContent(t *testing.T) {
	ts, hub, m := newTestServer(t, "")
	ref := threefold.GameRef{Site: "lichess", ID: "abc"}
	hub.Update(threefold.GameState{Game: ref, Moves: []string{"Nf3", "Nf6", "Ng1", "Ng8"}})
	hub.Update(threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "over"}, Moves: []string{"e4"}, Finished: true})
	hub.Alert(threefold.Alert{ID: "1", Kind: threefold.KindThreefold, Game: ref})
	hub.Alert(threefold.Alert{ID: "1", Kind: threefold.KindThreefold, Game: ref}) // counted again: a metric counts raises
	hub.Alert(threefold.Alert{ID: "2", Kind: threefold.KindFivefold, Game: ref})
	m.Reconnect("broadcast round r1")
	m.RateLimitPause("lichess")
	hub.SourceStatus("src", true, nil)
	m.ObserveUpdateLatency(3 * time.Millisecond)
	_, body := get(t, ts.URL+"/metrics", nil)
	for _, want := range []string{
		"threefold_games_followed 1",
		`threefold_alerts_total{kind="threefold"} 2`,
		`threefold_alerts_total{kind="fivefold"} 1`,
		`threefold_alerts_total{kind="fifty_moves"} 0`,
		`threefold_stream_reconnects_total{stream="broadcast round r1"} 1`,
		`threefold_rate_limit_pauses_total{site="lichess"} 1`,
		`threefold_source_connected{source="src"} 1`,
		"threefold_update_latency_seconds_count",
		"go_goroutines",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}

func TestPagesAreSelfContained(t *testing.T) {
	ts, _, _ := newTestServer(t, "")
	for _, path := range []string{"/", "/game?key=lichess/abc"} {
		code, body := get(t, ts.URL+path, nil)
		if code != http.StatusOK {
			t.Fatalf("%s: %d", path, code)
		}
		for _, bad := range []string{"/*STYLE*/", "/*SCRIPT*/", "http://", "https://", "<script src", "<link rel=\"stylesheet\""} {
			if strings.Contains(strings.ReplaceAll(body, "http://www.w3.org/2000/svg", ""), bad) {
				t.Errorf("%s contains %q", path, bad)
			}
		}
		if !strings.Contains(body, "TF.connect") {
			t.Errorf("%s: the script is not inlined", path)
		}
	}
}

// The websocket: a hello with the state, then every change.
func TestWebsocketFeed(t *testing.T) {
	ts, hub, _ := newTestServer(t, "")
	ref := threefold.GameRef{Site: "lichess", ID: "g1", White: "A", Black: "B"}
	hub.Update(threefold.GameState{Game: ref, Moves: []string{"e4"}})
	c, _, err := websocket.DefaultDialer.Dial(wsURL(ts, "?game=lichess/g1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var hello message
	if err := c.ReadJSON(&hello); err != nil {
		t.Fatal(err)
	}
	if hello.Type != "hello" || hello.Game == nil || hello.Game.Ply != 1 || len(hello.Game.FENs) != 2 {
		t.Fatalf("hello = %+v", hello)
	}
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Ng1", "Nb8", "Nf3", "Nc6", "Ng1", "Nb8"}
	hub.Update(threefold.GameState{Game: ref, Moves: moves})
	hub.Alert(threefold.Alert{ID: "a1", Kind: threefold.KindThreefold, Ply: 10, Game: ref})
	sawGame, sawAlert := false, false
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	for !sawGame || !sawAlert {
		var m message
		if err := c.ReadJSON(&m); err != nil {
			t.Fatalf("no update: %v", err)
		}
		switch {
		case m.Type == "game" && m.Game.Ply == len(moves):
			if m.Game.Count != 3 || !m.Game.Threefold || m.Game.FENs == nil {
				t.Fatalf("game = %+v", m.Game)
			}
			sawGame = true
		case m.Type == "alert":
			if m.Alert.ID != "a1" {
				t.Fatalf("alert = %+v", m.Alert)
			}
			sawAlert = true
		}
	}
}

// The bot's status reaches the index pages (in the hello and when it
// changes), not the pages of one game.
func TestBotStatusOnTheIndex(t *testing.T) {
	hub := NewHub(HubOptions{})
	hub.SetBot(threefold.BotStatus{Account: "ThreefoldBot", Wins: 1})
	index := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	game := &client{focus: "lichess/g1", send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	if !hub.register(index) || !hub.register(game) {
		t.Fatal("register refused")
	}
	hub.push() // what was pending before the pages came
	read := func(c *client) []message {
		var out []message
		for {
			select {
			case b := <-c.send:
				var m message
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				out = append(out, m)
			default:
				return out
			}
		}
	}
	hello := read(index)
	if len(hello) == 0 || hello[0].Type != "hello" || hello[0].Bot == nil || hello[0].Bot.Wins != 1 {
		t.Fatalf("index hello %+v, want the bot's status", hello)
	}
	for _, m := range read(game) {
		if m.Bot != nil {
			t.Errorf("a game page got the bot's status: %+v", m)
		}
	}
	hub.SetBot(threefold.BotStatus{Account: "ThreefoldBot", Wins: 2, Playing: 1})
	hub.push()
	got := read(index)
	if len(got) != 1 || got[0].Type != "bot" || got[0].Bot.Wins != 2 || got[0].Bot.Playing != 1 {
		t.Errorf("index got %+v after the status changed, want one bot message", got)
	}
	if got := read(game); len(got) != 0 {
		t.Errorf("a game page got %+v", got)
	}
}

// A page that cannot keep up is dropped; the others still get everything.
func TestSlowPageDropped(t *testing.T) {
	hub := NewHub(HubOptions{Metrics: NewMetrics()})
	slow := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	fast := &client{send: make(chan []byte, clientBuffer), quit: make(chan struct{})}
	if !hub.register(slow) || !hub.register(fast) {
		t.Fatal("register refused")
	}
	<-fast.send // hello
	ref := threefold.GameRef{Site: "lichess", ID: "g1"}
	for i := 0; i < 2*clientBuffer; i++ {
		hub.Alert(threefold.Alert{ID: fmt.Sprint(i), Kind: threefold.KindClaimByMove, Game: ref})
		hub.push()
		<-fast.send
	}
	select {
	case <-slow.quit:
	default:
		t.Fatal("the slow page was not dropped")
	}
	select {
	case <-fast.quit:
		t.Fatal("the page that keeps up was dropped")
	default:
	}
	if n := hub.Clients(); n != 1 {
		t.Fatalf("%d pages, want 1", n)
	}
}

func TestViewMarksEveryOccurrence(t *testing.T) {
	hub := NewHub(HubOptions{})
	ref := threefold.GameRef{Site: "file", ID: "1"}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4"}
	tests := []struct {
		name      string
		moves     []string
		notation  rules.Notation
		ply       int
		count     int
		threefold bool
		claims    []string
		repeated  [][]int
		attention bool
	}{
		{name: "start", moves: nil, ply: 0, count: 1, repeated: [][]int{}},
		{name: "second occurrence", moves: moves[:4], ply: 4, count: 2, repeated: [][]int{{0, 4}}},
		{name: "claim by move", moves: moves[:7], ply: 7, count: 2, claims: []string{"g8"},
			repeated: [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
		{name: "third occurrence", moves: moves[:8], ply: 8, count: 3, threefold: true, claims: []string{"f3"},
			repeated: [][]int{{0, 4, 8}, {1, 5}, {2, 6}, {3, 7}}},
		{name: "takeback rebuilds", moves: moves[:6], ply: 6, count: 2, repeated: [][]int{{0, 4}, {1, 5}, {2, 6}}},
		{name: "irreversible move", moves: moves, ply: 9, count: 1, repeated: [][]int{{0, 4, 8}, {1, 5}, {2, 6}, {3, 7}}},
		{name: "uci", moves: []string{"g1f3", "g8f6", "f3g1", "f6g8"}, notation: rules.UCI, ply: 4, count: 2, repeated: [][]int{{0, 4}}},
		{name: "bad move stops short", moves: []string{"Nf3", "Nf6", "Qxh7"}, ply: 2, count: 1, repeated: [][]int{}, attention: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hub.Update(threefold.GameState{Game: ref, Moves: tc.moves, Notation: tc.notation})
			v, ok := hub.Game(GameKey(ref))
			if !ok {
				t.Fatal("no view")
			}
			if v.Ply != tc.ply || v.Count != tc.count || v.Threefold != tc.threefold || (v.Attention != "") != tc.attention {
				t.Fatalf("ply %d count %d threefold %v attention %q", v.Ply, v.Count, v.Threefold, v.Attention)
			}
			var claims []string
			for _, c := range v.ClaimMoves {
				claims = append(claims, c.SAN[len(c.SAN)-2:])
			}
			if !slices.Equal(claims, tc.claims) {
				t.Fatalf("claims %v, want %v", claims, tc.claims)
			}
			if len(v.Repeated) != len(tc.repeated) {
				t.Fatalf("repeated %v, want %v", v.Repeated, tc.repeated)
			}
			for i := range tc.repeated {
				if !slices.Equal(v.Repeated[i], tc.repeated[i]) {
					t.Fatalf("repeated %v, want %v", v.Repeated, tc.repeated)
				}
			}
			if len(v.FENs) != v.Ply+1 || len(v.Occ) != v.Ply+1 || len(v.Group) != v.Ply+1 || len(v.SAN) != v.Ply+1 {
				t.Fatalf("per-ply slices of the wrong length: %d %d %d %d", len(v.FENs), len(v.Occ), len(v.Group), len(v.SAN))
			}
			for g, plies := range v.Repeated {
				for i, p := range plies {
					if v.Group[p] != g || v.Occ[p] != i+1 {
						t.Fatalf("ply %d: group %d occ %d, want %d %d", p, v.Group[p], v.Occ[p], g, i+1)
					}
				}
			}
			// The index pages' summary: the counts, not the plies of the
			// repeated positions (sent on every move, it grew with them).
			if s := v.Summary(); s.Repeated != nil || s.MaxCount != v.MaxCount || s.Count != v.Count || len(v.Repeated) != len(tc.repeated) {
				t.Fatalf("summary: repeated %v, max count %d, count %d", s.Repeated, s.MaxCount, s.Count)
			}
		})
	}
}

// TestViewNoClaimOnAFinishedGame: nobody may claim in a game that is over —
// finished at its source, or drawn by its fifth occurrence (9.6.1), even
// when the record goes on after it — so the view offers no claim there.
func TestViewNoClaimOnAFinishedGame(t *testing.T) {
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	var fifth []string
	for range 4 {
		fifth = append(fifth, shuffle...)
	}
	tests := []struct {
		name                string
		moves               []string
		finished            bool
		threefold, fivefold bool
		claims              int
	}{
		{name: "third occurrence, playing", moves: fifth[:8], threefold: true, claims: 1},
		{name: "third occurrence, finished", moves: fifth[:8], finished: true},
		{name: "fifth occurrence", moves: fifth, fivefold: true},
		{name: "moves recorded after the fifth occurrence", moves: append(slices.Clone(fifth), "Nf3", "Nf6"), fivefold: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hub := NewHub(HubOptions{})
			ref := threefold.GameRef{Site: "file", ID: "1"}
			hub.Update(threefold.GameState{Game: ref, Moves: tc.moves, Finished: tc.finished})
			v, ok := hub.Game(GameKey(ref))
			if !ok {
				t.Fatal("no view")
			}
			if v.Threefold != tc.threefold || v.Fivefold != tc.fivefold || len(v.ClaimMoves) != tc.claims {
				t.Errorf("threefold %v fivefold %v claim moves %v; want %v %v and %d claim moves",
					v.Threefold, v.Fivefold, v.ClaimMoves, tc.threefold, tc.fivefold, tc.claims)
			}
		})
	}
}

// A game's view says how far behind the board its source is: in plies for
// a Lichess spectator stream (no delay in seconds), in time for others.
func TestViewSaysHowFarBehind(t *testing.T) {
	hub := NewHub(HubOptions{})
	for _, row := range []struct {
		name   string
		plies  int
		delay  time.Duration
		wantJS string
	}{
		{"lichess spectator stream", 3, 0, `"delay_s":0,"delay_plies":3`},
		{"broadcast", 0, time.Hour, `"delay_s":3600,`},
	} {
		t.Run(row.name, func(t *testing.T) {
			ref := threefold.GameRef{Site: "lichess", ID: row.name}
			hub.Update(threefold.GameState{Game: ref, Moves: []string{"e4"}, DelayPlies: row.plies, Delay: row.delay})
			v, ok := hub.Game(GameKey(ref))
			if !ok {
				t.Fatal("no view")
			}
			b, _ := json.Marshal(v)
			if v.DelayPlies != row.plies || !strings.Contains(string(b), row.wantJS) {
				t.Errorf("view %s, want %s", b, row.wantJS)
			}
		})
	}
}
