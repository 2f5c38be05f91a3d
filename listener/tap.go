package listener

import (
	"context"
	"errors"

	"github.com/threefold-chess/threefold"
)

// Observer sees what a tapped source emits and how it runs (web.Hub is
// one: the dashboard).
type Observer interface {
	// SourceStatus says the source is connected, or not and why.
	SourceStatus(name string, connected bool, err error)
	// SourceGone says the source ended (its feed is over, or it was
	// stopped).
	SourceGone(name string)
	// Update is every game state the source emits.
	Update(threefold.GameState)
}

// Tap wraps src so that o sees every game state it emits (named after the
// source when it names none) before the consumer does, and its state:
// "connecting" until its first game state, connected from then on, down
// with its error when Run fails, gone when it ends or is stopped.
func Tap(src Source, o Observer) Source { return &tappedSource{src: src, o: o} }

type tappedSource struct {
	src Source
	o   Observer
}

func (t *tappedSource) Name() string { return t.src.Name() }

func (t *tappedSource) Run(ctx context.Context, emit Emit) error {
	name := t.src.Name()
	t.o.SourceStatus(name, false, errors.New("connecting"))
	connected := false
	err := t.src.Run(ctx, func(s threefold.GameState) error {
		if !connected {
			connected = true
			t.o.SourceStatus(name, true, nil)
		}
		if s.Source == "" {
			s.Source = name
		}
		t.o.Update(s)
		return emit(s)
	})
	switch {
	case err == nil, ctx.Err() != nil:
		t.o.SourceGone(name)
	default:
		t.o.SourceStatus(name, false, err)
	}
	return err
}
