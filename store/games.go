package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
)

// Game is a game followed or played, as stored: its state and when it was
// first seen and last written.
type Game struct {
	threefold.GameState
	StartedAt time.Time `json:"started_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at"` // set by the store
	// startedIfNew: StartedAt is written only if the store has no game
	// with this site and id (a Recorder's first sight of a game; a
	// restart keeps the first).
	startedIfNew bool
}

// PutGame stores g, or replaces the stored game with the same site and id.
// Empty text fields (URL, players, source, event, audience), no tags and a
// zero StartedAt keep what was stored; moves, result, termination and finished
// are always replaced (a broadcast correction may shorten a game).
func (s *Store) PutGame(ctx context.Context, g Game) error {
	return s.putGame(ctx, s.db, g)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// putGameSQL puts a game; putGameKeepStartedSQL too, but keeps the
// started_at of a game stored before.
var (
	putGameSQL            = fmt.Sprintf(putGameSQLFormat, "CASE WHEN excluded.started_at = 0 THEN games.started_at ELSE excluded.started_at END")
	putGameKeepStartedSQL = fmt.Sprintf(putGameSQLFormat, "games.started_at")
)

const putGameSQLFormat = `INSERT INTO games
	(site, game_id, source, url, white, black, event, start_fen, notation, moves, plies,
	 result, termination, site_result, finished, audience, white_key, black_key, source_key, event_key, started_at, updated_at, tags)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (site, game_id) DO UPDATE SET
	tags = CASE WHEN excluded.tags = '[]' THEN games.tags ELSE excluded.tags END,
	source = COALESCE(NULLIF(excluded.source, ''), games.source),
	url = COALESCE(NULLIF(excluded.url, ''), games.url),
	white = COALESCE(NULLIF(excluded.white, ''), games.white),
	black = COALESCE(NULLIF(excluded.black, ''), games.black),
	event = COALESCE(NULLIF(excluded.event, ''), games.event),
	audience = COALESCE(NULLIF(excluded.audience, ''), games.audience),
	white_key = COALESCE(NULLIF(excluded.white_key, ''), games.white_key),
	black_key = COALESCE(NULLIF(excluded.black_key, ''), games.black_key),
	source_key = COALESCE(NULLIF(excluded.source_key, ''), games.source_key),
	event_key = COALESCE(NULLIF(excluded.event_key, ''), games.event_key),
	started_at = %s,
	start_fen = excluded.start_fen,
	notation = excluded.notation,
	moves = excluded.moves,
	plies = excluded.plies,
	result = excluded.result,
	termination = excluded.termination,
	site_result = excluded.site_result,
	finished = excluded.finished,
	updated_at = excluded.updated_at`

func (s *Store) putGame(ctx context.Context, db execer, g Game) error {
	if g.Game.Site == "" || g.Game.ID == "" {
		return fmt.Errorf("store: put game %q/%q: site and id are required", g.Game.Site, g.Game.ID)
	}
	moves := movesJSON(g.Moves)
	tags := "[]" // none given: the stored ones are kept
	if len(g.Tags) > 0 {
		b, err := json.Marshal(g.Tags)
		if err != nil {
			return fmt.Errorf("store: put game %s/%s: %w", g.Game.Site, g.Game.ID, err)
		}
		tags = string(b)
	}
	query := putGameSQL
	if g.startedIfNew {
		query = putGameKeepStartedSQL
	}
	_, err := db.ExecContext(ctx, s.q(query),
		text(g.Game.Site, g.Game.ID, g.Source, g.Game.URL, g.Game.White, g.Game.Black, g.Event, g.StartFEN,
			g.Notation.String(), moves, len(g.Moves), g.Result, string(g.Termination), g.SiteResult, boolInt(g.Finished),
			g.Audience, key(g.Game.White), key(g.Game.Black), key(g.Source), key(g.Event), nanos(g.StartedAt), nanos(s.now()), tags)...)
	return s.wrap(err, "put game %s/%s", g.Game.Site, g.Game.ID)
}

// GameUpdate is the progress of a stored game.
type GameUpdate struct {
	Site, ID    string
	Moves       []string // the whole main line so far, in the game's notation
	Result      string
	Termination threefold.Termination
	SiteResult  string
	Finished    bool
}

// UpdateGame records the progress of a stored game; a game the store does
// not have is ErrNotFound (PutGame it first).
func (s *Store) UpdateGame(ctx context.Context, u GameUpdate) error {
	return s.updateGame(ctx, s.db, u)
}

func (s *Store) updateGame(ctx context.Context, db execer, u GameUpdate) error {
	moves := movesJSON(u.Moves)
	res, err := db.ExecContext(ctx, s.q(`UPDATE games SET moves = ?, plies = ?, result = ?,
	termination = ?, site_result = ?, finished = ?, updated_at = ? WHERE site = ? AND game_id = ?`),
		text(moves, len(u.Moves), u.Result, string(u.Termination), u.SiteResult, boolInt(u.Finished), nanos(s.now()), u.Site, u.ID)...)
	if err != nil {
		return s.wrap(err, "update game %s/%s", u.Site, u.ID)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.wrap(err, "update game %s/%s", u.Site, u.ID)
	}
	if n == 0 {
		return fmt.Errorf("store: update game %s/%s: %w", u.Site, u.ID, ErrNotFound)
	}
	return nil
}

// GameFilter selects games. Zero fields select everything.
type GameFilter struct {
	Site   string // exact site
	ID     string // exact game id (on any site when Site is "")
	URL    string // exact URL
	Source string // the site exactly, or a part of the source's name, ignoring case
	Event  string // a part of the event's name, ignoring case
	Player string // either player's name, ignoring case
	Since  time.Time
	Limit  int // 0: no limit
}

const gameColumns = `site, game_id, source, url, white, black, event, start_fen, notation, moves,
	result, termination, site_result, finished, audience, started_at, updated_at, tags`

// Games returns the games the filter selects, most recently updated first.
func (s *Store) Games(ctx context.Context, f GameFilter) ([]Game, error) {
	w := f.where()
	query := "SELECT " + gameColumns + " FROM games" + w.sql() + " ORDER BY updated_at DESC, site, game_id"
	if f.Limit > 0 {
		query += " LIMIT ?"
		w.args = append(w.args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query), w.args...)
	if err != nil {
		return nil, s.wrap(err, "games")
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, s.wrap(err, "games")
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err, "games")
	}
	return out, nil
}

