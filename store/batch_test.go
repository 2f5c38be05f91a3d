package store

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// TestBatchCommit: a batch's writes land together, in order (an update of a
// game put earlier in the batch works), alerts say whether they were new,
// and only a source's last state is written; a failing write leaves
// nothing behind.
func TestBatchCommit(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Config{DataDir: t.TempDir()})
	ref := threefold.GameRef{Site: "file", ID: "round.pgn#1"}
	a1 := testAlert("file", "round.pgn#1", threefold.KindThreefold, 8, epoch)
	if _, err := s.PutAlert(ctx, a1); err != nil {
		t.Fatal(err)
	}
	a2 := testAlert("file", "round.pgn#1", threefold.KindThreefold, 12, epoch)
	var b Batch
	b.PutGame(Game{GameState: threefold.GameState{Game: ref, Notation: rules.SAN, Moves: []string{"e4"}}})
	b.UpdateGame(GameUpdate{Site: ref.Site, ID: ref.ID, Moves: []string{"e4", "e5"}, Result: "*"})
	b.SaveProgress(ref.Site, ref.ID, 2)
	b.PutAlert(a1)
	b.PutAlert(a2)
	b.PutAlert(a2)
	b.SaveSourceState("file round.pgn", []byte("old"))
	b.SaveSourceState("file round.pgn", []byte("new"))
	isNew, err := s.Commit(ctx, &b)
	if err != nil {
		t.Fatal(err)
	}
	if len(isNew) != 3 || isNew[0] || !isNew[1] || isNew[2] {
		t.Fatalf("isNew %v, want [false true false]", isNew)
	}
	if b.Len() != 0 {
		t.Fatalf("the batch holds %d writes after Commit", b.Len())
	}
	g, err := s.Game(ctx, ref.Site, ref.ID)
	if err != nil || len(g.Moves) != 2 {
		t.Fatalf("game %+v, %v", g, err)
	}
	if ply, ok, _ := s.LoadProgress(ctx, ref.Site, ref.ID); !ok || ply != 2 {
		t.Fatalf("progress %d %v", ply, ok)
	}
	if st, _, _ := s.LoadSourceState(ctx, "file round.pgn"); string(st) != "new" {
		t.Fatalf("state %q", st)
	}

	b.PutGame(Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "other"}, Notation: rules.SAN}})
	b.UpdateGame(GameUpdate{Site: "file", ID: "missing"})
	if _, err := s.Commit(ctx, &b); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a failing batch: %v", err)
	}
	if _, err := s.Game(ctx, "file", "other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a failed batch left a write behind: %v", err)
	}
}

// A batch's statement runs without watching its context (the driver would
// start a goroutine for each), but a context that ended stops the batch
// before its next statement.
func TestBatchStatementChecksContext(t *testing.T) {
	s := openTest(t, Config{DataDir: t.TempDir()})
	sqlTx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlTx.Rollback()
	tx := &preparedTx{tx: sqlTx, stmts: map[string]*sql.Stmt{}}
	defer tx.close()
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.saveProgress(ctx, tx, "file", "a", 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := s.saveProgress(ctx, tx, "file", "b", 1); !errors.Is(err, context.Canceled) {
		t.Errorf("statement after the context ended: %v, want context.Canceled", err)
	}
}
