// Package uci drives one chess engine process through the Universal Chess Interface.
//
// It drives one chess engine process through the Universal Chess
// Interface: it starts the binary, performs the uci/isready handshake, sets
// options, runs searches (with movetime, depth, clock times, searchmoves and
// MultiPV) and parses the engine's info lines into scores and principal
// variations. An Engine owns its process and the goroutine that reads its
// output; Close stops both. A crashed engine makes every later call return
// ErrExited, so the owner can start a new one.
package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// stopTimeout bounds the wait for bestmove after "stop": a healthy engine
// answers at once.
const stopTimeout = 2 * time.Second

// ErrExited is returned (wrapped) by every call after the engine process
// has exited or its output has closed.
var ErrExited = errors.New("uci: engine exited")

// Config says how to start an engine.
type Config struct {
	Path    string            // the engine binary
	Args    []string          // extra arguments, rarely needed
	Options map[string]string // "setoption name K value V" for each entry, e.g. Threads, Hash
	// Timeout bounds the handshake (uci/uciok, isready/readyok) and the wait
	// for bestmove after a "stop". Zero means 10 seconds.
	Timeout time.Duration
	Logger  *slog.Logger // nil: discard
}

// Engine is one running engine process. Its methods are safe for
// concurrent use; searches are serialised.
type Engine struct {
	cfg  Config
	log  *slog.Logger
	cmd  *exec.Cmd
	in   io.WriteCloser
	mu   sync.Mutex // serialises conversations with the engine
	wmu  sync.Mutex // serialises writes
	out  chan string
	done chan struct{} // closed when the reader goroutine has returned
	wait chan struct{} // closed when the process has been waited for
	quit chan struct{} // closed by Close: the reader stops handing lines over

	name     string
	author   string
	multiPV  int
	chess960 bool // UCI_Chess960 as last set
	closeErr error
	closing  sync.Once
}

// Start launches the engine and completes the handshake. The context bounds
// the start only; the process lives until Close.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.Path == "" {
		return nil, errors.New("uci: no engine path")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(cfg.Path, cfg.Args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", cfg.Path, err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", cfg.Path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", cfg.Path, err)
	}
	e := &Engine{
		cfg:     cfg,
		log:     log.With("engine", cfg.Path),
		cmd:     cmd,
		in:      in,
		out:     make(chan string, 256),
		done:    make(chan struct{}),
		wait:    make(chan struct{}),
		quit:    make(chan struct{}),
		multiPV: 1,
	}
	go e.read(outPipe)
	go func() {
		<-e.done
		_ = cmd.Wait()
		close(e.wait)
	}()
	if err := e.handshake(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Engine) read(r io.Reader) {
	defer close(e.out)
	defer close(e.done) // runs first: Exited is true before a reader sees the end
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		select {
		case e.out <- sc.Text():
		case <-e.quit:
		}
	}
}

func (e *Engine) send(format string, args ...any) error {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	line := fmt.Sprintf(format, args...)
	e.log.Debug("uci send", "line", line)
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return fmt.Errorf("uci: write %q: %w (%w)", line, err, ErrExited)
	}
	return nil
}

// expect reads lines until one starts with want (a whole first token),
// calling fn on every line read. It fails when ctx ends, the timer fires
// or the engine exits.
func (e *Engine) expect(ctx context.Context, timeout time.Duration, want string, fn func(string)) (string, error) {
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	for {
		select {
		case line, ok := <-e.out:
			if !ok {
				return "", fmt.Errorf("uci: waiting for %s: %w", want, ErrExited)
			}
			if fn != nil {
				fn(line)
			}
			if first, _, _ := strings.Cut(strings.TrimSpace(line), " "); first == want {
				return line, nil
			}
		case <-ctx.Done():
			return "", fmt.Errorf("uci: waiting for %s: %w", want, ctx.Err())
		case <-timer:
			return "", fmt.Errorf("uci: no %s within %v", want, timeout)
		}
	}
}

func (e *Engine) handshake(ctx context.Context) error {
	if err := e.send("uci"); err != nil {
		return err
	}
	_, err := e.expect(ctx, e.cfg.Timeout, "uciok", func(line string) {
		if rest, ok := strings.CutPrefix(line, "id name "); ok {
			e.name = strings.TrimSpace(rest)
		}
		if rest, ok := strings.CutPrefix(line, "id author "); ok {
			e.author = strings.TrimSpace(rest)
		}
	})
	if err != nil {
		return fmt.Errorf("uci: handshake with %s: %w", e.cfg.Path, err)
	}
	keys := make([]string, 0, len(e.cfg.Options))
	for k := range e.cfg.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := e.send("setoption name %s value %s", k, e.cfg.Options[k]); err != nil {
			return err
		}
		if strings.EqualFold(k, "MultiPV") {
			if n, err := strconv.Atoi(e.cfg.Options[k]); err == nil && n > 0 {
				e.multiPV = n
			}
		}
	}
	return e.ready(ctx)
}

