package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"
)

// The lease kinds threefold uses. Any other non-empty name works too.
const (
	LeaseSource = "source" // a source (a broadcast round, a user, a TV channel …): its stream
	LeaseGame   = "game"   // a followed game: GameLeaseName(site, id)
)

// DefaultLeaseTTL is the lease lifetime of an instance whose config sets
// none. A holder renews every LeaseTTL/3 (Instance.HeartbeatPeriod), so a
// lease outlives two missed heartbeats and dies within LeaseTTL of its
// holder's last one.
const DefaultLeaseTTL = 30 * time.Second

// ErrLeaseHeld is matched by the error of an Acquire of a lease that
// another instance holds; the error is a *LeaseHeldError.
var ErrLeaseHeld = errors.New("lease held by another instance")

// ErrBudget is matched by the error of an Acquire that would take the
// instance over its budget for the lease's kind.
var ErrBudget = errors.New("lease budget exhausted")

// ErrLeaseLost is matched by the error of a renewal or a fenced write of a
// lease the instance no longer holds (it expired, or another instance took
// it over).
var ErrLeaseLost = errors.New("lease lost")

// LeaseHeldError says who holds a lease and until when.
type LeaseHeldError struct {
	Kind, Name string
	Holder     string
	Until      time.Time
}

func (e *LeaseHeldError) Error() string {
	return fmt.Sprintf("%s %q is held by instance %s until %s", e.Kind, e.Name, e.Holder, e.Until.Format(time.RFC3339Nano))
}

func (e *LeaseHeldError) Unwrap() error { return ErrLeaseHeld }

// GameLeaseName is the name of a followed game's lease (kind LeaseGame).
func GameLeaseName(site, gameID string) string { return site + "/" + gameID }

// Lease is the right of one instance to work on one source or game until
// ExpiresAt. Epoch grows by one each time the lease passes to another
// holder (or to the same holder again after it was free): a fencing token
// that writes on behalf of the lease carry (Instance.SaveProgress).
type Lease struct {
	Kind       string    `json:"kind"`
	Name       string    `json:"name"`
	Holder     string    `json:"holder"` // the instance id; "" if free
	Epoch      int64     `json:"epoch"`
	AcquiredAt time.Time `json:"acquired_at,omitzero"`
	RenewedAt  time.Time `json:"renewed_at,omitzero"`
	ExpiresAt  time.Time `json:"expires_at,omitzero"`
	// TakenFrom is, when Acquire took the lease over from another
	// instance (whose lease had run out), the lease as that instance held
	// it. It is not stored.
	TakenFrom *Lease `json:"-"`
}

// InstanceConfig describes an instance joining the group.
type InstanceConfig struct {
	// ID names the instance in the group; default host-pid-random, unique
	// for each run. Leases a previous run under the same ID held are
	// released at Join.
	ID string
	// Host is shown by threefold status; default os.Hostname.
	Host string
	// LeaseTTL is the lifetime of a lease from its last renewal, and the
	// time after which an instance that stopped heartbeating is dead;
	// default DefaultLeaseTTL. It must exceed the heartbeat period plus
	// the clock skew between the group's hosts plus a database round trip.
	LeaseTTL time.Duration
	// Budget is the most leases of a kind the instance holds at once
	// (LeaseSource: the Lichess streams its address may open). A kind
	// missing or ≤ 0 has no limit.
	Budget map[string]int
	// Now is the instance's clock; default the store's.
	Now func() time.Time
}

// Instance is this process's membership of the group: its row in the
// instances table and the leases it holds. It is safe for concurrent use.
type Instance struct {
	st     *Store
	id     string
	host   string
	ttl    time.Duration
	budget map[string]int
	now    func() time.Time

	mu   sync.Mutex
	held map[leaseKey]Lease // what this instance holds, as of its last write
	left bool               // Leave was called
}

type leaseKey struct{ kind, name string }

