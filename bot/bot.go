// Package bot runs a Lichess BOT account that knows the repetition rule.
// It follows the account's event stream, accepts or declines challenges by
// a configurable policy, and plays each game in its own goroutine with a
// UCI engine (or a built-in mover), feeding a rules tracker from the game
// stream. Its move policy never lets a won game end in a repetition draw
// (Lichess draws the first threefold of any BOT game at once), steers into
// one when lost, claims draws where the rule allows, writes short chat
// notices about repetitions, and records every game with the true reason it
// ended, found by replaying it. Run stops gracefully: no new challenges,
// running games finished or resigned as configured.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/backoff"
	"github.com/threefold-chess/threefold/bot/book"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// resumeInterval is how often the games in progress are listed to resume
// any that has no goroutine.
const resumeInterval = 5 * time.Minute

// API is the part of the Lichess client the bot uses; *lichess.Client
// implements it.
type API interface {
	CheckScopes(ctx context.Context, required ...string) (*lichess.Account, error)
	Playing(ctx context.Context) ([]lichess.GameEventInfo, error)
	StreamEvents(ctx context.Context, fn func(lichess.Event) error) error
	AcceptChallenge(ctx context.Context, challengeID string) error
	DeclineChallenge(ctx context.Context, challengeID, reason string) error
	gameAPI
	matchAPI
}

// Options configure a Bot.
type Options struct {
	API    API
	Config Config
	Logger *slog.Logger // default slog.Default()
	Clock  clock.Clock  // default clock.Real
	// Records receives every finished game; default: a JSONLines sink on
	// Config.RecordFile when it is set, else none (the log still has it).
	Records RecordSink
	// NewMover makes the mover of one game; default: an EngineMover for
	// Config.Engine.Path, or the built-in mover when the path is empty.
	NewMover func() Mover
	// BaseURL is used for the game links in records (default
	// https://lichess.org).
	BaseURL string
	// OnGame, if set, is called from a game's goroutine after every state
	// of the game Lichess sends (the first included, the final one last),
	// so that a dashboard or a watcher can follow the bot's games. It must
	// be quick. The state has no Source: the caller names it.
	OnGame func(threefold.GameState)
	// OnStatus, if set, is called with the bot's status (its account's
	// ratings and record, the games running) when Run has read the
	// account, and again whenever a game starts or ends or a rating
	// changes; one call at a time, the last with the latest status. It
	// must be quick.
	OnStatus func(threefold.BotStatus)
}

// Bot is one BOT account at work.
type Bot struct {
	api      API
	cfg      Config
	log      *slog.Logger
	clock    clock.Clock
	records  RecordSink
	newMover func() Mover
	release  func(Mover) // gives a game's mover back (to the pool) or closes it
	pool     *enginePool // started engines for the games to come; nil without an engine
	baseURL  string
	onGame   func(threefold.GameState)
	onStatus func(threefold.BotStatus)
	statusMu sync.Mutex // one OnStatus call at a time

	me   string
	mm   *matchmaker // nil unless bot.matchmaking is enabled
	book *book.Book  // nil unless bot.book.path is set; open while Run runs

	mu       sync.Mutex
	ratings  map[string]int      // the bot's ratings by category, as last known
	account  threefold.BotStatus // the account and its record (Ratings and Playing filled in by Status)
	games    map[string]*game
	done     map[string]bool      // games played to their end by this process
	doneList []string             // the same, oldest first, to forget the oldest
	pending  map[string]time.Time // accepted challenges whose game has not started
	stopping bool
	playCtx  context.Context
	wg       sync.WaitGroup
}

