package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// gameSourceForms says what explain and claim read a game from.
const gameSourceForms = `  FILE                     a PGN file (plain, .gz or .zst; - for stdin); --game N picks the game (from 1)
  https://lichess.org/ID   a Lichess game, as far as it has been played
  https://lichess.org/broadcast/SLUG/ROUND/ROUNDID   a broadcast round; --game N picks the board's game (from 1)
  "1.e4 e5 2.Nf3 ..."      the moves in SAN, as one argument`

// loadedGame is one game read for explain or claim: what could be replayed
// of it, and why the rest could not (a move that is not legal).
type loadedGame struct {
	game    *explain.Game
	readErr error // the main line stopped here; game holds the plies before
}

// readGame reads game number (from 1) of source: a PGN file, a Lichess game
// URL or a Lichess broadcast round URL; any other text is read as moves in
// SAN ("1.e4 e5 2.Nf3"). A source that cannot be read is a usage error, as
// is a game number beyond the source's games.
func readGame(ctx context.Context, env *environment, cfg *config, source string, number int) (*loadedGame, error) {
	if number < 1 {
		return nil, usagef("--game %d: games are numbered from 1", number)
	}
	text, isText, err := fetchGameSource(ctx, cfg, source)
	if err != nil {
		return nil, err
	}
	var rd *pgn.Reader
	if isText {
		rd = pgn.NewReaderLimits(strings.NewReader(text), cfg.PGN.limits())
	} else {
		f, err := pgn.Open(source, env.stdin)
		if err != nil {
			return nil, usageError{err}
		}
		defer f.Close()
		rd = pgn.NewReaderLimits(f, cfg.PGN.limits())
	}
	for n := 1; ; n++ {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if n == 1 {
				return nil, usagef("%s: no game in it", displaySource(source))
			}
			return nil, usagef("%s: no game %d (it has %d)", displaySource(source), number, n-1)
		}
		if err != nil {
			return nil, usagef("%s: %w", displaySource(source), err)
		}
		if n < number {
			continue
		}
		tracker, err := g.Replay(nil)
		if tracker == nil {
			return nil, usagef("%s, game %d: %w", displaySource(source), number, err)
		}
		lg := &loadedGame{readErr: err}
		if err == nil && g.Err != nil {
			lg.readErr = g.Err
		}
		if lg.readErr != nil && tracker.Ply() == 0 && isText {
			return nil, usagef("%s is neither a file, nor a game URL, nor moves in SAN: %v; give one of:\n%s", safetext.Excerpt(source), lg.readErr, gameSourceForms)
		}
		if lg.game, err = explain.NewGame(tracker.Start(), tracker.Moves()); err != nil {
			return nil, err // cannot happen: the tracker played them
		}
		return lg, nil
	}
}

// fetchGameSource returns the PGN text of a URL source, or of moves typed
// in SAN (isText); for a file it returns isText false.
func fetchGameSource(ctx context.Context, cfg *config, source string) (text string, isText bool, err error) {
	if source == "-" {
		return "", false, nil
	}
	if _, err := os.Stat(source); err == nil {
		return "", false, nil
	}
	t, perr := listener.ParseTarget(source, listener.ParseOptions{LichessBase: cfg.Lichess.URL, ChessComBase: cfg.ChessCom.URL})
	switch {
	case perr == nil && (t.Kind == listener.TargetLichessGame || t.Kind == listener.TargetLichessRound):
		token, err := cfg.lichessToken(lichess.RoleWatch)
		if err != nil {
			return "", false, err
		}
		client := lichess.NewClient(lichess.Options{BaseURL: cfg.Lichess.URL, Token: token, Version: programVersion()})
		defer client.Close()
		if t.Kind == listener.TargetLichessGame {
			text, err = client.ExportGamePGN(ctx, t.ID)
		} else {
			text, err = client.BroadcastRoundPGN(ctx, t.ID)
		}
		if err != nil {
			return "", false, fmt.Errorf("%s: %w", source, err)
		}
		return text, true, nil
	case perr == nil && t.Kind == listener.TargetFile:
		return "", false, nil
	case perr == nil:
		return "", false, usagef("%s is a source of many games; give one game:\n%s", source, gameSourceForms)
	case errors.Is(perr, listener.ErrUnknownForm) && looksLikeFile(source):
		return "", false, usageError{say(i18n.ErrNoSuchFile, source)}
	case errors.Is(perr, listener.ErrUnknownForm):
		return source, true, nil
	}
	return "", false, usagef("%s: %v; give one of:\n%s", source, perr, gameSourceForms)
}

// looksLikeFile reports whether s, which is neither a file nor a URL, was
// meant as a file name rather than moves: one word with a PGN suffix or a
// path separator.
func looksLikeFile(s string) bool {
	if strings.ContainsAny(s, " \t\n") {
		return false
	}
	return strings.ContainsRune(s, os.PathSeparator) || strings.HasSuffix(s, ".pgn") || strings.HasSuffix(s, ".gz") || strings.HasSuffix(s, ".zst")
}

func displaySource(s string) string {
	if s == "-" {
		return "stdin"
	}
	return s
}

// checkPly checks that ply can be read in lg: within the plies
// replayed, and not beyond a move that could not be played.
func (lg *loadedGame) checkPly(ply int) error {
	if ply < 0 {
		return usagef("ply %d: plies are counted from 0, the start position", ply)
	}
	if ply > lg.game.Plies() {
		if lg.readErr != nil {
			return usagef("ply %d: the game can be replayed only to ply %d: %v", ply, lg.game.Plies(), lg.readErr)
		}
		return usagef("ply %d: the game has %d plies", ply, lg.game.Plies())
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

// writeAnswer writes the answer of explain or claim: as one JSON object,
// or as its text, every word of which is ours (SAN, squares, plies, the
// explain catalogue).
func writeAnswer(w io.Writer, asJSON bool, answer interface{ Text() string }) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(answer)
	}
	_, err := fmt.Fprint(w, answer.Text())
	return err
}
