package listener

import (
	"fmt"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/pgn"
)

// pgnFeed turns PGN texts of games (a broadcast stream that resends each
// game's whole PGN on every change, a relay file re-read after it changed)
// into snapshots. A game is identified by its [GameURL] tag when it has
// one, otherwise by fallbackID(index). The last PGN received for a game
// replaces the earlier one. A resent PGN that extends the previous one is
// appended to the move slice handed out before, so the watcher sees the
// extension without comparing; an identical resend emits nothing.
type pgnFeed struct {
	site     string
	source   string
	delay    time.Duration
	audience string
	clock    Clock
	games    map[string]*feedGame
	at       time.Time // when not zero, the observation time of the next snapshots (else clock.Now())
}

type feedGame struct {
	moves    []string
	startFEN string
	result   string
}

func newPGNFeed(site, source string, delay time.Duration, audience string, clock Clock) *pgnFeed {
	if clock == nil {
		clock = RealClock
	}
	return &pgnFeed{site: site, source: source, delay: delay, audience: audience, clock: clock, games: make(map[string]*feedGame)}
}

// feedText parses text (one or more games) and emits a snapshot for every
// game whose moves or result changed. fallbackID names a game without a
// [GameURL] from its 0-based index in text.
func (f *pgnFeed) feedText(text string, fallbackID func(i int) string, emit Emit) error {
	if strings.TrimSpace(text) == "" {
		return nil // a keep-alive
	}
	games, err := pgn.ParseGames(text)
	if err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	for i, g := range games {
		id, _ := g.Tag("GameURL")
		id = strings.TrimSpace(id)
		url := id
		if id == "" {
			id = fallbackID(i)
			url = ""
		}
		if err := f.feedGame(id, url, g, emit); err != nil {
			return err
		}
	}
	return nil
}

func (f *pgnFeed) feedGame(id, url string, g *pgn.Game, emit Emit) error {
	start, _ := g.StartFEN()
	result := g.Result
	if r, ok := g.Tag("Result"); ok && (result == "" || result == "*") {
		result = strings.TrimSpace(r)
	}
	fg := f.games[id]
	if fg == nil {
		fg = &feedGame{}
		f.games[id] = fg
	}
	switch {
	case fg.startFEN == start && extends(fg.moves, g.Moves):
		if len(g.Moves) == len(fg.moves) && fg.result == result && fg.moves != nil {
			return nil // the same state again
		}
		fg.moves = append(fg.moves, g.Moves[len(fg.moves):]...)
	default:
		fg.moves = g.Moves // a correction: a fresh array, never a write into one handed out
	}
	if fg.moves == nil {
		fg.moves = []string{}
	}
	fg.startFEN, fg.result = start, result
	white, _ := g.Tag("White")
	black, _ := g.Tag("Black")
	err := emit(Snapshot{
		Game:       threefold.GameRef{Site: f.site, ID: id, URL: url, White: white, Black: black},
		Source:     f.source,
		StartFEN:   start,
		Notation:   SAN,
		Moves:      fg.moves,
		Result:     result,
		Finished:   result != "" && result != "*",
		ObservedAt: f.observed(),
		Delay:      f.delay,
		Audience:   f.audience,
	})
	if err != nil {
		return stopError{err}
	}
	return nil
}

// extends reports whether b starts with every token of a.
func extends(a, b []string) bool {
	if len(b) < len(a) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (f *pgnFeed) observed() time.Time {
	if !f.at.IsZero() {
		return f.at
	}
	return f.clock.Now()
}
