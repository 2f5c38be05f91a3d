// Package notify delivers alerts: text or JSON lines on a writer, and webhooks.
//
// It delivers alerts: as readable text lines or JSON lines on a
// writer, and as webhooks to Discord, Slack or any endpoint that takes the
// alert JSON. Webhooks are retried as each service asks (Discord's
// retry_after, Slack's Retry-After on 429; backoff on 5xx and network
// errors) and never show their URL, which is a secret, in a log line or an
// error. Queue puts a slow sink behind a bounded buffer that drops its
// oldest alert when full, so delivery never delays detection.
package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/safetext"
)

// Sink delivers one alert.
type Sink interface {
	Send(ctx context.Context, a threefold.Alert) error
}

// Fanout sends every alert to each of its sinks in turn and returns the
// errors of those that failed.
type Fanout []Sink

// Send implements Sink.
func (f Fanout) Send(ctx context.Context, a threefold.Alert) error {
	var errs []error
	for _, s := range f {
		if err := s.Send(ctx, a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Text writes one readable line per alert.
type Text struct {
	mu sync.Mutex
	w  io.Writer
}

// NewText returns a sink writing text lines to w.
func NewText(w io.Writer) *Text { return &Text{w: w} }

// Send implements Sink.
func (t *Text) Send(_ context.Context, a threefold.Alert) error {
	line := safetext.Terminal(FormatText(a)) + "\n" // names and moves come from outside: no raw escape sequence reaches the terminal
	t.mu.Lock()
	defer t.mu.Unlock()
	_, err := io.WriteString(t.w, line)
	return err
}

// JSONLines writes the alert JSON, one object per line.
type JSONLines struct {
	mu sync.Mutex
	w  io.Writer
}

// NewJSONLines returns a sink writing JSON lines to w.
func NewJSONLines(w io.Writer) *JSONLines { return &JSONLines{w: w} }

// Send implements Sink.
func (j *JSONLines) Send(_ context.Context, a threefold.Alert) error {
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("notify: json: %w", err)
	}
	b = append(b, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err = j.w.Write(b)
	return err
}

// Link is the URL of the alert's game ("" if it has none).
func Link(a threefold.Alert) string { return a.Game.URL }

// Headline says what happened in a few words, with the players.
func Headline(a threefold.Alert) string {
	var what string
	switch a.Kind {
	case threefold.KindThreefold:
		what = "position occurred " + ordinal(a.Count) + " time: " + a.Claimant + " may claim a draw (FIDE 9.2.2)"
	case threefold.KindClaimByMove:
		mv := a.MoveSAN
		if mv == "" {
			mv = a.Move
		}
		for _, o := range a.OtherMovesSAN {
			mv += " or " + o
		}
		what = a.Claimant + " may claim a draw by declaring " + mv + " (FIDE 9.2.1)"
	case threefold.KindFivefold:
		what = "position occurred the fifth time: the game is drawn (FIDE 9.6.1)"
	case threefold.KindFiftyMoves:
		what = "50 moves without a capture or pawn move: " + a.Claimant + " may claim a draw (FIDE 9.3)"
	case threefold.KindSeventyFiveMoves:
		what = "75 moves without a capture or pawn move: the game is drawn (FIDE 9.6.2)"
	case threefold.KindWithdrawn:
		what = "WITHDRAWN: the " + withdrawnWhat(a) + " alert at ply " + strconv.Itoa(a.Ply) + " no longer holds"
		if a.Reason != "" {
			what += " (" + a.Reason + ")"
		}
	default:
		what = string(a.Kind)
	}
	return players(a) + ": " + what
}

// withdrawnWhat names the kind of the alert a withdrawal is about.
func withdrawnWhat(a threefold.Alert) string {
	switch a.WithdrawnKind {
	case threefold.KindThreefold:
		return "threefold"
	case threefold.KindClaimByMove:
		return "claim by declared move"
	case threefold.KindFivefold:
		return "fivefold"
	case threefold.KindFiftyMoves:
		return "50-move"
	case threefold.KindSeventyFiveMoves:
		return "75-move"
	}
	return string(a.WithdrawnKind)
}

func players(a threefold.Alert) string {
	w, b := a.Game.White, a.Game.Black
	board := ""
	if a.Game.Board > 0 {
		board = "board " + strconv.Itoa(a.Game.Board) + ", "
	}
	if w == "" && b == "" {
		return board + a.Game.Site + " " + a.Game.ID
	}
	if w == "" {
		w = "?"
	}
	if b == "" {
		b = "?"
	}
	return board + w + " - " + b
}

// Occurrences lists the plies of the occurrences with the move that
// produced each: "ply 44 (22...Qf5), ply 48 (24...Qf5), ply 52 (26...Qf5)".
func Occurrences(a threefold.Alert) string {
	parts := make([]string, 0, len(a.Occurrences)+1)
	for i, p := range a.Occurrences {
		s := "ply " + strconv.Itoa(p)
		if p == 0 {
			s += " (start)"
		} else if i < len(a.OccurrenceSAN) && a.OccurrenceSAN[i] != "" {
			s += " (" + MoveLabel(a, p, a.OccurrenceSAN[i]) + ")"
		}
		if i < len(a.OccurrenceClocks) && a.OccurrenceClocks[i] != nil {
			c := a.OccurrenceClocks[i]
			s += " [clocks " + clockText(c.WhiteS) + " / " + clockText(c.BlackS) + "]"
		}
		parts = append(parts, s)
	}
	if a.Kind == threefold.KindClaimByMove {
		mv := a.MoveSAN
		if mv == "" {
			mv = a.Move
		}
		parts = append(parts, "ply "+strconv.Itoa(a.Ply+1)+" ("+MoveLabel(a, a.Ply+1, mv)+", declared)")
	}
	return strings.Join(parts, ", ")
}

// MoveLabel numbers the move that produced ply p of the alert's game as a
// score sheet does ("26.Bf3", "26...Qf5"), from the move number and side to
// move of the alert's FEN; without a usable FEN it is the SAN alone.
func MoveLabel(a threefold.Alert, p int, san string) string {
	f := strings.Fields(a.FEN)
	if len(f) < 6 {
		return san
	}
	full, err := strconv.Atoi(f[5])
	if err != nil || full < 1 || (f[1] != "w" && f[1] != "b") {
		return san
	}
	next := 2 * (full - 1) // half-move index of the move to play now
	if f[1] == "b" {
		next++
	}
	h := next - 1 - (a.Ply - p) // half-move index of the move that produced ply p
	if h < 0 {
		return san
	}
	if h%2 == 0 {
		return strconv.Itoa(h/2+1) + "." + san
	}
	return strconv.Itoa(h/2+1) + "..." + san
}

// FormatText is the one-line text form of an alert.
func FormatText(a threefold.Alert) string {
	var b strings.Builder
	if a.Audience != "" {
		b.WriteString("[for " + a.Audience + "] ")
	}
	b.WriteString(Headline(a))
	b.WriteString(" | ply " + strconv.Itoa(a.Ply))
	if a.SAN != "" {
		b.WriteString(" after " + MoveLabel(a, a.Ply, a.SAN))
	}
	switch a.Kind {
	case threefold.KindThreefold, threefold.KindClaimByMove, threefold.KindFivefold:
		b.WriteString(" | occurrences: " + Occurrences(a))
	}
	if l := Link(a); l != "" {
		b.WriteString(" | " + l)
	}
	b.WriteString(" | source " + a.Source)
	if a.DelayS > 0 {
		b.WriteString(" (delay up to " + formatDelay(a.DelayS) + ")")
	}
	if a.Withdraws != "" {
		b.WriteString(" | withdraws " + a.Withdraws)
	}
	b.WriteString(" | id " + a.ID)
	return b.String()
}

// clockText writes seconds left as a clock shows them: 1:29:05, 4:07.
func clockText(sec float64) string {
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return strconv.Itoa(h) + ":" + twoDigits(m) + ":" + twoDigits(s)
	}
	return strconv.Itoa(m) + ":" + twoDigits(s)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func formatDelay(s float64) string {
	switch {
	case s >= 3600:
		return strconv.FormatFloat(s/3600, 'f', -1, 64) + "h"
	case s >= 60:
		return strconv.FormatFloat(s/60, 'f', -1, 64) + "min"
	}
	return strconv.FormatFloat(s, 'f', -1, 64) + "s"
}

func ordinal(n int) string {
	switch n {
	case 3:
		return "a third"
	case 4:
		return "a fourth"
	case 5:
		return "a fifth"
	}
	return "a " + strconv.Itoa(n) + "th"
}
