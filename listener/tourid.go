package listener

import (
	"context"
	"fmt"
	"strings"

	"github.com/threefold-chess/threefold/lichess"
)

// RoundInfo is the part of *lichess.Client that BroadcastTourID uses.
type RoundInfo interface {
	BroadcastRound(ctx context.Context, roundID string) (*lichess.BroadcastRound, error)
}

// NotABroadcastError says that what BroadcastTourID was given is no
// address of a Lichess broadcast: another source form (Err nil), or no
// form at all (Err says why).
type NotABroadcastError struct {
	Arg string
	Err error
}

func (e *NotABroadcastError) Error() string {
	if e.Err == nil {
		return e.Arg + " is not a broadcast's address"
	}
	return fmt.Sprintf("%s: %v", e.Arg, e.Err)
}

// BroadcastTourID reads the id of a Lichess broadcast tournament from its
// address, from one of its rounds' addresses (asking rounds which
// tournament the round is of), or from the id itself (text that is no
// address at all).
func BroadcastTourID(ctx context.Context, rounds RoundInfo, arg string, opts ParseOptions) (string, error) {
	t, err := ParseTarget(arg, opts)
	switch {
	case err != nil && strings.ContainsAny(arg, "/.:"):
		return "", &NotABroadcastError{Arg: arg, Err: err}
	case err != nil:
		return arg, nil
	case t.Kind == TargetLichessTour:
		return t.ID, nil
	case t.Kind == TargetLichessRound:
		r, err := rounds.BroadcastRound(ctx, t.ID)
		if err != nil {
			return "", fmt.Errorf("%s: %w", arg, err)
		}
		return r.Tour.ID, nil
	}
	return "", &NotABroadcastError{Arg: arg}
}