// Join registers an instance in the group (the instances table) and
// returns it. Call Heartbeat every HeartbeatPeriod and Leave at the end.
func (s *Store) Join(ctx context.Context, cfg InstanceConfig) (*Instance, error) {
	in := &Instance{st: s, id: cfg.ID, host: cfg.Host, ttl: cfg.LeaseTTL, now: cfg.Now, held: map[leaseKey]Lease{}}
	if in.host == "" {
		in.host, _ = os.Hostname()
	}
	if in.id == "" {
		var b [4]byte
		rand.Read(b[:])
		in.id = fmt.Sprintf("%s-%d-%s", in.host, os.Getpid(), hex.EncodeToString(b[:]))
	}
	if in.ttl <= 0 {
		in.ttl = DefaultLeaseTTL
	}
	if in.now == nil {
		in.now = s.now
	}
	in.budget = map[string]int{}
	for k, v := range cfg.Budget {
		if v > 0 {
			in.budget[k] = v
		}
	}
	now := nanos(in.now())
	err := s.inTx(ctx, func(tx *sql.Tx) error { return in.register(ctx, tx, now) })
	if err != nil {
		return nil, s.wrap(err, "join %s", in.id)
	}
	return in, nil
}

// register writes the instance's row (started and seen at now) and frees
// the leases an earlier life of the same id held.
func (in *Instance) register(ctx context.Context, tx *sql.Tx, now int64) error {
	budgets, err := json.Marshal(in.budget)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, in.st.q(`INSERT INTO instances (id, host, pid, started_at, last_seen, lease_ttl, budgets)
	VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid,
	started_at = excluded.started_at, last_seen = excluded.last_seen, lease_ttl = excluded.lease_ttl, budgets = excluded.budgets`),
		in.id, in.host, os.Getpid(), now, now, int64(in.ttl), string(budgets)); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, in.st.q("UPDATE leases SET holder = '', expires_at = 0 WHERE holder = ?"), in.id)
	return err
}

// inTx runs f in a transaction and commits it if f returns nil.
func (s *Store) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// ID is the instance's id in the group.
func (in *Instance) ID() string { return in.id }

// LeaseTTL is the lifetime of the instance's leases from their last
// renewal.
func (in *Instance) LeaseTTL() time.Duration { return in.ttl }

// HeartbeatPeriod is how often the instance should call Heartbeat:
// LeaseTTL/3.
func (in *Instance) HeartbeatPeriod() time.Duration { return in.ttl / 3 }

// Budget is the most leases of kind the instance holds at once; 0 is no
// limit.
func (in *Instance) Budget(kind string) int { return in.budget[kind] }

// forUpdate locks the instance's row until the transaction ends, so that
// the acquisitions of one instance (from several goroutines) are counted
// against its budget one after another. SQLite needs no lock: its write
// transactions (BEGIN IMMEDIATE) are serialised already.
func (in *Instance) forUpdate(ctx context.Context, tx *sql.Tx) error {
	lock := "SELECT id FROM instances WHERE id = ?"
	if in.st.dialect == dialectPostgres {
		lock += " FOR UPDATE"
	}
	var id string
	err := tx.QueryRowContext(ctx, in.st.q(lock), in.id).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("instance %s is not registered (it left, or was forgotten as dead)", in.id)
	}
	return err
}

// room is how many more leases of kind the instance may take, not
// counting the lease except (held already, it is renewed, not added).
func (in *Instance) room(ctx context.Context, tx *sql.Tx, kind, except string, now int64) (int, error) {
	b := in.budget[kind]
	if b <= 0 {
		return -1, nil
	}
	var n int
	err := tx.QueryRowContext(ctx, in.st.q(`SELECT COUNT(*) FROM leases
	WHERE holder = ? AND kind = ? AND expires_at > ? AND name <> ?`), in.id, kind, now, except).Scan(&n)
	if err != nil {
		return 0, err
	}
	return max(b-n, 0), nil
}

