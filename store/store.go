package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	"modernc.org/sqlite"
)

// FileName is the SQLite file created in Config.DataDir when Config.DSN is
// empty.
const FileName = "threefold.db"

// ErrNotFound is matched by the error of a lookup or update of something the
// store does not have.
var ErrNotFound = errors.New("not found")

// ErrStorageFull is matched by the error of a write that failed because the
// disk (or the database's size limit) is full.
var ErrStorageFull = errors.New("storage full")

// SchemaTooNewError is the error of Open on a database migrated by a newer
// threefold than this one.
type SchemaTooNewError struct {
	Have  int // the database's schema version
	Known int // the newest version this binary knows
}

func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("database schema version %d is newer than this threefold knows (%d): upgrade threefold", e.Have, e.Known)
}

// DefaultBusyTimeout is how long a SQLite write waits for another writer
// when Config.BusyTimeout is 0.
const DefaultBusyTimeout = 10 * time.Second

// Config says which database to open. The mapstructure tags are the keys
// of the store: section of the config file.
type Config struct {
	// DSN is a postgres:// (or postgresql://) URL or a key=value string for
	// PostgreSQL; a path,
	// "sqlite:PATH" or "file:PATH" for SQLite; "" for DataDir/threefold.db.
	// Its password never appears in a log line or an error (RedactDSN).
	DSN string `mapstructure:"dsn"`
	// DataDir holds the SQLite file when DSN is empty. It is created if
	// missing.
	DataDir string
	// Now is the clock for updated_at, stored_at and delivered_at; default
	// time.Now.
	Now func() time.Time
	// BusyTimeout is how long a SQLite write waits for another writer
	// (another process on the same file); default DefaultBusyTimeout.
	BusyTimeout time.Duration `mapstructure:"busy_timeout" range:"0s,1h"`
	// ReadOnly opens an existing store for reading only (history, export,
	// status): a SQLite file is opened read-only and never switched to
	// WAL, and no migration runs, so that a store on a read-only file or
	// file system can be read. A schema older than this binary's is an
	// error that says how to upgrade it.
	ReadOnly bool

	// sqlitePragmas are extra pragmas run on every SQLite connection (tests).
	sqlitePragmas []string
	// immutable: ReadOnly, on a file nothing can change (see Open).
	immutable bool
}

type dialect int

const (
	dialectSQLite dialect = iota + 1
	dialectPostgres
)

func (d dialect) String() string {
	if d == dialectPostgres {
		return "postgres"
	}
	return "sqlite"
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	dialect dialect
	now     func() time.Time
	where   string   // the redacted DSN or the file, for error messages
	secrets []string // the DSN's passwords, scrubbed from every error
	queries sync.Map
}

// IsPostgres reports whether dsn selects PostgreSQL: a postgres:// or
// postgresql:// URL, or a libpq key=value string ("host=db dbname=x …").
func IsPostgres(dsn string) bool {
	l := strings.ToLower(strings.TrimSpace(dsn))
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://") || keyValueDSN.MatchString(l)
}

var keyValueDSN = regexp.MustCompile(`^(host|hostaddr|port|dbname|user|password|sslmode|service)\s*=`)

// SQLitePath is the file a SQLite DSN (or an empty DSN and dataDir) names.
func SQLitePath(dsn, dataDir string) string {
	switch {
	case dsn == "":
		return filepath.Join(dataDir, FileName)
	case strings.HasPrefix(dsn, "sqlite://"):
		dsn = strings.TrimPrefix(dsn, "sqlite://")
	case strings.HasPrefix(dsn, "sqlite:"):
		dsn = strings.TrimPrefix(dsn, "sqlite:")
	case strings.HasPrefix(dsn, "file:"):
		dsn = strings.TrimPrefix(dsn, "file:")
	}
	if i := strings.IndexByte(dsn, '?'); i >= 0 {
		dsn = dsn[:i]
	}
	return dsn
}