// New checks the configuration and returns a Bot ready to Run.
func New(opts Options) (*Bot, error) {
	if opts.API == nil {
		return nil, errors.New("bot: no Lichess client")
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, fmt.Errorf("bot: config: %w", err)
	}
	b := &Bot{
		api:      opts.API,
		cfg:      opts.Config,
		log:      opts.Logger,
		clock:    opts.Clock,
		records:  opts.Records,
		newMover: opts.NewMover,
		baseURL:  strings.TrimRight(opts.BaseURL, "/"),
		onGame:   opts.OnGame,
		onStatus: opts.OnStatus,
		games:    map[string]*game{},
		done:     map[string]bool{},
		pending:  map[string]time.Time{},
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.clock == nil {
		b.clock = clock.Real
	}
	if b.baseURL == "" {
		b.baseURL = lichess.DefaultBaseURL
	}
	if b.records == nil && b.cfg.RecordFile != "" {
		b.records = &JSONLines{Path: b.cfg.RecordFile}
	}
	b.release = func(m Mover) { m.Close() }
	if b.newMover == nil {
		ec := b.cfg.Engine
		if ec.CPUBudget > 0 {
			// One engine process per game, the threads shared out.
			ec.Threads = max(1, ec.CPUBudget/b.cfg.Challenge.MaxGames)
		}
		if ec.HashBudget > 0 {
			ec.Hash = max(1, ec.HashBudget/b.cfg.Challenge.MaxGames)
		}
		if ec.Path == "" {
			b.newMover = func() Mover { return &Builtin{Seed: ec.Seed} }
		} else {
			b.pool = newEnginePool(ec, b.cfg.Challenge.MaxGames, b.log)
			b.newMover = func() Mover { return b.pool.get() }
			b.release = func(m Mover) {
				if em, ok := m.(*EngineMover); ok {
					b.pool.put(em)
				} else {
					m.Close()
				}
			}
		}
	}
	return b, nil
}

// Run plays until ctx ends, then stops gracefully (see Config.OnStop) and
// returns. It fails at once, before touching any game, when the token is
// bad or lacks bot:play, the account is not a BOT, or the engine does not
// start.
func (b *Bot) Run(ctx context.Context) error {
	acct, err := b.api.CheckScopes(ctx, lichess.ScopeBotPlay, lichess.ScopeChallengeRead)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	if !acct.IsBot() {
		return fmt.Errorf("bot: account %q is not a BOT account (run `threefold bot upgrade` once; it is irreversible)", acct.Username)
	}
	b.me = strings.ToLower(acct.ID)
	if b.me == "" {
		b.me = strings.ToLower(acct.Username)
	}
	if p := b.cfg.Book.Path; p != "" {
		bk, err := book.Open(p)
		if err != nil {
			return fmt.Errorf("bot: opening book (bot.book.path): %w", err)
		}
		defer bk.Close()
		b.book = bk
		b.log.Info("opening book", "path", p, "entries", bk.Entries(), "max_moves", b.cfg.Book.MaxMoves, "choice", b.cfg.Book.Choice)
	}
	b.mu.Lock()
	b.ratings = map[string]int{}
	for perf, p := range acct.Perfs {
		if p.Rating > 0 {
			b.ratings[perf] = p.Rating
		}
	}
	ratings := maps.Clone(b.ratings)
	b.account = threefold.BotStatus{Account: acct.Username, URL: acct.URL,
		Wins: acct.Count.Win, Draws: acct.Count.Draw, Losses: acct.Count.Loss}
	if b.account.Account == "" {
		b.account.Account = b.me
	}
	b.mu.Unlock()
	b.statusChanged()
	if b.cfg.Matchmaking.Enabled {
		mm, err := newMatchmaker(b.cfg.Matchmaking, b.api, b.clock, b.log, b.me, ratings, b.room)
		if err != nil {
			return fmt.Errorf("bot: matchmaking: %w", err)
		}
		b.mm = mm
	}
	var warmWG sync.WaitGroup
	if b.pool != nil {
		m := b.pool.get()
		err := m.Start(ctx)
		name := m.Name()
		b.pool.put(m)
		if err != nil {
			return fmt.Errorf("bot: engine: %w", err)
		}
		b.log.Info("engine ready", "engine", name, "path", b.cfg.Engine.Path, "threads", b.pool.cfg.Threads, "max_games", b.cfg.Challenge.MaxGames)
		// One engine per game, started now rather than when a game needs it.
		warmCtx, stopWarm := context.WithCancel(ctx)
		warmWG.Add(1)
		go func() {
			defer warmWG.Done()
			b.pool.warm(warmCtx, b.cfg.Challenge.MaxGames)
			if warmCtx.Err() == nil {
				b.log.Info("engines warm", "idle", b.pool.idleCount())
			}
		}()
		defer func() {
			stopWarm()
			warmWG.Wait()
			b.pool.close()
		}()
	}
	b.log.Info("bot started", "account", acct.Username)

	// Games outlive ctx while they are finished gracefully; hardStop ends
	// them for good.
	playCtx, hardStop := context.WithCancel(context.WithoutCancel(ctx))
	defer hardStop()
	b.mu.Lock()
	b.playCtx = playCtx
	b.mu.Unlock()

	b.resume(ctx)

	var mmWG sync.WaitGroup
	if b.mm != nil {
		mmCtx, stopMM := context.WithCancel(ctx)
		mmWG.Add(1)
		go func() {
			defer mmWG.Done()
			b.mm.run(mmCtx)
		}()
		defer func() {
			stopMM()
			mmWG.Wait()
		}()
		b.log.Info("matchmaking on", "every", b.cfg.Matchmaking.Idle, "time_controls", b.cfg.Matchmaking.TimeControls)
	}

	evErr := make(chan error, 1)
	evCtx, stopEvents := context.WithCancel(ctx)
	var evWG sync.WaitGroup
	evWG.Add(1)
	go func() {
		defer evWG.Done()
		evErr <- b.events(evCtx)
	}()

	// Look for games in progress now and then as well, so that a game
	// whose goroutine gave up (or whose start was missed) is resumed.
	var runErr error
	resumeT := b.clock.NewTimer(resumeInterval)
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case runErr = <-evErr:
			break loop
		case <-resumeT.C():
			b.resume(ctx)
			resumeT.Reset(resumeInterval)
		}
	}
	resumeT.Stop()
	stopEvents()
	evWG.Wait()
	b.shutdown(hardStop)
	return runErr
}

