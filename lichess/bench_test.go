package lichess_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess"
)

// BenchmarkBotGameStream measures reading and decoding a bot game stream:
// b.N gameState lines of a 120-ply game (each line carries every move).
func BenchmarkBotGameStream(b *testing.B) {
	moves := strings.TrimSpace(strings.Repeat("g1f3 g8f6 f3g1 f6g8 ", 30))
	full := recorded("bot-game-stream.ndjson")[0] + "\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, full)
		for i := 0; i < b.N; i++ {
			fmt.Fprintf(w, `{"type":"gameState","moves":"%s","wtime":%d,"btime":900000,"winc":0,"binc":0,"status":"started"}`+"\n", moves, i)
		}
		io.WriteString(w, `{"type":"gameState","moves":"e2e4","wtime":1,"btime":1,"winc":0,"binc":0,"status":"resign","winner":"white"}`+"\n")
	}))
	defer srv.Close()
	c := lichess.NewClient(lichess.Options{BaseURL: srv.URL, Token: "lip_bench"})
	defer c.Close()
	n := 0
	b.SetBytes(int64(len(moves) + 100))
	b.ResetTimer()
	err := c.StreamBotGame(context.Background(), "bench", func(ev lichess.GameEvent) error {
		n++
		return nil
	})
	b.StopTimer()
	if err != nil || n != b.N+2 {
		b.Fatalf("%d events, %v", n, err)
	}
}

// BenchmarkCall measures one call through the governor to a local server.
func BenchmarkCall(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	c := lichess.NewClient(lichess.Options{BaseURL: srv.URL, Token: "lip_bench"})
	defer c.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Move(ctx, "g", "e2e4", false); err != nil && !errors.Is(err, context.Canceled) {
			b.Fatal(err)
		}
	}
}
