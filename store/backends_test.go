package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testenv"
)

func TestSQLiteContract(t *testing.T) {
	runContract(t, func(t *testing.T) Config {
		return Config{DataDir: t.TempDir()}
	})
}

// freshPostgres makes a schema of its own for one test in the test
// database (testenv.PostgresDSN), so that tests and test runs in parallel
// cannot collide, and drops it at the end.
func freshPostgres(t testing.TB) Config {
	dsn := testenv.PostgresDSN(t)
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(RedactDSN(err.Error()))
	}
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema on %s: %s", RedactDSN(dsn), RedactDSN(err.Error()))
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return Config{DSN: dsn + sep + "search_path=" + schema}
}

func TestPostgresContract(t *testing.T) {
	testenv.PostgresDSN(t)
	runContract(t, func(t *testing.T) Config { return freshPostgres(t) })
}

func TestPostgresBadPasswordIsRedacted(t *testing.T) {
	dsn := testenv.PostgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(RedactDSN(err.Error()))
	}
	u.User = url.UserPassword("threefold", "s3cret-pw")
	bad := u.String()
	_, err = Open(context.Background(), Config{DSN: bad})
	if err == nil {
		t.Fatal("open with a wrong password succeeded")
	}
	if strings.Contains(err.Error(), "s3cret-pw") {
		t.Errorf("the error shows the password: %v", err)
	}
	t.Logf("the error reads: %v", err)
}

func TestSQLiteFileSettings(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, Config{DataDir: filepath.Join(dir, "new", "dir")})
	if _, err := os.Stat(filepath.Join(dir, "new", "dir", FileName)); err != nil {
		t.Errorf("database file: %v", err)
	}
	ctx := context.Background()
	for _, tc := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
		{"synchronous", "2"}, // FULL
	} {
		var got string
		if err := s.db.QueryRowContext(ctx, "PRAGMA "+tc.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %s, want %s", tc.pragma, got, tc.want)
		}
	}
	if s.Backend() != "sqlite" {
		t.Errorf("backend %s", s.Backend())
	}
}

func TestIsPostgres(t *testing.T) {
	for dsn, want := range map[string]bool{
		"postgres://u:p@h/db":               true,
		"POSTGRESQL://h/db":                 true,
		"host=/var/run/postgresql dbname=x": true,
		"dbname=threefold user=u":           true,
		"":                                  false,
		"/var/lib/threefold/threefold.db":   false,
		"sqlite:x.db":                       false,
		"file:x.db?mode=rwc":                false,
	} {
		if got := IsPostgres(dsn); got != want {
			t.Errorf("IsPostgres(%q) = %v, want %v", dsn, got, want)
		}
	}
}

func TestSQLiteDSNForms(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	for _, dsn := range []string{path, "sqlite:" + path, "file:" + path} {
		s, err := Open(context.Background(), Config{DSN: dsn})
		if err != nil {
			t.Fatalf("%s: %v", dsn, err)
		}
		if s.Where() != path {
			t.Errorf("%s opens %s, want %s", dsn, s.Where(), path)
		}
		s.Close()
	}
	if _, err := Open(context.Background(), Config{}); err == nil {
		t.Error("Open with neither DSN nor data dir succeeded")
	}
}

// TestSQLiteFullDisk: a write to a full database is ErrStorageFull with a
// message that says so. The full disk is SQLite's own size limit
// (max_page_count), which fails exactly as a full disk does (SQLITE_FULL);
// a real tiny file system would need root to mount.
func TestSQLiteFullDisk(t *testing.T) {
	s := openTest(t, Config{DataDir: t.TempDir(), sqlitePragmas: []string{"max_page_count(40)"}})
	ctx := context.Background()
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		a := testAlert("lichess", "full", threefold.KindThreefold, 10+i, epoch)
		a.FEN = strings.Repeat("x", 500)
		_, err = s.PutAlert(ctx, a)
	}
	if !errors.Is(err, ErrStorageFull) {
		t.Fatalf("writing to a full database: %v, want ErrStorageFull", err)
	}
	if !strings.Contains(err.Error(), "storage full") || !strings.Contains(err.Error(), s.Where()) {
		t.Errorf("unclear error: %v", err)
	}
	t.Logf("the error reads: %v", err)
	// Reading still works, and what was stored before is intact.
	if _, err := s.Alerts(ctx, AlertFilter{Limit: 1}); err != nil {
		t.Errorf("read after a full disk: %v", err)
	}
}

func TestRedactDSN(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"url", "postgres://user:secret@db:5432/threefold", "postgres://user:xxxxx@db:5432/threefold"},
		{"postgresql scheme", "postgresql://u:p4ss@h/db?sslmode=disable", "postgresql://u:xxxxx@h/db?sslmode=disable"},
		{"no password", "postgres://user@db/threefold", "postgres://user@db/threefold"},
		{"no user info", "postgres://db/threefold", "postgres://db/threefold"},
		{"at sign in password", "postgres://u:p@ss@h/db", "postgres://u:xxxxx@h/db"},
		{"slash and hash in password", "postgres://u:a/b#c@h/db", "postgres://u:xxxxx@h/db"},
		{"password parameter", "postgres://h/db?user=u&password=hunter2&sslmode=require", "postgres://h/db?user=u&password=xxxxx&sslmode=require"},
		{"key value", "host=h user=u password=hunter2 dbname=d", "host=h user=u password=xxxxx dbname=d"},
		{"key value quoted", "host=h password='a b\\' c' dbname=d", "host=h password=xxxxx dbname=d"},
		{"key value spaces", "host=h password = hunter2 dbname=d", "host=h password=xxxxx dbname=d"},
		{"sqlite path", "/var/lib/threefold/threefold.db", "/var/lib/threefold/threefold.db"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RedactDSN(tc.in); got != tc.want {
				t.Errorf("RedactDSN(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestErrorsNeverShowThePassword(t *testing.T) {
	// A DSN that cannot be parsed: the driver's error quotes it.
	dsn := "postgres://u:pa55word@host:notaport/db"
	_, err := Open(context.Background(), Config{DSN: dsn})
	if err == nil {
		t.Fatal("open of a bad DSN succeeded")
	}
	if strings.Contains(err.Error(), "pa55word") {
		t.Errorf("the error shows the password: %v", err)
	}
	s := &Store{secrets: secretsOf(dsn), where: RedactDSN(dsn)}
	wrapped := s.wrap(errors.New("driver said: pa55word is wrong"), "put alert %s", "x")
	if strings.Contains(wrapped.Error(), "pa55word") {
		t.Errorf("wrap keeps the password: %v", wrapped)
	}
}
