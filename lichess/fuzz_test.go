package lichess_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/lichess"
)

// The fuzz targets below run the real stream readers (line splitting,
// keep-alives, decoding, de-duplication, reconnect) over a body that is the
// fuzz input. An in-memory transport serves the body on the first
// connection and 404 on the next, which ends the stream: no network, no
// timers that matter, a few tens of microseconds per input.

// onceTransport answers the first request with body and every later one
// with 404.
type onceTransport struct {
	mu   sync.Mutex
	body []byte
	n    int
}

func (t *onceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	t.mu.Lock()
	t.n++
	n := t.n
	t.mu.Unlock()
	if n == 1 {
		return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {"application/x-ndjson"}},
			Body: io.NopCloser(bytes.NewReader(t.body)), Request: r}, nil
	}
	return &http.Response{StatusCode: 404, Status: "404 Not Found", Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"error":"Not found"}`)), Request: r}, nil
}

const fuzzToken = "lip_fuzzSecretToken0123"

func fuzzClient(t *testing.T, body []byte) *lichess.Client {
	c := lichess.NewClient(lichess.Options{
		BaseURL:    "http://lichess.invalid",
		Token:      fuzzToken,
		HTTPClient: &http.Client{Transport: &onceTransport{body: body}},
		Logger:     slog.New(slog.DiscardHandler),
		Backoff:    lichess.Backoff{Initial: time.Nanosecond, Max: time.Nanosecond},
		MaxRetries: -1,
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// lines are the non-blank lines of body, as the stream splits them.
func lines(body []byte) map[string]bool {
	out := map[string]bool{}
	for _, l := range bytes.Split(body, []byte("\n")) {
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) > 0 {
			out[string(l)] = true
		}
	}
	return out
}

// seedFile adds each recorded stream of the fake's testdata, whole and line
// by line.
func seedFile(f *testing.F, name string) {
	b, err := os.ReadFile("testdata/recorded/" + name)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(l) > 0 {
			f.Add(l)
		}
	}
}

func runFuzzStream(t *testing.T, run func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := run(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the stream did not end")
	}
	if err != nil && strings.Contains(err.Error(), fuzzToken) {
		t.Fatalf("the token is in an error: %v", err)
	}
}

func FuzzEventStream(f *testing.F) {
	seedFile(f, "event-stream.ndjson")
	f.Add([]byte("\n\n{\"type\":\"gameStart\"}\n{\"type\":\"challenge\",\"challenge\":null}\n"))
	f.Add([]byte("{\"type\":\"gameStart\",\"game\":{\"id\":\"a\"}}\r\n{\"type\":\"gameStart\",\"game\":{\"gameId\":\"a\"}}\n{\"type\":\"gameFinish\",\"game\":{\"id\":\"a\"}}"))
	f.Add([]byte("{\"type\":\"challengeDeclined\",\"challenge\":{\"id\":\"x\",\"challenger\":{\"name\":\"\\u202e\"}}}\n\xff\xfe\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		in := lines(body)
		started := map[string]int{}
		runFuzzStream(t, func(ctx context.Context) error {
			return fuzzClient(t, body).StreamEvents(ctx, func(ev lichess.Event) error {
				if !in[string(ev.Raw)] {
					t.Errorf("event %q: Raw is not a line of the stream", ev.Type)
				}
				switch ev.Type {
				case lichess.EventGameStart, lichess.EventGameFinish:
					if ev.Game == nil {
						t.Fatalf("%s without game delivered", ev.Type)
					}
					if ev.Type == lichess.EventGameStart {
						id := ev.Game.GameID
						if id == "" {
							id = ev.Game.ID
						}
						if started[id]++; started[id] > 1 {
							t.Errorf("game %q started twice", id)
						}
					}
				case lichess.EventChallenge, lichess.EventChallengeCanceled, lichess.EventChallengeDeclined:
					if ev.Challenge == nil {
						t.Fatalf("%s without challenge delivered", ev.Type)
					}
				}
				return nil
			})
		})
	})
}

func FuzzBotGameStream(f *testing.F) {
	seedFile(f, "bot-game-stream.ndjson")
	f.Add([]byte("{\"type\":\"gameState\",\"moves\":\"e2e4 \\u0000\",\"status\":\"mate\"}\n"))
	f.Add([]byte("{\"type\":\"chatLine\",\"room\":\"player\",\"username\":\"<b>x</b>\",\"text\":\"http://evil\"}\n{\"type\":\"opponentGone\",\"gone\":true,\"claimWinInSeconds\":-5}\n"))
	f.Add([]byte("{\"type\":\"gameFull\",\"state\":null}\n{\"type\":\"unknown\"}\n{\"type\":1}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		in := lines(body)
		runFuzzStream(t, func(ctx context.Context) error {
			return fuzzClient(t, body).StreamBotGame(ctx, "fuzzgame", func(ev lichess.GameEvent) error {
				if !in[string(ev.Raw)] {
					t.Errorf("event %q: Raw is not a line of the stream", ev.Type)
				}
				set := 0
				for _, p := range []bool{ev.Full != nil, ev.State != nil, ev.Chat != nil, ev.OpponentGone != nil} {
					if p {
						set++
					}
				}
				var want bool
				switch ev.Type {
				case lichess.GameEventFull:
					want = ev.Full != nil
				case lichess.GameEventState:
					want = ev.State != nil
				case lichess.GameEventChat:
					want = ev.Chat != nil
				case lichess.GameEventOpponentGone:
					want = ev.OpponentGone != nil
				default:
					want = set == 0
				}
				if !want || set > 1 {
					t.Errorf("event %q: fields set do not match the type (%d set)", ev.Type, set)
				}
				return nil
			})
		})
	})
}

func FuzzSpectatorStream(f *testing.F) {
	seedFile(f, "spectator-stream.ndjson")
	f.Add([]byte("{\"id\":null}\n{\"fen\":\"\"}\n{\"fen\":\"8/8/8/8/8/8/8/8 w - - 0 1\",\"lm\":\"zz\"}\n"))
	f.Add([]byte("{\"id\":\"x\",\"startedAtTurn\":-9223372036854775808,\"status\":{\"id\":99}}\n{\"fen\":\"k7/8/8/8/8/8/8/7K w - - 0 1\"}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		runFuzzStream(t, func(ctx context.Context) error {
			return fuzzClient(t, body).StreamGame(ctx, "fuzzgame", func(ev lichess.SpectatorEvent) error {
				if (ev.Game == nil) == (ev.Position == nil) {
					t.Fatalf("spectator event with %v game and %v position", ev.Game != nil, ev.Position != nil)
				}
				if ev.Position != nil && ev.Position.FEN == "" {
					t.Error("a position without FEN was delivered")
				}
				return nil
			})
		})
	})
}

func FuzzTVFeed(f *testing.F) {
	seedFile(f, "tv-feed.ndjson")
	f.Add([]byte("{\"t\":\"fen\",\"d\":null}\n{\"t\":\"featured\",\"d\":[]}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		runFuzzStream(t, func(ctx context.Context) error {
			return fuzzClient(t, body).StreamTV(ctx, "", func(ev lichess.TVEvent) error {
				if (ev.Featured == nil) == (ev.FEN == nil) {
					t.Fatalf("tv event %q with %v featured and %v fen", ev.Type, ev.Featured != nil, ev.FEN != nil)
				}
				return nil
			})
		})
	})
}

func FuzzGamesByUsers(f *testing.F) {
	seedFile(f, "games-by-users.ndjson")
	f.Add([]byte("{\"id\":\"\"}\n{\"id\":\"a\",\"status\":\"x\"}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		seen := map[string]bool{}
		runFuzzStream(t, func(ctx context.Context) error {
			return fuzzClient(t, body).StreamGamesByUsers(ctx, []string{"alice", "bob"}, func(g lichess.GameSummary) error {
				if g.ID == "" {
					t.Error("a game without id was delivered")
				}
				k := fmt.Sprint(g.ID, ":", g.Status)
				if seen[k] {
					t.Errorf("game %s status %d delivered twice", g.ID, g.Status)
				}
				seen[k] = true
				return nil
			})
		})
	})
}

func FuzzGamesByIDs(f *testing.F) {
	seedFile(f, "games-by-users.ndjson")
	f.Add([]byte("{\"id\":\"aaaaaaaa\",\"status\":{\"id\":25}}\n{\"id\":[]}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		runFuzzStream(t, func(ctx context.Context) error {
			return fuzzClient(t, body).StreamGamesByIDs(ctx, "fuzz", []string{"aaaaaaaa", "bbbbbbbb"}, func(g lichess.GameSummary) error {
				if g.ID == "" {
					t.Error("a game without id was delivered")
				}
				return nil
			})
		})
	})
}

// FuzzBroadcastRound: the broadcast stream's PGN splitter and
// de-duplication over any bytes: every game it delivers is non-blank and
// none is longer than the size cap plus the line that crossed it.
func FuzzBroadcastRound(f *testing.F) {
	seedFile(f, "broadcast-round.pgn")
	f.Add([]byte("[Event \"a\"]\n[Event \"b\"]\n\n1. e4 *\n\n\n[White \"x\"]\n1. d4 { [%clk 1:00:00] }\n \n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		const capBytes = 4096
		longestLine := 0
		for _, l := range bytes.Split(body, []byte("\n")) {
			longestLine = max(longestLine, len(l))
		}
		c := lichess.NewClient(lichess.Options{
			BaseURL:     "http://lichess.invalid",
			HTTPClient:  &http.Client{Transport: &onceTransport{body: body}},
			Logger:      slog.New(slog.DiscardHandler),
			Backoff:     lichess.Backoff{Initial: time.Nanosecond, Max: time.Nanosecond},
			MaxRetries:  -1,
			MaxPGNBytes: capBytes,
		})
		t.Cleanup(func() { c.Close() })
		runFuzzStream(t, func(ctx context.Context) error {
			return c.StreamBroadcastRound(ctx, "fuzzround", func(pgn string) error {
				if strings.TrimSpace(pgn) == "" {
					t.Error("a blank game was delivered")
				}
				// +2: the line's newline and the blank line before movetext.
				if limit := capBytes + longestLine + 2; len(pgn) > limit {
					t.Errorf("a game of %d bytes was delivered (cap %d, longest line %d)", len(pgn), capBytes, longestLine)
				}
				return nil
			})
		})
	})
}