// Open opens (and creates) the database cfg names and brings its schema up
// to date. A database whose schema is newer than this binary knows is
// a *SchemaTooNewError. No error message contains a DSN's password.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	s := &Store{now: cfg.Now, secrets: secretsOf(cfg.DSN)}
	if s.now == nil {
		s.now = time.Now
	}
	var err error
	if IsPostgres(cfg.DSN) {
		s.dialect = dialectPostgres
		s.where = RedactDSN(cfg.DSN)
		s.db, err = sql.Open("pgx", cfg.DSN)
		if err != nil {
			return nil, s.wrap(err, "open %s", s.where)
		}
		s.db.SetMaxOpenConns(8)
		s.db.SetMaxIdleConns(4)
	} else {
		s.dialect = dialectSQLite
		if cfg.DSN == "" && cfg.DataDir == "" {
			return nil, errors.New("store: open: neither a DSN nor a data directory given")
		}
		path := SQLitePath(cfg.DSN, cfg.DataDir)
		s.where = path
		if !cfg.ReadOnly {
			if err := createPrivate(path); err != nil {
				return nil, fmt.Errorf("store: open %s: %w", path, err)
			}
		}
		busy := cfg.BusyTimeout
		if busy <= 0 {
			busy = DefaultBusyTimeout
		}
		// journal_mode is not among them: WAL is a property of the file,
		// set once below, and switching to it may be refused (SQLITE_BUSY,
		// without waiting) while another process opens the same new file.
		pragmas := append([]string{
			fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()),
			"synchronous(FULL)",
			"foreign_keys(1)",
		}, cfg.sqlitePragmas...)
		var q strings.Builder
		if cfg.ReadOnly {
			q.WriteString("file:" + path + "?mode=ro")
			if cfg.immutable {
				q.WriteString("&immutable=1")
			}
		} else {
			q.WriteString("file:" + path + "?_txlock=immediate")
		}
		for _, p := range pragmas {
			q.WriteString("&_pragma=" + p)
		}
		s.db, err = sql.Open("sqlite", q.String())
		if err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
		s.db.SetMaxOpenConns(4)
		s.db.SetMaxIdleConns(4)
		if !cfg.ReadOnly {
			if err := s.walMode(ctx, busy); err != nil {
				s.db.Close()
				return nil, err
			}
		}
	}
	migrate := s.migrate
	if cfg.ReadOnly {
		migrate = s.checkSchema
	}
	err = s.db.PingContext(ctx)
	if err != nil {
		err = s.wrap(err, "open %s", s.where)
	} else {
		err = migrate(ctx, migrationFiles)
	}
	if err != nil {
		s.db.Close()
		if s.dialect == dialectSQLite && cfg.ReadOnly && !cfg.immutable && readOnlyDirectory(err) {
			// A WAL file nobody has open (no -shm) in a folder this user may
			// not write: SQLite cannot make the -shm to read it. Nothing can
			// change the file meanwhile, so it is read as immutable.
			cfg.immutable = true
			return Open(ctx, cfg)
		}
		return nil, err
	}
	return s, nil
}

// readOnlyDirectory reports whether err is SQLite's refusal to read a WAL
// file whose -shm it may not create (SQLITE_READONLY_DIRECTORY,
// SQLITE_CANTOPEN).
func readOnlyDirectory(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code() == 1544 || se.Code()&0xff == 14)
}

// createPrivate creates the directories of a new SQLite file 0700 and the
// file itself 0600, as the token file: the store holds who was followed and
// when. Existing ones are left as they are.
func createPrivate(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// checkSchema is migrate for a store opened read-only: it only checks
// that the schema is the one this binary knows.
func (s *Store) checkSchema(ctx context.Context, files fs.FS) error {
	migs, err := loadMigrations(files)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	known := 0
	if len(migs) > 0 {
		known = migs[len(migs)-1].version
	}
	var have int
	if err := s.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&have); err != nil {
		return s.wrap(err, "open %s (read only): read schema_version", s.where)
	}
	switch {
	case have > known:
		return fmt.Errorf("store: open %s: %w", s.where, &SchemaTooNewError{Have: have, Known: known})
	case have < known:
		return fmt.Errorf("store: open %s: its schema (version %d) is older than this threefold's (%d); run threefold watch or bot on it once to upgrade it", s.where, have, known)
	}
	return nil
}

// walMode puts the SQLite file in WAL mode, retrying for up to busy while
// another connection keeps SQLite from switching.
func (s *Store) walMode(ctx context.Context, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	wait := time.Millisecond
	for {
		var mode string
		err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil && strings.EqualFold(mode, "wal") {
			return nil
		}
		if err == nil {
			return fmt.Errorf("store: open %s: journal mode is %q, not WAL (is the file system one SQLite can share memory on?)", s.where, mode)
		}
		var se *sqlite.Error
		if !errors.As(err, &se) || se.Code()&0xff != 5 || time.Now().After(deadline) { // 5: SQLITE_BUSY
			return s.wrap(err, "open %s: WAL mode", s.where)
		}
		select {
		case <-ctx.Done():
			return s.wrap(ctx.Err(), "open %s", s.where)
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return s.wrap(err, "close %s", s.where)
	}
	return nil
}

// Backend is "sqlite" or "postgres".
func (s *Store) Backend() string { return s.dialect.String() }

// Where is the SQLite file or the redacted DSN.
func (s *Store) Where() string { return s.where }

// wrap adds context to a database error: the operation, ErrStorageFull
// when the disk is full, and never a password.
func (s *Store) wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	op := fmt.Sprintf(format, args...)
	if isFull(err) {
		return &redactedError{fmt.Errorf("store: %s: %w (%s: %w)", op, ErrStorageFull, s.where, err), s.secrets}
	}
	return &redactedError{fmt.Errorf("store: %s: %w", op, err), s.secrets}
}

func isFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == 13 { // SQLITE_FULL
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "53100" { // disk_full
		return true
	}
	return false
}

