package bot

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/threefold-chess/threefold"
)

// TestRecordsFileIsPrivate: the bot's records file (who it played, when)
// and its folder are created 0600 and 0700, like the token file.
func TestRecordsFileIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	j := &JSONLines{Path: filepath.Join(dir, "games.jsonl")}
	if err := j.WriteRecord(context.Background(), threefold.BotRecord{GameID: "abc"}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, j.Path: 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s is %v, want %v", path, got, want)
		}
	}
}
