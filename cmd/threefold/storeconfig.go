package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/store"
)

// storeConfig is the `store:` section of the config file: where games,
// alerts, bot records and resume state are kept.
type storeConfig struct {
	// DSN selects the database: "" is the SQLite file threefold.db in
	// data_dir; a path (or sqlite:PATH) is another SQLite file; a
	// postgres://user:password@host:port/db?sslmode=… URL is PostgreSQL (for
	// several instances sharing one store). The password never appears in a
	// log line or an error.
	DSN string `mapstructure:"dsn"`
	// BusyTimeout is how long a SQLite write waits for another process
	// writing the same file.
	BusyTimeout time.Duration `mapstructure:"busy_timeout"`
}

func defaultStoreConfig() storeConfig {
	return storeConfig{BusyTimeout: 10 * time.Second}
}

// storeOptions is how a command opens the store.
type storeOptions struct {
	// mustExist: a command that only reads (history, export, status) does
	// not create an empty SQLite file (it says that there is no store yet)
	// and opens the store read-only.
	mustExist bool
}

// openStore opens the store the config names.
func openStore(ctx context.Context, cfg *config, opts storeOptions) (*store.Store, error) {
	sc := cfg.Store
	sconf := store.Config{DSN: sc.DSN, DataDir: cfg.DataDir, BusyTimeout: sc.BusyTimeout, ReadOnly: opts.mustExist}
	if opts.mustExist && !store.IsPostgres(sc.DSN) {
		path := store.SQLitePath(sc.DSN, cfg.DataDir)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s yet: alerts and games are stored by threefold watch and threefold bot (set data_dir or store.dsn to read another)", path)
		}
	}
	return store.Open(ctx, sconf)
}

// storeRecords is the bot's record sink on the store.
type storeRecords struct{ st *store.Store }

func (s storeRecords) WriteRecord(ctx context.Context, r threefold.BotRecord) error {
	return s.st.PutBotRecord(ctx, r)
}

// openStoreToRead loads the config and opens the store it names for a
// command that only reads (history, export, status): a store that does not
// exist yet is reported, not created.
func (env *environment) openStoreToRead(ctx context.Context) (*config, *store.Store, error) {
	cfg, err := env.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	st, err := openStore(ctx, cfg, storeOptions{mustExist: true})
	if err != nil {
		return nil, nil, err
	}
	return cfg, st, nil
}
