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

// PutAlert stores a if no alert with its ID is stored yet and reports
// whether it was new. It returns after the alert is committed: a caller may
// then report it as sent (see the package doc). Storing the same id from
// several goroutines or processes at once stores it once, and exactly one
// of the callers gets new == true.
func (s *Store) PutAlert(ctx context.Context, a threefold.Alert) (bool, error) {
	return s.putAlert(ctx, s.db, a)
}

func (s *Store) putAlert(ctx context.Context, db execer, a threefold.Alert) (bool, error) {
	if a.ID == "" {
		return false, errors.New("store: put alert: empty id")
	}
	body, err := json.Marshal(a)
	if err != nil {
		return false, fmt.Errorf("store: put alert %s: %w", a.ID, err)
	}
	res, err := db.ExecContext(ctx, s.q(`INSERT INTO alerts
	(id, kind, source, site, game_id, white, black, white_key, black_key, source_key, ply, observed_at, stored_at, body)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (id) DO NOTHING`),
		text(a.ID, string(a.Kind), a.Source, a.Game.Site, a.Game.ID, a.Game.White, a.Game.Black,
			key(a.Game.White), key(a.Game.Black), key(a.Source), a.Ply, nanos(a.ObservedAt), nanos(s.now()), string(body))...)
	if err != nil {
		return false, s.wrap(err, "put alert %s", a.ID)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, s.wrap(err, "put alert %s", a.ID)
	}
	return n == 1, nil
}

// Alert returns the stored alert with the id.
func (s *Store) Alert(ctx context.Context, id string) (threefold.Alert, error) {
	var body string
	err := s.db.QueryRowContext(ctx, s.q("SELECT body FROM alerts WHERE id = ?"), id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return threefold.Alert{}, fmt.Errorf("store: alert %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return threefold.Alert{}, s.wrap(err, "alert %s", id)
	}
	return decodeAlert(id, body)
}

func decodeAlert(id, body string) (threefold.Alert, error) {
	var a threefold.Alert
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		return a, fmt.Errorf("store: alert %s: stored JSON: %w", id, err)
	}
	return a, nil
}

// MarkDelivered records that sink accepted the alert. Call it only after
// the sink accepted it; marking twice is not an error. An alert the store
// does not have is ErrNotFound.
func (s *Store) MarkDelivered(ctx context.Context, alertID, sink string) error {
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO deliveries (alert_id, sink, delivered_at)
	SELECT id, CAST(? AS TEXT), CAST(? AS BIGINT) FROM alerts WHERE id = ?
	ON CONFLICT (alert_id, sink) DO NOTHING`), sink, nanos(s.now()), alertID)
	if err != nil {
		return s.wrap(err, "mark alert %s delivered to %s", alertID, sink)
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 {
		return nil
	}
	var one int
	err = s.db.QueryRowContext(ctx, s.q("SELECT 1 FROM alerts WHERE id = ?"), alertID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: mark alert %s delivered to %s: %w", alertID, sink, ErrNotFound)
	}
	return s.wrap(err, "mark alert %s delivered to %s", alertID, sink)
}

// Delivered reports whether sink has accepted the alert.
func (s *Store) Delivered(ctx context.Context, alertID, sink string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, s.q("SELECT 1 FROM deliveries WHERE alert_id = ? AND sink = ?"), alertID, sink).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, s.wrap(err, "delivered %s to %s", alertID, sink)
}

// Undelivered returns up to limit (0: all) alerts, oldest stored first,
// that sink has not accepted. A sink the store has never seen starts now:
// it is registered with the alerts stored so far counted as not its
// business, so a webhook added to the config is not sent the whole
// history. Call Undelivered for every sink at start-up, before new alerts
// are stored, to resend what a crash left unsent.
func (s *Store) Undelivered(ctx context.Context, sink string, limit int) ([]threefold.Alert, error) {
	if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO sinks (name, from_seq, created_at)
	SELECT CAST(? AS TEXT), COALESCE(MAX(seq), 0), CAST(? AS BIGINT) FROM alerts WHERE 1 = 1
	ON CONFLICT (name) DO NOTHING`), sink, nanos(s.now())); err != nil {
		return nil, s.wrap(err, "undelivered to %s: register sink", sink)
	}
	query := `SELECT a.id, a.body FROM alerts a
	WHERE a.seq > (SELECT from_seq FROM sinks WHERE name = ?)
	AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.alert_id = a.id AND d.sink = ?)
	ORDER BY a.seq`
	args := []any{sink, sink}
	if limit > 0 {
		query += " LIMIT ?"
		args = append(args, limit)
	}
	return s.queryAlerts(ctx, fmt.Sprintf("undelivered to %s", sink), query, args...)
}

func (s *Store) queryAlerts(ctx context.Context, op, query string, args ...any) ([]threefold.Alert, error) {
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, s.wrap(err, "%s", op)
	}
	defer rows.Close()
	var out []threefold.Alert
	for rows.Next() {
		var id, body string
		if err := rows.Scan(&id, &body); err != nil {
			return nil, s.wrap(err, "%s", op)
		}
		a, err := decodeAlert(id, body)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err, "%s", op)
	}
	return out, nil
}

// AlertFilter selects alerts. Zero fields select everything.
type AlertFilter struct {
	// Source matches the site exactly ("lichess") or a part of the source's
	// name ("broadcast round 4Yuk2i2H"), ignoring case.
	Source string
	Kind   threefold.AlertKind
	// Player matches either player's name, ignoring case.
	Player string
	Site   string // exact site
	GameID string // exact game id
	Since  time.Time
	Limit  int // 0: no limit
}

// Alerts returns the alerts the filter selects, most recently observed
// first.
func (s *Store) Alerts(ctx context.Context, f AlertFilter) ([]threefold.Alert, error) {
	w := f.where()
	query := "SELECT id, body FROM alerts" + w.sql() + " ORDER BY observed_at DESC, seq DESC"
	if f.Limit > 0 {
		query += " LIMIT ?"
		w.args = append(w.args, f.Limit)
	}
	return s.queryAlerts(ctx, "alerts", query, w.args...)
}

// CountAlerts returns how many alerts the filter selects, its Limit aside.
func (s *Store) CountAlerts(ctx context.Context, f AlertFilter) (int, error) {
	return s.count(ctx, "alerts", f.where())
}

func (f AlertFilter) where() where {
	var w where
	if f.Source != "" {
		w.add("(LOWER(site) = ? OR source_key LIKE ? ESCAPE '\\')", key(f.Source), likePattern(f.Source))
	}
	if f.Kind != "" {
		w.add("kind = ?", string(f.Kind))
	}
	if f.Player != "" {
		w.add("(white_key = ? OR black_key = ?)", key(f.Player), key(f.Player))
	}
	if f.Site != "" {
		w.add("site = ?", f.Site)
	}
	if f.GameID != "" {
		w.add("game_id = ?", f.GameID)
	}
	if !f.Since.IsZero() {
		w.add("observed_at >= ?", nanos(f.Since))
	}
	return w
}

// count returns the number of rows of table that w selects.
func (s *Store) count(ctx context.Context, table string, w where) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM "+table+w.sql()), w.args...).Scan(&n); err != nil {
		return 0, s.wrap(err, "count %s", table)
	}
	return n, nil
}

// where builds a WHERE clause from conditions joined by AND.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) sql() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// likePattern is a LIKE pattern for "contains s" against a key column,
// with LIKE's wildcards in s escaped by a backslash.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(key(s)) + "%"
}

// key is the form of a name that case-insensitive filters compare: the
// same in Go for both databases (SQLite's LOWER folds ASCII only).
func key(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
