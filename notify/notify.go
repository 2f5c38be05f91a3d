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
	"github.com/threefold-chess/threefold/internal/i18n"
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
	p  *i18n.Printer
}

// NewText returns a sink writing text lines to w, in English.
func NewText(w io.Writer) *Text { return NewTextIn(w, i18n.English) }

// NewTextIn returns a sink writing text lines to w in the language l.
func NewTextIn(w io.Writer, l i18n.Lang) *Text { return &Text{w: w, p: i18n.For(l)} }

// Send implements Sink.
func (t *Text) Send(_ context.Context, a threefold.Alert) error {
	line := safetext.Terminal(formatText(t.p, a)) + "\n" // names and moves come from outside: no raw escape sequence reaches the terminal
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

// NewLines returns a sink writing one line per alert to w: JSON lines
// when asJSON (the alert JSON), else text in the language l.
func NewLines(w io.Writer, asJSON bool, l i18n.Lang) Sink {
	if asJSON {
		return NewJSONLines(w)
	}
	return NewTextIn(w, l)
}

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

// english says the English text.
var english = i18n.For(i18n.English)

// Headline says what happened in a few words, with the players, in English.
func Headline(a threefold.Alert) string { return headline(english, a) }

// HeadlineIn is Headline in the language l.
func HeadlineIn(l i18n.Lang, a threefold.Alert) string { return headline(i18n.For(l), a) }

func headline(p *i18n.Printer, a threefold.Alert) string {
	var what string
	switch a.Kind {
	case threefold.KindThreefold:
		what = p.Sprintf(i18n.AlertThreefold, a.Count, p.SideAsStored(a.Claimant))
	case threefold.KindClaimByMove:
		mv := a.MoveSAN
		if mv == "" {
			mv = a.Move
		}
		for _, o := range a.OtherMovesSAN {
			mv += p.Sprintf(i18n.AlertOr) + o
		}
		what = p.Sprintf(i18n.AlertClaimByMove, p.SideAsStored(a.Claimant), mv)
	case threefold.KindFivefold:
		what = p.Sprintf(i18n.AlertFivefold)
	case threefold.KindFiftyMoves:
		what = p.Sprintf(i18n.AlertFiftyMoves, p.SideAsStored(a.Claimant))
	case threefold.KindSeventyFiveMoves:
		what = p.Sprintf(i18n.AlertSeventyFive)
	case threefold.KindWithdrawn:
		what = p.Sprintf(i18n.AlertWithdrawn, withdrawnWhat(p, a), strconv.Itoa(a.Ply))
		if a.Reason != "" {
			what += p.Sprintf(i18n.AlertReason, p.Reason(a.Reason))
		}
	default:
		what = string(a.Kind)
	}
	if a.Variant == "chess960" {
		return players(p, a) + " (Chess960): " + what
	}
	return players(p, a) + ": " + what
}

// withdrawnWhat names the kind of the alert a withdrawal is about.
func withdrawnWhat(p *i18n.Printer, a threefold.Alert) string {
	switch a.WithdrawnKind {
	case threefold.KindThreefold:
		return p.Sprintf(i18n.KindThreefold)
	case threefold.KindClaimByMove:
		return p.Sprintf(i18n.KindClaimByMove)
	case threefold.KindFivefold:
		return p.Sprintf(i18n.KindFivefold)
	case threefold.KindFiftyMoves:
		return p.Sprintf(i18n.KindFiftyMoves)
	case threefold.KindSeventyFiveMoves:
		return p.Sprintf(i18n.KindSeventyFiveMoves)
	}
	return string(a.WithdrawnKind)
}

func players(p *i18n.Printer, a threefold.Alert) string {
	w, b := a.Game.White, a.Game.Black
	board := ""
	if a.Game.Board > 0 {
		board = p.Sprintf(i18n.AlertBoard, a.Game.Board)
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
func Occurrences(a threefold.Alert) string { return occurrences(english, a) }

// nearText says that a near repetition does not count, and why: "not
// counted: ply 0, the same pieces and side to move but other castling
// rights".
func nearText(p *i18n.Printer, n threefold.NearRepetition) string {
	plies := make([]string, len(n.SamePlacementAs))
	for i, ply := range n.SamePlacementAs {
		plies[i] = strconv.Itoa(ply)
	}
	var why []string
	for _, d := range n.Differences {
		switch d {
		case "castling":
			why = append(why, p.Sprintf(i18n.AlertNearCastling))
		case "en_passant":
			why = append(why, p.Sprintf(i18n.AlertNearEnPassant))
		}
	}
	sep := p.Sprintf(i18n.ListSep)
	return p.Sprintf(i18n.AlertNear, strings.Join(plies, sep), strings.Join(why, sep))
}

func occurrences(p *i18n.Printer, a threefold.Alert) string {
	parts := make([]string, 0, len(a.Occurrences)+1)
	for i, ply := range a.Occurrences {
		n := strconv.Itoa(ply)
		var s string
		switch {
		case ply == 0:
			s = p.Sprintf(i18n.OccurrenceStart, n)
		case i < len(a.OccurrenceSAN) && a.OccurrenceSAN[i] != "":
			s = p.Sprintf(i18n.OccurrenceMove, n, MoveLabel(a, ply, a.OccurrenceSAN[i]))
		default:
			s = p.Sprintf(i18n.OccurrencePly, n)
		}
		if i < len(a.OccurrenceClocks) && a.OccurrenceClocks[i] != nil {
			c := a.OccurrenceClocks[i]
			s += p.Sprintf(i18n.OccurrenceClocks, clockText(c.WhiteS), clockText(c.BlackS))
		}
		parts = append(parts, s)
	}
	if a.Kind == threefold.KindClaimByMove {
		mv := a.MoveSAN
		if mv == "" {
			mv = a.Move
		}
		parts = append(parts, p.Sprintf(i18n.OccurrenceDeclared, strconv.Itoa(a.Ply+1), MoveLabel(a, a.Ply+1, mv)))
	}
	return strings.Join(parts, p.Sprintf(i18n.ListSep))
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

// FormatText is the one-line text form of an alert, in English.
func FormatText(a threefold.Alert) string { return formatText(english, a) }

// FormatTextIn is FormatText in the language l.
func FormatTextIn(l i18n.Lang, a threefold.Alert) string { return formatText(i18n.For(l), a) }

func formatText(p *i18n.Printer, a threefold.Alert) string {
	var b strings.Builder
	if a.Audience != "" {
		b.WriteString("[" + audience(p, a.Audience) + "] ")
	}
	b.WriteString(headline(p, a))
	b.WriteString(" | ")
	if a.SAN != "" {
		b.WriteString(p.Sprintf(i18n.AlertPlyAfter, strconv.Itoa(a.Ply), MoveLabel(a, a.Ply, a.SAN)))
	} else {
		b.WriteString(p.Sprintf(i18n.AlertPly, strconv.Itoa(a.Ply)))
	}
	switch a.Kind {
	case threefold.KindThreefold, threefold.KindClaimByMove, threefold.KindFivefold:
		b.WriteString(" | " + p.Sprintf(i18n.AlertOccurrences, occurrences(p, a)))
		for _, n := range a.NearRepetitions {
			b.WriteString(" | " + nearText(p, n))
		}
	}
	if l := Link(a); l != "" {
		b.WriteString(" | " + l)
	}
	b.WriteString(" | " + sourceText(p, a))
	if a.Withdraws != "" {
		b.WriteString(" | " + p.Sprintf(i18n.AlertWithdraws, a.Withdraws))
	}
	b.WriteString(" | id " + a.ID)
	return b.String()
}

// audience says who the alert is for: "for arbiters".
func audience(p *i18n.Printer, who string) string {
	switch who {
	case "arbiters":
		return p.Sprintf(i18n.AlertForArbiters)
	case "operator":
		return p.Sprintf(i18n.AlertForOperator)
	}
	return p.Sprintf(i18n.AlertFor, who)
}

// audienceWord names who the alert is for, for a field of its own.
func audienceWord(p *i18n.Printer, who string) string {
	switch who {
	case "arbiters":
		return p.Sprintf(i18n.ArbitersWord)
	case "operator":
		return p.Sprintf(i18n.OperatorWord)
	}
	return who
}

// sourceText is "source X (delay up to 8s)".
func sourceText(p *i18n.Printer, a threefold.Alert) string {
	s := p.Sprintf(i18n.AlertSource, p.SourceName(a.Source))
	if l := lag(p, a); l != "" {
		s += " (" + l + ")"
	}
	return s
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

// Lag says how far behind the board the source was when it raised the
// alert, in English: "3 plies behind" (a Lichess spectator stream), "delay
// up to 1h" (a broadcast), both, or "" when the source is live.
func Lag(a threefold.Alert) string { return lag(english, a) }

func lag(p *i18n.Printer, a threefold.Alert) string {
	var parts []string
	if a.DelayPlies > 0 {
		parts = append(parts, p.Sprintf(i18n.AlertBehind, a.DelayPlies))
	}
	if a.DelayS > 0 {
		parts = append(parts, p.Sprintf(i18n.AlertDelay, formatDelay(p, a.DelayS)))
	}
	return strings.Join(parts, p.Sprintf(i18n.ListSep))
}

func formatDelay(p *i18n.Printer, s float64) string {
	switch {
	case s >= 3600:
		return p.Sprintf(i18n.DelayHours, p.Decimal(s/3600))
	case s >= 60:
		return p.Sprintf(i18n.DelayMinutes, p.Decimal(s/60))
	}
	return p.Sprintf(i18n.DelaySeconds, p.Decimal(s))
}
