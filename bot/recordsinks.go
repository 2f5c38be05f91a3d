package bot

import (
	"context"
	"errors"

	"github.com/threefold-chess/threefold"
)

// RecordSinks writes each record to every sink of the list, in order; one
// that fails does not keep the record from the others, and WriteRecord
// returns all their errors.
type RecordSinks []RecordSink

// WriteRecord writes r to every sink.
func (rs RecordSinks) WriteRecord(ctx context.Context, r threefold.BotRecord) error {
	var errs []error
	for _, s := range rs {
		if err := s.WriteRecord(ctx, r); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