// events follows the event stream until ctx ends; it resumes the games in
// progress whenever the stream has to be opened again.
func (b *Bot) events(ctx context.Context) error {
	retry := backoff.Backoff{Policy: backoff.Policy{Initial: time.Second, Max: time.Minute, NoJitter: true}}
	for {
		err := b.api.StreamEvents(ctx, func(ev lichess.Event) error {
			b.onEvent(ctx, ev)
			return nil
		})
		if ctx.Err() != nil {
			return nil
		}
		var ae *lichess.AuthError
		if errors.As(err, &ae) {
			return fmt.Errorf("bot: event stream: %w", err)
		}
		wait := retry.Next()
		b.log.Warn("event stream ended; reopening", "err", err, "in", wait)
		t := b.clock.NewTimer(wait)
		select {
		case <-t.C():
		case <-ctx.Done():
			t.Stop()
			return nil
		}
		b.resume(ctx)
	}
}

// resume starts a goroutine for every game in progress that has none.
func (b *Bot) resume(ctx context.Context) {
	games, err := b.api.Playing(ctx)
	if err != nil {
		if ctx.Err() == nil { // stopping: nothing to warn of
			b.log.Warn("cannot list the games in progress; relying on the event stream", "err", err)
		}
		return
	}
	for _, gi := range games {
		b.startGame(gi)
	}
}

func (b *Bot) onEvent(ctx context.Context, ev lichess.Event) {
	switch ev.Type {
	case lichess.EventGameStart:
		if ev.Game != nil {
			if b.mm != nil {
				b.mm.started(gameID(*ev.Game))
			}
			b.startGame(*ev.Game)
		}
	case lichess.EventGameFinish:
		if gi := ev.Game; gi != nil {
			b.log.Info("game finished (event stream)", "game", gameID(*gi), "status", gi.Status.Name)
			if gi.Rated && gi.Rating > 0 && gi.Speed != "" {
				b.mu.Lock()
				b.ratings[gi.Speed] = gi.Rating + gi.RatingDiff
				b.mu.Unlock()
				b.statusChanged()
				if b.mm != nil {
					b.mm.rated(gi.Speed, gi.Rating+gi.RatingDiff)
				}
			}
		}
	case lichess.EventChallenge:
		b.onChallenge(ctx, ev.Challenge)
	case lichess.EventChallengeCanceled, lichess.EventChallengeDeclined:
		ch := ev.Challenge
		if ch == nil {
			break
		}
		b.mu.Lock()
		delete(b.pending, ch.ID)
		b.mu.Unlock()
		if b.mm != nil && ch.Challenger != nil && strings.EqualFold(ch.Challenger.ID, b.me) {
			reason := ""
			if ev.Type == lichess.EventChallengeDeclined {
				reason = ch.DeclineReasonKey
				if reason == "" {
					reason = "generic"
				}
			}
			b.mm.answered(ch.ID, reason)
		}
	}
}

func gameID(gi lichess.GameEventInfo) string {
	if gi.GameID != "" {
		return gi.GameID
	}
	return gi.ID
}

func (b *Bot) onChallenge(ctx context.Context, ch *lichess.Challenge) {
	if ch == nil {
		return
	}
	if ch.Direction == "out" || (ch.Challenger != nil && strings.EqualFold(ch.Challenger.ID, b.me)) {
		return // our own challenge
	}
	b.mu.Lock()
	now := b.clock.Now()
	for id, at := range b.pending {
		if now.Sub(at) > time.Minute {
			delete(b.pending, id)
		}
	}
	running := len(b.games) + len(b.pending)
	if b.mm != nil {
		running += b.mm.pending()
	}
	d := b.cfg.Challenge.DecideChallenge(ch, running, b.stopping)
	if d.Accept {
		b.pending[ch.ID] = now
	}
	b.mu.Unlock()
	who := ""
	if ch.Challenger != nil {
		who = ch.Challenger.ID
	}
	log := b.log.With("challenge", ch.ID, "from", who, "variant", ch.Variant.Key, "tc", ch.TimeControl.Show, "rated", ch.Rated)
	if d.Accept {
		if err := b.api.AcceptChallenge(ctx, ch.ID); err != nil {
			log.Warn("accept failed", "err", err)
			b.mu.Lock()
			delete(b.pending, ch.ID)
			b.mu.Unlock()
			return
		}
		log.Info("challenge accepted")
		return
	}
	if err := b.api.DeclineChallenge(ctx, ch.ID, d.Reason); err != nil {
		log.Warn("decline failed", "reason", d.Reason, "err", err)
		return
	}
	log.Info("challenge declined", "reason", d.Reason, "why", d.Why)
}

