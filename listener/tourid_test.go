package listener_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
)

// roundsOf answers which tournament a round is of from a table.
type roundsOf map[string]string

func (r roundsOf) BroadcastRound(_ context.Context, id string) (*lichess.BroadcastRound, error) {
	tour, ok := r[id]
	if !ok {
		return nil, errors.New("404 not found")
	}
	return &lichess.BroadcastRound{Tour: lichess.BroadcastTourInfo{ID: tour}}, nil
}

func TestBroadcastTourID(t *testing.T) {
	rounds := roundsOf{"rndABCDE": "tourABCD"}
	tests := []struct {
		name   string
		arg    string
		want   string
		notBc  bool   // a *NotABroadcastError
		errHas string // in the error
	}{
		{name: "a tournament's address", arg: "https://lichess.org/broadcast/world-cup/tourWXYZ", want: "tourWXYZ"},
		{name: "a round's address", arg: "https://lichess.org/broadcast/world-cup/round-2/rndABCDE", want: "tourABCD"},
		{name: "an id", arg: "tourWXYZ", want: "tourWXYZ"},
		{name: "a round Lichess does not know", arg: "https://lichess.org/broadcast/x/r/rndZZZZZ", errHas: "rndZZZZZ: 404"},
		{name: "a game's address", arg: "https://lichess.org/abcdefgh", notBc: true, errHas: "is not a broadcast's address"},
		{name: "an address elsewhere", arg: "https://example.com/broadcast/x", notBc: true, errHas: "example.com"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := listener.BroadcastTourID(context.Background(), rounds, tc.arg, listener.ParseOptions{})
			var nb *listener.NotABroadcastError
			if errors.As(err, &nb) != tc.notBc || tc.errHas == "" && err != nil || tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
				t.Fatalf("err = %v, want %q (not a broadcast: %v)", err, tc.errHas, tc.notBc)
			}
			if got != tc.want {
				t.Errorf("BroadcastTourID(%q) = %q, want %q", tc.arg, got, tc.want)
			}
		})
	}
}