// Acquire takes the lease of kind and name for LeaseTTL, or renews it if
// the instance holds it already. A lease another instance holds and has
// not let expire is a *LeaseHeldError (ErrLeaseHeld); a new lease beyond
// the instance's budget is ErrBudget. The check and the take are one
// conditional write, so of several instances acquiring at once exactly one
// gets the lease.
func (in *Instance) Acquire(ctx context.Context, kind, name string) (Lease, error) {
	if kind == "" || name == "" {
		return Lease{}, fmt.Errorf("store: acquire %q %q: kind and name are required", kind, name)
	}
	t := in.now()
	now, exp := nanos(t), nanos(t.Add(in.ttl))
	var l Lease
	err := in.st.inTx(ctx, func(tx *sql.Tx) error {
		if err := in.forUpdate(ctx, tx); err != nil {
			return err
		}
		room, err := in.room(ctx, tx, kind, name, now)
		if err != nil {
			return err
		}
		if room == 0 {
			var one int
			err := tx.QueryRowContext(ctx, in.st.q("SELECT 1 FROM leases WHERE kind = ? AND name = ? AND holder = ? AND expires_at > ?"),
				kind, name, in.id, now).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("%w: instance %s holds %d %s leases", ErrBudget, in.id, in.budget[kind], kind)
			}
			if err != nil {
				return err
			}
		}
		var prev Lease
		var prevRenewed, prevExpires int64
		err = tx.QueryRowContext(ctx, in.st.q("SELECT holder, renewed_at, expires_at FROM leases WHERE kind = ? AND name = ?"),
			kind, name).Scan(&prev.Holder, &prevRenewed, &prevExpires)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var acquired, epoch int64
		err = tx.QueryRowContext(ctx, in.st.q(`INSERT INTO leases (kind, name, holder, epoch, acquired_at, renewed_at, expires_at)
		VALUES (?, ?, ?, 1, ?, ?, ?)
		ON CONFLICT (kind, name) DO UPDATE SET
		epoch = CASE WHEN leases.holder = excluded.holder AND leases.expires_at > excluded.renewed_at THEN leases.epoch ELSE leases.epoch + 1 END,
		acquired_at = CASE WHEN leases.holder = excluded.holder AND leases.expires_at > excluded.renewed_at THEN leases.acquired_at ELSE excluded.acquired_at END,
		holder = excluded.holder, renewed_at = excluded.renewed_at, expires_at = excluded.expires_at
		WHERE leases.holder = excluded.holder OR leases.holder = '' OR leases.expires_at <= excluded.renewed_at
		RETURNING acquired_at, epoch`), kind, name, in.id, now, now, exp).Scan(&acquired, &epoch)
		if errors.Is(err, sql.ErrNoRows) {
			h := &LeaseHeldError{Kind: kind, Name: name}
			var until int64
			if err := tx.QueryRowContext(ctx, in.st.q("SELECT holder, expires_at FROM leases WHERE kind = ? AND name = ?"), kind, name).Scan(&h.Holder, &until); err != nil {
				return err
			}
			h.Until = fromNanos(until)
			return h
		}
		if err != nil {
			return err
		}
		l = Lease{Kind: kind, Name: name, Holder: in.id, Epoch: epoch, AcquiredAt: fromNanos(acquired), RenewedAt: fromNanos(now), ExpiresAt: fromNanos(exp)}
		if prev.Holder != "" && prev.Holder != in.id {
			prev.Kind, prev.Name, prev.RenewedAt, prev.ExpiresAt = kind, name, fromNanos(prevRenewed), fromNanos(prevExpires)
			l.TakenFrom = &prev
		}
		return nil
	})
	if err != nil {
		in.forget(kind, name)
		var held *LeaseHeldError
		if errors.As(err, &held) || errors.Is(err, ErrBudget) {
			return Lease{}, fmt.Errorf("store: acquire %s %q: %w", kind, name, err)
		}
		return Lease{}, in.st.wrap(err, "acquire %s %q", kind, name)
	}
	in.remember(l)
	return l, nil
}

