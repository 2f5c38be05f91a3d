package listener

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// GameSourceForms lists what ReadGame reads a game from, one form a line.
const GameSourceForms = `  FILE                     a PGN file (plain, .gz or .zst; - for stdin); --game N picks the game (from 1)
  https://lichess.org/ID   a Lichess game, as far as it has been played
  https://lichess.org/broadcast/SLUG/ROUND/ROUNDID   a broadcast round; --game N picks the board's game (from 1)
  "1.e4 e5 2.Nf3 ..."      the moves in SAN, as one argument`

// GamePGNs is the part of *lichess.Client that ReadGame uses.
type GamePGNs interface {
	ExportGamePGN(ctx context.Context, gameID string) (string, error)
	BroadcastRoundPGN(ctx context.Context, roundID string) (string, error)
}

// ReadGameOptions say where ReadGame finds what a source names.
type ReadGameOptions struct {
	ParseOptions
	Stdin  io.Reader // the source "-"
	Limits pgn.Limits
	// Lichess gives the client for a Lichess game or broadcast round
	// address; it is called only for one.
	Lichess func() (GamePGNs, error)
}

// ReplayedGame is one game read by ReadGame: what could be replayed of
// it, and why the rest could not.
type ReplayedGame struct {
	Start rules.Position
	Moves []rules.Move
	// Err is the move (or the text) the main line stopped at: Moves holds
	// the plies before it; nil when the whole game was replayed.
	Err error
}

// BadGameSourceError is an error of a source of ReadGame as it was given
// (a file that is not there, text that is neither a file, nor an address,
// nor moves, a game number beyond the source's games): the caller's to
// fix, unlike a Lichess that cannot be reached.
type BadGameSourceError struct{ Err error }

func (e *BadGameSourceError) Error() string { return e.Err.Error() }
func (e *BadGameSourceError) Unwrap() error { return e.Err }

// NoSuchFileError is a source that was meant as a file (one word with a
// PGN suffix or a path separator) that is not there.
type NoSuchFileError struct{ Path string }

func (e *NoSuchFileError) Error() string { return e.Path + ": no such file" }

// SayIn says e in p's language (i18n.Sayer).
func (e *NoSuchFileError) SayIn(p *i18n.Printer) (string, bool) {
	return p.Sprintf(i18n.ErrNoSuchFile, e.Path), true
}

func badSource(format string, args ...any) error {
	return &BadGameSourceError{fmt.Errorf(format, args...)}
}

// ReadGame reads game number (from 1) of source: a PGN file ("-" is
// opts.Stdin), a Lichess game address or a Lichess broadcast round
// address; any other text is read as moves in SAN ("1.e4 e5 2.Nf3"). The
// moves are replayed up to the first that is not legal.
func ReadGame(ctx context.Context, source string, number int, opts ReadGameOptions) (*ReplayedGame, error) {
	text, isText, err := gameSourceText(ctx, source, opts)
	if err != nil {
		return nil, err
	}
	var rd *pgn.Reader
	if isText {
		rd = pgn.NewReaderLimits(strings.NewReader(text), opts.Limits)
	} else {
		f, err := pgn.Open(source, opts.Stdin)
		if err != nil {
			return nil, &BadGameSourceError{err}
		}
		defer f.Close()
		rd = pgn.NewReaderLimits(f, opts.Limits)
	}
	name := source
	if name == "-" {
		name = "stdin"
	}
	for n := 1; ; n++ {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if n == 1 {
				return nil, badSource("%s: no game in it", name)
			}
			return nil, badSource("%s: no game %d (it has %d)", name, number, n-1)
		}
		if err != nil {
			return nil, badSource("%s: %w", name, err)
		}
		if n < number {
			continue
		}
		tracker, err := g.Replay(nil)
		if tracker == nil {
			return nil, badSource("%s, game %d: %w", name, number, err)
		}
		if err == nil {
			err = g.Err
		}
		if err != nil && tracker.Ply() == 0 && isText {
			return nil, badSource("%s is neither a file, nor a game URL, nor moves in SAN: %v; give one of:\n%s", safetext.Excerpt(source), err, GameSourceForms)
		}
		return &ReplayedGame{Start: tracker.Start(), Moves: tracker.Moves(), Err: err}, nil
	}
}

// gameSourceText returns the PGN text of an address, or of moves typed in
// SAN (isText); for a file it returns isText false.
func gameSourceText(ctx context.Context, source string, opts ReadGameOptions) (text string, isText bool, err error) {
	if source == "-" {
		return "", false, nil
	}
	if _, err := os.Stat(source); err == nil {
		return "", false, nil
	}
	t, perr := ParseTarget(source, opts.ParseOptions)
	switch {
	case perr == nil && (t.Kind == TargetLichessGame || t.Kind == TargetLichessRound):
		if opts.Lichess == nil {
			return "", false, fmt.Errorf("%s: no Lichess client", source)
		}
		client, err := opts.Lichess()
		if err != nil {
			return "", false, err
		}
		if t.Kind == TargetLichessGame {
			text, err = client.ExportGamePGN(ctx, t.ID)
		} else {
			text, err = client.BroadcastRoundPGN(ctx, t.ID)
		}
		if err != nil {
			return "", false, fmt.Errorf("%s: %w", source, err)
		}
		return text, true, nil
	case perr == nil && t.Kind == TargetFile:
		return "", false, nil
	case perr == nil:
		return "", false, badSource("%s is a source of many games; give one game:\n%s", source, GameSourceForms)
	case errors.Is(perr, ErrUnknownForm) && looksLikeURL(source):
		// Not "no such file": the address of a chess.com game, of another
		// site or with a game ID of the wrong length was meant as one.
		return "", false, badSource("%s is not the address of a game this command can read; give one of:\n%s", safetext.Excerpt(source), GameSourceForms)
	case errors.Is(perr, ErrUnknownForm) && looksLikeFile(source):
		return "", false, &BadGameSourceError{&NoSuchFileError{Path: source}}
	case errors.Is(perr, ErrUnknownForm):
		return source, true, nil
	}
	return "", false, badSource("%s: %v; give one of:\n%s", source, perr, GameSourceForms)
}

// looksLikeURL reports whether s, which is not a file, was meant as a web
// address: it has a scheme, or starts with the host of Lichess or chess.com.
func looksLikeURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	for _, host := range []string{"lichess.org/", "www.lichess.org/", "chess.com/", "www.chess.com/"} {
		if len(s) >= len(host) && strings.EqualFold(s[:len(host)], host) {
			return true
		}
	}
	return false
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

// CheckPly says why ply cannot be shown in g: before the start position
// (ply 0), or beyond the plies replayed (and the move that stopped them);
// nil when it can.
func (g *ReplayedGame) CheckPly(ply int) error {
	switch {
	case ply < 0:
		return fmt.Errorf("ply %d: plies are counted from 0, the start position", ply)
	case ply > len(g.Moves) && g.Err != nil:
		return fmt.Errorf("ply %d: the game can be replayed only to ply %d: %v", ply, len(g.Moves), g.Err)
	case ply > len(g.Moves):
		return fmt.Errorf("ply %d: the game has %d plies", ply, len(g.Moves))
	}
	return nil
}
