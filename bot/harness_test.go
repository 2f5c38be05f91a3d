package bot_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/bot/uci/ucitest"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/testlog"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/rules"
)

// pickEnv selects how the fake engine chooses among the allowed moves:
// "repeat" prefers the move whose position occurred most often, "avoid"
// the least often, "castle" castling whenever it can; ties go to knight
// moves, then to the first move.
const pickEnv = "THREEFOLD_FAKE_PICK"

func TestMain(m *testing.M) {
	ucitest.RunIfRequested(fakePick)
	os.Exit(m.Run())
}

func fakePick(fen string, moves, searchmoves []string) string {
	start, err := rules.ParseStart(fen) // Shredder-FEN: Chess960
	if err != nil {
		return ""
	}
	g := rules.NewGame(start)
	for _, mv := range moves {
		if _, err := g.PlayUCI(mv); err != nil {
			return ""
		}
	}
	pos := g.Position()
	var allowed []rules.Move
	if len(searchmoves) > 0 {
		for _, s := range searchmoves {
			if m, err := pos.ParseUCI(s); err == nil {
				allowed = append(allowed, m)
			}
		}
	} else {
		allowed = pos.LegalMoves(nil)
	}
	if len(allowed) == 0 {
		return ""
	}
	mode := os.Getenv(pickEnv)
	best, bestKey := allowed[0], -1<<30
	for _, m := range allowed {
		n := len(g.OccurrencesOf(m))
		key := 0
		switch mode {
		case "repeat":
			key = n * 4
		case "avoid":
			key = -n * 4
		case "castle":
			if m.IsCastling() {
				key = 100
			}
		}
		if pos.PieceAt(m.From()).Type() == rules.Knight {
			key += 2
		}
		if key > bestKey {
			best, bestKey = m, key
		}
	}
	if start.Variant() == rules.Chess960 {
		return best.UCIChess960()
	}
	return best.UCI()
}

// harness is a bot running against the fake Lichess, on a fake clock that
// a ticker moves 20 times faster than real time (keep-alives, watchdogs,
// backoff and 429 pauses all run on it), or, with harnessOpt.scale, on a
// clock that runs that many times faster than real time, steadily, with
// the fake's clocks running on it.
type harness struct {
	t       *testing.T
	clk     clock.Clock
	fake    *fakelichess.Server
	client  *lichess.Client
	cfg     bot.Config
	logs    *testlog.Buffer
	records string
	ctx     context.Context // ends with the test (with a deadline)
	cancel  context.CancelFunc
	stopBot context.CancelFunc
	done    chan error
	sink    *notifySink
	status  statusBox // the last status the bot reported
	// newMover is bot.Options.NewMover (nil: the bot's default).
	newMover func() bot.Mover
}

// statusBox keeps the bot's last status (bot.Options.OnStatus) and wakes
// waitStatus.
type statusBox struct {
	mu      sync.Mutex
	last    threefold.BotStatus
	changed chan struct{}
}

func (b *statusBox) set(s threefold.BotStatus) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.last = s
	if b.changed != nil {
		close(b.changed)
	}
	b.changed = make(chan struct{})
}

// waitStatus waits until the bot's last status satisfies cond.
func (h *harness) waitStatus(cond func(threefold.BotStatus) bool) (threefold.BotStatus, error) {
	for {
		b := &h.status
		b.mu.Lock()
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		s, ch := b.last, b.changed
		b.mu.Unlock()
		if cond(s) {
			return s, nil
		}
		select {
		case <-ch:
		case <-h.ctx.Done():
			return s, h.ctx.Err()
		}
	}
}

// notifySink writes records to the records file and wakes waitRecord.
type notifySink struct {
	bot.JSONLines
	mu      sync.Mutex
	changed chan struct{}
}

func (n *notifySink) WriteRecord(ctx context.Context, r threefold.BotRecord) error {
	err := n.JSONLines.WriteRecord(ctx, r)
	n.mu.Lock()
	close(n.changed)
	n.changed = make(chan struct{})
	n.mu.Unlock()
	return err
}

// waitRecord waits until the record of a game is written.
func (n *notifySink) waitRecord(ctx context.Context, id string) (threefold.BotRecord, error) {
	for {
		n.mu.Lock()
		ch := n.changed
		n.mu.Unlock()
		recs, _ := bot.ReadRecords(n.Path)
		for _, r := range recs {
			if r.GameID == id {
				return r, nil
			}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return threefold.BotRecord{}, ctx.Err()
		}
	}
}

type harnessOpt struct {
	token       string
	engine      string // engine path; "" built-in
	cfg         func(*bot.Config)
	legacy      bool // older stream forms: e1g1 castling, wdraw:false fields
	noAutoStart bool
	// scale > 0: the clock runs scale times faster than real time and the
	// fake's clocks run (fakelichess.Options.RunningClocks).
	scale float64
	lag   time.Duration // fakelichess.Options.Lag
	// lichessClock, if set, is the fake Lichess's clock instead of the
	// bot's (the games' clocks run on it; see chargedMover).
	lichessClock clock.Clock
	// newMover, if set, is bot.Options.NewMover.
	newMover func() bot.Mover
	timeout  time.Duration // of the whole test (default 60 s)
}

