package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/threefold-chess/threefold/bot/uci"
	"github.com/threefold-chess/threefold/rules"
)

// MateScore is the score of giving mate now; a mate in n plies scores
// MateScore-n, being mated in n plies -(MateScore-n).
const MateScore = 100000

// SearchLimit bounds one search.
type SearchLimit struct {
	MoveTime time.Duration
	Depth    int
	Nodes    int64
}

// SearchRequest asks a Mover for a move in the current position of Game.
type SearchRequest struct {
	Game     *rules.Game  // read only
	Restrict []rules.Move // search only these moves; nil: all legal moves
	Limit    SearchLimit
}

// SearchResult is a Mover's answer. Score is in centipawns from the point
// of view of the side to move (mates mapped with MateScore).
type SearchResult struct {
	Move  rules.Move
	Score int
	Depth int
	By    string // which mover answered: the engine's name or "built-in"
}

// Mover chooses moves: a UCI engine or the built-in mover.
type Mover interface {
	Search(ctx context.Context, req SearchRequest) (SearchResult, error)
	Name() string
	Close() error
}

// ---------------------------------------------------------------------------
// Built-in mover

var pieceValue = [...]int{rules.NoPieceType: 0, rules.Pawn: 100, rules.Knight: 320, rules.Bishop: 330, rules.Rook: 500, rules.Queen: 900, rules.King: 0}

// Builtin is the mover used when no engine is configured and as the last
// resort when the engine keeps crashing. It looks two plies deep at
// material only: it takes what is free, does not leave pieces (the queen
// first of all) where they can be taken for nothing, mates in one when it
// can, and among equal moves prefers captures and checks, then a choice
// that depends only on the seed and the ply. It is not meant to be strong.
type Builtin struct {
	Seed int64
}

// Name implements Mover.
func (b *Builtin) Name() string { return "built-in" }

// Close implements Mover.
func (b *Builtin) Close() error { return nil }

func material(p *rules.Position, us rules.Color) int {
	s := 0
	for sq := rules.Square(0); sq < 64; sq++ {
		pc := p.PieceAt(sq)
		if pc == rules.NoPiece {
			continue
		}
		if pc.Color() == us {
			s += pieceValue[pc.Type()]
		} else {
			s -= pieceValue[pc.Type()]
		}
	}
	return s
}

// Search implements Mover. It never fails unless there is no legal move.
func (b *Builtin) Search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	pos := req.Game.Position()
	us := pos.Turn()
	var buf [256]rules.Move
	moves := req.Restrict
	if len(moves) == 0 {
		moves = pos.LegalMoves(buf[:0])
	}
	if len(moves) == 0 {
		return SearchResult{}, errors.New("built-in mover: no legal move")
	}
	rng := rand.New(rand.NewPCG(uint64(b.Seed), uint64(req.Game.Ply())))
	base := material(&pos, us)
	var replies [256]rules.Move
	bestScore, bestKey := 0, -1<<62
	var best rules.Move
	for _, m := range moves {
		p1 := pos
		capture := p1.IsCapture(m)
		// Material after our move, computed from the change it makes.
		after := base
		if capture {
			after += captureValue(&pos, m)
		}
		if pr := m.Promotion(); pr != rules.NoPieceType {
			after += pieceValue[pr] - pieceValue[rules.Pawn]
		}
		p1.Play(m)
		check := p1.InCheck()
		rs := p1.LegalMoves(replies[:0])
		var score int
		switch {
		case len(rs) == 0 && check:
			score = MateScore - 1
		case len(rs) == 0:
			score = 0
		default:
			score = 1 << 30
			for _, r := range rs {
				v := after
				if p1.IsCapture(r) {
					v -= captureValue(&p1, r)
				}
				if pr := r.Promotion(); pr != rules.NoPieceType {
					v -= pieceValue[pr] - pieceValue[rules.Pawn]
				}
				if v < score {
					score = v
				}
			}
		}
		key := score * 64
		if capture {
			key += 16
		}
		if check {
			key += 16
		}
		key += rng.IntN(16)
		if key > bestKey {
			best, bestScore, bestKey = m, score, key
		}
		if ctx.Err() != nil {
			break
		}
	}
	return SearchResult{Move: best, Score: bestScore, Depth: 2, By: b.Name()}, nil
}

