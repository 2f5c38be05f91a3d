package listener

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// TestFileSourceReportsSyntaxErrors: a stray token in a relay file cut the
// game there without a word, and a later threefold was never alerted. The
// game now needs attention, with the line and the token as scan says them,
// and the log says so. (Read once, each game is forgotten once the next
// comes: its status is looked at as it is taken in, as the recorder does.)
func TestFileSourceReportsSyntaxErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "round.pgn")
	text := "[Event \"R\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8\n3. Nf3 xyz! Nf6 4. Ng1 Ng8 *\n\n" +
		"[Event \"R\"]\n[White \"C\"]\n[Black \"D\"]\n\n1. e4 e5 *\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	w := NewWatcher(WatcherOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	var st []GameStatus
	src := AfterTaken(&FileSource{Path: path, Once: true}, func(_ context.Context, _ string, s threefold.GameState) {
		for _, g := range w.Status() {
			if g.Game == s.Game {
				st = append(st, g)
			}
		}
	}, func() {})
	if err := w.Run(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 {
		t.Fatalf("%d games: %+v", len(st), st)
	}
	a := st[0].Attention
	if a == nil || a.Ply != 6 || !strings.Contains(a.Reason, `line 6: unexpected token "xyz"`) {
		t.Fatalf("first game: attention %+v (ply %d)", a, st[0].Ply)
	}
	if st[1].Attention != nil || st[1].Ply != 2 {
		t.Fatalf("second game: %+v", st[1])
	}
	if !strings.Contains(logs.String(), "game needs attention") || !strings.Contains(logs.String(), `unexpected token \"xyz\"`) {
		t.Fatalf("not logged:\n%s", logs.String())
	}
}

// TestWatcherReadErrorClears: a game whose source could not read it whole
// needs attention until a state of it reads cleanly.
func TestWatcherReadErrorClears(t *testing.T) {
	w := NewWatcher(WatcherOptions{})
	s := threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "g"}, Notation: rules.SAN,
		Moves: []string{"e4", "e5"}, ReadError: "line 3: unexpected token \"q\""}
	w.Apply(s)
	if a := w.Status()[0].Attention; a == nil || a.Ply != 3 || !strings.Contains(a.Reason, "past ply 2") {
		t.Fatalf("attention %+v", a)
	}
	s.ReadError, s.Moves = "", []string{"e4", "e5", "Nf3"}
	w.Apply(s)
	if st := w.Status()[0]; st.Attention != nil || st.Ply != 3 {
		t.Fatalf("after a clean state: %+v", st)
	}
}

// TestWatcherMaxPlies: a game longer than the plies limit is replayed up
// to it and needs attention, naming the limit; a huge token is quoted
// short.
func TestWatcherMaxPlies(t *testing.T) {
	w := NewWatcher(WatcherOptions{MaxPlies: 8})
	moves := strings.Fields(strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 3))
	moves[8] = strings.Repeat("N", 1<<20)
	w.Apply(threefold.GameState{Game: threefold.GameRef{Site: "x", ID: "g"}, Notation: rules.SAN, Moves: moves})
	st := w.Status()[0]
	if st.Ply != 8 || st.Attention == nil || !strings.Contains(st.Attention.Reason, "more than 8 plies (limit pgn.max_plies)") {
		t.Fatalf("status %+v", st)
	}
	if len(st.Attention.Token) > 100 {
		t.Fatalf("token of %d bytes in the attention", len(st.Attention.Token))
	}
}

// TestWatcherForgetsFinishedGames: a finished game leaves the watcher
// after the grace period; a game still going stays.
func TestWatcherForgetsFinishedGames(t *testing.T) {
	clk := newFakeClock()
	w := NewWatcher(WatcherOptions{FinishedGrace: time.Hour, Clock: clk})
	game := func(id string, finished bool) threefold.GameState {
		return threefold.GameState{Game: threefold.GameRef{Site: "x", ID: id}, Notation: rules.SAN,
			Moves: []string{"e4", "e5"}, Finished: finished, Result: map[bool]string{true: "1-0", false: "*"}[finished]}
	}
	w.Apply(game("live", false))
	w.Apply(game("done", true))
	clk.Advance(59 * time.Minute)
	w.Apply(game("other", false))
	if w.Games() != 3 {
		t.Fatalf("%d games within the grace period, want 3", w.Games())
	}
	clk.Advance(7 * time.Minute) // the watcher looks at most once per tenth of the grace period
	w.Apply(game("live", false))
	if w.Games() != 2 {
		t.Fatalf("%d games after the grace period, want 2 (the finished one forgotten)", w.Games())
	}
	for _, st := range w.Status() {
		if st.Game.ID == "done" {
			t.Fatal("the finished game is still there")
		}
	}
}

