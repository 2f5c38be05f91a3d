package listener_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/listener"
)

// scriptedSource emits fixed game states, then ends with err (or, with
// cancel, cancels its context and ends with the context's error).
type scriptedSource struct {
	states []threefold.GameState
	err    error
	cancel context.CancelFunc
}

func (s *scriptedSource) Name() string { return "scripted" }

func (s *scriptedSource) Run(ctx context.Context, emit listener.Emit) error {
	for _, st := range s.states {
		if err := emit(st); err != nil {
			return err
		}
	}
	if s.cancel != nil {
		s.cancel()
		return ctx.Err()
	}
	return s.err
}

// observed writes down what an Observer is told, in order.
type observed []string

func (o *observed) SourceStatus(name string, connected bool, err error) {
	*o = append(*o, fmt.Sprintf("status %s %v %v", name, connected, err))
}
func (o *observed) SourceGone(name string) { *o = append(*o, "gone "+name) }
func (o *observed) Update(s threefold.GameState) {
	*o = append(*o, fmt.Sprintf("update %s %s", s.Source, s.Game.ID))
}

// TestTap: the observer sees each game state before the consumer, named
// after the source when it names none, and the source's state: connecting,
// connected from the first game state, down with its error, gone when it
// ends or is stopped.
func TestTap(t *testing.T) {
	g1 := threefold.GameState{Game: threefold.GameRef{Site: "lichess", ID: "g1"}}
	named := threefold.GameState{Source: "other", Game: threefold.GameRef{Site: "lichess", ID: "g2"}}
	tests := []struct {
		name    string
		src     scriptedSource
		cancel  bool
		want    []string
		emitted []string // the Source of what the consumer got
		wantErr bool
	}{
		{"fails after a game", scriptedSource{states: []threefold.GameState{g1}, err: errors.New("410 gone")}, false,
			[]string{"status scripted false connecting", "status scripted true <nil>", "update scripted g1", "status scripted false 410 gone"},
			[]string{"scripted"}, true},
		{"fails at once", scriptedSource{err: errors.New("refused")}, false,
			[]string{"status scripted false connecting", "status scripted false refused"}, nil, true},
		{"ends", scriptedSource{states: []threefold.GameState{g1, named}}, false,
			[]string{"status scripted false connecting", "status scripted true <nil>", "update scripted g1", "update other g2", "gone scripted"},
			[]string{"scripted", "other"}, false},
		{"stopped", scriptedSource{}, true,
			[]string{"status scripted false connecting", "gone scripted"}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := tc.src
			if tc.cancel {
				src.cancel = cancel
			}
			var o observed
			var emitted []string
			tapped := listener.Tap(&src, &o)
			err := tapped.Run(ctx, func(s threefold.GameState) error {
				if n := len(o); n == 0 || o[n-1] != "update "+s.Source+" "+s.Game.ID {
					t.Errorf("the consumer got %s before the observer", s.Game.ID)
				}
				emitted = append(emitted, s.Source)
				return nil
			})
			if (err != nil) != tc.wantErr || tapped.Name() != "scripted" {
				t.Errorf("Run = %v, Name = %q", err, tapped.Name())
			}
			if !slices.Equal(o, tc.want) {
				t.Errorf("observer saw\n%q\nwant\n%q", o, tc.want)
			}
			if !slices.Equal(emitted, tc.emitted) {
				t.Errorf("consumer got sources %q, want %q", emitted, tc.emitted)
			}
		})
	}
}
