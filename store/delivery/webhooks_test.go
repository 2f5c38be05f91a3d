package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/notify"
)

// hookServer is a JSON webhook that records the ids it accepted.
type hookServer struct {
	*httptest.Server
	mu  sync.Mutex
	ids []string
}

func newHookServer(t *testing.T) *hookServer {
	h := &hookServer{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var a threefold.Alert
		if err := json.NewDecoder(r.Body).Decode(&a); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.ids = append(h.ids, a.ID)
		h.mu.Unlock()
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookServer) accepted() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.ids)
}

// StartWebhooks starts a Durable per webhook, named after it: each is sent
// what the store owes it, then what is queued; Close delivers the queue.
func TestStartWebhooksAndClose(t *testing.T) {
	ctx := context.Background()
	st := open(t, t.TempDir())
	defer st.Close()
	a, b := newHookServer(t), newHookServer(t)
	hooks := []*notify.Webhook{{Kind: notify.JSON, URL: a.URL, Name: "json webhook 1"}, {Kind: notify.JSON, URL: b.URL, Name: "json webhook 2"}}
	// Owed from an earlier run: stored after both were registered, never sent.
	first, err := StartWebhooks(ctx, ctx, st, hooks, DurableConfig{})
	if err != nil {
		t.Fatal(err)
	}
	first.Close(0)
	if _, err := st.PutAlert(ctx, alert(1)); err != nil {
		t.Fatal(err)
	}
	ds, err := StartWebhooks(ctx, ctx, st, hooks, DurableConfig{})
	if err != nil || len(ds) != 2 {
		t.Fatalf("StartWebhooks = %d, %v", len(ds), err)
	}
	if _, err := st.PutAlert(ctx, alert(2)); err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if err := d.Send(ctx, alert(2)); err != nil {
			t.Fatal(err)
		}
	}
	ds.Close(time.Minute)
	want := ids(alert(1), alert(2))
	for name, h := range map[string]*hookServer{"first": a, "second": b} {
		if got := h.accepted(); !slices.Equal(got, want) {
			t.Errorf("%s webhook accepted %v, want %v", name, got, want)
		}
	}
	for _, h := range hooks {
		if owed, err := st.Undelivered(ctx, h.Name, 10); err != nil || len(owed) != 0 {
			t.Errorf("%s still owed %v, %v", h.Name, owed, err)
		}
	}
}

// undeliveredFails cannot register the sink named fail.
type undeliveredFails struct {
	DurableStore
	fail string
}

func (s undeliveredFails) Undelivered(ctx context.Context, sink string, n int) ([]threefold.Alert, error) {
	if sink == s.fail {
		return nil, errDiskFull
	}
	return s.DurableStore.Undelivered(ctx, sink, n)
}

func TestStartWebhooksFailsWhole(t *testing.T) {
	ctx := context.Background()
	st := open(t, t.TempDir())
	defer st.Close()
	h := newHookServer(t)
	hooks := []*notify.Webhook{{Kind: notify.JSON, URL: h.URL, Name: "json webhook 1"}, {Kind: notify.JSON, URL: h.URL, Name: "json webhook 2"}}
	ds, err := StartWebhooks(ctx, ctx, undeliveredFails{DurableStore: st, fail: "json webhook 2"}, hooks, DurableConfig{})
	if !errors.Is(err, errDiskFull) || ds != nil {
		t.Fatalf("StartWebhooks = %v, %v; want no Durables and the store's error", ds, err)
	}
}
