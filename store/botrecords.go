package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// SourceBot is the Source of the games PutBotRecord stores.
const SourceBot = "bot"

// BotRecordSink is the bot's record sink (bot.RecordSink) on a store: each
// record is stored by PutBotRecord.
type BotRecordSink struct{ Store *Store }

// WriteRecord stores r (PutBotRecord).
func (b BotRecordSink) WriteRecord(ctx context.Context, r threefold.BotRecord) error {
	return b.Store.PutBotRecord(ctx, r)
}

// PutBotRecord stores a finished game of the bot (replacing the record of
// the same site and game id) and, in the same transaction, the game itself
// among the games, so that history and export see it.
func (s *Store) PutBotRecord(ctx context.Context, r threefold.BotRecord) error {
	if r.Site == "" || r.GameID == "" {
		return fmt.Errorf("store: put bot record %q/%q: site and game id are required", r.Site, r.GameID)
	}
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("store: put bot record %s: %w", r.GameID, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err, "put bot record %s", r.GameID)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, s.q(`INSERT INTO bot_records (site, game_id, white, black, white_key, black_key, result, termination, ended_at, body)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (site, game_id) DO UPDATE SET white = excluded.white, black = excluded.black,
	white_key = excluded.white_key, black_key = excluded.black_key,
	result = excluded.result, termination = excluded.termination, ended_at = excluded.ended_at, body = excluded.body`),
		text(r.Site, r.GameID, playerName(r.White), playerName(r.Black), key(playerName(r.White)), key(playerName(r.Black)), r.Result, string(r.Termination), nanos(r.EndedAt), string(body))...)
	if err != nil {
		return s.wrap(err, "put bot record %s", r.GameID)
	}
	start := r.InitialFEN
	if start == "startpos" {
		start = ""
	}
	event := "Casual"
	if r.Rated {
		event = "Rated"
	}
	if r.Speed != "" {
		event += " " + r.Speed
	}
	g := Game{GameState: threefold.GameState{
		Game:        gameRef(r),
		Source:      SourceBot,
		Event:       event + " game", // as Lichess names it: "Rated blitz game"
		StartFEN:    start,
		Notation:    rules.UCI,
		Moves:       r.Moves,
		Result:      r.Result,
		Termination: r.Termination,
		Finished:    true,
	}, StartedAt: r.StartedAt}
	if err := s.putGame(ctx, tx, g); err != nil {
		return err
	}
	return s.wrap(tx.Commit(), "put bot record %s", r.GameID)
}

func gameRef(r threefold.BotRecord) threefold.GameRef {
	return threefold.GameRef{Site: r.Site, ID: r.GameID, URL: r.URL, White: playerName(r.White), Black: playerName(r.Black)}
}

func playerName(p threefold.BotPlayer) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

// BotRecordFilter selects bot records. Zero fields select everything.
type BotRecordFilter struct {
	Player string // either player's name, ignoring case
	Since  time.Time
	Limit  int // 0: no limit
}

// BotRecords returns the records the filter selects, most recently ended
// first.
func (s *Store) BotRecords(ctx context.Context, f BotRecordFilter) ([]threefold.BotRecord, error) {
	var w where
	if f.Player != "" {
		w.add("(white_key = ? OR black_key = ?)", key(f.Player), key(f.Player))
	}
	if !f.Since.IsZero() {
		w.add("ended_at >= ?", nanos(f.Since))
	}
	query := "SELECT game_id, body FROM bot_records" + w.sql() + " ORDER BY ended_at DESC, site, game_id"
	if f.Limit > 0 {
		query += " LIMIT ?"
		w.args = append(w.args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query), w.args...)
	if err != nil {
		return nil, s.wrap(err, "bot records")
	}
	defer rows.Close()
	var out []threefold.BotRecord
	for rows.Next() {
		var id, body string
		if err := rows.Scan(&id, &body); err != nil {
			return nil, s.wrap(err, "bot records")
		}
		var r threefold.BotRecord
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			return nil, fmt.Errorf("store: bot record %s: stored JSON: %w", id, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err, "bot records")
	}
	return out, nil
}
