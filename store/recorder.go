package store

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// Recorder keeps the games a watcher follows in the store: the game
// (players, URL, start position, moves, result, true termination) and the
// ply up to which every alert is stored (SaveProgress), after each
// snapshot the watcher has taken in; and, for each source, the games it
// follows (SaveSourceState), so that `threefold status` and the next run
// see where this one was. A failing write is logged and never stops the
// watcher: alerts are stored by their own path.
type Recorder struct {
	st  *Store
	log *slog.Logger
	// saveState writes a source's state: st.SaveSourceState, or in group
	// mode the write fenced by the source's lease.
	saveState func(ctx context.Context, source string, state []byte) error
	// batch, if set, takes the writes instead of the store (SetBatcher);
	// the source states are then written once per batch.
	batch *Batcher
	// terms, if set, says how a finished game ended without a replay of
	// its moves (SetTerminations).
	terms Terminations

	mu    sync.Mutex
	dirty map[string]bool // with batch: sources whose state the next batch writes
	games map[[2]string]*recordedGame
	srcs  map[string]map[string]int  // source → game key → plies
	kept  map[string]json.RawMessage // source → what the source keeps itself (SourceState.Kept)
}

// SourceState is a source's state in the store, as a Recorder writes it
// (LoadSourceState): the games it follows, and what the source keeps itself across
// restarts (a DGT source: the games on its boards and their health, under
// "boards", which `threefold status` shows).
type SourceState struct {
	Games map[string]int  `json:"games"`
	Kept  json.RawMessage `json:"kept,omitempty"`
}

// stateLocked (mu held) is the state of source to write.
func (r *Recorder) stateLocked(source string) []byte {
	sm := r.srcs[source]
	if sm == nil {
		sm = map[string]int{}
	}
	state, _ := json.Marshal(SourceState{Games: sm, Kept: r.kept[source]})
	return state
}

// Keeper is what a source keeps across restarts (listener.StateKeeper):
// it goes into the source's state in the store, beside the games the
// recorder writes there, and through the same write (fenced by the
// source's lease in group mode).
func (r *Recorder) Keeper(source string) *SourceKeeper {
	return &SourceKeeper{r: r, source: source}
}

// SourceKeeper keeps one source's own state (a listener.StateKeeper).
type SourceKeeper struct {
	r      *Recorder
	source string
}

// LoadState returns what the source kept, nil when nothing was.
func (k *SourceKeeper) LoadState(ctx context.Context) ([]byte, error) {
	data, ok, err := k.r.st.LoadSourceState(ctx, k.source)
	if err != nil || !ok {
		return nil, err
	}
	var st SourceState
	if json.Unmarshal(data, &st) != nil {
		return nil, nil // not written by a recorder
	}
	k.r.mu.Lock()
	k.r.kept[k.source] = st.Kept
	k.r.mu.Unlock()
	return st.Kept, nil
}

