package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess/lichesstest"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// demoGames are the recorded real games the demo replays (taken from the
// shared corpus, with their original tags): five boards of a broadcast
// round, a Lichess blitz game that reaches a fifth occurrence, and the two
// games whose perpetual checks the bot games start from.
//
//go:embed demodata/games.pgn
var demoGames string

// The demo's cast, by index in demodata/games.pgn.
var (
	// demoBoardSpecs: the broadcast round, each board started this many plies
	// before its first claim, so that alerts come early and keep coming.
	demoBoardSpecs = []struct{ game, lead int }{{0, 10}, {1, 24}, {2, 40}, {3, 60}, {4, 110}}
	// demoFivefold is followed as a Lichess game (spectator stream), from
	// 12 plies before its first claim to its fifth occurrence.
	demoFivefold = struct{ game, lead int }{5, 12}
	// demoBotStarts: the bot plays from these positions, the side that
	// gave perpetual check in the recorded game; the scripted opponent
	// answers with the recorded moves while the bot follows the record,
	// and otherwise seeks a repetition.
	demoBotStarts = []struct {
		game, ply int
		botWhite  bool
	}{{5, 52, true}, {0, 30, true}}
)

const demoRound = "demoRnd1"

type demoOptions struct {
	duration, pace time.Duration
	addr, token    string
	jsonOut        bool
	verbose        bool
}

