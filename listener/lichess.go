package listener

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// LichessStreamer is the part of *lichess.Client the Lichess sources use.
// The client reconnects its streams itself, delivers each spectator
// position once across reconnects, and keeps within Lichess's per-IP stream
// budget (8 spectator streams, 4 "events" streams).
type LichessStreamer interface {
	StreamGame(ctx context.Context, gameID string, fn func(lichess.SpectatorEvent) error) error
	StreamGamesByUsers(ctx context.Context, users []string, fn func(lichess.GameSummary) error) error
	CurrentGame(ctx context.Context, username string) (*lichess.ExportedGame, error)
	StreamTV(ctx context.Context, channel string, fn func(lichess.TVEvent) error) error
	StreamBroadcastRound(ctx context.Context, roundID string, fn func(pgn string) error) error
	StreamBroadcastTour(ctx context.Context, tourID string, fn func(pgn string) error) error
}

// LichessBroadcastDelay is the delay announced for Lichess broadcasts:
// organisers may delay a relay by up to an hour.
const LichessBroadcastDelay = time.Hour

// lichessBase returns the web base URL for links ("https://lichess.org").
func lichessBase(base string) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" {
		return "https://lichess.org"
	}
	return base
}

// LichessGameSource follows one Lichess game through the spectator stream
// (/api/stream/game/{id}). The moves are the stream's `lm` (UCI) replayed
// from the game's initial FEN; the per-position FEN, which lacks castling
// and e.p. fields, is never used. The first snapshot comes once the stream
// has caught up with the game (every past position it shows received);
// after that, one per position, so that every alert is raised at its own
// ply even when the positions Lichess held back arrive at once at the end.
// Lichess delays an ongoing game by lichess.DelayPlies: each snapshot's
// DelayPlies says how far the board may be ahead (its Delay in seconds is
// 0: the lag is in moves, not in time); the final one is not behind. Run
// ends (nil) after the final snapshot of a finished game. A game that does
// not exist ends Run with an error.
type LichessGameSource struct {
	Client LichessStreamer
	GameID string
	Base   string // web base URL for links, default https://lichess.org
	Clock  clock.Clock
	Logger *slog.Logger
	// OnState, if set, is told when the source's Lichess stream connects
	// and when it is lost (and retried): see lichess.WithStreamObserver.
	OnState func(connected bool, err error)
	// emit serialisation when run inside another source (user, TV).
	shared *sharedEmit
	label  string
}

// Name implements Source.
func (s *LichessGameSource) Name() string {
	if s.label != "" {
		return s.label
	}
	return english.Sprintf(i18n.SourceLichessGame, s.GameID)
}

// sharedEmit serialises the emits of several goroutines of one source.
type sharedEmit struct {
	mu   sync.Mutex
	emit Emit
}

func (e *sharedEmit) call(s threefold.GameState) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.emit(s)
}

