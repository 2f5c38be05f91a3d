package listener

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// FuzzPGNFeed feeds two PGN chunks to the broadcast PGN feed, as a
// broadcast stream sends them (the second usually resends the first's games
// with more moves), and checks it against a fresh feed given only the
// second: the incremental path (tail-only parses, appends to slices handed
// out) must end in the same state as a full parse, and no slice handed out
// is ever changed.
func FuzzPGNFeed(f *testing.F) {
	round, err := os.ReadFile("../lichess/testdata/recorded/broadcast-round.pgn")
	if err != nil {
		f.Fatal(err)
	}
	text := string(round)
	f.Add(text, text)
	if i := strings.Index(text, "e5 *"); i > 0 {
		f.Add(text[:i]+"*\n", text)                          // a move more
		f.Add(text, text[:i]+"e5 Nf3 Nc6 Bb5 *\n")           // several more
		f.Add(text, text[:i]+"e5 1-0\n")                     // a result
		f.Add(text, text[:i]+"d5 *\n")                       // a correction
		f.Add(text, strings.Replace(text, "\n", "\r\n", -1)) // other line ends
		f.Add(text[:i]+"e5 {a comment *\n", text[:i]+"e5 {a comment } Nf3 *\n")
	}
	f.Add("[GameURL \"u\"]\n\n1. e4 *", "[GameURL \"u\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *")
	f.Add("[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1\"]\n\n1. Kg1 *", "[White \"\x00\"]\n\n1. e4 ½-½")
	f.Add("", "\n\n\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
		type handed struct {
			moves, copy []string
		}
		var out []handed
		collect := func(last map[string]threefold.GameState) Emit {
			return func(s threefold.GameState) error {
				if s.Game.ID == "" || s.Game.Site != "lichess" || s.Notation != rules.SAN {
					t.Errorf("snapshot %+v", s.Game)
				}
				if s.Finished != (s.Result != "" && s.Result != "*") {
					t.Errorf("finished %v with result %q", s.Finished, s.Result)
				}
				out = append(out, handed{s.Moves, slices.Clone(s.Moves)})
				last[s.Game.ID] = s
				return nil
			}
		}
		fallback := func(i int) string { return "game" + string(rune('a'+i%26)) + strings.Repeat("+", i/26) }

		inc, incLast := newPGNFeed("lichess", "fuzz", 0, "", nil, pgn.Limits{}), map[string]threefold.GameState{}
		inc.at = at
		errA := inc.feedText(a, fallback, collect(incLast))
		errB := inc.feedText(b, fallback, collect(incLast))
		full, fullLast := newPGNFeed("lichess", "fuzz", 0, "", nil, pgn.Limits{}), map[string]threefold.GameState{}
		full.at = at
		errFull := full.feedText(b, fallback, collect(fullLast))

		for i, h := range out {
			if !slices.Equal(h.moves, h.copy) {
				t.Fatalf("snapshot %d: a slice handed out was changed: %q, was %q", i, h.moves, h.copy)
			}
		}
		if errA != nil || errB != nil || errFull != nil {
			return
		}
		for id, want := range fullLast {
			got, ok := incLast[id]
			if !ok {
				t.Errorf("game %s: the full parse has it, the incremental feed never emitted it", id)
				continue
			}
			if !slices.Equal(got.Moves, want.Moves) || got.Result != want.Result || got.StartFEN != want.StartFEN {
				t.Errorf("game %s: incremental %q %q, full parse %q %q", id, got.Moves, got.Result, want.Moves, want.Result)
			}
		}
	})
}

// dgtFuzzServer is a minimal LiveChess: each connection gets the frames of
// the current input (one per line) after the client's first call, then,
// once the client has handled them, the server closes the connection.
type dgtFuzzServer struct {
	srv    *httptest.Server
	mu     sync.Mutex
	frames [][]byte
}

func newDGTFuzzServer(tb testing.TB) *dgtFuzzServer {
	s := &dgtFuzzServer{}
	up := websocket.Upgrader{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		if _, _, err := conn.ReadMessage(); err != nil { // the eboards call
			return
		}
		// After the frames a ping: its pong comes back once the client has
		// handled every frame before it (its read loop answers pings).
		pong := make(chan struct{}, 1)
		conn.SetPongHandler(func(string) error {
			select {
			case pong <- struct{}{}:
			default:
			}
			return nil
		})
		done := make(chan struct{})
		go func() { // drain the subscribe calls, see the pong
			defer close(done)
			for {
				if _, _, err := conn.ReadMessage(); err != nil {
					return
				}
			}
		}()
		s.mu.Lock()
		frames := s.frames
		s.mu.Unlock()
		for _, fr := range frames {
			if err := conn.WriteMessage(websocket.TextMessage, fr); err != nil {
				break
			}
		}
		if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(time.Second)) == nil {
			select {
			case <-pong:
			case <-done:
			case <-time.After(10 * time.Second):
			}
		}
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		conn.Close()
		<-done
	}))
	tb.Cleanup(s.srv.Close)
	return s
}

