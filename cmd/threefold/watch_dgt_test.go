package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/listener/dgttest"
	"github.com/threefold-chess/threefold/web"
)

// watchGameSAN is watchGame's moves.
var watchGameSAN = strings.Fields(`e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be2 e5 Nb3 Be7 O-O O-O Be3 Be6 Qd2 Nbd7 a4 Rc8
a5 Qc7 Rfc1 Qc6 Bf3 Bc4 Ra4 Rfe8 Rb4 Qc7 Nd5 Nxd5 exd5 Nf6 Bb6 Qd7 Nc5 dxc5 Rxc4 Bd6 Re1 Qf5 Be4 Qh5 Bf3 Qf5
Be4 Qh5 Bf3 Qf5`)

// TestWatchDGT: watch on a LiveChess with a board in play and one whose
// subscription LiveChess refuses. The dashboard and `threefold status`
// show the failing board with LiveChess's message; a restarted watch
// shows the game in play at once, under the same id, and raises its
// alerts once.
func TestWatchDGT(t *testing.T) {
	srv := dgttest.NewServer("7425", "7426")
	defer srv.Close()
	srv.Refuse("7426", "EBoard 7426 is in use by another program")
	srv.Push("7425", watchGameSAN[:48]...)
	cfg := filepath.Join(t.TempDir(), "threefold.yaml")
	conf := "data_dir: " + t.TempDir() + "\nwatch:\n  dgt_settle: 0s\nhttp:\n  addr: 127.0.0.1:0\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, until func(base string, out *syncBuffer) bool) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		var out, errb syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- Main(ctx, []string{"watch", "--json", "--config", cfg, srv.URL()}, strings.NewReader(""), &out, &errb)
		}()
		base := dashboardURL(t, ctx, &errb)
		if err := poll(ctx, func() bool { return until(base, &out) }); err != nil {
			t.Fatalf("gave up: %v\n%s", err, errb.String())
		}
		cancel()
		if code := <-done; code != 0 {
			t.Fatalf("exit %d\n%s", code, errb.String())
		}
		return out.String(), errb.String()
	}
	// boards returns the boards' health and the games on the dashboard.
	boards := func(base string) (map[string]threefold.BoardStatus, int) {
		var h web.Health
		code, body := getBody(t, base+"/healthz")
		m := map[string]threefold.BoardStatus{}
		if code == http.StatusOK && json.Unmarshal([]byte(body), &h) == nil && len(h.Sources) == 1 {
			for _, b := range h.Sources[0].Boards {
				m[b.Serial] = b
			}
		}
		return m, h.Games
	}

	// Run 1: the board in play has no known game (LiveChess's first
	// message has no moves); its next list makes one.
	var gameID string
	pushed := false
	_, logs := run(t, func(base string, _ *syncBuffer) bool {
		b, games := boards(base)
		if b["7425"].Followed && !pushed {
			if b["7425"].Game != "" || games != 0 {
				t.Fatalf("a game before any move list: %+v", b["7425"])
			}
			srv.Push("7425", watchGameSAN[:48]...)
			pushed = true
		}
		gameID = b["7425"].Game
		return gameID != "" && strings.Contains(b["7426"].Failing, "EBoard 7426 is in use by another program") && !b["7426"].Followed
	})
	if !strings.Contains(logs, "LiveChess refused to follow a board") || !strings.Contains(logs, "EBoard 7426 is in use by another program") {
		t.Errorf("the refusal is not in the log:\n%s", logs)
	}
	code, out, errs := runMain(t, "status", "--config", cfg)
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Boards (2, 1 failing)",
		"dgt " + srv.URL() + " 7426 - ACTIVE no - LiveChess refused to follow it: EBoard 7426 is in use by another program",
		"dgt " + srv.URL() + " 7425 - ACTIVE yes " + gameID + " -"} {
		if !strings.Contains(flat, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}

	// Run 2: the game shows at once (the pieces are where it left them),
	// goes on to the repetition, and raises each alert once, as the same
	// game.
	srv.Refuse("7426", "")
	pushed = false
	out, _ = run(t, func(base string, out *syncBuffer) bool {
		b, _ := boards(base)
		_, state := getBody(t, base+"/api/state?game="+url.QueryEscape("dgt/"+gameID))
		if !pushed && strings.Contains(state, `"key":"dgt/`+gameID+`"`) && strings.Contains(state, `"ply":48`) {
			// Shown from LiveChess's first message, before any move.
			srv.Push("7425", watchGameSAN...)
			pushed = true
		}
		return strings.Contains(out.String(), `"kind":"threefold"`) && b["7426"].Healthy()
	})
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a threefold.Alert
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("not an alert: %q", line)
		}
		got = append(got, a.Game.ID+" "+string(a.Kind)+"@"+itoa(a.Ply))
	}
	if want := gameID + " claim_by_move@51 " + gameID + " threefold@52"; strings.Join(got, " ") != want {
		t.Errorf("alerts %v, want %s", got, want)
	}
}
