package listener

import (
	"context"

	"github.com/threefold-chess/threefold"
)

// AfterTaken wraps src so that every snapshot it emits is passed to taken
// once the consumer took it in (emit returned without error: the watcher's
// alerts about it are stored), named by its source (a snapshot that names
// none gets src's name, for the consumer as well). done runs when src's Run
// has returned, so that what taken keeps of the last snapshots is not lost.
// watch records the games in the store this way.
func AfterTaken(src Source, taken func(ctx context.Context, source string, s threefold.GameState), done func()) Source {
	return &afterTaken{src: src, taken: taken, done: done}
}

type afterTaken struct {
	src   Source
	taken func(context.Context, string, threefold.GameState)
	done  func()
}

func (a *afterTaken) Name() string { return a.src.Name() }

func (a *afterTaken) Run(ctx context.Context, emit Emit) error {
	name := a.src.Name()
	err := a.src.Run(ctx, func(s threefold.GameState) error {
		if s.Source == "" {
			s.Source = name
		}
		if err := emit(s); err != nil {
			return err
		}
		a.taken(ctx, name, s)
		return nil
	})
	a.done()
	return err
}