// Offer puts leases of kind that nobody holds yet in the group's pool, for
// AcquireFree to hand out: the sources of the group's config. A lease
// already known is left as it is.
func (in *Instance) Offer(ctx context.Context, kind string, names ...string) error {
	err := in.st.inTx(ctx, func(tx *sql.Tx) error {
		for _, name := range names {
			if _, err := tx.ExecContext(ctx, in.st.q(`INSERT INTO leases (kind, name) VALUES (?, ?)
			ON CONFLICT (kind, name) DO NOTHING`), kind, name); err != nil {
				return err
			}
		}
		return nil
	})
	return in.st.wrap(err, "offer %d %s leases", len(names), kind)
}

// AcquireFree takes up to max (≤ 0: as many as the budget allows) leases
// of kind that nobody holds or whose holder let them expire, in name
// order, and returns them. On PostgreSQL the candidates are locked with
// FOR UPDATE SKIP LOCKED, so instances taking at once take different
// leases instead of waiting on each other.
func (in *Instance) AcquireFree(ctx context.Context, kind string, max int) ([]Lease, error) {
	t := in.now()
	now, exp := nanos(t), nanos(t.Add(in.ttl))
	var out []Lease
	err := in.st.inTx(ctx, func(tx *sql.Tx) error {
		if err := in.forUpdate(ctx, tx); err != nil {
			return err
		}
		room, err := in.room(ctx, tx, kind, "", now)
		if err != nil {
			return err
		}
		n := max // ≤ 0: no limit
		if room >= 0 && (n <= 0 || n > room) {
			n = room
			if n == 0 {
				return nil
			}
		}
		pick := `SELECT kind, name FROM leases WHERE kind = ? AND (holder = '' OR expires_at <= ?) ORDER BY name`
		args := []any{in.id, now, now, exp, kind, now}
		if n > 0 {
			pick += " LIMIT ?"
			args = append(args, n)
		}
		if in.st.dialect == dialectPostgres {
			pick += " FOR UPDATE SKIP LOCKED"
		}
		rows, err := tx.QueryContext(ctx, in.st.q(`UPDATE leases SET holder = ?, epoch = epoch + 1,
		acquired_at = ?, renewed_at = ?, expires_at = ?
		WHERE (kind, name) IN (`+pick+`)
		RETURNING kind, name, epoch`), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			l := Lease{Holder: in.id, AcquiredAt: fromNanos(now), RenewedAt: fromNanos(now), ExpiresAt: fromNanos(exp)}
			if err := rows.Scan(&l.Kind, &l.Name, &l.Epoch); err != nil {
				return err
			}
			out = append(out, l)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, in.st.wrap(err, "acquire free %s leases", kind)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for _, l := range out {
		in.remember(l)
	}
	return out, nil
}

// Heartbeat records that the instance is alive and renews every lease it
// still holds for another LeaseTTL. It returns the leases the instance
// held but has lost: they expired before this renewal (another instance
// may have taken them over already). Stop working on a lost lease at once.
// If Heartbeat fails, the leases keep their old ExpiresAt: stop working on
// each when it passes (Holds reports it).
func (in *Instance) Heartbeat(ctx context.Context) (lost []Lease, err error) {
	t := in.now()
	now, exp := nanos(t), nanos(t.Add(in.ttl))
	renewed := map[leaseKey]int64{}
	err = in.st.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, in.st.q("UPDATE instances SET last_seen = ? WHERE id = ?"), now, in.id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			in.mu.Lock()
			left := in.left
			in.mu.Unlock()
			if left {
				return fmt.Errorf("instance %s is not registered (it left)", in.id)
			}
			// Forgotten as dead (ForgetInstances) while it could not reach
			// the database: it registers again; its leases are gone.
			if err := in.register(ctx, tx, now); err != nil {
				return err
			}
		}
		rows, err := tx.QueryContext(ctx, in.st.q(`UPDATE leases SET renewed_at = ?, expires_at = ?
		WHERE holder = ? AND expires_at > ? RETURNING kind, name, epoch`), now, exp, in.id, now)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k leaseKey
			var epoch int64
			if err := rows.Scan(&k.kind, &k.name, &epoch); err != nil {
				return err
			}
			renewed[k] = epoch
		}
		return rows.Err()
	})
	if err != nil {
		return nil, in.st.wrap(err, "heartbeat of %s", in.id)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for k, l := range in.held {
		if e, ok := renewed[k]; ok && e == l.Epoch {
			l.RenewedAt, l.ExpiresAt = fromNanos(now), fromNanos(exp)
			in.held[k] = l
			continue
		}
		lost = append(lost, l)
		delete(in.held, k)
	}
	sort.Slice(lost, func(i, j int) bool {
		if lost[i].Kind != lost[j].Kind {
			return lost[i].Kind < lost[j].Kind
		}
		return lost[i].Name < lost[j].Name
	})
	return lost, nil
}

