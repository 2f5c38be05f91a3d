package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/threefold-chess/threefold"
)

// GroupStatus is the state of the group as the database holds it: what
// threefold status shows.
type GroupStatus struct {
	Backend   string           `json:"backend"`
	Where     string           `json:"where"` // the SQLite file or the redacted DSN
	Now       time.Time        `json:"now"`
	Instances []InstanceStatus `json:"instances"`
	Leases    []LeaseStatus    `json:"leases"`
	Sources   []SourceStatus   `json:"sources"`
	Outbox    []SinkLag        `json:"outbox"`
	Games     []GameLag        `json:"games"` // unfinished games, most behind first
}

// InstanceStatus is one instance of the group.
type InstanceStatus struct {
	ID        string         `json:"id"`
	Host      string         `json:"host"`
	PID       int64          `json:"pid"`
	StartedAt time.Time      `json:"started_at"`
	LastSeen  time.Time      `json:"last_seen"`
	LeaseTTL  time.Duration  `json:"lease_ttl_ns"`
	Budget    map[string]int `json:"budget"`
	Held      map[string]int `json:"held"` // unexpired leases by kind
	// Alive: its last heartbeat is younger than its lease lifetime.
	Alive bool `json:"alive"`
}

// LeaseStatus is one lease.
type LeaseStatus struct {
	Lease
	Expired bool `json:"expired"` // free or expired: any instance may take it
}

// SourceStatus is one source: its lease, its stored resume state and its
// connection state.
type SourceStatus struct {
	Name           string    `json:"name"`
	Holder         string    `json:"holder"` // "" when nobody holds it
	ExpiresAt      time.Time `json:"expires_at,omitzero"`
	HasState       bool      `json:"has_state"`
	StateUpdatedAt time.Time `json:"state_updated_at,omitzero"`
	// Health is the connection state saved by the instance following the
	// source (SaveSourceHealth), nil when none was.
	Health *threefold.SourceHealth `json:"health,omitempty"`
}

// SinkLag is what the outbox still owes one sink.
type SinkLag struct {
	Sink        string    `json:"sink"`
	Pending     int       `json:"pending"` // not sent yet
	Claimed     int       `json:"claimed"` // of them, claimed by an instance now
	Sent        int       `json:"sent"`
	Oldest      time.Time `json:"oldest,omitzero"` // when the oldest unsent row was written
	MaxAttempts int       `json:"max_attempts"`
	LastError   string    `json:"last_error,omitempty"`
}