// startGame starts the goroutine of a game unless it runs already or the
// bot is stopping.
func (b *Bot) startGame(gi lichess.GameEventInfo) {
	id := gameID(gi)
	if id == "" {
		return
	}
	if _, err := rules.ParseVariant(gi.Variant.Key); err != nil {
		b.log.Warn("game in an unsupported variant; its goroutine will resign it", "game", id, "variant", gi.Variant.Key)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pending, id)
	if _, ok := b.games[id]; ok || b.done[id] || b.stopping || b.playCtx == nil {
		return
	}
	g := &game{
		id:      id,
		me:      b.me,
		hint:    gi.Color,
		url:     b.baseURL + "/" + id,
		api:     b.api,
		cfg:     &b.cfg,
		clock:   b.clock,
		log:     b.log,
		mover:   b.newMover(),
		release: b.release,
		sink:    b.records,
		stop:    make(chan struct{}),

		book:     b.book,
		bookRand: newBookRand(b.cfg.Engine.Seed, id),

		onGame: b.onGame,

		correspondence: gi.Speed == "correspondence",
	}
	ctx, cancel := context.WithCancel(b.playCtx)
	g.cancel = cancel
	b.games[id] = g
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer cancel()
		b.statusChanged()
		g.run(ctx)
		b.mu.Lock()
		delete(b.games, id)
		switch g.outcome {
		case "win":
			b.account.Wins++
		case "draw":
			b.account.Draws++
		case "loss":
			b.account.Losses++
		}
		if g.finished {
			b.done[id] = true
			b.doneList = append(b.doneList, id)
			if len(b.doneList) > 10000 {
				delete(b.done, b.doneList[0])
				b.doneList = b.doneList[1:]
			}
		}
		b.mu.Unlock()
		b.statusChanged()
	}()
}

// room is how many more games the bot may start now: max_games less the
// games running, the challenges accepted and those sent.
func (b *Bot) room() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopping {
		return 0
	}
	n := b.cfg.Challenge.MaxGames - len(b.games) - len(b.pending)
	if b.mm != nil {
		n -= b.mm.pending()
	}
	return n
}

// Status returns the bot's status: its account, its ratings by category
// (bullet, blitz, …) as last known (from the account at start, then after
// each rated game), its record (Lichess's count at start, then each game
// this process played to its end) and the games running.
func (b *Bot) Status() threefold.BotStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.account
	s.Ratings = maps.Clone(b.ratings)
	s.Playing = len(b.games)
	return s
}

// statusChanged hands the status to Options.OnStatus.
func (b *Bot) statusChanged() {
	if b.onStatus == nil {
		return
	}
	b.statusMu.Lock()
	defer b.statusMu.Unlock()
	b.onStatus(b.Status())
}

// Playing returns the ids of the games the bot is playing now.
func (b *Bot) Playing() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := make([]string, 0, len(b.games))
	for id := range b.games {
		ids = append(ids, id)
	}
	return ids
}

// shutdown ends the running games as configured and waits for them.
func (b *Bot) shutdown(hardStop context.CancelFunc) {
	b.mu.Lock()
	b.stopping = true
	games := make([]*game, 0, len(b.games))
	for _, g := range b.games {
		games = append(games, g)
	}
	b.mu.Unlock()
	if len(games) == 0 {
		return
	}
	b.log.Info("stopping: no new challenges", "games", len(games), "on_stop", b.cfg.OnStop)
	done := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(done)
	}()
	for _, g := range games {
		if g.correspondence {
			g.cancel() // left as it is and resumed at the next start
		}
	}
	resignAll := func() {
		for _, g := range games {
			if !g.correspondence {
				g.resign()
			}
		}
	}
	if b.cfg.OnStop == "resign" {
		resignAll()
	}
	t := b.clock.NewTimer(b.cfg.StopTimeout)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-t.C():
	}
	b.log.Warn("stop timeout: resigning the games still running")
	resignAll()
	t2 := b.clock.NewTimer(30 * time.Second)
	defer t2.Stop()
	select {
	case <-done:
	case <-t2.C():
		hardStop()
		<-done
	}
}