func newDemoCmd(env *environment) *cobra.Command {
	o := demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole system offline: a simulated Lichess, the bot, the watcher and the dashboard",
		Long: `demo runs threefold with no account and no network. It starts a simulated
Lichess on localhost that replays recorded real games: a broadcast round of five
boards, a blitz game that reaches a fifth occurrence, and games against the
threefold bot (which plays with its built-in mover against a scripted opponent).
The watcher follows them all; the dashboard shows them live. The dashboard's
address and every alert are printed as they happen. The demo ends by itself
after --duration, or on Ctrl-C.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("demo takes no arguments (got %q)", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.duration <= 0 || o.pace <= 0 {
				return usagef("demo: --duration and --pace must be positive")
			}
			return runDemo(cmd.Context(), env, o)
		},
	}
	cmd.Flags().DurationVar(&o.duration, "duration", 3*time.Minute, "how long the demo runs")
	cmd.Flags().DurationVar(&o.pace, "pace", time.Second, "time between two moves of a game")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:0", "dashboard address (port 0: a free port)")
	cmd.Flags().StringVar(&o.token, "token", "", "dashboard access token (required with an --addr beyond localhost)")
	cmd.Flags().BoolVar(&o.jsonOut, "json", false, "write alerts as JSON lines")
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "log what every component does (stderr)")
	return cmd
}

// lockedWriter serialises the lines several goroutines write to stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) printf(format string, args ...any) {
	fmt.Fprintf(l, format+"\n", args...)
}

// demoGame is one recorded game ready to replay.
type demoGame struct {
	white, black, event, result string
	san, uci                    []string
	firstClaim                  int // the first ply where a claim is possible; len(san) if none
}

func loadDemoGames() ([]demoGame, error) {
	games, err := pgn.ParseGames(demoGames)
	if err != nil {
		return nil, fmt.Errorf("demo: recorded games: %w", err)
	}
	out := make([]demoGame, 0, len(games))
	for _, g := range games {
		d := demoGame{result: g.Result, firstClaim: -1}
		d.white, _ = g.Tag("White")
		d.black, _ = g.Tag("Black")
		d.event, _ = g.Tag("Event")
		tr, err := g.Replay(func(ply int, _ string, tr *rules.Game) {
			if d.firstClaim < 0 && (tr.CanClaimRepetition() || tr.Count() >= 3) {
				d.firstClaim = ply
			}
		})
		if err != nil || tr == nil {
			return nil, fmt.Errorf("demo: recorded game %d: %w", g.Index, err)
		}
		pos := tr.Start()
		for _, m := range tr.Moves() {
			d.uci = append(d.uci, m.UCI())
			d.san = append(d.san, pos.SAN(m))
			pos.Play(m)
		}
		if d.firstClaim < 0 {
			d.firstClaim = len(d.san)
		}
		out = append(out, d)
	}
	return out, nil
}

// runDemo runs the watch and bot wiring against the simulated Lichess,
// with a store in a temporary directory and a webhook that counts what it
// receives, and plays the recorded games through the simulator.
func runDemo(parent context.Context, env *environment, o demoOptions) error {
	games, err := loadDemoGames()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(parent, o.duration)
	defer cancel()
	out := &lockedWriter{w: env.stdout}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))

	fake := lichesstest.New(lichesstest.Options{})
	defer fake.Close()
	hook := newDemoWebhook()
	defer hook.Close()
	dir, err := os.MkdirTemp("", "threefold-demo-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(dir)
	cfg := defaultConfig()
	cfg.DataDir, cfg.Lichess.URL = dir, fake.URL
	cfg.HTTP = httpConfig{Addr: o.addr, Token: o.token}
	cfg.Watch.Webhooks = []webhookConfig{{Kind: string(notify.JSON), URL: hook.URL}}
	st, err := openStore(ctx, &cfg, storeOptions{})
	if err != nil {
		return fmt.Errorf("demo: store: %w", err)
	}
	defer st.Close()
	d, err := startDashboard(ctx, cfg.HTTP, log)
	if err != nil {
		return err
	}
	out.printf("threefold demo — no account, no network: a simulated Lichess at %s replays recorded real games.", fake.URL)
	out.printf("dashboard: %s", d.URL)
	out.printf("following: a broadcast round of %d boards, a blitz game that reaches a fifth occurrence, and the bot's games; the demo ends after %s (Ctrl-C ends it sooner).", len(demoBoardSpecs), o.duration)

	// The feeds of the simulated Lichess must exist before the watcher
	// opens their streams.
	round := fake.Broadcast(demoRound)
	boards := newDemoBoards(games, fake.URL)
	round.SetPGN(boards.pgn())
	ff := games[demoFivefold.game]
	ffStart := max(0, ff.firstClaim-demoFivefold.lead)
	spect := fake.MustSpectatorGame(lichesstest.SpectatorSpec{ID: "8dCwCGev", White: ff.white, Black: ff.black,
		Moves: ff.uci[:ffStart]})

	// watch and bot, as the commands run them, on one store and one
	// dashboard.
	watchCfg, botCfg := cfg, cfg
	watchCfg.Lichess.Token, botCfg.Lichess.Token = lichesstest.WatchToken, lichesstest.BotToken
	targets, err := demoTargets(fake.URL, fake.URL+"/broadcast/threefold-demo/round-1/"+demoRound, fake.URL+"/"+spect.ID())
	if err != nil {
		return err
	}
	watch := &watchRun{cfg: &watchCfg, targets: targets, jsonOut: o.jsonOut, stdout: out, log: log, dash: d, st: st}
	var botAlerts notify.Sink = notify.NewText(out)
	if o.jsonOut {
		botAlerts = notify.NewJSONLines(out)
	}
	bc, err := demoBotConfig(o.pace)
	if err != nil {
		return err
	}
	player := &botRun{cfg: &botCfg, bc: bc, log: log, dash: d, st: st, source: "lichess bot " + lichesstest.BotUser,
		alerts: botAlerts, records: []bot.RecordSink{demoRecords{out: out}}}

	var wg sync.WaitGroup
	run := func(name string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				log.Error("demo: "+name+" stopped", "err", err)
			}
		}()
	}
	run("watcher", func() error { return watch.run(ctx) })
	run("bot", func() error { return player.run(ctx) })
	run("broadcast", func() error { return boards.play(ctx, round, o.pace) })
	run("blitz game", func() error { return playSpectatorGame(ctx, spect, ff.uci, ffStart, o.pace) })
	run("bot games", func() error { return playBotGames(ctx, fake, games, o.pace) })
	wg.Wait()
	dashErr := d.Wait()

	reason := "after " + o.duration.String()
	if parent.Err() != nil {
		reason = "interrupted"
	}
	alerts, stored := demoStored(st)
	out.printf("the store (a temporary one) holds %d games and %d alerts; the webhook (watch.webhooks) received %d of them.",
		stored, alerts, hook.received())
	out.printf("demo over (%s): %d alerts.", reason, alerts)
	return dashErr
}

// demoTargets are the sources the demo's watcher follows, as a user would
// paste them.
func demoTargets(base string, urls ...string) ([]listener.Target, error) {
	var targets []listener.Target
	for _, u := range urls {
		t, err := listener.ParseTarget(u, listener.ParseOptions{LichessBase: base})
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// demoBotConfig is the bot's config in the demo: the built-in mover, games
// resigned at the end, and a pawn down counts as behind, so the bot seeks
// the repetition.
func demoBotConfig(pace time.Duration) (bot.Config, error) {
	bc := bot.DefaultConfig()
	bc.OnStop = "resign"
	bc.StopTimeout = 5 * time.Second
	bc.Policy.BehindMargin = 50
	bc.Policy.ClaimWait = pace
	bc.Chat.MinInterval = 0
	if err := bc.Validate(); err != nil {
		return bc, fmt.Errorf("demo: bot: %w", err)
	}
	return bc, nil
}

// demoStored counts the alerts and games in the demo's store.
func demoStored(st *store.Store) (alerts, games int) {
	ctx := context.Background()
	if as, err := st.Alerts(ctx, store.AlertFilter{}); err == nil {
		alerts = len(as)
	}
	if gs, err := st.Games(ctx, store.GameFilter{}); err == nil {
		games = len(gs)
	}
	return alerts, games
}

// demoWebhook is the demo's webhook: it counts the alerts it receives, by
// their Idempotency-Key.
type demoWebhook struct {
	*httptest.Server
	mu  sync.Mutex
	ids map[string]bool
}

func newDemoWebhook() *demoWebhook {
	h := &demoWebhook{ids: map[string]bool{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		h.mu.Lock()
		h.ids[r.Header.Get(notify.IdempotencyHeader)] = true
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return h
}

func (h *demoWebhook) received() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.ids)
}

// playSpectatorGame plays the recorded moves from ply on, one per pace,
// then ends the game.
func playSpectatorGame(ctx context.Context, g *lichesstest.Spectated, uci []string, ply int, pace time.Duration) error {
	for ; ply < len(uci); ply++ {
		if err := clock.Sleep(ctx, clock.Real, pace); err != nil {
			return err
		}
		if err := g.Move(uci[ply]); err != nil {
			return fmt.Errorf("spectator game move %d: %w", ply+1, err)
		}
	}
	g.Finish("draw", "")
	return nil
}

// demoRecords prints how each bot game ended.
type demoRecords struct{ out *lockedWriter }

func (r demoRecords) WriteRecord(_ context.Context, rec threefold.BotRecord) error {
	r.out.printf("bot game %s (%s vs %s) over: %s, %s after %d plies.", rec.GameID, rec.White.Name, rec.Black.Name,
		rec.Result, strings.ReplaceAll(string(rec.Termination), "_", " "), rec.Plies)
	return nil
}

// demoBoards is the broadcast round: recorded games advanced one move per
// board per pace.
type demoBoards struct {
	base   string
	boards []*demoBoard
}

type demoBoard struct {
	chapter string
	g       demoGame
	ply     int
	done    bool
}

func newDemoBoards(games []demoGame, base string) *demoBoards {
	db := &demoBoards{base: base}
	for i, spec := range demoBoardSpecs {
		g := games[spec.game]
		db.boards = append(db.boards, &demoBoard{chapter: fmt.Sprintf("board%03d", i+1), g: g,
			ply: max(0, g.firstClaim-spec.lead)})
	}
	return db
}

// pgn is the round as the broadcast serves it, every board at its ply.
func (db *demoBoards) pgn() string {
	var sb strings.Builder
	for i, b := range db.boards {
		url := db.base + "/broadcast/threefold-demo/round-1/" + demoRound + "/" + b.chapter
		fmt.Fprintf(&sb, "[Event \"threefold demo: recorded games (%s)\"]\n[Site %q]\n[Round \"1.%d\"]\n[White %q]\n[Black %q]\n[Result \"*\"]\n[GameURL %q]\n\n",
			b.g.event, url, i+1, b.g.white, b.g.black, url)
		for p := 0; p < b.ply; p++ {
			if p%2 == 0 {
				fmt.Fprintf(&sb, "%d. ", p/2+1)
			}
			sb.WriteString(b.g.san[p] + " ")
		}
		sb.WriteString("*\n\n")
	}
	return sb.String()
}

func (db *demoBoards) play(ctx context.Context, round *lichesstest.Broadcast, pace time.Duration) error {
	for {
		if err := clock.Sleep(ctx, clock.Real, pace); err != nil {
			return err
		}
		live := 0
		for _, b := range db.boards {
			if b.done {
				continue
			}
			if b.ply < len(b.g.san) {
				if err := round.AppendMove(b.chapter, b.g.san[b.ply]); err != nil {
					return fmt.Errorf("broadcast %s: %w", b.chapter, err)
				}
				b.ply++
				live++
				continue
			}
			if err := round.SetResult(b.chapter, b.g.result); err != nil {
				return fmt.Errorf("broadcast %s: %w", b.chapter, err)
			}
			b.done = true
		}
		if live == 0 {
			round.Finish()
			return nil
		}
	}
}

// playBotGames starts one game after another for the bot from the
// positions of demoBotStarts and plays the scripted opponent's side.
func playBotGames(ctx context.Context, fake *lichesstest.Server, games []demoGame, pace time.Duration) error {
	if err := fake.WaitFor(ctx, func() bool { return fake.Streams("event") > 0 }); err != nil {
		return err
	}
	for n := 0; ; n++ {
		start := demoBotStarts[n%len(demoBotStarts)]
		if err := playBotGame(ctx, fake, games[start.game], start.ply, start.botWhite, n+1, pace); err != nil {
			return err
		}
		if err := clock.Sleep(ctx, clock.Real, 3*pace); err != nil {
			return err
		}
	}
}

func playBotGame(ctx context.Context, fake *lichesstest.Server, rec demoGame, startPly int, botWhite bool, n int, pace time.Duration) error {
	spec := lichesstest.GameSpec{ID: fmt.Sprintf("botgm%03d", n), Moves: rec.uci[:startPly],
		ClockInitial: 5 * 60 * 1000, ClockIncrement: 3000}
	if botWhite {
		spec.White, spec.Black = lichesstest.BotUser, lichesstest.Opponent
	} else {
		spec.White, spec.Black = lichesstest.Opponent, lichesstest.BotUser
	}
	g, err := fake.NewGame(spec)
	if err != nil {
		return fmt.Errorf("bot game: %w", err)
	}
	opp := &demoOpponent{rec: rec, mover: &bot.Builtin{Seed: int64(n)}}
	last := -1
	for {
		var st lichesstest.GameState
		err := fake.WaitFor(ctx, func() bool {
			st = g.State()
			return len(st.Moves) != last || st.Status != "started"
		})
		if err != nil {
			return err
		}
		last = len(st.Moves)
		if st.Status != "started" {
			return nil
		}
		if (len(st.Moves)%2 == 0) == botWhite {
			continue // the bot's turn
		}
		if err := clock.Sleep(ctx, clock.Real, pace); err != nil {
			return err
		}
		m, err := opp.move(ctx, st.Moves)
		if err != nil {
			return err
		}
		if err := g.OpponentMove(m); err != nil && g.State().Status == "started" {
			return fmt.Errorf("bot game %s: opponent move %s: %w", g.ID(), m, err)
		}
	}
}

// demoOpponent is the scripted side of a bot game: the recorded move while
// the game still follows the record, else a move that repeats a position,
// else the built-in mover's move.
type demoOpponent struct {
	rec   demoGame
	mover *bot.Builtin
}

func (o *demoOpponent) move(ctx context.Context, moves []string) (string, error) {
	g := rules.NewGame(rules.StartPosition())
	onRecord := true
	for i, mv := range moves {
		m, err := g.PlayUCI(mv)
		if err != nil {
			return "", fmt.Errorf("demo opponent: replay move %d %s: %w", i+1, mv, err)
		}
		if i >= len(o.rec.uci) || m.UCI() != o.rec.uci[i] {
			onRecord = false
		}
	}
	pos := g.Position()
	if onRecord && len(moves) < len(o.rec.uci) {
		if m, err := pos.ParseUCI(o.rec.uci[len(moves)]); err == nil {
			return m.UCI(), nil
		}
	}
	best, most := rules.NoMove, 0
	for _, m := range pos.LegalMoves(nil) {
		if n := len(g.OccurrencesOf(m)); n > most {
			best, most = m, n
		}
	}
	if best != rules.NoMove {
		return best.UCI(), nil
	}
	res, err := o.mover.Search(ctx, bot.SearchRequest{Game: g})
	if err != nil {
		return "", fmt.Errorf("demo opponent: %w", err)
	}
	return res.Move.UCI(), nil
}
