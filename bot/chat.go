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

// Validity of a notice (chatter.say's until): how long what it says holds.
const (
	// WhileGameRuns: the notice holds until the game ends or a takeback
	// removes the ply it is about (a second occurrence, a greeting).
	WhileGameRuns = -1
)

// notice is one line waiting to be sent, with what makes it still true.
type notice struct {
	key, room, text string
	epoch           int  // the game's epoch when said (a takeback starts a new one)
	until           int  // the last ply at which it holds, or WhileGameRuns
	final           bool // the goodbye: said once the game is over
}

// chatState is the game as the chatter must know it to tell whether a
// notice still holds.
type chatState struct {
	ply, epoch int
	over       bool
}

// holdWait bounds how long hold waits for a line already being sent
// before it cancels it.
const holdWait = 500 * time.Millisecond

// chatter writes one game's notices from its own goroutine, so a slow or
// paused Lichess never holds up a move. Each event is said at most once
// (by key); each room gets at most one line per interval; and a line is
// sent only while what it says still holds: none after the game ended
// but the goodbye (which says how it ended), none about a ply a takeback
// removed, and a notice about a claim that could be made only at one ply
// is dropped once the game moved on. While the bot sends a request that
// may end the game (hold), no line is sent, so none reaches Lichess after
// that request. What is dropped is logged.
type chatter struct {
	api      chatAPI
	gameID   string
	clock    clock.Clock
	interval time.Duration
	log      *slog.Logger

	mu      sync.Mutex
	sent    map[string]bool
	pending []notice
	state   chatState
	// sending is the line being sent and stopSend cancels its request: a
	// line that stops holding while it waits for the account's request
	// slot (moves go first on a busy account) is not sent after all.
	sending  notice
	stopSend context.CancelFunc
	sendDone chan struct{} // closed when the line being sent is done
	// held is set while a request of the bot that may end the game is
	// sent at ply heldAt: lines wait until the game is known to go on
	// (a later ply, or release) or dropped if it ended.
	held   bool
	heldAt int
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newChatter(api chatAPI, gameID string, clock clock.Clock, interval time.Duration, log *slog.Logger) *chatter {
	return &chatter{api: api, gameID: gameID, clock: clock, interval: interval, log: log,
		sent: map[string]bool{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// maxPending bounds the lines waiting; more are dropped and logged.
const maxPending = 16

// say queues the line for the event key unless that key was said before
// or the line no longer holds; until is the last ply at which it holds
// (WhileGameRuns: as long as the game). It reports whether the line was
// queued.
func (c *chatter) say(key string, line ChatLine, v ChatVars, until int) bool {
	return c.queue(key, line, v, until, false)
}

// sayFinal queues the goodbye: it is sent after the end of the game.
func (c *chatter) sayFinal(key string, line ChatLine, v ChatVars) bool {
	return c.queue(key, line, v, WhileGameRuns, true)
}

func (c *chatter) queue(key string, line ChatLine, v ChatVars, until int, final bool) bool {
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
		n := notice{key: key, room: room, text: text, epoch: c.state.epoch, until: until, final: final}
		if !c.holds(n) {
			c.log.Info("chat line dropped: no longer true", "game", c.gameID, "room", room, "text", text)
			continue
		}
		if len(c.pending) >= maxPending {
			c.log.Warn("chat queue full, line dropped", "game", c.gameID, "room", room, "text", text)
			continue
		}
		c.pending = append(c.pending, n)
	}
	c.poke()
	return true
}

// update tells the chatter where the game is; lines that no longer hold
// are dropped before they are sent.
func (c *chatter) update(ply, epoch int, over bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held && (over || ply > c.heldAt || epoch != c.state.epoch) {
		c.held = false
	}
	c.state = chatState{ply: ply, epoch: epoch, over: over}
	if c.stopSend != nil && !c.holds(c.sending) {
		c.stopSend()
	}
	c.poke()
}

// hold is called before the bot sends a request that may end the game at
// ply (a mating move, a claim, a draw accepted, a resignation). Lichess
// takes one request of the account at a time, so a line already on its
// way is let through first (or cancelled after holdWait), and no line is
// sent after it: the lines wait until update shows the game at a later
// ply, or release says the request failed; if the game ended they are
// dropped.
func (c *chatter) hold(ctx context.Context, ply int) {
	c.mu.Lock()
	c.held, c.heldAt = true, ply
	sendDone, stop := c.sendDone, c.stopSend
	c.mu.Unlock()
	if sendDone == nil {
		return
	}
	t := c.clock.NewTimer(holdWait)
	defer t.Stop()
	select {
	case <-sendDone:
		return
	case <-t.C():
	case <-ctx.Done():
	}
	stop()
	<-sendDone
}

// release ends a hold: the request it was for did not end the game.
func (c *chatter) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = false
	c.poke()
}

// holds (mu held) reports whether n is still true.
func (c *chatter) holds(n notice) bool {
	if n.final {
		return true
	}
	st := c.state
	return !st.over && n.epoch == st.epoch && (n.until == WhileGameRuns || st.ply <= n.until)
}

func (c *chatter) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// next (mu held) drops what no longer holds and returns the first line
// whose room may speak now, or how long until one may.
func (c *chatter) next(last map[string]time.Time) (notice, bool, time.Duration) {
	kept := c.pending[:0]
	for _, n := range c.pending {
		switch {
		case !c.holds(n):
			c.log.Info("chat line dropped: no longer true", "game", c.gameID, "room", n.room, "text", n.text)
		case c.held && c.closed && !n.final:
			c.log.Info("chat line dropped: the game was closed while it was held", "game", c.gameID, "room", n.room, "text", n.text)
		default:
			kept = append(kept, n)
		}
	}
	clear(c.pending[len(kept):])
	c.pending = kept
	now := c.clock.Now()
	wait := time.Duration(-1)
	for i, n := range c.pending {
		if c.held && !n.final {
			continue // release or update pokes
		}
		w := time.Duration(0)
		if at, ok := last[n.room]; ok && c.interval > 0 {
			w = c.interval - now.Sub(at)
		}
		if w <= 0 {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			return n, true, 0
		}
		if wait < 0 || w < wait {
			wait = w
		}
	}
	return notice{}, false, wait
}

// run sends the lines until the chatter is closed and nothing is left to
// send, or ctx ends.
func (c *chatter) run(ctx context.Context) {
	defer close(c.done)
	last := map[string]time.Time{} // by room
	for {
		c.mu.Lock()
		n, ok, wait := c.next(last)
		finished := !ok && c.closed && len(c.pending) == 0
		var sendCtx context.Context
		var cancel context.CancelFunc
		if ok {
			// Marked as being sent under the same lock that chose it, so
			// that hold either sees it or stops it from being chosen.
			sendCtx, cancel = context.WithCancel(ctx)
			c.sending, c.stopSend, c.sendDone = n, cancel, make(chan struct{})
		}
		c.mu.Unlock()
		if finished {
			return
		}
		if ok {
			c.send(ctx, sendCtx, n)
			cancel()
			last[n.room] = c.clock.Now()
			c.mu.Lock()
			close(c.sendDone)
			c.sending, c.stopSend, c.sendDone = notice{}, nil, nil
			c.mu.Unlock()
			continue
		}
		var t clock.Timer
		var timerC <-chan time.Time
		if wait > 0 {
			t = c.clock.NewTimer(wait)
			timerC = t.C()
		}
		select {
		case <-c.wake:
		case <-timerC:
		case <-ctx.Done():
		}
		if t != nil {
			t.Stop()
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// send sends one line with sendCtx, which update cancels if the line
// stops holding before its request is done (and hold after holdWait).
func (c *chatter) send(ctx, sendCtx context.Context, n notice) {
	err := c.api.Chat(sendCtx, c.gameID, n.room, n.text)
	switch {
	case err == nil:
		c.log.Info("chat", "game", c.gameID, "room", n.room, "text", n.text)
	case sendCtx.Err() != nil && ctx.Err() == nil:
		c.log.Info("chat line dropped: no longer true before it was sent", "game", c.gameID, "room", n.room, "text", n.text)
	default:
		c.log.Warn("chat failed", "game", c.gameID, "room", n.room, "err", err)
	}
}

// close stops accepting lines; run returns once the lines that still hold
// are sent.
func (c *chatter) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.poke()
}
