package listener

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/listener/dgttest"
)

// writeFile replaces name with text the way a relay does (write a temporary
// file, rename it over), and moves its modification time on.
func writeFile(t *testing.T, name, text string, mod time.Time) {
	t.Helper()
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, mod, mod); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

func TestFileSourceFollowsRelayFolder(t *testing.T) {
	dir := t.TempDir()
	board1 := filepath.Join(dir, "board1.pgn")
	board2 := filepath.Join(dir, "board2.pgn")
	mod := time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC)
	writeFile(t, board1, pgnOf(anandPGNHead, anandMoves[:40], "*"), mod)
	// Board 2's record has an illegal move at ply 21 (…Qxh7 is impossible).
	badMoves := append(append([]string(nil), anandMoves[:20]...), "Qxh7", "Rc8")
	writeFile(t, board2, pgnOf("[Event \"OTB\"]\n[White \"B\"]\n[Black \"C\"]\n", badMoves, "*"), mod)

	clock := newFakeClock()
	c := newCollector()
	src := &FileSource{Path: dir, Interval: time.Second, Clock: clock}
	stop := runSource(src, c.emit)
	waitSleep(t, clock) // first scan done
	if len(c.snaps) != 2 {
		t.Fatalf("%d snapshots after the first scan, want 2", len(c.snaps))
	}
	for _, s := range c.snaps {
		if s.Audience != threefold.AudienceArbiters || s.Game.Site != "file" {
			t.Errorf("snapshot %+v: want site file, audience arbiters", s.Game)
		}
	}
	var attention *Attention
	for _, st := range c.w.Status() {
		if st.Game.ID == board2+"#1" {
			attention = st.Attention
		}
	}
	if attention == nil || attention.Ply != 21 || attention.Token != "Qxh7" {
		t.Fatalf("board 2 attention = %+v, want ply 21 Qxh7", attention)
	}

	// Nothing changed: the next poll reads nothing.
	clock.Advance(time.Second)
	waitSleep(t, clock)
	if len(c.snaps) != 2 {
		t.Errorf("%d snapshots after an idle poll, want 2", len(c.snaps))
	}

	// The relay rewrites board 1 with the repetition, and corrects board 2.
	mod = mod.Add(time.Minute)
	writeFile(t, board1, pgnOf(anandPGNHead, anandMoves, "*"), mod)
	writeFile(t, board2, pgnOf("[Event \"OTB\"]\n[White \"B\"]\n[Black \"C\"]\n", anandMoves[:30], "*"), mod)
	clock.Advance(time.Second)
	waitSleep(t, clock)
	k := c.kinds(board1 + "#1")
	if !slices.Equal(k[threefold.KindThreefold], []int{52}) || !slices.Equal(k[threefold.KindClaimByMove], []int{51}) {
		t.Errorf("board 1 alerts %v, want claim_by_move 51 and threefold 52", k)
	}
	for _, st := range c.w.Status() {
		if st.Game.ID == board2+"#1" && (st.Attention != nil || st.Ply != 30) {
			t.Errorf("board 2 after the correction: %+v", st)
		}
	}
	// The file finishes with a result.
	mod = mod.Add(time.Minute)
	writeFile(t, board1, pgnOf(anandPGNHead, anandMoves, "1/2-1/2"), mod)
	clock.Advance(time.Second)
	waitSleep(t, clock)
	last := c.snaps[len(c.snaps)-1]
	if !last.Finished || last.Result != "1/2-1/2" {
		t.Errorf("last snapshot %+v, want finished 1/2-1/2", last)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicate alerts %v", d)
	}
}

func TestFileSourceMissingPath(t *testing.T) {
	err := (&FileSource{Path: filepath.Join(t.TempDir(), "nope.pgn")}).Run(context.Background(), func(threefold.GameState) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "nope.pgn") {
		t.Errorf("err = %v, want a message naming the file", err)
	}
}

func TestDGTServerGoneForGood(t *testing.T) {
	srv := dgttest.NewServer()
	url := srv.URL()
	srv.Close()
	clock := newFakeClock()
	src := &DGTSource{URL: url, Clock: clock, MaxFailures: 3}
	done := make(chan error, 1)
	go func() { done <- src.Run(context.Background(), func(threefold.GameState) error { return nil }) }()
	for i := 0; i < 2; i++ {
		waitSleep(t, clock)
		clock.Advance(time.Minute)
	}
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("err = %v, want unreachable", err)
	}
}

// failingSource fails at once, as an unreachable host does.
type failingSource struct{}

func (failingSource) Name() string { return "broken" }
func (failingSource) Run(context.Context, Emit) error {
	return errors.New("dial tcp 127.0.0.1:1: connection refused")
}

func TestWatcherRunOtherSourcesGoOn(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "g.pgn")
	writeFile(t, f, pgnOf(anandPGNHead, anandMoves, "*"), time.Now())
	c := newCollector()
	err := c.w.Run(context.Background(), failingSource{}, &FileSource{Path: f, Once: true})
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Run error %v, want the broken source named", err)
	}
	if k := c.kinds(""); !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Errorf("the file source's alerts: %v", k)
	}
}