// CountGames returns how many games the filter selects, its Limit aside.
func (s *Store) CountGames(ctx context.Context, f GameFilter) (int, error) {
	return s.count(ctx, "games", f.where())
}

func (f GameFilter) where() where {
	var w where
	if f.Site != "" {
		w.add("site = ?", f.Site)
	}
	if f.ID != "" {
		w.add("game_id = ?", f.ID)
	}
	if f.URL != "" {
		w.add("url = ?", f.URL)
	}
	if f.Source != "" {
		w.add("(LOWER(site) = ? OR source_key LIKE ? ESCAPE '\\')", key(f.Source), likePattern(f.Source))
	}
	if f.Event != "" {
		w.add("event_key LIKE ? ESCAPE '\\'", likePattern(f.Event))
	}
	if f.Player != "" {
		w.add("(white_key = ? OR black_key = ?)", key(f.Player), key(f.Player))
	}
	if !f.Since.IsZero() {
		w.add("updated_at >= ?", nanos(f.Since))
	}
	return w
}

// Game returns the stored game with the site and id.
func (s *Store) Game(ctx context.Context, site, id string) (Game, error) {
	row := s.db.QueryRowContext(ctx, s.q("SELECT "+gameColumns+" FROM games WHERE site = ? AND game_id = ?"), text(site, id)...)
	g, err := scanGame(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("store: game %s/%s: %w", site, id, ErrNotFound)
	}
	return g, s.wrap(err, "game %s/%s", site, id)
}

type scanner interface{ Scan(dest ...any) error }

