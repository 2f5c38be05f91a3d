package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// Console is the demo's stdout: the alerts of the watcher and of the bot,
// and what the demo says, each line written whole although several
// goroutines write.
type Console struct {
	mu sync.Mutex
	w  io.Writer
	p  *i18n.Printer
}

// NewConsole writes to w, in the language l.
func NewConsole(w io.Writer, l i18n.Lang) *Console { return &Console{w: w, p: i18n.For(l)} }

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
	c.printf("%s", c.p.Sprintf(i18n.DemoIntro, fakeURL))
	c.printf("%s", c.p.Sprintf(i18n.DemoDashboard, dashURL))
	c.printf("%s", c.p.Sprintf(i18n.DemoFollowing, Boards, c.duration(d)))
}

// Outro says why the demo ended (it ran for d, or was interrupted) and
// what the store and the webhook got.
func (c *Console) Outro(d time.Duration, interrupted bool, games, alerts, received int) {
	c.printf("%s", c.p.Sprintf(i18n.DemoStored, games, alerts, received))
	reason := c.p.Sprintf(i18n.DemoAfter, c.duration(d))
	if interrupted {
		reason = c.p.Sprintf(i18n.DemoInterrupted)
	}
	c.printf("%s", c.p.Sprintf(i18n.DemoOver, reason, alerts))
}

// duration is d as the console says it: as Go writes it in English
// ("1.5s"), with the language's units otherwise.
func (c *Console) duration(d time.Duration) string {
	if c.p.Lang() == i18n.English {
		return d.String()
	}
	return c.p.Duration(d)
}

// WriteRecord says how a bot game ended (it is a bot.RecordSink).
func (c *Console) WriteRecord(_ context.Context, rec threefold.BotRecord) error {
	c.printf("%s", c.p.Sprintf(i18n.DemoBotGame, rec.GameID, rec.White.Name, rec.Black.Name,
		rec.Result, strings.ReplaceAll(c.p.Termination(string(rec.Termination)), "_", " "), rec.Plies))
	return nil
}
