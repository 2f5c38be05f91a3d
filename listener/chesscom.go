package listener

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// ChessComPoller is the part of *chesscom.Client the chess.com source uses.
type ChessComPoller interface {
	Poll(ctx context.Context, target chesscom.Target, interval time.Duration, fn func(chesscom.Update) error) error
}

// ChessComSource follows a chess.com target (a player's daily games, a
// club's team matches, a team match, a tournament) through the PubAPI
// poller of package chesscom, which polls politely (serial requests,
// ETag / Last-Modified, max-age, 429 and 410 handled). Every game's PGN is
// replayed in full; a PGN that extends the one seen before reaches the
// watcher as an extension. The delay of a snapshot is how old chess.com's
// data may be (the time since its Last-Modified, at most the documented 12
// hours), not the poll interval. With AfterTheGame, a player's finished
// live games are followed from the monthly archive once they ended: their
// snapshots say so in their Source (" (after the game)") and their delay
// is the time since the game ended. Run returns the poller's error: a
// target that does not exist (or answers 410) ends the source with a
// message that says so.
type ChessComSource struct {
	Client       ChessComPoller
	Target       chesscom.Target
	Interval     time.Duration
	AfterTheGame bool // player targets: report finished live games too, after the game
	Logger       *slog.Logger
	Clock        clock.Clock
	Limits       pgn.Limits // on each game's PGN; zero fields take the defaults
	// FinishedGrace: a finished game not delivered again for this long is
	// forgotten (default DefaultFinishedGrace).
	FinishedGrace time.Duration
}

// maxSkipped bounds the games with other rules a ChessComSource remembers
// having logged.
const maxSkipped = 10000

// AfterTheGameLabel ends the Source of the snapshots (and so of the
// alerts) of games seen only after they ended.
const AfterTheGameLabel = " (after the game)"

// Name implements Source.
func (s *ChessComSource) Name() string {
	return english.Sprintf(i18n.SourceChessCom, s.Target.String())
}

// Run implements Source.
func (s *ChessComSource) Run(ctx context.Context, emit Emit) error {
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	interval := s.Interval
	if interval <= 0 {
		interval = chesscom.DefaultPollInterval
	}
	feed := newPGNFeed("chess.com", s.Name(), 0, "", s.Clock, s.Limits)
	after := newPGNFeed("chess.com", s.Name()+AfterTheGameLabel, 0, "", s.Clock, s.Limits)
	feed.grace, after.grace = s.FinishedGrace, s.FinishedGrace
	target := s.Target
	target.AfterTheGame = s.AfterTheGame && target.Kind == chesscom.KindPlayer
	skipped := map[string]bool{}
	return s.Client.Poll(ctx, target, interval, func(u chesscom.Update) error {
		feed.delay, feed.at, after.at = u.Delay, u.ObservedAt, u.ObservedAt
		for _, g := range u.Games {
			variant, verr := rules.ParseVariant(g.Rules) // chess, chess960; "" is chess
			if verr != nil {
				if !skipped[g.URL] {
					skipped[g.URL] = true
					log.Info("chess.com: game with other rules not followed", "game", g.URL, "rules", g.Rules, "err", verr)
				}
				continue
			}
			if strings.TrimSpace(g.PGN) == "" {
				continue
			}
			games, err := pgn.ParseGamesLimits(g.PGN, s.Limits)
			if err != nil || len(games) == 0 {
				log.Warn("chess.com: unreadable PGN skipped", "game", g.URL, "err", err)
				continue
			}
			pg := games[0]
			if _, tagged := pg.Tag("Variant"); !tagged && variant == rules.Chess960 {
				pg.Tags = append(pg.Tags, pgn.Tag{Name: "Variant", Value: "Chess960"})
			}
			if g.Finished && (pg.Result == "" || pg.Result == "*") {
				pg.Result = finishedResult(g)
			}
			f := feed
			if g.AfterTheGame {
				f = after
				after.delay = max(u.ObservedAt.Sub(g.EndTime), 0)
			}
			if _, err := f.feedGame(g.URL, g.URL, pg, emit); err != nil {
				var stop stopError
				if errors.As(err, &stop) {
					return stop.err
				}
				return err
			}
		}
		for _, url := range u.Gone {
			log.Info("chess.com: game ended and left the target", "game", url)
		}
		feed.prune()
		after.prune()
		if len(skipped) > maxSkipped {
			clear(skipped) // months of a player's variant games: each may be logged once more
		}
		return nil
	})
}

// finishedResult gives a finished game whose PGN still says "*" a result
// from chess.com's result codes.
func finishedResult(g chesscom.Game) string {
	switch {
	case g.WhiteResult == "win":
		return "1-0"
	case g.BlackResult == "win":
		return "0-1"
	case g.WhiteResult != "" && g.WhiteResult == g.BlackResult:
		return "1/2-1/2"
	}
	return "?"
}
