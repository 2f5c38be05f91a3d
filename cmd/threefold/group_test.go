package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/group"
	"github.com/threefold-chess/threefold/store"
)

// idCounter is a webhook counting the requests of each alert id.
type idCounter struct {
	mu  sync.Mutex
	ids map[string]int
}

func (c *idCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var a threefold.Alert
	if json.Unmarshal(body, &a) != nil || a.ID == "" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.ids[a.ID]++
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (c *idCounter) counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.ids {
		out[k] = v
	}
	return out
}

// A group of one on SQLite (watch.group works on any store): two PGN
// files read once under a stream budget of one, so the instance follows
// one at a time; each alert reaches the webhook once, through the outbox;
// both sources are recorded as ended and their leases are gone; a second
// run of the group finds them ended and sends nothing.
func TestWatchGroupSQLite(t *testing.T) {
	hook := &idCounter{ids: map[string]int{}}
	srv := httptest.NewServer(hook)
	defer srv.Close()
	dir := t.TempDir()
	dsn := "sqlite:" + filepath.Join(dir, "threefold.db")
	cfg := writeConfig(t, fmt.Sprintf(`store:
  dsn: %q
watch:
  group: true
  lease_ttl: 3s
  stream_budget: 1
  outbox_hold: 4s
  webhooks:
    - kind: json
      url: %s/hook
`, dsn, srv.URL))
	a, b := writeWatchFile(t), writeWatchFile(t)

	code, out, errs := runMain(t, "watch", "--json", "--once", "--config", cfg, a, b)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var printed []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var al threefold.Alert
		if err := json.Unmarshal([]byte(line), &al); err != nil {
			t.Fatalf("not an alert JSON line: %q: %v", line, err)
		}
		printed = append(printed, al.ID)
	}
	// Each file's game (a file's games are its own) raises two alerts.
	got := hook.counts()
	if len(printed) != 4 || len(got) != 4 {
		t.Fatalf("printed %v, webhook got %v; want the two alerts of each file", printed, got)
	}
	for _, id := range printed {
		if got[id] != 1 {
			t.Errorf("alert %s reached the webhook %d times, want once", id, got[id])
		}
	}
	if n := strings.Count(errs, "msg=watching"); n != 2 {
		t.Errorf("%d sources watched, want 2 (one per file, each when its lease is won)\n%s", n, errs)
	}

	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	gs, err := st.Status(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(gs.Instances) != 0 || len(gs.Leases) != 0 {
		t.Errorf("after the run: instances %+v, leases %+v; want none (left, sources finished)", gs.Instances, gs.Leases)
	}
	for _, o := range gs.Outbox {
		if o.Pending != 0 || o.Sent != 4 {
			t.Errorf("outbox %+v, want 4 sent, none pending", o)
		}
	}
	var ended []string
	for _, s := range gs.Sources {
		data, ok, err := st.LoadSourceState(ctx, s.Name)
		if err != nil || !ok || !group.Ended(data) {
			t.Errorf("source %s: state %q %v %v, want finished", s.Name, data, ok, err)
		}
		ended = append(ended, s.Name)
	}
	sort.Strings(ended)
	if len(ended) != 2 {
		t.Errorf("sources %v, want the two files", ended)
	}

	code, out, errs = runMain(t, "watch", "--json", "--once", "--config", cfg, a, b)
	if code != 0 || strings.TrimSpace(out) != "" || strings.Contains(errs, "msg=watching") {
		t.Errorf("second run: exit %d, stdout %q; want 0, nothing, no source started\nstderr:\n%s", code, out, errs)
	}
	after := hook.counts()
	for _, id := range printed {
		if after[id] != 1 || len(after) != 4 {
			t.Errorf("webhook after the second run: %v", after)
			break
		}
	}
}

func TestWatchGroupConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"negative budget", "watch:\n  group: true\n  stream_budget: -1\n", "stream_budget"},
		{"negative ttl", "watch:\n  group: true\n  lease_ttl: -1s\n", "lease_ttl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeConfig(t, tc.body)
			code, _, errs := runMain(t, "watch", "--once", "--config", cfg, writeWatchFile(t))
			if code == 0 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want an error naming %s", code, errs, tc.want)
			}
		})
	}
}
