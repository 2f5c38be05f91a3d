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
	"sync/atomic"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
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

// durableWebhook is a webhook as watch sends to it through its queue: at
// start it is sent what the store still owes it (delivery.Resume, in the
// queue's place, before anything new), then each queued alert that the
// resume has not sent already; each acceptance is marked in the store
// (delivery.Mark) only after the webhook accepted the alert.
//
// What this guarantees, with the alert path Gate → queue → durableWebhook:
// an alert is stored before any sink sees it; one stored and not yet
// accepted when the process dies (queued, or being sent) is sent at the
// next start; one accepted and marked is never sent again. The one window
// left is an acceptance whose mark was not written (the process died
// between the webhook's answer and the mark's commit): that alert is sent
// again, once, with the same Idempotency-Key (its id). The queue sends one
// alert at a time, so the window holds at most one alert per webhook.
//
// An alert the webhook refused (it gave up after its retries) or that the
// queue dropped (full) stays unmarked in the store; catchUp, run now and
// then, sends it (resume again). Sends and resumes hold one lock, so an
// alert is never sent by both at once.
type durableWebhook struct {
	st      *store.Store
	name    string
	hook    delivery.Sink
	marked  delivery.Sink
	log     *slog.Logger
	resumed chan struct{}

	mu     sync.Mutex  // one send or resume at a time
	behind atomic.Bool // an alert was refused since the last resume
}

// newDurableWebhook registers the webhook in the store (so that alerts
// stored from now on are its business) and returns it; call resume once,
// in a goroutine the caller owns.
func newDurableWebhook(ctx context.Context, st *store.Store, name string, hook delivery.Sink, log *slog.Logger) (*durableWebhook, error) {
	// Undelivered registers a sink it has never seen: it must happen
	// before the first alert of this run is stored.
	if _, err := st.Undelivered(ctx, name, 1); err != nil {
		return nil, fmt.Errorf("store: %s: %w", name, err)
	}
	return &durableWebhook{st: st, name: name, hook: hook, marked: delivery.Mark(st, name, hook), log: log,
		resumed: make(chan struct{})}, nil
}

// resume sends what a crash left unsent, then lets the queue go on.
func (d *durableWebhook) resume(ctx context.Context) {
	defer close(d.resumed)
	d.mu.Lock()
	defer d.mu.Unlock()
	n, err := delivery.Resume(ctx, d.st, d.name, d.hook)
	switch {
	case err != nil && ctx.Err() == nil:
		d.behind.Store(true)
		d.log.Error("alerts left unsent by an earlier run could not all be sent; they are tried again later",
			"sink", d.name, "sent", n, "err", err)
	case n > 0:
		d.log.Info("sent the alerts an earlier run left unsent", "sink", d.name, "alerts", n)
	}
}

// catchUp sends, oldest first, the stored alerts the webhook has not
// accepted, if one was refused or dropped since the last time
// (dropped: whether the queue dropped any). It returns how many it sent.
func (d *durableWebhook) catchUp(ctx context.Context, dropped bool) int {
	if !d.behind.Swap(false) && !dropped {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n, err := delivery.Resume(ctx, d.st, d.name, d.hook)
	if err != nil {
		d.behind.Store(true)
		if ctx.Err() == nil {
			d.log.Warn("webhook still refuses alerts; tried again later", "sink", d.name, "sent", n, "err", err)
		}
	}
	if n > 0 {
		d.log.Info("sent alerts the webhook had refused or the queue dropped", "sink", d.name, "alerts", n)
	}
	return n
}

// Send implements notify.Sink for the webhook's queue.
func (d *durableWebhook) Send(ctx context.Context, a threefold.Alert) error {
	select {
	case <-d.resumed:
	case <-ctx.Done():
		return ctx.Err()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if done, err := d.st.Delivered(ctx, a.ID, d.name); err == nil && done {
		return nil // a resume sent it already
	}
	err := d.marked.Send(ctx, a)
	if err != nil && ctx.Err() == nil {
		d.behind.Store(true)
	}
	return err
}

// catchUpLoop runs catchUp every period until ctx ends; q is the
// webhook's queue (its drops are alerts to catch up with).
func (d *durableWebhook) catchUpLoop(ctx context.Context, q *notify.Queue, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	seen := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n := q.Dropped()
		d.catchUp(ctx, n > seen)
		seen = n
	}
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
	srcs  map[string]map[string]int // source → game key → plies
}

type recordedGame struct {
	stored   bool // put in the store by this run
	plies    int
	result   string
	finished bool
}

func newGameRecorder(st *store.Store, log *slog.Logger) *gameRecorder {
	return &gameRecorder{st: st, log: log, saveState: st.SaveSourceState, games: map[[2]string]*recordedGame{}, srcs: map[string]map[string]int{}}
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
	same := g.stored && g.plies == len(s.Moves) && g.result == s.Result && g.finished == s.Finished
	g.plies, g.result, g.finished = len(s.Moves), s.Result, s.Finished
	first := !g.stored
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
		state, _ = json.Marshal(map[string]any{"games": sm})
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
				StartFEN:    s.StartFEN,
				Notation:    s.Notation,
				Moves:       s.Moves,
				Result:      s.Result,
				Termination: term,
				Finished:    s.Finished,
				Audience:    s.Audience,
			},
		}
		if _, gerr := r.st.Game(ctx, s.Game.Site, s.Game.ID); errors.Is(gerr, store.ErrNotFound) {
			g.StartedAt = s.ObservedAt // first seen; a restart keeps it
		}
		err = r.st.PutGame(ctx, g)
	} else {
		err = r.st.UpdateGame(ctx, store.GameUpdate{Site: s.Game.Site, ID: s.Game.ID, Moves: s.Moves, Result: s.Result,
			Termination: term, Finished: s.Finished})
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
// agreement, a claim).
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
	}
	v := g.Verdict()
	switch {
	case v.Checkmate:
		return threefold.TermCheckmate
	case v.Stalemate:
		return threefold.TermStalemate
	case v.Fivefold:
		return threefold.TermFivefold
	case v.SeventyFiveMoves:
		return threefold.TermSeventyFiveMoves
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
