package pgnexport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
)

// Games is what Select reads of the store.
type Games interface {
	Games(ctx context.Context, f store.GameFilter) ([]store.Game, error)
}

// AmbiguousError says that what a user gave names several stored games.
type AmbiguousError struct {
	Arg   string
	Games []string // site/id of each
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("export: %q names %d games: %s; give site/id", e.Arg, len(e.Games), strings.Join(e.Games, ", "))
}

// Select reads the games to export: those named by args (an id, site/id
// or URL each), in the order given; without args, those of f, oldest
// update first (an event reads in the order it was played). popts reads
// the forms of a Lichess game URL that watch understands.
func Select(ctx context.Context, st Games, args []string, f store.GameFilter, popts listener.ParseOptions) ([]store.Game, error) {
	if len(args) == 0 {
		games, err := st.Games(ctx, f)
		if err != nil {
			return nil, err
		}
		if len(games) == 0 {
			return nil, errors.New("export: no stored game matches")
		}
		sort.SliceStable(games, func(i, j int) bool { return games[i].UpdatedAt.Before(games[j].UpdatedAt) })
		return games, nil
	}
	var games []store.Game
	for _, a := range args {
		g, err := find(ctx, st, a, popts)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}

// find looks a game up by id, site/id or URL (any form of a Lichess game
// URL that watch understands, too).
func find(ctx context.Context, st Games, arg string, popts listener.ParseOptions) (store.Game, error) {
	for _, f := range lookups(arg, popts) {
		gs, err := st.Games(ctx, f)
		if err != nil {
			return store.Game{}, err
		}
		switch len(gs) {
		case 0:
			continue
		case 1:
			return gs[0], nil
		default:
			e := &AmbiguousError{Arg: arg}
			for _, g := range gs {
				e.Games = append(e.Games, g.Game.Site+"/"+g.Game.ID)
			}
			return store.Game{}, e
		}
	}
	return store.Game{}, fmt.Errorf("export: no stored game %q (threefold history --games lists them)", arg)
}

// lookups are the filters that may find the game arg names, the most
// exact first.
func lookups(arg string, popts listener.ParseOptions) []store.GameFilter {
	var tries []store.GameFilter
	if strings.Contains(arg, "://") {
		tries = append(tries, store.GameFilter{URL: arg})
		if u, err := url.Parse(arg); err == nil {
			u.Fragment, u.RawQuery = "", ""
			tries = append(tries, store.GameFilter{URL: u.String()})
			// A Lichess game URL may name a side: /abcdefgh/white.
			parts := strings.Split(strings.Trim(u.Path, "/"), "/")
			if n := len(parts); n >= 2 && (parts[n-1] == "white" || parts[n-1] == "black") {
				u.Path = "/" + strings.Join(parts[:n-1], "/")
				tries = append(tries, store.GameFilter{URL: u.String()})
			}
		}
	} else {
		tries = append(tries, store.GameFilter{ID: arg})
		if site, id, ok := strings.Cut(arg, "/"); ok {
			tries = append(tries, store.GameFilter{Site: site, ID: id})
		}
	}
	if t, err := listener.ParseTarget(arg, popts); err == nil && t.Kind == listener.TargetLichessGame {
		tries = append(tries, store.GameFilter{Site: "lichess", ID: t.ID})
	}
	return tries
}

// WriteAll writes the games one after the other. A game whose moves
// could not all be replayed is written up to there, its *MoveError passed
// to bad, and the next follows; any other error ends the export.
func WriteAll(w io.Writer, games []store.Game, bad func(*MoveError)) error {
	bw := bufio.NewWriter(w)
	for _, g := range games {
		err := Write(bw, g)
		var me *MoveError
		switch {
		case errors.As(err, &me):
			bad(me)
		case err != nil:
			return fmt.Errorf("export: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
