package main

import (
	"context"
	"errors"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/rules"
)

// loadedGame is one game read for explain or claim: what could be replayed
// of it, and why the rest could not (a move that is not legal).
type loadedGame struct {
	game     *explain.Game
	readErr  error // the main line stopped here; game holds the plies before
	replayed *listener.ReplayedGame
}

// readGame reads game number (from 1) of source (listener.ReadGame). A
// source that cannot be read is a usage error, as is a game number beyond
// the source's games.
func readGame(ctx context.Context, env *environment, cfg *config, source string, number int) (*loadedGame, error) {
	if number < 1 {
		return nil, usagef("--game %d: games are numbered from 1", number)
	}
	var client *lichess.Client
	defer func() {
		if client != nil {
			client.Close()
		}
	}()
	opts := listener.ReadGameOptions{ParseOptions: cfg.parseOptions(),
		Stdin: env.stdin, Limits: cfg.PGN,
		Lichess: func() (listener.GamePGNs, error) {
			token, err := cfg.Lichess.TokenFor(lichess.RoleWatch)
			if err != nil {
				return nil, err
			}
			client = lichess.NewClient(lichess.Options{BaseURL: cfg.Lichess.BaseURL, Token: token, Version: programVersion()})
			return client, nil
		}}
	g, err := listener.ReadGame(ctx, source, number, opts)
	var bad *listener.BadGameSourceError // a file that is not there among them
	switch {
	case errors.As(err, &bad):
		return nil, usageError{bad.Err}
	case err != nil:
		return nil, err
	}
	lg := &loadedGame{readErr: g.Err, replayed: g}
	if lg.game, err = explain.NewGame(g.Start, g.Moves); err != nil {
		return nil, err // cannot happen: the moves were played
	}
	return lg, nil
}

// checkPly checks that ply can be read in lg (ReplayedGame.CheckPly): a
// ply that cannot is a usage error.
func (lg *loadedGame) checkPly(ply int) error {
	if err := lg.replayed.CheckPly(ply); err != nil {
		return usageError{err}
	}
	return nil
}

// parseFENArg reads a FEN given on the command line, in the variant its
// castling field says (a file letter other than a or h is Chess960).
func parseFENArg(flag, fen string) (rules.Position, error) {
	p, err := rules.ParseFEN(fen)
	if err != nil {
		return rules.Position{}, usagef("%s: %w", flag, err)
	}
	return p, nil
}