// Run implements Source.
func (s *LichessGameSource) Run(ctx context.Context, emit Emit) error {
	ctx = observe(ctx, s.OnState)
	clk := clock.Or(s.Clock)
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if s.shared != nil {
		emit = s.shared.call
	}
	var (
		desc     *lichess.SpectatorGame
		moves    []string
		startFEN string
		caughtUp bool
		behind   int // of the last position received
		ref      threefold.GameRef
	)
	over := func() bool { return lichess.Finished(desc.Status.Name) || desc.Status.ID >= 25 }
	snapshot := func() threefold.GameState {
		st := threefold.GameState{Game: ref, Source: s.Name(), StartFEN: startFEN, Notation: rules.UCI, Moves: moves,
			Result: "*", ObservedAt: clk.Now(), DelayPlies: behind, PlyAnchor: true}
		if over() {
			st.Finished = true
			st.Result = lichess.Result(desc.Status.Name, desc.Winner)
			st.DelayPlies = 0
		}
		return st
	}
	// caughtUp: every past position the stream shows has come. The
	// description may count the plies of the board (lila sends it
	// undelayed) while the positions stop lichess.DelayPlies short of it.
	caughtUpAt := func() int {
		n := desc.Turns - desc.StartedAtTurn
		if !over() {
			n -= lichess.DelayPlies
		}
		return n
	}
	err := s.Client.StreamGame(ctx, s.GameID, func(ev lichess.SpectatorEvent) error {
		switch {
		case ev.Game != nil:
			first := desc == nil
			desc = ev.Game
			if first {
				fen, err := lichess.StartFENVariant(desc.InitialFEN, desc.Variant.Key)
				if err != nil {
					return fmt.Errorf("lichess game %s is not followed: %w", s.GameID, err)
				}
				startFEN = fen
				ref = threefold.GameRef{Site: "lichess", ID: s.GameID, URL: lichessBase(s.Base) + "/" + s.GameID,
					White: spectatorName(desc.Players.White), Black: spectatorName(desc.Players.Black)}
				caughtUp = desc.Turns-desc.StartedAtTurn <= 0
				if caughtUp {
					return emit(snapshot())
				}
				return nil
			}
			if caughtUp || over() {
				caughtUp = true
				return emit(snapshot())
			}
		case ev.Position != nil && desc != nil:
			p := ev.Position
			if p.LastMove == "" {
				return nil // the start position
			}
			idx := p.Ply - desc.StartedAtTurn - 1 // index of this move
			if idx >= 0 && idx < len(moves) {
				return nil // already had it
			}
			moves = append(moves, p.LastMove)
			behind = p.Behind
			if !caughtUp && len(moves) >= caughtUpAt() {
				caughtUp = true
			}
			if caughtUp {
				return emit(snapshot())
			}
		}
		return nil
	})
	if err == nil && desc != nil && !caughtUp {
		err = emit(snapshot())
	}
	if errors.Is(err, lichess.ErrNotFound) {
		return fmt.Errorf("lichess game %s does not exist: %w", s.GameID, err)
	}
	return err
}

func spectatorName(p lichess.SpectatorPlayer) string {
	if p.User != nil {
		if p.User.Title != "" {
			return p.User.Title + " " + p.User.Name
		}
		return p.User.Name
	}
	if p.AI > 0 {
		return "Stockfish level " + strconv.Itoa(p.AI)
	}
	return ""
}

// CurrentGamePoll is how often LichessUsersSource asks Lichess for each
// user's current game (one request per user and period).
const CurrentGamePoll = 30 * time.Second

// LichessUsersSource follows the current games of Lichess users, whoever
// they play: every Poll it asks for each user's current game
// (/api/user/{username}/current-game, which answers the ongoing game or
// else the last one) and follows an ongoing one through its spectator
// stream (as LichessGameSource; the stream sends every past position, so a
// game found late loses nothing). With several users, the games-by-users
// stream says at once when a game between two of them starts (games
// already running included). Games are followed within the per-IP budget
// the client keeps (a game waits for a free spectator slot).
type LichessUsersSource struct {
	Client LichessStreamer
	Users  []string
	Base   string
	Clock  clock.Clock
	Logger *slog.Logger
	// Poll is the period of the current-game requests (CurrentGamePoll
	// when 0).
	Poll time.Duration
	// OnState, if set, is told when the source's Lichess stream connects
	// and when it is lost (and retried): see lichess.WithStreamObserver.
	// A single user has no stream: it is told whether the last
	// current-game request was answered.
	OnState func(connected bool, err error)
}

// Name implements Source.
func (s *LichessUsersSource) Name() string {
	return english.Sprintf(i18n.SourceLichessUsers, strings.Join(s.Users, ","))
}

// Run implements Source.
func (s *LichessUsersSource) Run(ctx context.Context, emit Emit) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := newGameGroup(ctx, s.Client, s.Base, s.Clock, s.Logger, emit, s.Name())
	polled := make(chan struct{})
	go func() { // owned by Run: stopped by cancel, waited for below
		defer close(polled)
		s.pollCurrentGames(ctx, g)
	}()
	var err error
	if len(s.Users) > 1 {
		err = s.Client.StreamGamesByUsers(observe(ctx, s.OnState), s.Users, func(sum lichess.GameSummary) error {
			if sum.Status >= 25 {
				return nil // the spectator stream ends by itself with the final state
			}
			if _, err := rules.ParseVariant(sum.Variant); err != nil {
				return nil // crazyhouse, atomic, ...: a repetition rule of its own
			}
			g.follow(sum.ID)
			return nil
		})
	} else {
		<-ctx.Done()
		err = ctx.Err()
	}
	cancel()
	<-polled
	return g.wait(err)
}

