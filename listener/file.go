package listener

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
)

// FileSource follows a local PGN file, or every PGN file of a folder, that a
// relay program keeps rewriting (DGT LiveChess, a club's PGN export). It
// polls the size and modification time every Interval and re-reads a file
// that changed, was replaced or appeared; games are identified by their
// [GameURL] tag, or else by file and position in the file. Games are over
// the board: snapshots carry threefold.AudienceArbiters. A file is read one
// game at a time, never whole, within Limits.
type FileSource struct {
	Path     string
	Interval time.Duration // default 2s
	Clock    clock.Clock   // default clock.Real
	Logger   *slog.Logger
	Limits   pgn.Limits // zero fields take the defaults
	// FinishedGrace: a finished game no reading of the file has named for
	// this long is forgotten (default DefaultFinishedGrace).
	FinishedGrace time.Duration
	// Once reads the files once and returns instead of following them.
	Once bool
}

// Name implements Source.
func (s *FileSource) Name() string { return english.Sprintf(i18n.SourceFile, s.Path) }

type fileStamp struct {
	size int64
	mod  time.Time
}

// Run implements Source. A path that does not exist when Run starts is an
// error; one that disappears later (a relay replacing it) is waited for.
func (s *FileSource) Run(ctx context.Context, emit Emit) error {
	clk := clock.Or(s.Clock)
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	interval := s.Interval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	if _, err := os.Stat(s.Path); err != nil {
		return fmt.Errorf("file source: %w", err)
	}
	feed := newPGNFeed("file", s.Name(), 0, threefold.AudienceArbiters, clk, s.Limits)
	feed.grace = s.FinishedGrace
	feed.forgetSent = s.Once
	seen := map[string]fileStamp{}
	for {
		files, err := s.list()
		if err != nil {
			log.Warn("file source: cannot list; will retry", "path", s.Path, "err", err)
		}
		for _, name := range files {
			st, err := os.Stat(name)
			if err != nil {
				continue // replaced between list and stat: next round
			}
			stamp := fileStamp{st.Size(), st.ModTime()}
			if old, ok := seen[name]; ok && old == stamp {
				continue
			}
			if err := s.readFile(feed, name, emit); err != nil {
				var stop stopError
				if errors.As(err, &stop) {
					return stop.err
				}
				log.Warn("file source: cannot read; will read it again", "file", name, "err", err)
				continue
			}
			seen[name] = stamp
		}
		if s.Once {
			return nil
		}
		if err := clock.Sleep(ctx, clk, interval); err != nil {
			return err
		}
	}
}

// list returns the PGN files to read: the path itself, or the *.pgn files
// (plain, .gz, .zst) of the folder, sorted.
func (s *FileSource) list() ([]string, error) {
	st, err := os.Stat(s.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil // being replaced
		}
		return nil, err
	}
	if !st.IsDir() {
		return []string{s.Path}, nil
	}
	entries, err := os.ReadDir(s.Path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := strings.ToLower(e.Name())
		if e.IsDir() || !(strings.HasSuffix(n, ".pgn") || strings.HasSuffix(n, ".pgn.gz") || strings.HasSuffix(n, ".pgn.zst")) {
			continue
		}
		out = append(out, filepath.Join(s.Path, e.Name()))
	}
	sort.Strings(out)
	return out, nil
}

// readFile feeds every game of one file, streaming it: the file is read
// (and decompressed) in a goroutine of its own, a few blocks ahead.
func (s *FileSource) readFile(feed *pgnFeed, name string, emit Emit) error {
	rc, err := pgn.Open(name, nil)
	if err != nil {
		return err
	}
	defer rc.Close()
	// Decompressing on its own core, ahead of the games' reading.
	ahead := newReadAhead(rc, name)
	defer ahead.Close()
	fallback := func(i int) string { return name + "#" + strconv.Itoa(i+1) }
	_, err = feed.feedReader(pgn.NewReaderLimits(ahead, s.Limits), fallback, emit)
	return err
}