// GameLag is one unfinished game: the last ply processed (SaveProgress)
// against the last ply seen (the stored game's moves).
type GameLag struct {
	Site      string    `json:"site"`
	ID        string    `json:"id"`
	Processed int       `json:"processed"` // -1 when no progress is stored
	Seen      int       `json:"seen"`
	Holder    string    `json:"holder"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Status reads the group's state, judging liveness and expiry at now.
func (s *Store) Status(ctx context.Context, now time.Time) (GroupStatus, error) {
	st := GroupStatus{Backend: s.Backend(), Where: s.where, Now: now}
	n := nanos(now)

	rows, err := s.db.QueryContext(ctx, "SELECT id, host, pid, started_at, last_seen, lease_ttl, budgets FROM instances ORDER BY id")
	if err != nil {
		return st, s.wrap(err, "status: instances")
	}
	for rows.Next() {
		var i InstanceStatus
		var started, seen, ttl int64
		var budgets string
		if err := rows.Scan(&i.ID, &i.Host, &i.PID, &started, &seen, &ttl, &budgets); err != nil {
			rows.Close()
			return st, s.wrap(err, "status: instances")
		}
		i.StartedAt, i.LastSeen, i.LeaseTTL = fromNanos(started), fromNanos(seen), time.Duration(ttl)
		i.Alive = seen+ttl > n
		i.Budget, i.Held = map[string]int{}, map[string]int{}
		if err := json.Unmarshal([]byte(budgets), &i.Budget); err != nil {
			rows.Close()
			return st, fmt.Errorf("store: status: instance %s: budgets: %w", i.ID, err)
		}
		st.Instances = append(st.Instances, i)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, s.wrap(err, "status: instances")
	}

	rows, err = s.db.QueryContext(ctx, "SELECT kind, name, holder, epoch, acquired_at, renewed_at, expires_at FROM leases ORDER BY kind, name")
	if err != nil {
		return st, s.wrap(err, "status: leases")
	}
	for rows.Next() {
		var l LeaseStatus
		var acq, ren, exp int64
		if err := rows.Scan(&l.Kind, &l.Name, &l.Holder, &l.Epoch, &acq, &ren, &exp); err != nil {
			rows.Close()
			return st, s.wrap(err, "status: leases")
		}
		l.AcquiredAt, l.RenewedAt, l.ExpiresAt = fromNanos(acq), fromNanos(ren), fromNanos(exp)
		l.Expired = l.Holder == "" || exp <= n
		st.Leases = append(st.Leases, l)
		if !l.Expired {
			for k := range st.Instances {
				if st.Instances[k].ID == l.Holder {
					st.Instances[k].Held[l.Kind]++
				}
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, s.wrap(err, "status: leases")
	}

	sources := map[string]*SourceStatus{}
	for _, l := range st.Leases {
		if l.Kind == LeaseSource {
			src := &SourceStatus{Name: l.Name}
			if !l.Expired {
				src.Holder, src.ExpiresAt = l.Holder, l.ExpiresAt
			}
			sources[l.Name] = src
		}
	}
	rows, err = s.db.QueryContext(ctx, "SELECT source, updated_at FROM source_state")
	if err != nil {
		return st, s.wrap(err, "status: sources")
	}
	for rows.Next() {
		var name string
		var upd int64
		if err := rows.Scan(&name, &upd); err != nil {
			rows.Close()
			return st, s.wrap(err, "status: sources")
		}
		src := sources[name]
		if src == nil {
			src = &SourceStatus{Name: name}
			sources[name] = src
		}
		src.HasState, src.StateUpdatedAt = true, fromNanos(upd)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, s.wrap(err, "status: sources")
	}
	rows, err = s.db.QueryContext(ctx, "SELECT source, connected, since, failures, last_error FROM source_health")
	if err != nil {
		return st, s.wrap(err, "status: source health")
	}
	for rows.Next() {
		var h threefold.SourceHealth
		var connected int
		var since int64
		if err := rows.Scan(&h.Source, &connected, &since, &h.Failures, &h.LastError); err != nil {
			rows.Close()
			return st, s.wrap(err, "status: source health")
		}
		h.Connected, h.Since = connected != 0, fromNanos(since)
		src := sources[h.Source]
		if src == nil {
			src = &SourceStatus{Name: h.Source}
			sources[h.Source] = src
		}
		src.Health = &h
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, s.wrap(err, "status: source health")
	}
	for _, src := range sources {
		st.Sources = append(st.Sources, *src)
	}
	sort.Slice(st.Sources, func(i, j int) bool { return st.Sources[i].Name < st.Sources[j].Name })

	rows, err = s.db.QueryContext(ctx, s.q(`SELECT sink,
	SUM(CASE WHEN sent_at = 0 THEN 1 ELSE 0 END),
	SUM(CASE WHEN sent_at = 0 AND claimed_by <> '' AND claimed_until > ? THEN 1 ELSE 0 END),
	SUM(CASE WHEN sent_at > 0 THEN 1 ELSE 0 END),
	COALESCE(MIN(CASE WHEN sent_at = 0 THEN created_at END), 0),
	COALESCE(MAX(CASE WHEN sent_at = 0 THEN attempts END), 0),
	COALESCE(MAX(CASE WHEN sent_at = 0 THEN last_error END), '')
	FROM outbox GROUP BY sink ORDER BY sink`), n)
	if err != nil {
		return st, s.wrap(err, "status: outbox")
	}
	for rows.Next() {
		var l SinkLag
		var oldest int64
		if err := rows.Scan(&l.Sink, &l.Pending, &l.Claimed, &l.Sent, &oldest, &l.MaxAttempts, &l.LastError); err != nil {
			rows.Close()
			return st, s.wrap(err, "status: outbox")
		}
		l.Oldest = fromNanos(oldest)
		st.Outbox = append(st.Outbox, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, s.wrap(err, "status: outbox")
	}

	// A game's holder is the holder of its own lease (a single Lichess
	// game) or of its source's (a broadcast round, a user, a file).
	rows, err = s.db.QueryContext(ctx, s.q(`SELECT g.site, g.game_id, COALESCE(p.ply, -1), g.plies,
	COALESCE(l.holder, ls.holder, ''), g.updated_at
	FROM games g
	LEFT JOIN game_progress p ON p.site = g.site AND p.game_id = g.game_id
	LEFT JOIN leases l ON l.kind = ? AND l.name = g.site || '/' || g.game_id AND l.expires_at > ?
	LEFT JOIN leases ls ON ls.kind = ? AND ls.name = g.source AND ls.expires_at > ?
	WHERE g.finished = 0
	ORDER BY g.plies - COALESCE(p.ply, -1) DESC, g.site, g.game_id
	LIMIT 1000`), LeaseGame, n, LeaseSource, n)
	if err != nil {
		return st, s.wrap(err, "status: games")
	}
	for rows.Next() {
		var g GameLag
		var upd int64
		if err := rows.Scan(&g.Site, &g.ID, &g.Processed, &g.Seen, &g.Holder, &upd); err != nil {
			rows.Close()
			return st, s.wrap(err, "status: games")
		}
		g.UpdatedAt = fromNanos(upd)
		st.Games = append(st.Games, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, s.wrap(err, "status: games")
	}
	return st, nil
}

// ForgetInstances removes the instances whose last heartbeat is older than
// before (dead ones: their leases expired long ago), and returns how many.
func (s *Store) ForgetInstances(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, s.q("DELETE FROM instances WHERE last_seen < ?"), nanos(before))
	if err != nil {
		return 0, s.wrap(err, "forget instances")
	}
	n, err := res.RowsAffected()
	return n, s.wrap(err, "forget instances")
}
