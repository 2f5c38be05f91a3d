package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
)

// PutAlertOutbox is PutAlert that also writes, in the same transaction and
// only if the alert is new, one outbox row for each of sinks: the alert
// cannot be stored without its deliveries being due, nor be due twice.
// Sink names are stable names of the configured sinks ("webhook-1",
// "discord-0"), never URLs.
func (s *Store) PutAlertOutbox(ctx context.Context, a threefold.Alert, sinks []string) (bool, error) {
	if a.ID == "" {
		return false, errors.New("store: put alert: empty id")
	}
	body, err := json.Marshal(a)
	if err != nil {
		return false, fmt.Errorf("store: put alert %s: %w", a.ID, err)
	}
	isNew := false
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		now := nanos(s.now())
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO alerts
		(id, kind, source, site, game_id, white, black, white_key, black_key, source_key, ply, observed_at, stored_at, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`),
			text(a.ID, string(a.Kind), a.Source, a.Game.Site, a.Game.ID, a.Game.White, a.Game.Black,
				key(a.Game.White), key(a.Game.Black), key(a.Source), a.Ply, nanos(a.ObservedAt), now, string(body))...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		isNew = true
		for _, sink := range sinks {
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO outbox (alert_id, sink, seq, created_at)
			SELECT id, CAST(? AS TEXT), seq, CAST(? AS BIGINT) FROM alerts WHERE id = ?
			ON CONFLICT (alert_id, sink) DO NOTHING`), sink, now, a.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return false, s.wrap(err, "put alert %s with its outbox", a.ID)
	}
	return isNew, nil
}

// OutboxItem is one alert claimed for one sink.
type OutboxItem struct {
	Alert        threefold.Alert
	Sink         string
	Seq          int64 // the alert's place in the order alerts were stored
	Attempts     int   // this claim included
	ClaimedBy    string
	ClaimedUntil time.Time
	CreatedAt    time.Time
}

// ClaimOutbox claims for claimer up to limit (≤ 0: 100) pending outbox rows
// of the given sinks (none: every sink), oldest alert first, that nobody
// holds: never claimed, released after a failure and due again, or
// claimed by an instance that did not finish before its claim ran out.
// A claim lasts hold (by the store's clock); finish each item with
// MarkSent or FailOutbox before then, or another claimer takes it over. On
// PostgreSQL the rows are locked with FOR UPDATE SKIP LOCKED, so claimers
// at once get different rows.
func (s *Store) ClaimOutbox(ctx context.Context, claimer string, hold time.Duration, limit int, sinks ...string) ([]OutboxItem, error) {
	if claimer == "" || hold <= 0 {
		return nil, fmt.Errorf("store: claim outbox: a claimer and a positive hold are required")
	}
	if limit <= 0 {
		limit = 100
	}
	t := s.now()
	now, until := nanos(t), nanos(t.Add(hold))
	pick := "SELECT alert_id, sink FROM outbox WHERE sent_at = 0 AND claimed_until <= ?"
	args := []any{claimer, until, now}
	if len(sinks) > 0 {
		pick += " AND sink IN (?" + strings.Repeat(", ?", len(sinks)-1) + ")"
		for _, k := range sinks {
			args = append(args, k)
		}
	}
	pick += " ORDER BY seq, sink LIMIT ?"
	args = append(args, limit)
	if s.dialect == dialectPostgres {
		pick += " FOR UPDATE SKIP LOCKED"
	}
	var out []OutboxItem
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.q(`UPDATE outbox SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1
		WHERE (alert_id, sink) IN (`+pick+`)
		RETURNING alert_id, sink, seq, attempts, created_at`), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var it OutboxItem
			var created int64
			if err := rows.Scan(&it.Alert.ID, &it.Sink, &it.Seq, &it.Attempts, &created); err != nil {
				return err
			}
			it.ClaimedBy, it.ClaimedUntil, it.CreatedAt = claimer, fromNanos(until), fromNanos(created)
			out = append(out, it)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		for i := range out {
			var body string
			if err := tx.QueryRowContext(ctx, s.q("SELECT body FROM alerts WHERE id = ?"), out[i].Alert.ID).Scan(&body); err != nil {
				return err
			}
			a, err := decodeAlert(out[i].Alert.ID, body)
			if err != nil {
				return err
			}
			out[i].Alert = a
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap(err, "claim outbox for %s", claimer)
	}
	// RETURNING gives no order: oldest alert first, as claimed.
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		return out[i].Sink < out[j].Sink
	})
	return out, nil
}

// MarkSent records that the item's sink accepted its alert: the row is
// done, whoever claims it now, and Delivered reports it. Call it only after
// the sink accepted the alert; marking twice is not an error.
func (s *Store) MarkSent(ctx context.Context, it OutboxItem) error {
	now := nanos(s.now())
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE outbox SET sent_at = ?, claimed_by = ?
		WHERE alert_id = ? AND sink = ? AND sent_at = 0`), now, it.ClaimedBy, it.Alert.ID, it.Sink); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO deliveries (alert_id, sink, delivered_at)
		SELECT id, CAST(? AS TEXT), CAST(? AS BIGINT) FROM alerts WHERE id = ?
		ON CONFLICT (alert_id, sink) DO NOTHING`), it.Sink, now, it.Alert.ID)
		return err
	})
	return s.wrap(err, "mark alert %s sent to %s", it.Alert.ID, it.Sink)
}

// FailOutbox gives a claimed item back after its sink refused it: it is
// due again at retryAt (the sink's backoff), and cause is kept for
// threefold status (the first 300 bytes; it must hold no secret, as the
// errors of package notify do not). An item claimed by someone else since
// is left alone.
func (s *Store) FailOutbox(ctx context.Context, it OutboxItem, cause string, retryAt time.Time) error {
	if len(cause) > 300 {
		cause = cause[:300]
	}
	cause = strings.ToValidUTF8(cause, "?")
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE outbox SET claimed_by = '', claimed_until = ?, last_error = ?
	WHERE alert_id = ? AND sink = ? AND sent_at = 0 AND claimed_by = ?`), nanos(retryAt), cause, it.Alert.ID, it.Sink, it.ClaimedBy)
	return s.wrap(err, "release alert %s for %s", it.Alert.ID, it.Sink)
}

// PruneOutbox deletes the rows sent before before, and returns how many.
func (s *Store) PruneOutbox(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.q("DELETE FROM outbox WHERE sent_at > 0 AND sent_at < ?"), nanos(before))
	if err != nil {
		return 0, s.wrap(err, "prune outbox")
	}
	n, err := res.RowsAffected()
	return n, s.wrap(err, "prune outbox")
}
