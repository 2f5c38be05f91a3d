package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/lichesstest"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
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
	d, err := startDashboard(ctx, httpConfig{Addr: o.addr, Token: o.token}, log)
	if err != nil {
		return err
	}
	out.printf("threefold demo — no account, no network: a simulated Lichess at %s replays recorded real games.", fake.URL)
	out.printf("dashboard: %s", d.URL)
	out.printf("following: a broadcast round of %d boards, a blitz game that reaches a fifth occurrence, and the bot's games; the demo ends after %s (Ctrl-C ends it sooner).", len(demoBoardSpecs), o.duration)

	var sink notify.Sink = notify.NewText(out)
	if o.jsonOut {
		sink = notify.NewJSONLines(out)
	}
	var nAlerts atomic.Int64
	sinks := notify.Fanout{sink, d}
	w := listener.NewWatcher(listener.WatcherOptions{Logger: log, Alert: func(a threefold.Alert) {
		nAlerts.Add(1)
		if err := sinks.Send(ctx, a); err != nil {
			log.Error("alert not written", "alert", a.ID, "err", err)
		}
	}})

	// Reconnects and 429 pauses of both clients count in /metrics.
	spectator := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Logger: log, Account: "demo-watcher",
		OnReconnect: d.LichessReconnect, OnRateLimit: d.LichessRateLimit})
	defer spectator.Close()
	botClient := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: lichesstest.BotToken,
		Account: lichesstest.BotUser, Logger: log, OnReconnect: d.LichessReconnect, OnRateLimit: d.LichessRateLimit})
	defer botClient.Close()

	// The feeds of the simulated Lichess must exist before the watcher
	// opens their streams.
	round := fake.Broadcast(demoRound)
	boards := newDemoBoards(games, fake.URL)
	round.SetPGN(boards.pgn())
	ff := games[demoFivefold.game]
	ffStart := max(0, ff.firstClaim-demoFivefold.lead)
	spect := fake.MustSpectatorGame(lichesstest.SpectatorSpec{ID: "8dCwCGev", White: ff.white, Black: ff.black,
		Moves: ff.uci[:ffStart]})

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
	run("watcher", func() error {
		return w.Run(ctx,
			d.Tap(&listener.LichessBroadcastSource{Client: spectator, RoundID: demoRound, Logger: log, Delay: o.pace}),
			d.Tap(&listener.LichessGameSource{Client: spectator, GameID: spect.ID(), Base: "https://lichess.org", Logger: log}))
	})
	run("broadcast", func() error { return boards.play(ctx, round, o.pace) })
	run("blitz game", func() error {
		for ply := ffStart; ply < len(ff.uci); ply++ {
			if err := clock.Sleep(ctx, clock.Real, o.pace); err != nil {
				return err
			}
			if err := spect.Move(ff.uci[ply]); err != nil {
				return fmt.Errorf("spectator game move %d: %w", ply+1, err)
			}
		}
		spect.Finish("draw", "")
		return nil
	})

	botCfg := bot.DefaultConfig()
	botCfg.OnStop = "resign"
	botCfg.StopTimeout = 5 * time.Second
	botCfg.Policy.BehindMargin = 50 // a pawn down is "behind": the bot seeks the repetition
	botCfg.Policy.ClaimWait = o.pace
	botCfg.Chat.MinInterval = 0
	b, err := bot.New(bot.Options{API: botClient, Config: botCfg, Logger: log,
		Records: demoRecords{out: out}, BaseURL: fake.URL})
	if err != nil {
		cancel()
		wg.Wait()
		return fmt.Errorf("demo: bot: %w", err)
	}
	run("bot", func() error { return b.Run(ctx) })
	run("bot games", func() error { return playBotGames(ctx, fake, games, w, d, o.pace) })

	wg.Wait()
	dashErr := d.Wait()
	reason := "after " + o.duration.String()
	if parent.Err() != nil {
		reason = "interrupted"
	}
	out.printf("demo over (%s): %d alerts.", reason, nAlerts.Load())
	return dashErr
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
// positions of demoBotStarts, plays the scripted opponent's side, and feeds
// each game to the watcher and the dashboard as it goes, from the fake
// server's view of the game (the one Lichess would stream) rather than
// bot.Options.OnGame, so that the opponent shows as the recorded player it
// replays.
func playBotGames(ctx context.Context, fake *lichesstest.Server, games []demoGame, w *listener.Watcher, d *dashboard, pace time.Duration) error {
	src := "lichess bot " + lichesstest.BotUser
	d.Hub.SourceStatus(src, false, errors.New("connecting"))
	defer d.Hub.SourceGone(src)
	if err := fake.WaitFor(ctx, func() bool { return fake.Streams("event") > 0 }); err != nil {
		return err
	}
	d.Hub.SourceStatus(src, true, nil)
	for n := 0; ; n++ {
		start := demoBotStarts[n%len(demoBotStarts)]
		if err := playBotGame(ctx, fake, games[start.game], start.ply, start.botWhite, n+1, w, d, pace); err != nil {
			return err
		}
		if err := clock.Sleep(ctx, clock.Real, 3*pace); err != nil {
			return err
		}
	}
}

func playBotGame(ctx context.Context, fake *lichesstest.Server, rec demoGame, startPly int, botWhite bool, n int,
	w *listener.Watcher, d *dashboard, pace time.Duration) error {
	spec := lichesstest.GameSpec{ID: fmt.Sprintf("botgm%03d", n), Moves: rec.uci[:startPly],
		ClockInitial: 5 * 60 * 1000, ClockIncrement: 3000}
	opponentName := lichesstest.Opponent + " (as " + rec.white + ")"
	if botWhite {
		spec.White, spec.Black = lichesstest.BotUser, lichesstest.Opponent
		opponentName = lichesstest.Opponent + " (as " + rec.black + ")"
	} else {
		spec.White, spec.Black = lichesstest.Opponent, lichesstest.BotUser
	}
	g, err := fake.NewGame(spec)
	if err != nil {
		return fmt.Errorf("bot game: %w", err)
	}
	ref := threefold.GameRef{Site: "lichess", ID: g.ID(), White: spec.White, Black: spec.Black}
	if botWhite {
		ref.Black = opponentName
	} else {
		ref.White = opponentName
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
		finished := st.Status != "started"
		snap := threefold.GameState{Game: ref, Source: "lichess bot " + lichesstest.BotUser, Notation: rules.UCI,
			Moves: st.Moves, Result: demoResult(st), Finished: finished, ObservedAt: time.Now(), PlyAnchor: false}
		w.Apply(snap)
		d.Hub.Update(snap)
		if finished {
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

func demoResult(st lichesstest.GameState) string {
	switch {
	case st.Status == "started":
		return "*"
	case st.Winner == "white":
		return "1-0"
	case st.Winner == "black":
		return "0-1"
	}
	return "1/2-1/2"
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
