package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
)

// Console is the demo's stdout: the alerts of the watcher and of the bot,
// and what the demo says, each line written whole although several
// goroutines write.
type Console struct {
	mu sync.Mutex
	w  io.Writer
}

// NewConsole writes to w.
func NewConsole(w io.Writer) *Console { return &Console{w: w} }

func (c *Console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Write(p)
}

func (c *Console) printf(format string, args ...any) {
	fmt.Fprintf(c, format+"\n", args...)
}

// Intro says what the demo runs: the simulated Lichess at fakeURL, the
// dashboard at dashURL, for d.
func (c *Console) Intro(fakeURL, dashURL string, d time.Duration) {
	c.printf("threefold demo — no account, no network: a simulated Lichess at %s replays recorded real games.", fakeURL)
	c.printf("dashboard: %s", dashURL)
	c.printf("following: a broadcast round of %d boards, a blitz game that reaches a fifth occurrence, and the bot's games; the demo ends after %s (Ctrl-C ends it sooner).", Boards, d)
}

// Outro says why the demo ended and what the store and the webhook got.
func (c *Console) Outro(reason string, games, alerts, received int) {
	c.printf("the store (a temporary one) holds %d games and %d alerts; the webhook (watch.webhooks) received %d of them.",
		games, alerts, received)
	c.printf("demo over (%s): %d alerts.", reason, alerts)
}

// WriteRecord says how a bot game ended (it is a bot.RecordSink).
func (c *Console) WriteRecord(_ context.Context, rec threefold.BotRecord) error {
	c.printf("bot game %s (%s vs %s) over: %s, %s after %d plies.", rec.GameID, rec.White.Name, rec.Black.Name,
		rec.Result, strings.ReplaceAll(string(rec.Termination), "_", " "), rec.Plies)
	return nil
}