// captureValue is the value of what m takes in p (e.p. included).
func captureValue(p *rules.Position, m rules.Move) int {
	if pc := p.PieceAt(m.To()); pc != rules.NoPiece {
		return pieceValue[pc.Type()]
	}
	return pieceValue[rules.Pawn] // en passant
}

// ---------------------------------------------------------------------------
// UCI engine mover

// EngineMover plays with a UCI engine. It starts the engine lazily, starts
// it again when it crashes (up to Restarts times), and falls back to the
// built-in mover when the engine cannot be had, so a game always gets a
// move. It is owned by one game.
type EngineMover struct {
	cfg      uci.Config
	restarts int
	log      *slog.Logger
	fallback *Builtin

	eng       *uci.Engine
	started   int
	gaveUp    bool
	startFEN  string
	haveStart bool
}

// NewEngineMover returns a mover for the engine of cfg. Nothing is started
// until the first search; use Start to fail early.
func NewEngineMover(cfg EngineConfig, log *slog.Logger) *EngineMover {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &EngineMover{cfg: uciConfig(cfg, log), restarts: cfg.Restarts, log: log, fallback: &Builtin{Seed: cfg.Seed}}
}

func uciConfig(cfg EngineConfig, log *slog.Logger) uci.Config {
	opts := map[string]string{}
	for k, v := range cfg.Options {
		opts[k] = v
	}
	if cfg.Threads > 0 {
		opts["Threads"] = strconv.Itoa(cfg.Threads)
	}
	if cfg.Hash > 0 {
		opts["Hash"] = strconv.Itoa(cfg.Hash)
	}
	return uci.Config{Path: cfg.Path, Args: cfg.Args, Options: opts, Logger: log, Timeout: cfg.StartTimeout}
}

// Start starts the engine now (for a clear error at start-up).
func (m *EngineMover) Start(ctx context.Context) error {
	if m.eng != nil && !m.eng.Exited() {
		return nil
	}
	e, err := uci.Start(ctx, m.cfg)
	m.started++
	if err != nil {
		return err
	}
	m.eng = e
	return nil
}

// reusable reports whether the engine may play another game: it runs and
// was not given up for the built-in mover.
func (m *EngineMover) reusable() bool {
	return !m.gaveUp && m.eng != nil && !m.eng.Exited()
}

// reset readies a running engine for a new game: its next search starts
// with ucinewgame, and its restarts are counted afresh.
func (m *EngineMover) reset() {
	m.haveStart, m.startFEN = false, ""
	m.started = 1
}

// Name implements Mover.
func (m *EngineMover) Name() string {
	if m.gaveUp {
		return m.fallback.Name()
	}
	if m.eng != nil {
		return m.eng.Name()
	}
	return m.cfg.Path
}

// Close stops the engine process.
func (m *EngineMover) Close() error {
	if m.eng != nil {
		err := m.eng.Close()
		m.eng = nil
		return err
	}
	return nil
}

// Search implements Mover.
func (m *EngineMover) Search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	for !m.gaveUp {
		if m.eng == nil || m.eng.Exited() {
			if m.eng != nil {
				m.eng.Close()
				m.eng = nil
				m.log.Warn("engine exited", "engine", m.cfg.Path)
			}
			if m.started > m.restarts {
				m.gaveUp = true
				m.log.Error("engine keeps failing; playing on with the built-in mover", "engine", m.cfg.Path, "starts", m.started)
				break
			}
			// Starting is not thinking: the move's deadline does not apply
			// (the handshake has its own timeout).
			if err := m.Start(context.WithoutCancel(ctx)); err != nil {
				if ctx.Err() != nil {
					return SearchResult{}, err
				}
				m.log.Warn("engine start failed", "engine", m.cfg.Path, "err", err)
				continue
			}
		}
		res, err := m.search(ctx, req)
		if err == nil {
			return res, nil
		}
		if ctx.Err() != nil {
			return SearchResult{}, err
		}
		m.log.Warn("engine search failed", "engine", m.cfg.Path, "err", err)
		if !errors.Is(err, uci.ErrExited) {
			// A live engine that answers nonsense: replace it.
			m.eng.Close()
			m.eng = nil
		}
	}
	res, err := m.fallback.Search(ctx, req)
	return res, err
}