// pollCurrentGames asks for each user's current game every Poll until ctx
// is done, and follows the ongoing ones (g.follow ignores a game already
// followed).
func (s *LichessUsersSource) pollCurrentGames(ctx context.Context, g *gameGroup) {
	clk := clock.Or(s.Clock)
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	every := s.Poll
	if every <= 0 {
		every = CurrentGamePoll
	}
	missing := map[string]bool{} // users already logged as having no game
	for {
		for _, user := range s.Users {
			cg, err := s.Client.CurrentGame(ctx, user)
			if ctx.Err() != nil {
				return
			}
			if len(s.Users) == 1 && s.OnState != nil {
				s.OnState(err == nil || errors.Is(err, lichess.ErrNotFound), err)
			}
			switch {
			case errors.Is(err, lichess.ErrNotFound):
				if !missing[user] {
					log.Info("lichess: no game for this user yet (or no such user); asking again", "user", user, "every", every)
					missing[user] = true
				}
			case err != nil:
				log.Warn("lichess: current game not known; asking again", "user", user, "err", err)
			case lichess.Finished(cg.Status) || cg.Status == "":
			case !followedVariant(cg.Variant):
			default:
				delete(missing, user)
				g.follow(cg.ID)
			}
		}
		if clock.Sleep(ctx, clk, every) != nil {
			return
		}
	}
}

// LichessTVSource follows a Lichess TV channel ("" for the featured game):
// each game the channel features is followed through its spectator stream
// (the TV feed's FENs are not enough to know repetitions) until the
// channel moves on to another game.
type LichessTVSource struct {
	Client  LichessStreamer
	Channel string
	Base    string
	Clock   clock.Clock
	Logger  *slog.Logger
	// OnState, if set, is told when the source's Lichess stream connects
	// and when it is lost (and retried): see lichess.WithStreamObserver.
	OnState func(connected bool, err error)
}

// Name implements Source.
func (s *LichessTVSource) Name() string {
	if s.Channel == "" {
		return english.Sprintf(i18n.SourceLichessTV)
	}
	return english.Sprintf(i18n.SourceLichessTVChannel, s.Channel)
}

// Run implements Source.
func (s *LichessTVSource) Run(ctx context.Context, emit Emit) error {
	ctx = observe(ctx, s.OnState)
	g := newGameGroup(ctx, s.Client, s.Base, s.Clock, s.Logger, emit, s.Name())
	current := ""
	err := s.Client.StreamTV(ctx, s.Channel, func(ev lichess.TVEvent) error {
		if ev.Featured == nil || ev.Featured.ID == "" || ev.Featured.ID == current {
			return nil
		}
		if current != "" {
			g.stop(current)
		}
		current = ev.Featured.ID
		g.follow(current)
		return nil
	})
	return g.wait(err)
}

// gameGroup runs one LichessGameSource per game for a parent source and
// owns their goroutines.
type gameGroup struct {
	ctx    context.Context
	client LichessStreamer
	base   string
	clock  clock.Clock
	log    *slog.Logger
	shared *sharedEmit
	parent string

	mu      sync.Mutex
	running map[string]context.CancelFunc
	wg      sync.WaitGroup
	failed  error
}

func newGameGroup(ctx context.Context, c LichessStreamer, base string, clk clock.Clock, log *slog.Logger, emit Emit, parent string) *gameGroup {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &gameGroup{ctx: ctx, client: c, base: base, clock: clk, log: log, shared: &sharedEmit{emit: emit},
		parent: parent, running: map[string]context.CancelFunc{}}
}

func (g *gameGroup) follow(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.running[id]; ok {
		return
	}
	ctx, cancel := context.WithCancel(g.ctx)
	ctx = lichess.WithStreamObserver(ctx, nil) // the parent's state is its own stream's
	g.running[id] = cancel
	src := &LichessGameSource{Client: g.client, GameID: id, Base: g.base, Clock: g.clock, Logger: g.log,
		shared: g.shared, label: g.parent}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		err := src.Run(ctx, nil)
		if err != nil && ctx.Err() == nil {
			g.log.Warn("lichess: game no longer followed", "source", g.parent, "game", id, "err", err)
		}
		g.mu.Lock()
		if c, ok := g.running[id]; ok {
			c()
			delete(g.running, id)
		}
		g.mu.Unlock()
	}()
}

