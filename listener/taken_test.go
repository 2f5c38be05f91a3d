package listener

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
)

// snapshotsSource emits its snapshots and ends.
type snapshotsSource struct {
	name  string
	snaps []threefold.GameState
}

func (s snapshotsSource) Name() string { return s.name }

func (s snapshotsSource) Run(_ context.Context, emit Emit) error {
	for _, g := range s.snaps {
		if err := emit(g); err != nil {
			return err
		}
	}
	return nil
}

// TestAfterTaken: a snapshot reaches taken only after emit took it, named
// by its source; one emit refused is not passed on and ends the source;
// done runs once Run is over.
func TestAfterTaken(t *testing.T) {
	src := snapshotsSource{name: "file round1.pgn", snaps: []threefold.GameState{
		{Game: threefold.GameRef{ID: "a"}},
		{Game: threefold.GameRef{ID: "b"}, Source: "named"},
		{Game: threefold.GameRef{ID: "refused"}},
		{Game: threefold.GameRef{ID: "never"}},
	}}
	var events []string
	wrapped := AfterTaken(src, func(_ context.Context, source string, s threefold.GameState) {
		events = append(events, "taken "+s.Game.ID+" from "+source+" as "+s.Source)
	}, func() { events = append(events, "done") })
	if wrapped.Name() != src.name {
		t.Errorf("name %q", wrapped.Name())
	}
	stop := errors.New("stop")
	err := wrapped.Run(context.Background(), func(s threefold.GameState) error {
		events = append(events, "emit "+s.Game.ID+" as "+s.Source)
		if s.Game.ID == "refused" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("Run = %v, want the emit's error", err)
	}
	want := []string{
		"emit a as file round1.pgn", "taken a from file round1.pgn as file round1.pgn",
		"emit b as named", "taken b from file round1.pgn as named",
		"emit refused as file round1.pgn",
		"done",
	}
	if !slices.Equal(events, want) {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
}

// TestReportAttention: at the end, one warning per game whose record
// could not be replayed, none for the others.
func TestReportAttention(t *testing.T) {
	var logs bytes.Buffer
	c := newCollector()
	c.w.Apply(snap("bad", append(append([]string(nil), anandMoves[:20]...), "Qxh7", "Rc8")))
	c.w.Apply(snap("good", anandMoves[:10]))
	c.w.log = slog.New(slog.NewTextHandler(&logs, nil))
	c.w.ReportAttention()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "game needs attention") ||
		!strings.Contains(lines[0], "game=bad") || !strings.Contains(lines[0], "ply=21") || !strings.Contains(lines[0], "move=Qxh7") {
		t.Errorf("logs:\n%s", logs.String())
	}
}
