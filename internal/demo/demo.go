// Package demo is the demo's scenario: recorded real games played through the fake Lichess.
//
// A Scenario sets up, on a fake Lichess, a broadcast round of five boards
// and a spectated blitz game that reaches a fifth occurrence, then plays
// them move by move (one per pace) and starts one game after another for
// the bot, whose opponent it plays: the recorded move while the game
// follows the record, else a move that repeats a position. What follows
// the games (the watcher, the bot, the store, the dashboard) is the
// program's own wiring, which `threefold demo` plugs in; this package gives
// it the rest of the demo: the sources to follow (Targets), the bot's
// config, a webhook that counts what it receives, the console that says
// what happens, and RunParts, which runs the parts together.
package demo

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// demoGames are the recorded real games the demo replays (taken from the
// shared corpus, with their original tags): five boards of a broadcast
// round, a Lichess blitz game that reaches a fifth occurrence, and the two
// games whose perpetual checks the bot games start from.
//
//go:embed games.pgn
var demoGames string

// The demo's cast, by index in games.pgn.
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

// Boards is how many boards the broadcast round has.
var Boards = len(demoBoardSpecs)

// Scenario is the recorded games on one fake Lichess.
type Scenario struct {
	fake    *fakelichess.Server
	pace    time.Duration
	games   []demoGame
	round   *fakelichess.Broadcast
	boards  *demoBoards
	spect   *fakelichess.Spectated
	ffStart int
}

// New sets the broadcast round and the spectated game up on fake, at the
// plies they start from, so that a watcher can open their streams before
// Run plays them.
func New(fake *fakelichess.Server, pace time.Duration) (*Scenario, error) {
	games, err := loadDemoGames()
	if err != nil {
		return nil, err
	}
	s := &Scenario{fake: fake, pace: pace, games: games}
	s.round = fake.Broadcast(demoRound)
	s.boards = newDemoBoards(games, fake.URL)
	s.round.SetPGN(s.boards.pgn())
	ff := games[demoFivefold.game]
	s.ffStart = max(0, ff.firstClaim-demoFivefold.lead)
	s.spect, err = fake.SpectatorGame(fakelichess.SpectatorSpec{ID: "8dCwCGev", White: ff.white, Black: ff.black,
		Moves: ff.uci[:s.ffStart]})
	if err != nil {
		return nil, fmt.Errorf("demo: spectated game: %w", err)
	}
	return s, nil
}

// URLs are the broadcast round and the spectated game, as a user would
// paste them.
func (s *Scenario) URLs() []string {
	return []string{s.fake.URL + "/broadcast/threefold-demo/round-1/" + demoRound, s.fake.URL + "/" + s.spect.ID()}
}

// Run plays the round, the spectated game and the bot's games until ctx
// is done (the round and the spectated game end before), and returns then.
// A part that fails is reported to failed (if not nil) and the others go
// on.
func (s *Scenario) Run(ctx context.Context, failed func(part string, err error)) {
	ff := s.games[demoFivefold.game]
	RunParts(failed,
		Part{"broadcast", func() error { return s.boards.play(ctx, s.round, s.pace) }},
		Part{"blitz game", func() error { return playSpectatorGame(ctx, s.spect, ff.uci, s.ffStart, s.pace) }},
		Part{"bot games", func() error { return playBotGames(ctx, s.fake, s.games, s.pace) }})
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

// playSpectatorGame plays the recorded moves from ply on, one per pace,
// then ends the game.
func playSpectatorGame(ctx context.Context, g *fakelichess.Spectated, uci []string, ply int, pace time.Duration) error {
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

func (db *demoBoards) play(ctx context.Context, round *fakelichess.Broadcast, pace time.Duration) error {
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
func playBotGames(ctx context.Context, fake *fakelichess.Server, games []demoGame, pace time.Duration) error {
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

func playBotGame(ctx context.Context, fake *fakelichess.Server, rec demoGame, startPly int, botWhite bool, n int, pace time.Duration) error {
	spec := fakelichess.GameSpec{ID: fmt.Sprintf("botgm%03d", n), Moves: rec.uci[:startPly],
		ClockInitial: 5 * 60 * 1000, ClockIncrement: 3000}
	if botWhite {
		spec.White, spec.Black = fakelichess.BotUser, fakelichess.Opponent
	} else {
		spec.White, spec.Black = fakelichess.Opponent, fakelichess.BotUser
	}
	g, err := fake.NewGame(spec)
	if err != nil {
		return fmt.Errorf("bot game: %w", err)
	}
	opp := &demoOpponent{rec: rec, mover: &bot.Builtin{Seed: int64(n)}}
	last := -1
	for {
		var st fakelichess.GameState
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
