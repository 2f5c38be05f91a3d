package main

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/web"
)

// healthcheck against a real dashboard: 0 when every source is connected,
// 1 when one is down or the token is wrong, 2 when there is nothing to ask.
func TestHealthcheckCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := newDashboard(&config{HTTP: web.Options{Addr: "127.0.0.1:0", Token: "s3cret-token"}}, nil)
	if err == nil {
		err = d.Start(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); d.Wait() }()
	u, err := url.Parse(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	config := func(addr, token string) string {
		p := filepath.Join(t.TempDir(), "threefold.yaml")
		body := "data_dir: " + t.TempDir() + "\n"
		if addr != "" {
			body += "http:\n  addr: " + addr + "\n  token: " + token + "\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := config(u.Host, "s3cret-token")
	d.Hub.SourceStatus("lichess broadcast round abcdefgh", true, nil)
	if code, out, errs := runMain(t, "healthcheck", "--config", good); code != 0 || !strings.Contains(out, "abcdefgh: connected") {
		t.Errorf("all connected: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	d.Hub.SourceStatus("dgt ws://localhost:1982/api/v1.0", false, errors.New("dial refused"))
	if code, out, _ := runMain(t, "healthcheck", "--config", good); code != 1 || !strings.Contains(out, "down: dial refused") {
		t.Errorf("a source down: exit %d, stdout %q", code, out)
	}
	d.Hub.SourceGone("dgt ws://localhost:1982/api/v1.0")
	if code, _, errs := runMain(t, "healthcheck", "--config", config(u.Host, "wrong")); code != 1 || strings.Contains(errs, "wrong") {
		t.Errorf("wrong token: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runMain(t, "healthcheck", "--config", config("", ""), "--url", "http://"+u.Host+"/healthz?token=s3cret-token"); code != 0 {
		t.Errorf("--url with the token: exit %d", code)
	}
	if code, _, errs := runMain(t, "healthcheck", "--config", config("", "")); code != exitUsage || !strings.Contains(errs, "http.addr") {
		t.Errorf("no address: exit %d, stderr %q", code, errs)
	}
}