// q returns query for this store's dialect: the ? placeholders become $1,
// $2, … for PostgreSQL. The queries of this package hold no ? in literals.
func (s *Store) q(query string) string {
	if s.dialect != dialectPostgres {
		return query
	}
	if v, ok := s.queries.Load(query); ok {
		return v.(string)
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	out := b.String()
	s.queries.Store(query, out)
	return out
}

//go:embed migrations/*.sql
var migrationFS embed.FS

var migrationFiles fs.FS = mustSub(migrationFS, "migrations")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	return sub
}

type migration struct {
	version int
	name    string
	text    string
}

// loadMigrations reads NNNN_name.sql files, in version order.
func loadMigrations(files fs.FS) ([]migration, error) {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, name := range names {
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: the name must start with a positive version number and _", name)
		}
		text, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, text: string(text)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s have the same version", out[i-1].name, out[i].name)
		}
	}
	return out, nil
}

func (s *Store) dialectText(text string) string {
	if s.dialect == dialectPostgres {
		return strings.NewReplacer("{{SEQ}}", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "{{BLOB}}", "BYTEA").Replace(text)
	}
	return strings.NewReplacer("{{SEQ}}", "INTEGER PRIMARY KEY AUTOINCREMENT", "{{BLOB}}", "BLOB").Replace(text)
}

// migrationLockID is the PostgreSQL advisory lock that serialises the
// migrations of several instances starting at once (SQLite serialises them
// with its write lock: transactions begin IMMEDIATE).
const migrationLockID = 0x3f01d

// migrate applies the migrations the database lacks, all in one
// transaction, and records each in schema_version.
func (s *Store) migrate(ctx context.Context, files fs.FS) error {
	migs, err := loadMigrations(files)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	known := 0
	if len(migs) > 0 {
		known = migs[len(migs)-1].version
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err, "migrate %s", s.where)
	}
	defer tx.Rollback()
	if s.dialect == dialectPostgres {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLockID); err != nil {
			return s.wrap(err, "migrate: lock")
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
	version    INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL,
	applied_at BIGINT  NOT NULL
)`); err != nil {
		return s.wrap(err, "migrate: schema_version")
	}
	var have int
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&have); err != nil {
		return s.wrap(err, "migrate: read schema_version")
	}
	if have > known {
		return fmt.Errorf("store: open %s: %w", s.where, &SchemaTooNewError{Have: have, Known: known})
	}
	for _, m := range migs {
		if m.version <= have {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.dialectText(m.text)); err != nil {
			return s.wrap(err, "migrate: apply %s", m.name)
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"), m.version, m.name, nanos(s.now())); err != nil {
			return s.wrap(err, "migrate: record %s", m.name)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(err, "migrate: commit")
	}
	return nil
}

// SchemaVersion is the version of the database's schema.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&v)
	return v, s.wrap(err, "schema version")
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// RedactDSN returns dsn with every password replaced by "xxxxx": the
// password of a URL's user info, and password=… parameters of a URL query
// or a key=value connection string. Anything that looks like user info is
// redacted even when the URL does not parse.
func RedactDSN(dsn string) string {
	out := dsn
	if i := strings.Index(out, "://"); i >= 0 {
		rest := out[i+3:]
		// The user info ends at the last @ before the path; a password may
		// itself hold '@', '/' or '#', so take the last @ of the string.
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			user := rest[:at]
			if c := strings.IndexByte(user, ':'); c >= 0 {
				user = user[:c+1] + "xxxxx"
			}
			out = out[:i+3] + user + rest[at:]
		}
	}
	return passwordParam.ReplaceAllString(out, "${1}=xxxxx")
}

var passwordParam = regexp.MustCompile(`(?i)\b(password|passwd|pwd|sslpassword)\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*)`)

// secretsOf lists the passwords a DSN holds, to scrub them from error text
// that a driver may have built from the DSN.
func secretsOf(dsn string) []string {
	var out []string
	if i := strings.Index(dsn, "://"); i >= 0 {
		rest := dsn[i+3:]
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			if _, pw, ok := strings.Cut(rest[:at], ":"); ok && pw != "" {
				out = append(out, pw)
			}
		}
	}
	for _, m := range passwordParam.FindAllStringSubmatch(dsn, -1) {
		if v := strings.Trim(m[2], "'"); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// redactedError scrubs passwords from the text of the error it wraps.
type redactedError struct {
	err     error
	secrets []string
}

func (e *redactedError) Error() string {
	msg := RedactDSN(e.err.Error())
	for _, s := range e.secrets {
		if len(s) >= 3 {
			msg = strings.ReplaceAll(msg, s, "xxxxx")
		}
	}
	return msg
}

func (e *redactedError) Unwrap() error { return e.err }

// text returns the arguments of a statement with every string made valid
// UTF-8 without NUL bytes (each bad byte becomes U+FFFD): PostgreSQL
// refuses both in text columns, and names and tags come from the network.
func text(args ...any) []any {
	for i, a := range args {
		if s, ok := a.(string); ok && (!utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0) {
			args[i] = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
		}
	}
	return args
}
