package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// storeConfig is the `store:` section of the config file: where games,
// alerts, bot records and resume state are kept.
type storeConfig struct {
	// DSN selects the database: "" is the SQLite file threefold.db in
	// data_dir; a path (or sqlite:PATH) is another SQLite file; a
	// postgres://user:password@host:port/db?sslmode=… URL is PostgreSQL (for
	// several instances sharing one store). The password never appears in a
	// log line or an error.
	DSN string `mapstructure:"dsn"`
	// BusyTimeout is how long a SQLite write waits for another process
	// writing the same file.
	BusyTimeout time.Duration `mapstructure:"busy_timeout"`
}

func defaultStoreConfig() storeConfig {
	return storeConfig{BusyTimeout: 10 * time.Second}
}

// storeOptions is how a command opens the store.
type storeOptions struct {
	// mustExist: a command that only reads (history, export) does not
	// create an empty SQLite file; it says that there is no store yet.
	mustExist bool
}

// openStore opens the store the config names.
func openStore(ctx context.Context, cfg *config, opts storeOptions) (*store.Store, error) {
	sc := cfg.Store
	sconf := store.Config{DSN: sc.DSN, DataDir: cfg.DataDir, BusyTimeout: sc.BusyTimeout}
	if opts.mustExist && !store.IsPostgres(sc.DSN) {
		path := store.SQLitePath(sc.DSN, cfg.DataDir)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s yet: alerts and games are stored by threefold watch and threefold bot (set data_dir or store.dsn to read another)", path)
		}
	}
	return store.Open(ctx, sconf)
}

// gameRecorder keeps the games a watcher follows in the store: the game
// (players, URL, start position, moves, result, true termination) and the
// ply up to which every alert is stored (SaveProgress), after each
// snapshot the watcher has taken in; and, for each source, the games it
// follows (SaveSourceState), so that `threefold status` and the next run
// see where this one was. A failing write is logged and never stops the
// watcher: alerts are stored by their own path.
type gameRecorder struct {
	st  *store.Store
	log *slog.Logger
	// saveState writes a source's state: st.SaveSourceState, or in group
	// mode the write fenced by the source's lease.
	saveState func(ctx context.Context, source string, state []byte) error

	mu    sync.Mutex
	games map[[2]string]*recordedGame
	srcs  map[string]map[string]int  // source → game key → plies
	kept  map[string]json.RawMessage // source → what the source keeps itself (sourceState.Kept)
}

// sourceState is a source's state in the store, as the recorder writes
// it: the games it follows, and what the source keeps itself across
// restarts (a DGT source: the games on its boards and their health, under
// "boards", which `threefold status` shows).
type sourceState struct {
	Games map[string]int  `json:"games"`
	Kept  json.RawMessage `json:"kept,omitempty"`
}

// stateLocked (mu held) is the state of source to write.
func (r *gameRecorder) stateLocked(source string) []byte {
	sm := r.srcs[source]
	if sm == nil {
		sm = map[string]int{}
	}
	state, _ := json.Marshal(sourceState{Games: sm, Kept: r.kept[source]})
	return state
}

// keeper is the listener.StateKeeper of a source: what it keeps goes into
// its state in the store, beside the games the recorder writes there, and
// through the same write (fenced by the source's lease in group mode).
func (r *gameRecorder) keeper(source string) listener.StateKeeper {
	return &recorderKeeper{r: r, source: source}
}

type recorderKeeper struct {
	r      *gameRecorder
	source string
}

func (k *recorderKeeper) LoadState(ctx context.Context) ([]byte, error) {
	data, ok, err := k.r.st.LoadSourceState(ctx, k.source)
	if err != nil || !ok {
		return nil, err
	}
	var st sourceState
	if json.Unmarshal(data, &st) != nil {
		return nil, nil // not written by a recorder
	}
	k.r.mu.Lock()
	k.r.kept[k.source] = st.Kept
	k.r.mu.Unlock()
	return st.Kept, nil
}

func (k *recorderKeeper) SaveState(ctx context.Context, data []byte) error {
	k.r.mu.Lock()
	k.r.kept[k.source] = json.RawMessage(data)
	state := k.r.stateLocked(k.source)
	k.r.mu.Unlock()
	return k.r.saveState(ctx, k.source, state)
}

type recordedGame struct {
	stored     bool // put in the store by this run
	plies      int
	result     string
	siteResult string
	finished   bool
	ref        threefold.GameRef // the players and board as last put
}

func newGameRecorder(st *store.Store, log *slog.Logger) *gameRecorder {
	return &gameRecorder{st: st, log: log, saveState: st.SaveSourceState, games: map[[2]string]*recordedGame{},
		srcs: map[string]map[string]int{}, kept: map[string]json.RawMessage{}}
}

// wrap returns src recording every snapshot once the watcher has applied
// it (the watcher's emit returns after its alerts are stored).
func (r *gameRecorder) wrap(src listener.Source) listener.Source {
	return &recordingSource{src: src, r: r}
}

type recordingSource struct {
	src listener.Source
	r   *gameRecorder
}

