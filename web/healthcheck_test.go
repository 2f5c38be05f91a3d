package web_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/web"
)

// CheckHealth reads the answer of /healthz when it is 200 or 503, sends
// the token, and says why it could not ask without the URL.
func TestCheckHealth(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		token   string
		sources int
		ok      bool
	}{
		{name: "all connected", status: 200, body: `{"ok":true,"sources":[{"name":"a","connected":true}],"games":1}`, sources: 1, ok: true},
		{name: "a source down", status: 503, body: `{"ok":false,"sources":[{"name":"a","connected":false,"error":"refused"},{"name":"b","connected":true}]}`, sources: 2},
		{name: "refused token", status: 401, body: `unauthorized`, token: "wrong"},
		{name: "not our answer", status: 200, body: `<html>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth = r.Header.Get("Authorization")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			h, status, err := web.CheckHealth(context.Background(), srv.URL+"/healthz", tc.token)
			if err != nil || status != tc.status || len(h.Sources) != tc.sources || h.OK != tc.ok {
				t.Errorf("got %+v, %d, %v; want %d sources, ok %v, status %d", h, status, err, tc.sources, tc.ok, tc.status)
			}
			if want := "Bearer " + tc.token; tc.token != "" && auth != want {
				t.Errorf("Authorization %q, want %q", auth, want)
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		u := srv.URL + "/healthz?token=secret"
		srv.Close()
		_, status, err := web.CheckHealth(context.Background(), u, "")
		if err == nil || status != 0 || strings.Contains(err.Error(), "secret") {
			t.Errorf("got %d, %v; want an error without the URL", status, err)
		}
	})
}

func TestHealthURL(t *testing.T) {
	tests := []struct{ name, addr, want string }{
		{"loopback", "127.0.0.1:8080", "http://127.0.0.1:8080/healthz"},
		{"every interface", ":8080", "http://127.0.0.1:8080/healthz"},
		{"unspecified v4", "0.0.0.0:9000", "http://127.0.0.1:9000/healthz"},
		{"unspecified v6", "[::]:9000", "http://127.0.0.1:9000/healthz"},
		{"a name", "threefold.local:80", "http://threefold.local:80/healthz"},
		{"v6", "[::1]:8080", "http://[::1]:8080/healthz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := web.HealthURL(tc.addr)
			if err != nil || got != tc.want {
				t.Errorf("HealthURL(%q) = %q, %v; want %q", tc.addr, got, err, tc.want)
			}
		})
	}
	if _, err := web.HealthURL("8080"); err == nil {
		t.Error("no error for an address without a port")
	}
}

// WriteText says each source's state on its own line, in the reader's
// language, with nothing of a source's name or error that would drive a
// terminal.
func TestHealthWriteText(t *testing.T) {
	both := []web.SourceState{{Name: "lichess broadcast round r1", Connected: true}, {Name: "dgt", Error: "dial refused"}}
	tests := []struct {
		name    string
		lang    i18n.Lang
		sources []web.SourceState
		want    string
	}{
		{"none", i18n.English, nil, ""},
		{"connected and down", i18n.English, both, "lichess broadcast round r1: connected\ndgt: down: dial refused\n"},
		{"an escape in an error", i18n.English, []web.SourceState{{Name: "x", Error: "bad\x1b[2Jthing"}}, "x: down: bad"},
		{"russian", i18n.Russian, both, "трансляция Lichess, тур r1: подключён\ndgt: недоступен: dial refused\n"},
		{"turkish", i18n.Turkish, both, "Lichess canlı yayını, tur r1: bağlı\ndgt: bağlı değil: dial refused\n"},
		{"persian", i18n.Persian, both, "پخش زندهٔ Lichess، دور r1: وصل\ndgt: قطع: dial refused\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := (web.Health{Sources: tc.sources}).WriteText(i18n.For(tc.lang), &b); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); !strings.HasPrefix(got, tc.want) || strings.Contains(got, "\x1b") {
				t.Errorf("WriteText = %q, want %q", got, tc.want)
			}
		})
	}
}

// Healthcheck writes what /healthz says and "ok" only for a 200; any other
// answer is an UnhealthyError with its status.
func TestHealthcheck(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
		wantOK bool
	}{
		{"all connected", 200, `{"ok":true,"sources":[{"name":"a","connected":true}]}`, "a: connected\nok\n", true},
		{"a source down", 503, `{"ok":false,"sources":[{"name":"a","connected":false,"error":"refused"}]}`, "a: down: refused\n", false},
		{"refused token", 401, `unauthorized`, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			var out strings.Builder
			err := web.Healthcheck(context.Background(), srv.URL+"/healthz", "", i18n.For(i18n.English), &out)
			var ue *web.UnhealthyError
			if out.String() != tc.want || (err == nil) != tc.wantOK || !tc.wantOK && (!errors.As(err, &ue) || ue.Status != tc.status) {
				t.Errorf("Healthcheck wrote %q, returned %v; want %q, ok %v", out.String(), err, tc.want, tc.wantOK)
			}
		})
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL + "/healthz"
	srv.Close()
	var ue *web.UnhealthyError
	if err := web.Healthcheck(context.Background(), u, "", i18n.For(i18n.English), io.Discard); err == nil || errors.As(err, &ue) {
		t.Errorf("nothing listening: %v, want an error that is not an UnhealthyError", err)
	}
}