// Release gives a lease back so that any instance may take it at once
// (a source removed from the config, a game the instance stops following).
// Releasing a lease the instance does not hold does nothing.
func (in *Instance) Release(ctx context.Context, kind, name string) error {
	in.forget(kind, name)
	_, err := in.st.db.ExecContext(ctx, in.st.q(`UPDATE leases SET holder = '', expires_at = 0
	WHERE kind = ? AND name = ? AND holder = ?`), kind, name, in.id)
	return in.st.wrap(err, "release %s %q", kind, name)
}

// Finish removes a lease for good (a game that ended): no instance takes it
// again. A lease another instance holds is left alone (ErrLeaseHeld).
func (in *Instance) Finish(ctx context.Context, kind, name string) error {
	in.forget(kind, name)
	res, err := in.st.db.ExecContext(ctx, in.st.q(`DELETE FROM leases WHERE kind = ? AND name = ?
	AND (holder = ? OR holder = '' OR expires_at <= ?)`), kind, name, in.id, nanos(in.now()))
	if err != nil {
		return in.st.wrap(err, "finish %s %q", kind, name)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		var holder string
		err := in.st.db.QueryRowContext(ctx, in.st.q("SELECT holder FROM leases WHERE kind = ? AND name = ?"), kind, name).Scan(&holder)
		if err == nil {
			return fmt.Errorf("store: finish %s %q: %w", kind, name, &LeaseHeldError{Kind: kind, Name: name, Holder: holder})
		}
	}
	return nil
}

// Leave releases every lease the instance holds and removes it from the
// group: the orderly end of a run.
func (in *Instance) Leave(ctx context.Context) error {
	in.mu.Lock()
	in.held, in.left = map[leaseKey]Lease{}, true
	in.mu.Unlock()
	err := in.st.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, in.st.q("UPDATE leases SET holder = '', expires_at = 0 WHERE holder = ?"), in.id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, in.st.q("DELETE FROM instances WHERE id = ?"), in.id)
		return err
	})
	return in.st.wrap(err, "leave: %s", in.id)
}

// Holds reports whether the instance holds the lease now, by its own clock
// and its last successful write: false once ExpiresAt has passed without a
// renewal.
func (in *Instance) Holds(kind, name string) bool {
	in.mu.Lock()
	l, ok := in.held[leaseKey{kind, name}]
	in.mu.Unlock()
	return ok && in.now().Before(l.ExpiresAt)
}

