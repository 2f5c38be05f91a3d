package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
)

// CheckHealth asks the /healthz at u (with the access token, when there is
// one) and returns the answer and its HTTP status: 200 when every source is
// connected, 503 when one is not (h is read from both). An error says the
// server could not be asked; it never holds the URL (whose query may hold
// the token).
func CheckHealth(ctx context.Context, u, token string) (h Health, status int, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return h, 0, fmt.Errorf("bad url: %w", err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // *url.Error would repeat the URL, and its token parameter
		}
		return h, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusServiceUnavailable {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		_ = json.Unmarshal(body, &h) // an answer that is not ours shows no sources
	}
	return h, resp.StatusCode, nil
}

// HealthURL is the /healthz URL of a dashboard that listens on addr
// (host:port); one that binds every interface (":8080", "0.0.0.0:8080",
// "[::]:8080") is asked on 127.0.0.1.
func HealthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("http.addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// WriteText writes one line per source, "NAME: connected" or "NAME: down:
// ERROR", made safe for a terminal.
func (h Health) WriteText(p *i18n.Printer, w io.Writer) error {
	for _, s := range h.Sources {
		state := p.Sprintf(i18n.HealthConnected)
		if !s.Connected {
			state = p.Sprintf(i18n.HealthDown, s.Error)
		}
		if _, err := fmt.Fprintln(w, safetext.Terminal(p.SourceName(s.Name)+": "+state)); err != nil {
			return err
		}
	}
	return nil
}

// UnhealthyError is the error of Healthcheck for an answer other than 200.
type UnhealthyError struct{ Status int }

func (e *UnhealthyError) Error() string { return fmt.Sprintf("HTTP %d", e.Status) }

// Healthcheck asks the /healthz at u (CheckHealth), writes each source's
// state to w in p's language (Health.WriteText) and, when the answer is
// 200, "ok"; any other answer is an *UnhealthyError.
func Healthcheck(ctx context.Context, u, token string, p *i18n.Printer, w io.Writer) error {
	h, status, err := CheckHealth(ctx, u, token)
	if err != nil {
		return err
	}
	if err := h.WriteText(p, w); err != nil {
		return err
	}
	if status != http.StatusOK {
		return &UnhealthyError{Status: status}
	}
	_, err = fmt.Fprintln(w, "ok")
	return err
}
