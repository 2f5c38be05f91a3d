package notify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
)

// Every attempt at one alert carries the alert's id as its idempotency key.
func TestWebhookIdempotencyKey(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get(IdempotencyHeader))
		n := len(keys)
		mu.Unlock()
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	for _, kind := range []Kind{JSON, Discord, Slack} {
		mu.Lock()
		keys = nil
		mu.Unlock()
		a := threefold.Alert{ID: "0123456789abcdef01234567", Kind: threefold.KindThreefold, Ply: 12, Claimant: "white"}
		h := &Webhook{Kind: kind, URL: srv.URL, Clock: clock.NewAutoFake(time.Time{})}
		if err := h.Send(context.Background(), a); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		mu.Lock()
		if len(keys) != 2 || keys[0] != a.ID || keys[1] != a.ID {
			t.Errorf("%s: keys %q, want the alert id twice", kind, keys)
		}
		mu.Unlock()
	}
}