// TestFileSourceStreams: a file is read one game at a time: a gzip of
// 256 MB of zeros (no line end at all) costs a few megabytes, not the
// whole file, and the game it makes needs attention.
func TestFileSourceStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 256 MB")
	}
	path := filepath.Join(t.TempDir(), "zeros.pgn.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 256; i++ {
		zw.Write(zeros)
	}
	zw.Close()
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w := NewWatcher(WatcherOptions{})
	if err := w.Run(context.Background(), &FileSource{Path: path, Once: true, Limits: pgn.Limits{}}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("reading allocated %d MB", alloc>>20)
	}
	st := w.Status()
	if len(st) != 1 || st[0].Attention == nil || !strings.Contains(st[0].Attention.Reason, "pgn.max_line_bytes") {
		t.Fatalf("status %+v", st)
	}
}

// TestFileSourceSaysMore: the states of one reading of a file say that
// more follow at once, but the last one, so that a consumer may gather
// its writes for the whole file; a reading where one game changed emits
// that one state, the last.
func TestFileSourceSaysMore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "round.pgn")
	game := func(white, moves string) string {
		return "[White \"" + white + "\"]\n[Black \"x\"]\n\n" + moves + " *\n\n"
	}
	mod := time.Date(2026, 7, 7, 12, 0, 0, 0, time.UTC)
	writeFile(t, path, game("a", "1. e4")+game("b", "1. d4")+game("c", "1. c4"), mod)
	clk := newFakeClock()
	var states []threefold.GameState
	src := &FileSource{Path: path, Interval: time.Second, Clock: clk}
	stop := runSource(src, func(s threefold.GameState) error { states = append(states, s); return nil })
	waitSleep(t, clk)
	var more []bool
	for _, s := range states {
		more = append(more, s.More)
	}
	if len(more) != 3 || !more[0] || !more[1] || more[2] {
		t.Fatalf("More of the first reading: %v, want [true true false]", more)
	}
	writeFile(t, path, game("a", "1. e4")+game("b", "1. d4 d5")+game("c", "1. c4"), mod.Add(time.Minute))
	clk.Advance(time.Second)
	waitSleep(t, clk)
	if len(states) != 4 || states[3].More || states[3].Game.White != "b" {
		t.Fatalf("second reading: %d states, last %+v", len(states), states[len(states)-1])
	}
	stop()
}

// TestPGNFeedForgetsFinishedGames: the PGN feeds kept every game they had
// seen (a chess.com player or a broadcast tour followed for months grew
// without bound). A finished game that no delivery names for the grace
// period is forgotten; a live game stays, and so does a finished one that
// every delivery names (a file's reading); a forgotten game named again
// is emitted again.
func TestPGNFeedForgetsFinishedGames(t *testing.T) {
	clk := newFakeClock()
	feed := newPGNFeed("lichess", "test", 0, "", clk, pgn.Limits{})
	feed.grace = time.Hour
	game := func(id, moves, result string) string {
		return "[GameURL \"https://x/" + id + "\"]\n[Result \"" + result + "\"]\n\n" + moves + " " + result + "\n"
	}
	var emitted []string
	emit := func(s threefold.GameState) error { emitted = append(emitted, s.Game.ID); return nil }
	feed1 := func(text string) {
		t.Helper()
		if err := feed.feedText(text, func(int) string { return "" }, emit); err != nil {
			t.Fatal(err)
		}
	}
	feed1(game("done", "1. e4 e5", "1-0"))
	feed1(game("kept", "1. d4 d5", "1/2-1/2"))
	feed1(game("live", "1. c4", "*"))
	clk.Advance(50 * time.Minute)
	feed1(game("kept", "1. d4 d5", "1/2-1/2"))
	if len(feed.games) != 3 {
		t.Fatalf("%d games within the grace period, want 3", len(feed.games))
	}
	clk.Advance(30 * time.Minute)
	feed1(game("kept", "1. d4 d5", "1/2-1/2"))
	if _, ok := feed.games["https://x/done"]; ok || len(feed.games) != 2 {
		t.Fatalf("games after the grace period: %d (the finished one not named since should be gone)", len(feed.games))
	}
	emitted = nil
	feed1(game("done", "1. e4 e5", "1-0"))
	if len(emitted) != 1 || emitted[0] != "https://x/done" {
		t.Fatalf("a forgotten game named again: emitted %v", emitted)
	}
}

