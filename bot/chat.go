package bot

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
)

// ChatMaxLen is the longest chat line Lichess accepts, in characters.
const ChatMaxLen = 140

// Chat notice kinds: the events the bot speaks about.
const (
	NoticeGreeting = "greeting"
	NoticeGoodbye  = "goodbye"
	NoticeSecond   = "second"
	NoticeThird    = "third"
	NoticeClaim    = "claim"
	NoticeFifth    = "fifth"
)

// placeholders are the names a chat template may use.
var placeholders = []string{"me", "opponent", "move", "ply", "plies", "count", "claimant", "ending", "result"}

func knownPlaceholder(name string) bool {
	for _, p := range placeholders {
		if p == name {
			return true
		}
	}
	return false
}

// ChatVars are the values of the placeholders of a chat template:
//
//	{me} {opponent}  the players' names
//	{move}           the move that produced the position, as "23. Nf3" or "23... Nf6"
//	{ply}            the current ply
//	{plies}          the plies of every occurrence, "10, 14, 18"
//	{count}          how many times the position occurred
//	{claimant}       the player who may claim (the side to move)
//	{ending}         how the game ended, a sentence (goodbye)
//	{result}         1-0, 0-1, 1/2-1/2 or * (goodbye)
type ChatVars struct {
	Me, Opponent, Move, Plies, Claimant, Ending, Result string
	Ply, Count                                          int
}

// RenderChat fills a template and cuts the result to ChatMaxLen characters.
// Unknown placeholders are left as they are (Validate refuses them). The
// values come from other people (an opponent's name) and are made safe
// first (ChatSafe); a value is never read as a placeholder.
func RenderChat(tmpl string, v ChatVars) string {
	r := strings.NewReplacer(
		"{me}", ChatSafe(v.Me), "{opponent}", ChatSafe(v.Opponent), "{move}", ChatSafe(v.Move),
		"{ply}", itoa(v.Ply), "{plies}", ChatSafe(v.Plies), "{count}", itoa(v.Count),
		"{claimant}", ChatSafe(v.Claimant), "{ending}", ChatSafe(v.Ending), "{result}", ChatSafe(v.Result))
	s := strings.Join(strings.Fields(r.Replace(tmpl)), " ")
	if utf8.RuneCountInString(s) > ChatMaxLen {
		rs := []rune(s)
		s = string(rs[:ChatMaxLen-1]) + "…"
	}
	return s
}

// ChatSafe makes text from someone else (a username, an event's name) fit
// to put in a chat line: one line of printable text that no chat client
// turns into a link or a mention. Invalid UTF-8, control characters and
// invisible formatting characters (bidi overrides, zero-width joiners) are
// removed (line breaks and tabs become spaces), "@" is dropped, a scheme's
// "://" becomes a space, and a dot between a letter or digit and a letter
// (a domain name: lichess.org, www.x) becomes a space. Ordinary names
// ("St. Louis", "Ivanchuk V.", "Élodie") are left as they are.
func ChatSafe(s string) string {
	rs := []rune(strings.ToValidUTF8(s, ""))
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == utf8.RuneError || r == '@' || unicode.Is(unicode.Cf, r):
			// dropped
		case unicode.IsSpace(r) || unicode.IsControl(r):
			b.WriteByte(' ')
		case r == ':' && i+1 < len(rs) && rs[i+1] == '/':
			b.WriteByte(' ')
		case r == '/' && i > 0 && (rs[i-1] == ':' || rs[i-1] == '/'):
			// the slashes of a scheme
		case r == '.' && i > 0 && i+1 < len(rs) && (unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1]) || rs[i-1] == '-') && unicode.IsLetter(rs[i+1]):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func joinPlies(plies []int) string {
	var b strings.Builder
	for i, p := range plies {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(itoa(p))
	}
	return b.String()
}

// chatAPI is the part of the Lichess client the chat needs.
type chatAPI interface {
	Chat(ctx context.Context, gameID, room, text string) error
}

type chatMsg struct {
	room, text string
}

// chatter writes one game's notices: each event at most once (by key),
// at least MinInterval apart, from its own goroutine so a slow or paused
// Lichess never holds up a move. Lines that do not fit its queue are
// dropped and logged.
type chatter struct {
	api      chatAPI
	gameID   string
	clock    clock.Clock
	interval time.Duration
	log      *slog.Logger

	mu     sync.Mutex
	sent   map[string]bool
	queue  chan chatMsg
	closed bool
	done   chan struct{}
}

func newChatter(api chatAPI, gameID string, clock clock.Clock, interval time.Duration, log *slog.Logger) *chatter {
	return &chatter{api: api, gameID: gameID, clock: clock, interval: interval, log: log,
		sent: map[string]bool{}, queue: make(chan chatMsg, 16), done: make(chan struct{})}
}

// say queues the line for the event key unless that key was said before.
// It reports whether the line was queued.
func (c *chatter) say(key string, line ChatLine, v ChatVars) bool {
	if line.Room == "none" || line.Room == "" || line.Text == "" {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.sent[key] {
		return false
	}
	c.sent[key] = true
	text := RenderChat(line.Text, v)
	if text == "" {
		return false
	}
	rooms := []string{line.Room}
	if line.Room == "both" {
		rooms = []string{lichess.RoomPlayer, lichess.RoomSpectator}
	}
	for _, room := range rooms {
		select {
		case c.queue <- chatMsg{room: room, text: text}:
		default:
			c.log.Warn("chat queue full, line dropped", "game", c.gameID, "room", room, "text", text)
		}
	}
	return true
}

// run sends the queued lines until the queue is closed and drained, or
// ctx ends.
func (c *chatter) run(ctx context.Context) {
	defer close(c.done)
	var last time.Time
	for {
		var m chatMsg
		var ok bool
		select {
		case m, ok = <-c.queue:
			if !ok {
				return
			}
		case <-ctx.Done():
			return
		}
		if !last.IsZero() && c.interval > 0 {
			if wait := c.interval - c.clock.Now().Sub(last); wait > 0 {
				t := c.clock.NewTimer(wait)
				select {
				case <-t.C():
				case <-ctx.Done():
					t.Stop()
					return
				}
			}
		}
		if err := c.api.Chat(ctx, c.gameID, m.room, m.text); err != nil {
			c.log.Warn("chat failed", "game", c.gameID, "room", m.room, "err", err)
		} else {
			c.log.Info("chat", "game", c.gameID, "room", m.room, "text", m.text)
		}
		last = c.clock.Now()
	}
}

// close stops accepting lines; run returns once the queue is drained.
func (c *chatter) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.queue)
	}
}
