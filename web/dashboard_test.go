package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
)

// startTestDashboard starts a dashboard on a free loopback port, stopped
// and waited for at the end of the test.
func startTestDashboard(t *testing.T) *Dashboard {
	t.Helper()
	d, err := NewDashboard(Options{Addr: "127.0.0.1:0"}, HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := d.Start(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := d.Wait(); err != nil {
			t.Errorf("Wait: %v", err)
		}
	})
	return d
}

func TestNewDashboardRefusesPublicAddressWithoutToken(t *testing.T) {
	if _, err := NewDashboard(Options{Addr: "0.0.0.0:0"}, HubOptions{}); !errors.Is(err, ErrTokenRequired) {
		t.Fatalf("err = %v, want ErrTokenRequired", err)
	}
	if _, err := NewDashboard(Options{Addr: "0.0.0.0:0", Token: "s3cret"}, HubOptions{}); err != nil {
		t.Fatalf("with a token: %v", err)
	}
}

// The dashboard serves its hub: alerts sent to it, source states and the
// games of the hub reach the pages, /healthz and /metrics.
func TestDashboardServesItsHub(t *testing.T) {
	d := startTestDashboard(t)
	ref := threefold.GameRef{Site: "lichess", ID: "g1"}
	if err := d.Send(context.Background(), threefold.Alert{ID: "x", Kind: threefold.KindThreefold, Game: ref}); err != nil {
		t.Fatal(err)
	}
	if a := d.Hub.Alerts(); len(a) != 1 || a[0].ID != "x" {
		t.Fatalf("alerts %+v", a)
	}
	d.SourceState("dgt ws://localhost:1982", false, errors.New("dial refused"))
	if code, body := get(t, d.URL+"healthz", nil); code != http.StatusServiceUnavailable || !strings.Contains(body, "dial refused") {
		t.Errorf("/healthz = %d %s, want 503 with the source's error", code, body)
	}
	d.SourceState("dgt ws://localhost:1982", true, nil)
	if code, body := get(t, d.URL+"healthz", nil); code != http.StatusOK {
		t.Errorf("/healthz = %d %s, want 200", code, body)
	}
}

func TestDashboardHooksCountReconnectsAndPauses(t *testing.T) {
	d := startTestDashboard(t)
	d.LichessReconnect("broadcast round r1", errors.New("closed by server"))
	d.LichessReconnect("broadcast round r1", errors.New("silent"))
	d.LichessRateLimit(time.Minute)
	d.ChessComRateLimit(time.Minute)
	d.LichessReconnect("event", errors.New("closed by server"))
	_, body := get(t, d.URL+"metrics", nil)
	for _, want := range []string{
		`threefold_stream_reconnects_total{stream="broadcast round r1"} 2`,
		`threefold_stream_reconnects_total{stream="event"} 1`,
		`threefold_rate_limit_pauses_total{site="lichess"} 1`,
		`threefold_rate_limit_pauses_total{site="chess.com"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// Serve serves until stop, which waits for the dashboard to be down; the
// log shows its address without the access token.
func TestDashboardServe(t *testing.T) {
	var log strings.Builder
	d, err := NewDashboard(Options{Addr: "127.0.0.1:0", Token: "s3cret-token", Logger: slog.New(slog.NewTextHandler(&log, nil))}, HubOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := d.Serve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	healthz := strings.Replace(d.URL, "/?", "/healthz?", 1)
	resp, err := http.Get(healthz)
	if err != nil {
		stop()
		t.Fatalf("while served: %v", err)
	}
	resp.Body.Close()
	stop()
	if resp, err := http.Get(healthz); err == nil {
		resp.Body.Close()
		t.Errorf("after stop: %s, want no answer", resp.Status)
	}
	if l := log.String(); !strings.Contains(l, "msg=dashboard") || !strings.Contains(l, "token=xxxxx") || strings.Contains(l, "s3cret") {
		t.Errorf("log: %s", l)
	}
}

func TestRedactToken(t *testing.T) {
	for _, tc := range []struct{ name, url, want string }{
		{"no token", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/"},
		{"a token", "http://127.0.0.1:8080/?token=s3cret", "http://127.0.0.1:8080/?token=xxxxx"},
		{"a token after another parameter", "http://h/?lang=ru&token=s3cret", "http://h/?lang=ru&token=xxxxx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := redactToken(tc.url); got != tc.want {
				t.Errorf("redactToken(%q) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}