// SaveState keeps data as what the source keeps.
func (k *SourceKeeper) SaveState(ctx context.Context, data []byte) error {
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

// NewRecorder returns the recorder of a watcher on st; log gets the
// writes that failed.
func NewRecorder(st *Store, log *slog.Logger) *Recorder {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Recorder{st: st, log: log, saveState: st.SaveSourceState, games: map[[2]string]*recordedGame{},
		srcs: map[string]map[string]int{}, kept: map[string]json.RawMessage{}, dirty: map[string]bool{}}
}

// SetBatcher makes the recorder write through b (out of group mode): the
// writes of the states that say More wait for the first that does not,
// and each source's state is written once per batch. Set it before the
// first Record.
func (r *Recorder) SetBatcher(b *Batcher) {
	r.batch = b
	b.prepare = func(batch *Batch) {
		r.mu.Lock()
		defer r.mu.Unlock()
		for src := range r.dirty {
			batch.SaveSourceState(src, r.stateLocked(src))
		}
		clear(r.dirty)
	}
}

// Flush commits what the recorder's batcher holds (SetBatcher); call it
// when a source ends, whatever its last state said. Without a batcher it
// does nothing.
func (r *Recorder) Flush() {
	if r.batch != nil {
		r.batch.Flush()
	}
}

// Terminations says how a finished game ended by its moves, as
// MovesTermination does, from a replay made already (listener.Watcher),
// with the plies of the state it replayed; ok is false when it does not
// know.
type Terminations interface {
	Termination(site, id string) (term threefold.Termination, plies int, ok bool)
}

// SetTerminations makes the recorder take the true end of a finished game
// from t (the watcher that took the game in before Record) instead of
// replaying the moves again, when t knows it for the state recorded. Set
// it before the first Record.
func (r *Recorder) SetTerminations(t Terminations) { r.terms = t }

// termination is the true end of the finished game of s.
func (r *Recorder) termination(s threefold.GameState) threefold.Termination {
	if r.terms != nil {
		if term, plies, ok := r.terms.Termination(s.Game.Site, s.Game.ID); ok && plies == len(s.Moves) {
			return term
		}
	}
	return MovesTermination(s)
}

// SetStateWriter sets how a source's state is written: in group mode, the
// write fenced by the source's lease (group.Session.SaveState); default
// Store.SaveSourceState. Set it before the first Record.
func (r *Recorder) SetStateWriter(save func(ctx context.Context, source string, state []byte) error) {
	r.saveState = save
}

// Record records state s of a game of source, once the watcher took it
// in (its alerts are stored): the game, its progress, and the source's
// games. Repeats of a recorded state write nothing. With a batcher, the
// writes are committed at the first state without More.
func (r *Recorder) Record(ctx context.Context, source string, s threefold.GameState) {
	if r.batch != nil && !s.More {
		defer r.batch.Flush()
	}
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
	seen := g.stored // by this run: its start is stored (or in the batch)
	g.plies, g.result, g.finished, g.siteResult, g.ref = len(s.Moves), s.Result, s.Finished, s.SiteResult, s.Game
	g.stored = true
	sm := r.srcs[source]
	if sm == nil {
		sm = map[string]int{}
		r.srcs[source] = sm
	}
	_, known := sm[s.Game.Site+"/"+s.Game.ID]
	sm[s.Game.Site+"/"+s.Game.ID] = len(s.Moves)
	if s.Last {
		// No state of it follows (a file read once): the store has what
		// this run needs of it, the memory need not.
		delete(r.games, k)
		delete(sm, s.Game.Site+"/"+s.Game.ID)
	}
	var state []byte
	if !known || s.Finished {
		if r.batch != nil {
			r.dirty[source] = true // written once, with the batch
		} else {
			state = r.stateLocked(source)
		}
	}
	r.mu.Unlock()
	if same {
		return
	}
	var term threefold.Termination
	if s.Finished {
		term = r.termination(s)
	}
	var err error
	if first {
		g := Game{
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
		if !seen {
			// First seen by this run: stored as started now unless the
			// store has the game (a restart keeps the first sight).
			g.StartedAt, g.startedIfNew = s.ObservedAt, true
		}
		if r.batch != nil {
			r.batch.add(func(b *Batch) { b.PutGame(g); b.SaveProgress(s.Game.Site, s.Game.ID, len(s.Moves)) })
			return
		}
		err = r.st.PutGame(ctx, g)
	} else {
		u := GameUpdate{Site: s.Game.Site, ID: s.Game.ID, Moves: s.Moves, Result: s.Result,
			Termination: term, SiteResult: s.SiteResult, Finished: s.Finished}
		if r.batch != nil {
			r.batch.add(func(b *Batch) { b.UpdateGame(u); b.SaveProgress(s.Game.Site, s.Game.ID, len(s.Moves)) })
			return
		}
		err = r.st.UpdateGame(ctx, u)
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

// MovesTermination is the true end of a finished game as far as its moves
// show it (the bot's names): mate, stalemate, fifth occurrence, 75 moves,
// insufficient material; "" when the moves do not say (resignation, time,
// agreement, a claim). A fifth occurrence or the 75-move rule ends the game
// where it happens, even when the record goes on after it.
func MovesTermination(s threefold.GameState) threefold.Termination {
	var r rules.Replay
	var end threefold.Termination
	_, err := r.Sync(s.StartFEN, s.Notation, s.Moves, func(st rules.Step) {
		switch g := st.Game; {
		case end != "" || st.Ply == 0:
		case g.FivefoldPly() >= 0:
			end = threefold.TermFivefold
		case g.HalfmoveClock() >= 150 && g.Verdict().SeventyFiveMoves:
			end = threefold.TermSeventyFiveMoves
		}
	})
	if end != "" {
		return end
	}
	if err != nil {
		return ""
	}
	v := r.Game().Verdict()
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

// SourceBoard is one e-board in threefold status, with its source and when
// the source kept what is shown.
type SourceBoard struct {
	Source string    `json:"source"`
	AsOf   time.Time `json:"as_of"`
	threefold.BoardStatus
}

// SourceBoards reads the boards' health that sources keep in their state
// (SourceState.Kept, under "boards"), for the sources of a GroupStatus.
func (s *Store) SourceBoards(ctx context.Context, sources []SourceStatus) ([]SourceBoard, error) {
	var out []SourceBoard
	for _, src := range sources {
		if !src.HasState {
			continue
		}
		data, ok, err := s.LoadSourceState(ctx, src.Name)
		if err != nil {
			return nil, err
		}
		var state SourceState
		var kept struct {
			Boards []threefold.BoardStatus `json:"boards"`
		}
		if !ok || json.Unmarshal(data, &state) != nil || len(state.Kept) == 0 || json.Unmarshal(state.Kept, &kept) != nil {
			continue
		}
		for _, b := range kept.Boards {
			out = append(out, SourceBoard{Source: src.Name, AsOf: src.StateUpdatedAt, BoardStatus: b})
		}
	}
	return out, nil
}
