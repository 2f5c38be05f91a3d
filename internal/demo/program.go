package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store"
)

// Targets are the sources the demo's watcher follows: the scenario's
// URLs, read as a user's would be.
func (s *Scenario) Targets() ([]listener.Target, error) {
	targets, err := listener.ParseTargets(s.URLs(), listener.ParseOptions{LichessBase: s.fake.URL})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	return targets, nil
}

// BotConfig is the bot's config in the demo: the built-in mover, games
// resigned at the end, and a pawn down counts as behind, so the bot seeks
// the repetition; it claims after pace, and chats in the language l.
func BotConfig(pace time.Duration, l i18n.Lang) (bot.Config, error) {
	bc := bot.DefaultConfig()
	bc.Chat.SpeakDefaults(l)
	bc.OnStop = "resign"
	bc.StopTimeout = 5 * time.Second
	bc.Policy.BehindMargin = 50
	bc.Policy.ClaimWait = pace
	bc.Chat.MinInterval = 0
	if err := bc.Validate(); err != nil {
		return bc, fmt.Errorf("demo: bot: %w", err)
	}
	return bc, nil
}

// Stored counts the alerts and games in the demo's store.
func Stored(ctx context.Context, st *store.Store) (alerts, games int) {
	if as, err := st.Alerts(ctx, store.AlertFilter{}); err == nil {
		alerts = len(as)
	}
	if gs, err := st.Games(ctx, store.GameFilter{}); err == nil {
		games = len(gs)
	}
	return alerts, games
}

// Webhook is the demo's webhook: a local server that counts the alerts it
// receives, by their Idempotency-Key. Close stops it.
type Webhook struct {
	*httptest.Server
	mu  sync.Mutex
	ids map[string]bool
}

// NewWebhook starts the webhook.
func NewWebhook() *Webhook {
	h := &Webhook{ids: map[string]bool{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		h.mu.Lock()
		h.ids[r.Header.Get(notify.IdempotencyHeader)] = true
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return h
}

// Received is how many alerts (distinct ids) the webhook received.
func (h *Webhook) Received() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.ids)
}

// Part is one part of the demo that runs until its context is done.
type Part struct {
	Name string
	Run  func() error
}

// RunParts runs the parts together and returns when all have returned. A
// part that fails (not by its context's end) is reported to failed, if not
// nil, and the others go on.
func RunParts(failed func(part string, err error), parts ...Part) {
	var wg sync.WaitGroup
	for _, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Run(); err != nil && failed != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				failed(p.Name, err)
			}
		}()
	}
	wg.Wait()
}