// TestOneBadFileDoesNotStopTheOthers: one bad file (a truncated gzip, a
// game over the line limit) must never stop the other sources: the game
// of the good file is followed to its end and alerted, the bad game needs
// attention, and the log names the truncated file.
func TestOneBadFileDoesNotStopTheOthers(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("[Event \"cut\"]\n\n1. e4 e5 2. Nf3 Nc6 "))
	zw.Close()
	truncated := filepath.Join(dir, "truncated.pgn.gz")
	long := filepath.Join(dir, "long.pgn")
	good := filepath.Join(dir, "good.pgn")
	for path, text := range map[string][]byte{
		truncated: gz.Bytes()[:gz.Len()-6],
		long:      []byte("[Event \"long\"]\n[White \"" + strings.Repeat("x", 2048) + "\"]\n\n1. e4 *\n"),
		good:      []byte("[Event \"good\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n"),
	} {
		if err := os.WriteFile(path, text, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	alerts := 0
	var logs bytes.Buffer // slog's handler writes one record at a time
	log := slog.New(slog.NewTextHandler(&logs, nil))
	w := NewWatcher(WatcherOptions{Logger: log, Alert: func(threefold.Alert) { alerts++ }})
	lim := pgn.Limits{MaxLineBytes: 1024}
	err := w.Run(context.Background(), &FileSource{Path: truncated, Once: true, Limits: lim, Logger: log},
		&FileSource{Path: long, Once: true, Limits: lim, Logger: log}, &FileSource{Path: good, Once: true, Limits: lim, Logger: log})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !strings.Contains(logs.String(), "cannot read") || !strings.Contains(logs.String(), "truncated.pgn.gz") {
		t.Fatalf("the truncated file is not named in the log:\n%s", logs.String())
	}
	byID := map[string]GameStatus{}
	for _, st := range w.Status() {
		byID[filepath.Base(st.Game.ID)] = st
	}
	if st, ok := byID["good.pgn#1"]; !ok || st.Ply != 8 || st.Attention != nil || alerts == 0 {
		t.Fatalf("the good file's game: %+v (%v), %d alerts", st, ok, alerts)
	}
	if st, ok := byID["long.pgn#1"]; !ok || st.Attention == nil || !strings.Contains(st.Attention.Reason, "max_line_bytes") {
		t.Fatalf("the long game: %+v (%v)", st, ok)
	}
}

// TestFileSourceOnceForgetsWhatItSent: a file read once is not read
// again, so its games are forgotten as soon as they were emitted, finished
// or without a result (watch --once of a month of games kept every one),
// and their states say Last; a file followed keeps every game, to emit
// only what changed at the next reading.
func TestFileSourceOnceForgetsWhatItSent(t *testing.T) {
	game := func(id, moves, result string) string {
		return "[GameURL \"https://x/" + id + "\"]\n[Result \"" + result + "\"]\n\n" + moves + " " + result + "\n\n"
	}
	text := game("a", "1. e4 e5", "1-0") + game("b", "1. d4", "*") + game("c", "1. c4", "0-1")
	for _, tc := range []struct {
		name string
		once bool
		kept []string
		last []string // the games whose state says Last
	}{
		{"read once", true, nil, []string{"https://x/a", "https://x/b", "https://x/c"}},
		{"followed", false, []string{"https://x/a", "https://x/b", "https://x/c"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			feed := newPGNFeed("file", "test", 0, "", newFakeClock(), pgn.Limits{})
			feed.forgetSent = tc.once
			var emitted, last []string
			emit := func(s threefold.GameState) error {
				emitted = append(emitted, s.Game.ID)
				if s.Last {
					last = append(last, s.Game.ID)
				}
				return nil
			}
			if _, err := feed.feedReader(pgn.NewReader(strings.NewReader(text)), func(int) string { return "" }, emit); err != nil {
				t.Fatal(err)
			}
			if len(emitted) != 3 {
				t.Errorf("emitted %v, want the 3 games", emitted)
			}
			var kept []string
			for id := range feed.games {
				kept = append(kept, id)
			}
			slices.Sort(kept)
			if !slices.Equal(kept, tc.kept) {
				t.Errorf("kept %v, want %v", kept, tc.kept)
			}
			if !slices.Equal(last, tc.last) {
				t.Errorf("the last states of %v, want those of %v", last, tc.last)
			}
		})
	}
}