func (m *EngineMover) search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	g := req.Game
	start := g.Start()
	s := uci.Search{
		MoveTime: req.Limit.MoveTime,
		Depth:    req.Limit.Depth,
		Nodes:    req.Limit.Nodes,
	}
	// A Chess960 game: UCI_Chess960, the start in Shredder-FEN, castling
	// as the king onto its rook.
	s.Chess960 = start.Variant() == rules.Chess960
	uciOf := rules.Move.UCI
	if s.Chess960 {
		uciOf = rules.Move.UCIChess960
	}
	s.FEN = rules.WriteStart(start)
	moves := g.Moves()
	s.Moves = make([]string, len(moves))
	for i, mv := range moves {
		s.Moves[i] = uciOf(mv)
	}
	for _, mv := range req.Restrict {
		s.SearchMoves = append(s.SearchMoves, uciOf(mv))
	}
	if s.FEN != m.startFEN || !m.haveStart || g.Ply() == 0 {
		if err := m.eng.NewGame(ctx); err != nil {
			return SearchResult{}, err
		}
		m.startFEN, m.haveStart = s.FEN, true
	}
	res, err := m.eng.Search(ctx, s)
	if err != nil {
		return SearchResult{}, err
	}
	pos := g.Position()
	mv, err := pos.ParseUCI(res.BestMove)
	if err != nil {
		return SearchResult{}, fmt.Errorf("engine %s: bestmove %q: %w", m.Name(), res.BestMove, err)
	}
	if len(req.Restrict) > 0 && !containsMove(req.Restrict, mv) {
		return SearchResult{}, fmt.Errorf("engine %s: bestmove %s ignores searchmoves", m.Name(), res.BestMove)
	}
	out := SearchResult{Move: mv, By: m.Name()}
	if len(res.Lines) > 0 {
		l := res.Lines[0]
		out.Depth = l.Depth
		out.Score = scoreCP(l.Score)
	}
	return out, nil
}

func scoreCP(s uci.Score) int {
	switch {
	case s.Mate > 0:
		return MateScore - (2*s.Mate - 1)
	case s.Mate < 0:
		return -MateScore - 2*s.Mate
	default:
		return s.CP
	}
}

func containsMove(list []rules.Move, m rules.Move) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Time management

// unlimitedMS is what Lichess sends as the clock of a game without one.
const unlimitedMS = 2147483647

// moveLimit turns the clock into the limit of one search: a share of the
// remaining time plus most of the increment, less the network overhead,
// within the configured bounds. Games without a clock (correspondence,
// unlimited) get MaxMoveTime.
func moveLimit(cfg EngineConfig, remaining, inc time.Duration, ply int) SearchLimit {
	lim := SearchLimit{Depth: cfg.Depth, Nodes: cfg.Nodes}
	maxT := cfg.MaxMoveTime
	if maxT <= 0 {
		maxT = 10 * time.Second
	}
	if remaining <= 0 || remaining >= unlimitedMS*time.Millisecond {
		lim.MoveTime = maxT
		return lim
	}
	movesToGo := 40 - ply/4
	if movesToGo < 20 {
		movesToGo = 20
	}
	t := remaining/time.Duration(movesToGo) + inc*3/4 - cfg.MoveOverhead
	// Never plan to use more than a third of what is left.
	if third := remaining/3 - cfg.MoveOverhead; t > third {
		t = third
	}
	if t > maxT {
		t = maxT
	}
	if t < cfg.MinMoveTime {
		t = cfg.MinMoveTime
	}
	if t < time.Millisecond {
		t = time.Millisecond
	}
	lim.MoveTime = t
	return lim
}