func scanGame(r scanner) (Game, error) {
	var (
		g                Game
		notation, moves  string
		tags             string
		finished         int
		started, updated int64
	)
	err := r.Scan(&g.Game.Site, &g.Game.ID, &g.Source, &g.Game.URL, &g.Game.White, &g.Game.Black, &g.Event,
		&g.StartFEN, &notation, &moves, &g.Result, &g.Termination, &g.SiteResult, &finished, &g.Audience, &started, &updated, &tags)
	if err != nil {
		return g, err
	}
	if err := g.Notation.UnmarshalText([]byte(notation)); err != nil {
		return g, fmt.Errorf("game %s/%s: stored notation: %w", g.Game.Site, g.Game.ID, err)
	}
	if err := json.Unmarshal([]byte(moves), &g.Moves); err != nil {
		return g, fmt.Errorf("game %s/%s: stored moves: %w", g.Game.Site, g.Game.ID, err)
	}
	if tags != "[]" {
		if err := json.Unmarshal([]byte(tags), &g.Tags); err != nil {
			return g, fmt.Errorf("game %s/%s: stored tags: %w", g.Game.Site, g.Game.ID, err)
		}
	}
	g.Finished = finished != 0
	g.StartedAt = fromNanos(started)
	g.UpdatedAt = fromNanos(updated)
	return g, nil
}

// SaveProgress records the last ply of a game that the watcher has
// processed (every alert up to it stored).
func (s *Store) SaveProgress(ctx context.Context, site, gameID string, ply int) error {
	return s.saveProgress(ctx, s.db, site, gameID, ply)
}

func (s *Store) saveProgress(ctx context.Context, db execer, site, gameID string, ply int) error {
	_, err := db.ExecContext(ctx, s.q(`INSERT INTO game_progress (site, game_id, ply, updated_at)
	VALUES (?, ?, ?, ?) ON CONFLICT (site, game_id) DO UPDATE SET ply = excluded.ply, updated_at = excluded.updated_at`),
		text(site, gameID, ply, nanos(s.now()))...)
	return s.wrap(err, "save progress %s/%s", site, gameID)
}

// LoadProgress returns the ply SaveProgress recorded for a game, and
// false if none was.
func (s *Store) LoadProgress(ctx context.Context, site, gameID string) (int, bool, error) {
	var ply int
	err := s.db.QueryRowContext(ctx, s.q("SELECT ply FROM game_progress WHERE site = ? AND game_id = ?"), text(site, gameID)...).Scan(&ply)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, s.wrap(err, "load progress %s/%s", site, gameID)
	}
	return ply, true, nil
}

// SaveSourceState stores a source's opaque resume state (a cursor, the
// ids it follows, …), replacing the one stored before.
func (s *Store) SaveSourceState(ctx context.Context, source string, state []byte) error {
	return s.saveSourceState(ctx, s.db, source, state)
}

func (s *Store) saveSourceState(ctx context.Context, db execer, source string, state []byte) error {
	if state == nil {
		state = []byte{}
	}
	_, err := db.ExecContext(ctx, s.q(`INSERT INTO source_state (source, state, updated_at)
	VALUES (?, ?, ?) ON CONFLICT (source) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`),
		source, state, nanos(s.now()))
	return s.wrap(err, "save state of %s", source)
}

// SaveSourceHealth stores the connection state of a source, replacing the
// one stored before. The error must hold no secret (it is shown by
// threefold status).
func (s *Store) SaveSourceHealth(ctx context.Context, h threefold.SourceHealth) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO source_health (source, connected, since, failures, last_error, updated_at)
	VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET connected = excluded.connected, since = excluded.since,
	failures = excluded.failures, last_error = excluded.last_error, updated_at = excluded.updated_at`),
		text(h.Source, boolInt(h.Connected), nanos(h.Since), h.Failures, h.LastError, nanos(s.now()))...)
	return s.wrap(err, "save health of %s", h.Source)
}

// LoadSourceState returns the state SaveSourceState stored for a source,
// and false if none was.
func (s *Store) LoadSourceState(ctx context.Context, source string) ([]byte, bool, error) {
	var state []byte
	err := s.db.QueryRowContext(ctx, s.q("SELECT state FROM source_state WHERE source = ?"), source).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.wrap(err, "load state of %s", source)
	}
	return state, true, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// movesJSON is json.Marshal of moves (nil as []), written directly: the
// moves of every game a watcher records are written, and json.Marshal
// spent more on them than the database did.
func movesJSON(moves []string) string {
	n := 2
	for _, m := range moves {
		n += len(m) + 3
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('[')
	for i, m := range moves {
		if i > 0 {
			b.WriteByte(',')
		}
		if !plainJSON(m) {
			q, _ := json.Marshal(m) // a string always marshals
			b.Write(q)
			continue
		}
		b.WriteByte('"')
		b.WriteString(m)
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.String()
}

// plainJSON reports whether json.Marshal writes s as it is, between quotes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