func (s *dgtFuzzServer) url() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/api/v1.0"
}

// dgtSeed: two boards, followed (feed 1 and feed 2). Board 1001's list
// changes three times: a move reported twice (one snapshot), the same list
// again (none), an empty list (a new game: the game before finished, the
// new one at the start: two), an impossible move (one); 1002's once, named
// by its feed id only (one). Five snapshots.
var dgtSeed = []byte(`{"response":"call","id":1,"param":[{"serialnr":"1001","state":"ACTIVE"},{"serialnr":"1002","state":"ACTIVE"}]}
{"response":"feed","id":1,"param":{"serialnr":"1001","san":["e4","e5","Nf3","Nf3"]}}
{"response":"feed","id":2,"param":{"san":["d4"]}}
{"response":"feed","id":1,"param":{"serialnr":"1001","san":["e4","e5","Nf3","Nf3"]}}
{"response":"feed","id":1,"param":{"serialnr":"1001","san":[]}}
{"response":"feed","id":1,"param":{"serialnr":"1001","san":["Qxf9","e4"]}}`)

// dgtSeedLiveChess: what LiveChess sends, message by message: the list of
// boards with every field (states null, INACTIVE, DELAYED), a subscription
// accepted then its first message (board and clock, no moves), one refused
// (an error response), a game from a set-up start, a clock.
var dgtSeedLiveChess = []byte(`{"response":"call","id":1,"param":[{"serialnr":"7425","source":"COM3","state":"ACTIVE","battery":"87%","comment":null,"board":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR","flipped":false,"clock":{"white":5400,"black":5400,"run":null,"time":1503845105357}},{"serialnr":"7426","source":null,"state":null,"battery":null,"comment":null,"board":null,"flipped":false,"clock":null},{"serialnr":"7427","source":"COM4","state":"DELAYED","board":"8/8/8/8/8/8/8/8","flipped":true},{"serialnr":"7428","state":"INACTIVE"}],"time":1503849460753}
{"id":2,"response":"call","param":null,"time":1503849460753}
{"response":"feed","id":1,"param":{"serialnr":"7425","flipped":false,"board":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR","clock":{"white":5676,"black":7190,"run":true,"time":1503845105357}},"time":1503849460756}
{"response":"error","id":3,"param":{"message":"EBoard 7427 is not available","stacktrace":"java.lang.IllegalStateException"},"time":1503849460757}
{"response":"feed","id":1,"param":{"serialnr":"7425","flipped":false,"board":"4k3/8/8/8/8/8/R7/4K2R","clock":{"white":5600,"black":7190,"run":false,"time":1503845105999},"start":"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1","san":["Ra2"],"match":true},"time":1503849460800}
{"response":"error","id":99,"param":null}`)

// FuzzDGTMessages runs the DGT source's message handling (the eboards
// reply, subscriptions, feed messages with SAN lists, de-duplication of
// moves reported twice, new games on a board) over frames from the fuzzer,
// served by a websocket server on loopback.
func FuzzDGTMessages(f *testing.F) {
	f.Add(dgtSeed)
	f.Add(dgtSeedLiveChess)
	f.Add([]byte(`{"response":"feed","id":"x","param":{"serialnr":"","san":null}}
{"response":"call","id":1,"param":{"not":"a list"}}
{"response":"call","id":1.5e400,"param":[]}
not json`))
	f.Add([]byte(`{"response":"feed","id":1,"param":{"serialnr":"1","san":["e4","e5","Ke2","Ke7","Ke1","Ke8","Ke2","Ke7","Ke1","Ke8"],"clock":{"white":1}}}`))
	srv := newDGTFuzzServer(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		var frames [][]byte
		for _, l := range bytes.Split(input, []byte("\n")) {
			if len(l) > 0 {
				frames = append(frames, l)
			}
		}
		srv.mu.Lock()
		srv.frames = frames
		srv.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var once sync.Once
		src := &DGTSource{URL: srv.url(), OnState: func(connected bool, _ error) {
			if !connected {
				once.Do(cancel) // one session is the whole input
			}
		}}
		emitted := 0
		err := src.Run(ctx, func(s threefold.GameState) error {
			if s.Game.Site != "dgt" || !strings.HasPrefix(s.Game.ID, "127.0.0.1:") || s.Audience != threefold.AudienceArbiters || s.Notation != rules.SAN {
				t.Errorf("snapshot %+v", s)
			}
			emitted++
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v", err)
		}
		if bytes.Equal(input, dgtSeed) && emitted != 5 {
			t.Errorf("the first seed emitted %d snapshots, want 5", emitted)
		}
		if bytes.Equal(input, dgtSeedLiveChess) && emitted != 3 {
			t.Errorf("the LiveChess seed emitted %d snapshots, want 3 (the game at the start, over when the set-up start comes, the game from it)", emitted)
		}
	})
}
