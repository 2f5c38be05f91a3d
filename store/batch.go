package store

import (
	"context"
	"database/sql"

	"github.com/threefold-chess/threefold"
)

// Batch collects writes that Commit makes in one transaction: all of them
// or none, with one sync to disk instead of one per write. A watcher that
// reads a file of thousands of games writes them in a few transactions, not
// several per game. A Batch is not safe for concurrent use.
type Batch struct {
	ops    []func(ctx context.Context, s *Store, tx execer) error
	alerts []threefold.Alert
	states map[string][]byte // the last state of each source: the earlier ones would be replaced
	order  []string
}

// Len is how many writes the batch holds.
func (b *Batch) Len() int { return len(b.ops) + len(b.alerts) + len(b.order) }

// PutGame adds Store.PutGame.
func (b *Batch) PutGame(g Game) {
	b.ops = append(b.ops, func(ctx context.Context, s *Store, tx execer) error { return s.putGame(ctx, tx, g) })
}

// UpdateGame adds Store.UpdateGame (of a game stored before, or put earlier
// in the batch).
func (b *Batch) UpdateGame(u GameUpdate) {
	b.ops = append(b.ops, func(ctx context.Context, s *Store, tx execer) error { return s.updateGame(ctx, tx, u) })
}

// SaveProgress adds Store.SaveProgress.
func (b *Batch) SaveProgress(site, gameID string, ply int) {
	b.ops = append(b.ops, func(ctx context.Context, s *Store, tx execer) error {
		return s.saveProgress(ctx, tx, site, gameID, ply)
	})
}

// SaveSourceState adds Store.SaveSourceState; of several states of one
// source, only the last is written.
func (b *Batch) SaveSourceState(source string, state []byte) {
	if b.states == nil {
		b.states = map[string][]byte{}
	}
	if _, ok := b.states[source]; !ok {
		b.order = append(b.order, source)
	}
	b.states[source] = state
}

// PutAlert adds Store.PutAlert; Commit says which alerts were new.
func (b *Batch) PutAlert(a threefold.Alert) { b.alerts = append(b.alerts, a) }

// Commit makes the batch's writes in one transaction, in the order they
// were added (the alerts after the games, the source states last), and
// empties it. isNew[i] says whether the batch's i-th alert was stored now
// (false: an alert with its id was stored before, or earlier in the
// batch). On an error nothing is written.
func (s *Store) Commit(ctx context.Context, b *Batch) (isNew []bool, err error) {
	if b.Len() == 0 {
		return nil, nil
	}
	isNew = make([]bool, len(b.alerts))
	err = s.inTx(ctx, func(sqlTx *sql.Tx) error {
		tx := &preparedTx{tx: sqlTx, stmts: map[string]*sql.Stmt{}}
		defer tx.close()
		for _, op := range b.ops {
			if err := op(ctx, s, tx); err != nil {
				return err
			}
		}
		for i, a := range b.alerts {
			n, err := s.putAlert(ctx, tx, a)
			if err != nil {
				return err
			}
			isNew[i] = n
		}
		for _, src := range b.order {
			if err := s.saveSourceState(ctx, tx, src, b.states[src]); err != nil {
				return err
			}
		}
		return nil
	})
	*b = Batch{}
	if err != nil {
		return nil, s.wrap(err, "commit %s", s.where)
	}
	return isNew, nil
}

// preparedTx runs each statement of a transaction prepared once, however
// many times a batch runs it. A statement runs without watching ctx, which
// is checked before each: for a cancellable context the SQLite driver
// starts a goroutine per statement to interrupt it, and the statements of
// a batch are short (the transaction, which waits for the database's
// lock, still watches ctx).
type preparedTx struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (p *preparedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, ok := p.stmts[query]
	if !ok {
		var err error
		if st, err = p.tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		p.stmts[query] = st
	}
	return st.ExecContext(context.WithoutCancel(ctx), args...)
}

func (p *preparedTx) close() {
	for _, st := range p.stmts {
		st.Close()
	}
}
