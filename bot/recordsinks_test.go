package bot

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/threefold-chess/threefold"
)

// recordSinkFunc is a RecordSink of a function.
type recordSinkFunc func(threefold.BotRecord) error

func (f recordSinkFunc) WriteRecord(_ context.Context, r threefold.BotRecord) error { return f(r) }

// TestRecordSinks: every sink gets the record, also after one failed, and
// every error comes back.
func TestRecordSinks(t *testing.T) {
	var got []string
	full, down := errors.New("disk full"), errors.New("store down")
	sink := func(name string, err error) RecordSink {
		return recordSinkFunc(func(r threefold.BotRecord) error { got = append(got, name+" "+r.GameID); return err })
	}
	err := RecordSinks{sink("store", down), sink("file", nil), sink("jsonl", full)}.WriteRecord(context.Background(), threefold.BotRecord{GameID: "g1"})
	if !slices.Equal(got, []string{"store g1", "file g1", "jsonl g1"}) {
		t.Errorf("written to %v", got)
	}
	if !errors.Is(err, down) || !errors.Is(err, full) {
		t.Errorf("error %v, want both", err)
	}
	if err := (RecordSinks{}).WriteRecord(context.Background(), threefold.BotRecord{}); err != nil {
		t.Errorf("no sinks: %v", err)
	}
}