// Held returns the leases of kind ("" for all) the instance holds now, by
// its own clock, in name order.
func (in *Instance) Held(kind string) []Lease {
	now := in.now()
	in.mu.Lock()
	defer in.mu.Unlock()
	var out []Lease
	for k, l := range in.held {
		if (kind == "" || k.kind == kind) && now.Before(l.ExpiresAt) {
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func (in *Instance) remember(l Lease) {
	in.mu.Lock()
	in.held[leaseKey{l.Kind, l.Name}] = l
	in.mu.Unlock()
}

func (in *Instance) forget(kind, name string) {
	in.mu.Lock()
	delete(in.held, leaseKey{kind, name})
	in.mu.Unlock()
}

// lease returns the lease the instance holds (by its last write).
func (in *Instance) lease(kind, name string) (Lease, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	l, ok := in.held[leaseKey{kind, name}]
	return l, ok
}

// fence is the condition a write on behalf of a lease adds: the lease is
// still the instance's, at the same epoch, and not expired.
const fence = `EXISTS (SELECT 1 FROM leases WHERE kind = ? AND name = ? AND holder = ? AND epoch = ? AND expires_at > ?)`

// SaveProgress is Store.SaveProgress fenced by the game's lease: it writes
// only while the instance holds the lease (kind LeaseGame,
// GameLeaseName(site, gameID)) at the epoch it acquired, and returns
// ErrLeaseLost otherwise, so that an instance that lost a game (a pause,
// a network partition) cannot overwrite the progress of the instance that
// took it over.
func (in *Instance) SaveProgress(ctx context.Context, site, gameID string, ply int) error {
	name := GameLeaseName(site, gameID)
	l, ok := in.lease(LeaseGame, name)
	if !ok {
		return fmt.Errorf("store: save progress %s: %w", name, ErrLeaseLost)
	}
	t := nanos(in.now())
	res, err := in.st.db.ExecContext(ctx, in.st.q(`INSERT INTO game_progress (site, game_id, ply, updated_at)
	SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE `+fence+`
	ON CONFLICT (site, game_id) DO UPDATE SET ply = excluded.ply, updated_at = excluded.updated_at`),
		site, gameID, ply, t, LeaseGame, name, in.id, l.Epoch, t)
	return in.fenced(res, err, "save progress %s", name)
}

// SaveSourceState is Store.SaveSourceState fenced by the source's lease
// (kind LeaseSource, the source's name), like SaveProgress.
func (in *Instance) SaveSourceState(ctx context.Context, source string, state []byte) error {
	l, ok := in.lease(LeaseSource, source)
	if !ok {
		return fmt.Errorf("store: save state of %s: %w", source, ErrLeaseLost)
	}
	if state == nil {
		state = []byte{}
	}
	t := nanos(in.now())
	res, err := in.st.db.ExecContext(ctx, in.st.q(in.st.dialectText(`INSERT INTO source_state (source, state, updated_at)
	SELECT CAST(? AS TEXT), CAST(? AS {{BLOB}}), CAST(? AS BIGINT) WHERE `+fence+`
	ON CONFLICT (source) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`)),
		source, state, t, LeaseSource, source, in.id, l.Epoch, t)
	return in.fenced(res, err, "save state of %s", source)
}

func (in *Instance) fenced(res sql.Result, err error, format string, args ...any) error {
	if err != nil {
		return in.st.wrap(err, format, args...)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return in.st.wrap(err, format, args...)
	}
	if n == 0 {
		return fmt.Errorf("store: %s: %w", fmt.Sprintf(format, args...), ErrLeaseLost)
	}
	return nil
}

// KeepAlive calls Heartbeat at every tick until ctx is done, then returns
// ctx's error. It tells lost (if not nil) about the leases each heartbeat
// found lost, so the caller stops their work. A failed heartbeat is passed
// to failed (if not nil) and tried again at the next tick; meanwhile the
// leases run out at their ExpiresAt (Holds turns false). Give it a
// time.Ticker's channel with HeartbeatPeriod, or a test's own channel.
func (in *Instance) KeepAlive(ctx context.Context, tick <-chan time.Time, lost func([]Lease), failed func(error)) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
		}
		gone, err := in.Heartbeat(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if failed != nil {
				failed(err)
			}
			continue
		}
		if len(gone) > 0 && lost != nil {
			lost(gone)
		}
	}
}