func (e *Engine) ready(ctx context.Context) error {
	if err := e.send("isready"); err != nil {
		return err
	}
	if _, err := e.expect(ctx, e.cfg.Timeout, "readyok", nil); err != nil {
		return fmt.Errorf("uci: isready: %w", err)
	}
	return nil
}

// Name is the engine's "id name", or its path when it gave none.
func (e *Engine) Name() string {
	if e.name == "" {
		return e.cfg.Path
	}
	return e.name
}

// Exited reports whether the engine process has gone away.
func (e *Engine) Exited() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// NewGame tells the engine that the next search is from a different game.
func (e *Engine) NewGame(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.send("ucinewgame"); err != nil {
		return err
	}
	return e.ready(ctx)
}

// Search describes one "go" command.
type Search struct {
	FEN   string   // start position; "" is the standard start position
	Moves []string // moves played from FEN, in UCI
	// Chess960 sets the engine's UCI_Chess960 option (sent when it
	// changes): FEN and Moves are then a Chess960 game, with castling
	// written as the king onto its rook.
	Chess960 bool

	MoveTime time.Duration // "go movetime"; zero: not sent
	Depth    int           // "go depth"; zero: not sent
	Nodes    int64         // "go nodes"; zero: not sent
	// Clock: sent when WTime or BTime is positive.
	WTime, BTime, WInc, BInc time.Duration

	SearchMoves []string // restrict the search to these moves; nil: all moves
	MultiPV     int      // number of lines wanted; zero means 1
}

// Score is an engine evaluation from the point of view of the side to move.
type Score struct {
	CP    int  // centipawns, when Mate is zero
	Mate  int  // moves to mate: positive, the side to move mates; negative, it is mated
	Lower bool // the score is a lower bound
	Upper bool // the score is an upper bound
}

func (s Score) String() string {
	if s.Mate != 0 {
		return fmt.Sprintf("mate %d", s.Mate)
	}
	return fmt.Sprintf("cp %d", s.CP)
}

// Line is the last complete info the engine gave for one MultiPV line.
type Line struct {
	MultiPV int
	Depth   int
	Score   Score
	PV      []string
}

// Result is the outcome of a search.
type Result struct {
	BestMove string // "(none)" or "0000" when the engine has no move
	Ponder   string
	Lines    []Line // by MultiPV rank, best first; may be empty if the engine sent no info
	Nodes    int64
}

