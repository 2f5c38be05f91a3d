package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestNewStoreIsPrivate: data_dir was created 0755 and the database 0644
// (readable by every user of the machine); they are 0700 and 0600 now, as
// the token file, and so are the files SQLite adds beside the database.
func TestNewStoreIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "threefold")
	st, err := Open(context.Background(), Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.db.Exec("CREATE TABLE perm_probe (x INTEGER)"); err != nil { // a write: the WAL is in use
		t.Fatal(err)
	}
	check := func(path string, want os.FileMode) {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s is %v, want %v", path, got, want)
		}
	}
	check(dir, 0o700)
	check(filepath.Join(dir, FileName), 0o600)
	for _, extra := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(filepath.Join(dir, FileName+extra)); err == nil {
			check(filepath.Join(dir, FileName+extra), 0o600)
		}
	}
}
