package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// Kind is the kind of a webhook: the shape of its body and the way its
// service asks to slow down.
type Kind string

const (
	Discord Kind = "discord" // an embed; 429 carries retry_after (seconds) in its JSON body
	Slack   Kind = "slack"   // text and blocks; 429 carries a Retry-After header
	JSON    Kind = "json"    // the alert JSON as it is
)

// ParseKind checks a kind name from the config.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case Discord, Slack, JSON:
		return k, nil
	}
	return "", fmt.Errorf("notify: unknown webhook kind %q (want discord, slack or json)", s)
}

// Webhook posts alerts to one URL. The URL is a secret: it never appears in
// a log line or in an error; Name identifies the webhook instead.
type Webhook struct {
	Kind Kind
	URL  string
	Name string // "discord webhook 1"
	// Lang is the language of the text (Discord's embed, Slack's message,
	// the "text" of a JSON body); "" is English. JSON keys and kind values
	// never change.
	Lang   i18n.Lang
	Client *http.Client // default: a client with a 30 s timeout
	Logger *slog.Logger
	// Clock times the waits between attempts; default clock.Real.
	Clock clock.Clock
	// MaxAttempts bounds the attempts for one alert (default 6).
	MaxAttempts int
	// MaxWait caps one wait asked for by the service (default 10 min).
	MaxWait time.Duration
}

// IdempotencyHeader carries the alert's stable id on every webhook
// request: the same alert sent again (a retry, or a resend after a restart)
// carries the same key.
const IdempotencyHeader = "Idempotency-Key"

// HTTPError is a webhook answer that is not a success.
type HTTPError struct {
	Webhook string
	Status  int
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("notify: %s: HTTP %d", e.Webhook, e.Status)
}

// Send implements Sink: it posts the alert, retrying on 429 after the wait
// the service asks for, and on 5xx and network errors with backoff.
func (w *Webhook) Send(ctx context.Context, a threefold.Alert) error {
	body, err := w.body(a)
	if err != nil {
		return fmt.Errorf("notify: %s: %w", w.name(), err)
	}
	client := w.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	clk := clock.Or(w.Clock)
	log := w.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	attempts := w.MaxAttempts
	if attempts <= 0 {
		attempts = 6
	}
	maxWait := w.MaxWait
	if maxWait <= 0 {
		maxWait = 10 * time.Minute
	}
	// One count of failures for both kinds of wait, each doubling from 1 s:
	// a 429 that names no wait up to maxWait, other failures up to 5 min.
	limited := backoff.Policy{Initial: time.Second, Max: maxWait, NoJitter: true}
	failed := backoff.Policy{Initial: time.Second, Max: 5 * time.Minute, NoJitter: true}
	failures := 0
	var last error
	for i := 0; i < attempts; i++ {
		wait, err := w.post(ctx, client, body, a.ID)
		if err == nil {
			return nil
		}
		last = err
		var he *HTTPError
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("notify: %s: %w", w.name(), ctx.Err())
		case errors.As(err, &he) && he.Status == http.StatusTooManyRequests:
			if wait <= 0 {
				wait = limited.Delay(failures)
				failures++
			}
			wait = min(wait, maxWait)
			log.Warn("webhook rate limited; waiting as asked", "webhook", w.name(), "wait", wait, "alert", a.ID)
		case errors.As(err, &he) && he.Status < 500:
			return err // a 4xx other than 429 will not get better
		default:
			wait = failed.Delay(failures)
			failures++
			log.Warn("webhook failed; retrying", "webhook", w.name(), "err", err, "wait", wait, "alert", a.ID)
		}
		if err := clock.Sleep(ctx, clk, wait); err != nil {
			return fmt.Errorf("notify: %s: %w", w.name(), err)
		}
	}
	return fmt.Errorf("notify: %s: giving up after %d attempts: %w", w.name(), attempts, last)
}

func (w *Webhook) name() string {
	if w.Name != "" {
		return w.Name
	}
	return string(w.Kind) + " webhook"
}

// post sends one request. For a 429 it returns the wait the service asked
// for (0 if none).
func (w *Webhook) post(ctx context.Context, client *http.Client, body []byte, alertID string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("notify: %s: bad webhook url", w.name()) // err would quote the URL
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "threefold (+https://github.com/threefold-chess/threefold)")
	if alertID != "" {
		// The alert's stable id: a receiver drops a repeat (an alert sent
		// again after a crash between its acceptance and its mark).
		req.Header.Set(IdempotencyHeader, alertID)
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // *url.Error quotes the URL; keep only the cause
		}
		return 0, fmt.Errorf("notify: %s: %w", w.name(), err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return 0, nil
	}
	herr := &HTTPError{Webhook: w.name(), Status: resp.StatusCode}
	if resp.StatusCode != http.StatusTooManyRequests {
		return 0, herr
	}
	return retryAfter(w.Kind, resp.Header, data), herr
}

