package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/threefold-chess/threefold/store"
)

// storeOptions is how a command opens the store.
type storeOptions struct {
	// mustExist: a command that only reads (history, export, status) does
	// not create an empty SQLite file (it says that there is no store yet)
	// and opens the store read-only.
	mustExist bool
}

// openStore opens the store the config names (store.dsn, else
// threefold.db in data_dir).
func openStore(ctx context.Context, cfg *config, opts storeOptions) (*store.Store, error) {
	sconf := cfg.Store
	sconf.DataDir, sconf.ReadOnly = cfg.DataDir, opts.mustExist
	if opts.mustExist && !store.IsPostgres(sconf.DSN) {
		path := store.SQLitePath(sconf.DSN, cfg.DataDir)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s yet: alerts and games are stored by threefold watch and threefold bot (set data_dir or store.dsn to read another)", path)
		}
	}
	return store.Open(ctx, sconf)
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