// Search runs one search and waits for bestmove. When ctx ends first, the
// engine is told to stop and its answer is still returned if it comes
// within the timeout; otherwise the error says why.
func (e *Engine) Search(ctx context.Context, s Search) (Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.Exited() {
		return Result{}, ErrExited
	}
	want := s.MultiPV
	if want <= 0 {
		want = 1
	}
	if want != e.multiPV {
		if err := e.send("setoption name MultiPV value %d", want); err != nil {
			return Result{}, err
		}
		e.multiPV = want
	}
	if s.Chess960 != e.chess960 {
		if err := e.send("setoption name UCI_Chess960 value %t", s.Chess960); err != nil {
			return Result{}, err
		}
		e.chess960 = s.Chess960
	}
	pos := "position startpos"
	if s.FEN != "" {
		pos = "position fen " + s.FEN
	}
	if len(s.Moves) > 0 {
		pos += " moves " + strings.Join(s.Moves, " ")
	}
	if err := e.send("%s", pos); err != nil {
		return Result{}, err
	}
	goCmd := []string{"go"}
	if s.WTime > 0 || s.BTime > 0 {
		goCmd = append(goCmd,
			"wtime", strconv.FormatInt(max(s.WTime.Milliseconds(), 1), 10),
			"btime", strconv.FormatInt(max(s.BTime.Milliseconds(), 1), 10),
			"winc", strconv.FormatInt(s.WInc.Milliseconds(), 10),
			"binc", strconv.FormatInt(s.BInc.Milliseconds(), 10))
	}
	if s.MoveTime > 0 {
		goCmd = append(goCmd, "movetime", strconv.FormatInt(max(s.MoveTime.Milliseconds(), 1), 10))
	}
	if s.Depth > 0 {
		goCmd = append(goCmd, "depth", strconv.Itoa(s.Depth))
	}
	if s.Nodes > 0 {
		goCmd = append(goCmd, "nodes", strconv.FormatInt(s.Nodes, 10))
	}
	if len(goCmd) == 1 {
		goCmd = append(goCmd, "movetime", "1000")
	}
	if len(s.SearchMoves) > 0 {
		goCmd = append(goCmd, "searchmoves")
		goCmd = append(goCmd, s.SearchMoves...)
	}
	if err := e.send("%s", strings.Join(goCmd, " ")); err != nil {
		return Result{}, err
	}
	lines := map[int]Line{}
	var nodes int64
	collect := func(line string) {
		if l, n, ok := ParseInfo(line); ok {
			if n > 0 {
				nodes = n
			}
			if len(l.PV) > 0 || l.Depth > 0 {
				if prev, seen := lines[l.MultiPV]; !seen || len(l.PV) > 0 || prev.Depth <= l.Depth {
					if len(l.PV) == 0 {
						l.PV = prev.PV
					}
					lines[l.MultiPV] = l
				}
			}
		}
	}
	last, err := e.expect(ctx, 0, "bestmove", collect)
	if err != nil && ctx.Err() != nil && !e.Exited() {
		// Our caller gave up: stop the search and drain its bestmove so the
		// next conversation starts clean.
		if serr := e.send("stop"); serr == nil {
			last, err = e.expect(context.Background(), min(e.cfg.Timeout, stopTimeout), "bestmove", collect)
		}
		if err != nil {
			return Result{}, fmt.Errorf("uci: stop: %w", err)
		}
	}
	if err != nil {
		return Result{}, err
	}
	res := Result{Nodes: nodes}
	f := strings.Fields(last)
	if len(f) >= 2 {
		res.BestMove = f[1]
	}
	if len(f) >= 4 && f[2] == "ponder" {
		res.Ponder = f[3]
	}
	for _, l := range lines {
		res.Lines = append(res.Lines, l)
	}
	sort.Slice(res.Lines, func(i, j int) bool { return res.Lines[i].MultiPV < res.Lines[j].MultiPV })
	return res, nil
}

// ParseInfo parses an "info" line. ok is false for other lines and for
// info lines without a score (currmove, string, hashfull-only lines). The
// second result is the node count, when the line has one.
func ParseInfo(line string) (Line, int64, bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return Line{}, 0, false
	}
	l := Line{MultiPV: 1}
	var nodes int64
	hasScore := false
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "string":
			return Line{}, 0, false
		case "depth":
			if i+1 < len(f) {
				l.Depth, _ = strconv.Atoi(f[i+1])
				i++
			}
		case "multipv":
			if i+1 < len(f) {
				if n, err := strconv.Atoi(f[i+1]); err == nil && n > 0 {
					l.MultiPV = n
				}
				i++
			}
		case "nodes":
			if i+1 < len(f) {
				nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
				i++
			}
		case "score":
			if i+2 < len(f) {
				n, err := strconv.Atoi(f[i+2])
				if err != nil {
					return Line{}, 0, false
				}
				switch f[i+1] {
				case "cp":
					l.Score.CP = n
					hasScore = true
				case "mate":
					l.Score.Mate = n
					if n == 0 { // "mate 0": the side to move is mated
						l.Score.Mate = -1
					}
					hasScore = true
				}
				i += 2
				for i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
					l.Score.Lower = l.Score.Lower || f[i+1] == "lowerbound"
					l.Score.Upper = l.Score.Upper || f[i+1] == "upperbound"
					i++
				}
			}
		case "pv":
			l.PV = append([]string(nil), f[i+1:]...)
			i = len(f)
		}
	}
	if !hasScore {
		return Line{}, nodes, false
	}
	return l, nodes, true
}

// Close asks the engine to quit, kills it if it does not within a short
// time, and waits for the process and the reader goroutine.
func (e *Engine) Close() error {
	e.closing.Do(func() {
		close(e.quit)
		_ = e.send("quit")
		_ = e.in.Close()
		t := time.NewTimer(2 * time.Second)
		defer t.Stop()
		select {
		case <-e.wait:
		case <-t.C:
			if e.cmd.Process != nil {
				_ = e.cmd.Process.Kill()
			}
			<-e.wait
		}
	})
	return e.closeErr
}