func testConfig(dir string) bot.Config {
	cfg := bot.DefaultConfig()
	cfg.Engine.Threads = 1
	cfg.Engine.Hash = 16
	cfg.Engine.MinMoveTime = 20 * time.Millisecond
	cfg.Engine.MaxMoveTime = 40 * time.Millisecond
	cfg.Engine.MoveOverhead = 10 * time.Millisecond
	cfg.Engine.StartTimeout = 50 * time.Second // the fake engine is this test binary: slow to start under -race
	cfg.Chat.MinInterval = 0
	cfg.Policy.ClaimWait = 500 * time.Millisecond
	cfg.RecordFile = filepath.Join(dir, "games.jsonl")
	cfg.StopTimeout = 2 * time.Minute
	return cfg
}

func newHarness(t *testing.T, o harnessOpt) *harness {
	t.Helper()
	timeout := o.timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	var clk clock.Clock
	var ticked *clock.Fake
	if o.scale > 0 {
		clk = clock.NewScaled(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC), o.scale)
	} else {
		ticked = clock.NewFake(time.Time{})
		clk = ticked
	}
	lichessClk := clk
	if o.lichessClock != nil {
		lichessClk = o.lichessClock
	}
	fake := fakelichess.New(fakelichess.Options{Clock: lichessClk, LegacyCastling: o.legacy, LegacyDrawFields: o.legacy,
		RunningClocks: o.scale > 0, Lag: o.lag})
	logs := &testlog.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	token := o.token
	if token == "" {
		token = fakelichess.BotToken
	}
	client := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: token, Account: fakelichess.BotUser,
		Clock: clk, Logger: log, RateLimitPause: 5 * time.Second})
	dir := t.TempDir()
	cfg := testConfig(dir)
	cfg.Engine.Path = o.engine
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	h := &harness{t: t, clk: clk, fake: fake, newMover: o.newMover, client: client, cfg: cfg, logs: logs, records: cfg.RecordFile,
		ctx: ctx, cancel: cancel, done: make(chan error, 1),
		sink: &notifySink{JSONLines: bot.JSONLines{Path: cfg.RecordFile}, changed: make(chan struct{})}}
	tickDone := make(chan struct{})
	tickStop := make(chan struct{})
	go func() {
		defer close(tickDone)
		if ticked == nil {
			return
		}
		tk := time.NewTicker(2 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-tk.C:
				ticked.Advance(40 * time.Millisecond)
			case <-tickStop:
				return
			}
		}
	}()
	t.Cleanup(func() {
		if h.stopBot != nil {
			h.stopBot()
			select {
			case <-h.done:
			case <-time.After(30 * time.Second):
				t.Errorf("bot did not stop")
			}
		}
		client.Close()
		fake.Close()
		close(tickStop)
		<-tickDone
		cancel()
		if t.Failed() {
			t.Logf("bot log:\n%s", tail(logs.String(), 120))
		}
	})
	if !o.noAutoStart {
		h.start()
	}
	return h
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// start runs the bot; its error (if any) arrives on h.done.
func (h *harness) start() {
	b, err := bot.New(bot.Options{API: h.client, Config: h.cfg, Logger: slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Clock: h.clk, BaseURL: "https://lichess.org", Records: h.sink, OnStatus: h.status.set, NewMover: h.newMover})
	if err != nil {
		h.t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(h.ctx)
	h.stopBot = stop
	go func() { h.done <- b.Run(runCtx) }()
}

// waitGameOver waits until the fake game is over and the bot has written
// its record; it returns both.
func (h *harness) waitGameOver(id string) (fakelichess.GameState, threefold.BotRecord) {
	h.t.Helper()
	g := h.fake.Game(id)
	if err := h.fake.WaitFor(h.ctx, func() bool { return lichess.Finished(g.State().Status) }); err != nil {
		h.t.Fatalf("game %s not over: %v (state %+v)", id, err, g.State())
	}
	rec, err := h.sink.waitRecord(h.ctx, id)
	if err != nil {
		h.t.Fatalf("no record for %s: %v", id, err)
	}
	return g.State(), rec
}

// opponent plays the scripted side of a game from the test: choose gets
// the game so far and returns a UCI move, "resign", or "" to stop acting.
// It returns when the game is over or ctx ends.
func (h *harness) opponent(id string, choose func(g *rules.Game) string) {
	go func() {
		fg := h.fake.Game(id)
		for {
			var st fakelichess.GameState
			err := h.fake.WaitFor(h.ctx, func() bool {
				st = fg.State()
				return lichess.Finished(st.Status) || !botToMove(st, h.botColor(id))
			})
			if err != nil || lichess.Finished(st.Status) {
				return
			}
			g := replay(st)
			mv := choose(g)
			switch mv {
			case "":
				return
			case "resign":
				fg.OpponentResign()
				return
			}
			if err := fg.OpponentMove(mv); err != nil {
				h.t.Errorf("opponent move %s: %v", mv, err)
				return
			}
		}
	}()
}

var botColors sync.Map // game id -> rules.Color

func (h *harness) botColor(id string) rules.Color {
	c, _ := botColors.Load(id)
	col, _ := c.(rules.Color)
	return col
}

// newGame starts a game on the fake with the bot playing botColor.
func (h *harness) newGame(spec fakelichess.GameSpec, botColor rules.Color) string {
	h.t.Helper()
	if botColor == rules.White {
		spec.White, spec.Black = fakelichess.BotUser, fakelichess.Opponent
	} else {
		spec.White, spec.Black = fakelichess.Opponent, fakelichess.BotUser
	}
	if spec.ID == "" {
		spec.ID = "g" + strings.ToLower(strings.NewReplacer("/", "", " ", "", ":", "").Replace(h.t.Name()))
		if len(spec.ID) > 12 {
			spec.ID = spec.ID[len(spec.ID)-12:]
		}
	}
	botColors.Store(spec.ID, botColor)
	initialFENs.set(spec.ID, spec.InitialFEN)
	g, err := h.fake.NewGame(spec)
	if err != nil {
		h.t.Fatal(err)
	}
	return g.ID()
}

func botToMove(st fakelichess.GameState, bot rules.Color) bool {
	p, err := rules.ParseFEN(st.FEN)
	if err != nil {
		return false
	}
	return p.Turn() == bot
}

// replay rebuilds a fake game's moves (the fake starts from its FEN
// history; the tests use the standard start or give the FEN to replayFrom).
func replay(st fakelichess.GameState) *rules.Game {
	return replayFrom(initialFENs.get(st.ID), st.Moves)
}

type fenMap struct {
	mu sync.Mutex
	m  map[string]string
}

func (f *fenMap) set(id, fen string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]string{}
	}
	f.m[id] = fen
}