func (g *gameGroup) stop(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.running[id]; ok {
		c()
		delete(g.running, id)
	}
}

// wait stops every game when the parent stream has ended and waits for
// them; it returns the parent's error.
func (g *gameGroup) wait(err error) error {
	if err != nil {
		g.mu.Lock()
		for id, c := range g.running {
			c()
			delete(g.running, id)
		}
		g.mu.Unlock()
	}
	g.wg.Wait()
	return err
}

// LichessBroadcastSource follows a Lichess broadcast round, or every round
// of a broadcast tournament, through its PGN stream. Each game is
// identified by its chapter (BroadcastGameID of its [GameURL]); the last PGN received for it replaces the
// earlier one (a correction rebuilds the game in the watcher). Games are
// over the board: snapshots carry threefold.AudienceArbiters and the delay of a
// broadcast (up to an hour). A round or tournament that does not exist
// ends Run with an error that says so.
type LichessBroadcastSource struct {
	Client LichessStreamer
	// RoundID, or TourID for a whole tournament.
	RoundID, TourID string
	Clock           clock.Clock
	Logger          *slog.Logger
	Delay           time.Duration // default LichessBroadcastDelay
	Limits          pgn.Limits    // on each game's PGN; zero fields take the defaults
	// FinishedGrace: a finished game not resent for this long is forgotten
	// (default DefaultFinishedGrace).
	FinishedGrace time.Duration
	// OnState, if set, is told when the source's Lichess stream connects
	// and when it is lost (and retried): see lichess.WithStreamObserver.
	OnState func(connected bool, err error)
}

// Name implements Source.
func (s *LichessBroadcastSource) Name() string {
	if s.TourID != "" {
		return english.Sprintf(i18n.SourceLichessBroadcast, s.TourID)
	}
	return english.Sprintf(i18n.SourceLichessRound, s.RoundID)
}

// Run implements Source.
func (s *LichessBroadcastSource) Run(ctx context.Context, emit Emit) error {
	ctx = observe(ctx, s.OnState)
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	delay := s.Delay
	if delay <= 0 {
		delay = LichessBroadcastDelay
	}
	feed := newPGNFeed("lichess", s.Name(), delay, threefold.AudienceArbiters, s.Clock, s.Limits)
	feed.idOf = BroadcastGameID
	feed.grace = s.FinishedGrace
	n := 0
	fn := func(text string) error {
		n++
		fallback := func(int) string { return s.Name() + "#" + strconv.Itoa(n) }
		err := feed.feedText(text, fallback, emit)
		var stop stopError
		if errors.As(err, &stop) {
			return stop.err
		}
		if err != nil {
			log.Warn("lichess broadcast: unreadable PGN skipped", "source", s.Name(), "err", err)
		}
		return nil
	}
	var err error
	if s.TourID != "" {
		err = s.Client.StreamBroadcastTour(ctx, s.TourID, fn)
	} else {
		err = s.Client.StreamBroadcastRound(ctx, s.RoundID, fn)
	}
	if errors.Is(err, lichess.ErrNotFound) {
		return fmt.Errorf("%s does not exist (or is not public): %w", s.Name(), err)
	}
	return err
}

// observe makes the Lichess streams opened with ctx report their state to
// onState (nothing when it is nil).
func observe(ctx context.Context, onState func(connected bool, err error)) context.Context {
	if onState == nil {
		return ctx
	}
	return lichess.WithStreamObserver(ctx, onState)
}

// BroadcastGameID is the id of a game of a Lichess broadcast: the chapter
// id that ends its [GameURL]
// (https://lichess.org/broadcast/<tour>/<round>/<round id>/<chapter id>),
// as unique on Lichess as a game id, on the configured lichess.url too. A
// URL of another shape is its own id.
func BroadcastGameID(gameURL string) string {
	u, err := url.Parse(gameURL)
	if err != nil {
		return gameURL
	}
	// The base may carry a path (a mirror, the fake): look from the end.
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if n := len(parts); n < 5 || parts[n-5] != "broadcast" || parts[n-1] == "" {
		return gameURL
	}
	return parts[len(parts)-1]
}

// followedVariant: the games of a variant whose repetition rule is
// chess's (standard, fromPosition, chess960) are followed.
func followedVariant(v string) bool {
	_, err := rules.ParseVariant(v)
	return err == nil
}