func (s *recordingSource) Name() string { return s.src.Name() }

func (s *recordingSource) Run(ctx context.Context, emit listener.Emit) error {
	name := s.src.Name()
	return s.src.Run(ctx, func(snap threefold.GameState) error {
		if snap.Source == "" {
			snap.Source = name
		}
		if err := emit(snap); err != nil {
			return err
		}
		s.r.record(ctx, name, snap)
		return nil
	})
}

func (r *gameRecorder) record(ctx context.Context, source string, s threefold.GameState) {
	k := [2]string{s.Game.Site, s.Game.ID}
	r.mu.Lock()
	g := r.games[k]
	if g == nil {
		g = &recordedGame{}
		r.games[k] = g
	}
	same := g.stored && g.plies == len(s.Moves) && g.result == s.Result && g.finished == s.Finished &&
		g.siteResult == s.SiteResult && g.ref == s.Game
	// Put the whole game the first time, and again when its players come
	// (a DGT board's, from LiveChess's tournament, after its first moves).
	first := !g.stored || g.ref != s.Game
	g.plies, g.result, g.finished, g.siteResult, g.ref = len(s.Moves), s.Result, s.Finished, s.SiteResult, s.Game
	g.stored = true
	sm := r.srcs[source]
	if sm == nil {
		sm = map[string]int{}
		r.srcs[source] = sm
	}
	_, known := sm[s.Game.Site+"/"+s.Game.ID]
	sm[s.Game.Site+"/"+s.Game.ID] = len(s.Moves)
	var state []byte
	if !known || s.Finished {
		state = r.stateLocked(source)
	}
	r.mu.Unlock()
	if same {
		return
	}
	var term threefold.Termination
	if s.Finished {
		term = termination(s)
	}
	var err error
	if first {
		g := store.Game{
			GameState: threefold.GameState{
				Game:        s.Game,
				Source:      source,
				Event:       s.Event,
				StartFEN:    s.StartFEN,
				Notation:    s.Notation,
				Moves:       s.Moves,
				Result:      s.Result,
				Termination: term,
				SiteResult:  s.SiteResult,
				Finished:    s.Finished,
				Audience:    s.Audience,
				Tags:        s.Tags,
			},
		}
		if _, gerr := r.st.Game(ctx, s.Game.Site, s.Game.ID); errors.Is(gerr, store.ErrNotFound) {
			g.StartedAt = s.ObservedAt // first seen; a restart keeps it
		}
		err = r.st.PutGame(ctx, g)
	} else {
		err = r.st.UpdateGame(ctx, store.GameUpdate{Site: s.Game.Site, ID: s.Game.ID, Moves: s.Moves, Result: s.Result,
			Termination: term, SiteResult: s.SiteResult, Finished: s.Finished})
	}
	if err == nil {
		err = r.st.SaveProgress(ctx, s.Game.Site, s.Game.ID, len(s.Moves))
	}
	if err == nil && state != nil {
		err = r.saveState(ctx, source, state)
	}
	if err != nil && ctx.Err() == nil {
		r.log.Warn("game not recorded in the store", "game", s.Game.ID, "source", source, "err", err)
	}
}

// termination is the true end of a finished game as far as its moves
// show it (the bot's names): mate, stalemate, fifth occurrence, 75 moves,
// insufficient material; "" when the moves do not say (resignation, time,
// agreement, a claim). A fifth occurrence or the 75-move rule ends the game
// where it happens, even when the record goes on after it.
func termination(s threefold.GameState) threefold.Termination {
	start := rules.StartPosition()
	if s.StartFEN != "" {
		p, err := rules.ParseFEN(s.StartFEN)
		if err != nil {
			return ""
		}
		start = p
	}
	g := rules.NewGame(start)
	for _, tok := range s.Moves {
		var err error
		if s.Notation == rules.UCI {
			_, err = g.PlayUCI(tok)
		} else {
			_, err = g.PlaySAN(tok)
		}
		if err != nil {
			return ""
		}
		if g.FivefoldPly() >= 0 {
			return threefold.TermFivefold
		}
		if g.HalfmoveClock() >= 150 && g.Verdict().SeventyFiveMoves {
			return threefold.TermSeventyFiveMoves
		}
	}
	v := g.Verdict()
	switch {
	case v.Checkmate:
		return threefold.TermCheckmate
	case v.Stalemate:
		return threefold.TermStalemate
	case v.InsufficientMaterial:
		return threefold.TermInsufficient
	}
	return ""
}

// storeRecords is the bot's record sink on the store.
type storeRecords struct{ st *store.Store }

func (s storeRecords) WriteRecord(ctx context.Context, r threefold.BotRecord) error {
	return s.st.PutBotRecord(ctx, r)
}

// recordSinks writes each record to every sink, and returns their errors.
type recordSinks []bot.RecordSink

func (rs recordSinks) WriteRecord(ctx context.Context, r threefold.BotRecord) error {
	var errs []error
	for _, s := range rs {
		if err := s.WriteRecord(ctx, r); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