// retryAfter reads the wait a 429 asks for: Discord's JSON retry_after
// (seconds, possibly fractional), else the Retry-After header (seconds or
// an HTTP date, as Slack and plain endpoints send it).
func retryAfter(kind Kind, h http.Header, body []byte) time.Duration {
	if kind == Discord {
		var v struct {
			RetryAfter float64 `json:"retry_after"`
		}
		if json.Unmarshal(body, &v) == nil && v.RetryAfter > 0 {
			return time.Duration(v.RetryAfter * float64(time.Second))
		}
	}
	if s := strings.TrimSpace(h.Get("Retry-After")); s != "" {
		if n, err := strconv.ParseFloat(s, 64); err == nil && n > 0 {
			return time.Duration(n * float64(time.Second))
		}
		if t, err := http.ParseTime(s); err == nil {
			if d := time.Until(t); d > 0 {
				return d
			}
		}
	}
	return 0
}

func (w *Webhook) body(a threefold.Alert) ([]byte, error) {
	p := i18n.For(w.Lang)
	switch w.Kind {
	case Discord:
		return json.Marshal(discordBody(p, a))
	case Slack:
		return json.Marshal(slackBody(p, a))
	case JSON, "":
		return json.Marshal(jsonBody{Alert: a, Text: formatText(p, a)})
	}
	return nil, fmt.Errorf("unknown webhook kind %q", w.Kind)
}

// jsonBody is the alert JSON with its text in the webhook's language.
type jsonBody struct {
	threefold.Alert
	Text string `json:"text"`
}

func discordBody(p *i18n.Printer, a threefold.Alert) map[string]any {
	fields := []map[string]any{
		{"name": p.Sprintf(i18n.FieldPosition), "value": "`" + a.FEN + "`"},
	}
	if len(a.Occurrences) > 0 || a.Kind == threefold.KindClaimByMove {
		fields = append(fields, map[string]any{"name": p.Sprintf(i18n.FieldOccurrences), "value": truncate(occurrences(p, a), 1000)})
	}
	fields = append(fields, map[string]any{"name": p.Sprintf(i18n.FieldPly), "value": strconv.Itoa(a.Ply) + sanSuffix(p, a), "inline": true})
	if a.Audience != "" {
		fields = append(fields, map[string]any{"name": p.Sprintf(i18n.FieldFor), "value": audienceWord(p, a.Audience), "inline": true})
	}
	footer := sourceFooter(p, a) + " · id " + a.ID
	embed := map[string]any{
		"title":       truncate(headline(p, a), 250),
		"description": truncate(formatText(p, a), 2000),
		"fields":      fields,
		"footer":      map[string]any{"text": truncate(footer, 2000)},
	}
	if l := Link(a); l != "" {
		embed["url"] = l
	}
	if !a.ObservedAt.IsZero() {
		embed["timestamp"] = a.ObservedAt.UTC().Format(time.RFC3339)
	}
	return map[string]any{
		"username":         "threefold",
		"embeds":           []any{embed},
		"allowed_mentions": map[string]any{"parse": []string{}},
	}
}

// sourceFooter is "source X, delay up to 8s".
func sourceFooter(p *i18n.Printer, a threefold.Alert) string {
	s := p.Sprintf(i18n.AlertSource, p.SourceName(a.Source))
	if l := lag(p, a); l != "" {
		s += p.Sprintf(i18n.ListSep) + l
	}
	return s
}

func sanSuffix(p *i18n.Printer, a threefold.Alert) string {
	if a.SAN == "" {
		return ""
	}
	return p.Sprintf(i18n.AfterMove, a.SAN)
}

func slackBody(p *i18n.Printer, a threefold.Alert) map[string]any {
	text := formatText(p, a)
	head := headline(p, a)
	if l := Link(a); l != "" {
		head = "<" + l + "|" + slackEscape(head) + ">"
	} else {
		head = slackEscape(head)
	}
	detail := "*" + p.Sprintf(i18n.FieldPly) + "* " + strconv.Itoa(a.Ply) + sanSuffix(p, a)
	if len(a.Occurrences) > 0 || a.Kind == threefold.KindClaimByMove {
		detail += "\n*" + p.Sprintf(i18n.FieldOccurrences) + "* " + slackEscape(occurrences(p, a))
	}
	detail += "\n*FEN* `" + slackEscape(a.FEN) + "`"
	ctx := sourceFooter(p, a)
	if a.Audience != "" {
		ctx += p.Sprintf(i18n.ListSep) + audience(p, a.Audience)
	}
	return map[string]any{
		"text": truncate(text, 3000),
		"blocks": []any{
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": truncate(head, 3000)}},
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": truncate(detail, 3000)}},
			map[string]any{"type": "context", "elements": []any{map[string]any{"type": "mrkdwn", "text": truncate(slackEscape(ctx)+" · id "+a.ID, 3000)}}},
		},
	}
}

func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