func (f *fenMap) get(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.m[id]
}

var initialFENs fenMap

func replayFrom(fen string, moves []string) *rules.Game {
	start, err := rules.ParseStart(fen) // Shredder-FEN: Chess960
	if err != nil {
		panic(err)
	}
	g := rules.NewGame(start)
	for _, mv := range moves {
		if _, err := g.PlayUCI(mv); err != nil {
			panic(err)
		}
	}
	return g
}

// Opponents.

// repeater plays the move that repeats most (the third occurrence when it
// can), preferring knight and king moves, and resigns at resignPly.
func repeater(resignPly int) func(*rules.Game) string {
	return func(g *rules.Game) string {
		if g.Ply() >= resignPly {
			return "resign"
		}
		pos := g.Position()
		var best rules.Move
		bestKey := -1 << 30
		for _, m := range pos.LegalMoves(nil) {
			key := len(g.OccurrencesOf(m)) * 8
			switch pos.PieceAt(m.From()).Type() {
			case rules.Knight:
				key += 2
			case rules.King:
				key++
			}
			if pos.IsCapture(m) {
				key -= 4
			}
			if key > bestKey {
				best, bestKey = m, key
			}
		}
		return best.UCI()
	}
}

// shuffler plays its moves in turn whenever they are legal, else the
// first legal move.
func shuffler(moves ...string) func(*rules.Game) string {
	i := 0
	return func(g *rules.Game) string {
		pos := g.Position()
		for range moves {
			mv := moves[i%len(moves)]
			i++
			if _, err := pos.ParseUCI(mv); err == nil {
				return mv
			}
		}
		return pos.LegalMoves(nil)[0].UCI()
	}
}

// builtinOpponent plays with the built-in mover.
func builtinOpponent(seed int64, resignPly int) func(*rules.Game) string {
	b := &bot.Builtin{Seed: seed}
	return func(g *rules.Game) string {
		if resignPly > 0 && g.Ply() >= resignPly {
			return "resign"
		}
		res, err := b.Search(context.Background(), bot.SearchRequest{Game: g})
		if err != nil {
			return ""
		}
		return res.Move.UCI()
	}
}

// fakeEngine returns the path of the scripted UCI engine (this test
// binary) with a behaviour and a pick mode.
func fakeEngine(t *testing.T, behavior, pick string) string {
	t.Helper()
	path, err := ucitest.Script(t.TempDir(), behavior, pickEnv+"="+pick)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// requests with their query flag.
func (h *harness) moveRequests(id string) []fakelichess.Request {
	var out []fakelichess.Request
	for _, r := range h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/move/*") {
		if r.Status == 200 {
			out = append(out, r)
		}
	}
	return out
}

func (h *harness) drawYes(id string) []fakelichess.Request {
	var out []fakelichess.Request
	for _, r := range h.fake.RequestsTo("POST", "/api/bot/game/"+id+"/draw/*") {
		if strings.HasSuffix(r.Path, "/yes") {
			out = append(out, r)
		}
	}
	return out
}
