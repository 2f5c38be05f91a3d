package group

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

// HoldPerLease is how many lease lifetimes an outbox claim lasts when the
// config sets no outbox hold: a send cut short by its instance's death is
// retried by another instance after that long (2 min with the default
// 30 s lease). A claim must outlast the slowest send (a send is cancelled
// at half the hold), so it is longer than the lease.
const HoldPerLease = 4

// Settings are the keys of group mode in the watch: section of the config
// file (the mapstructure tags, with the sane range of each);
// DefaultSettings has their defaults.
type Settings struct {
	// Group makes this instance one of a group sharing store.dsn
	// (PostgreSQL; SQLite works for the instances of one machine): each
	// source is followed by the one instance holding its lease, and alerts
	// reach the webhooks through the store's outbox.
	Group bool `mapstructure:"group"`
	// LeaseTTL is the lifetime of a lease from its last renewal (renewed
	// every LeaseTTL/3): a source whose instance died is taken over by
	// another within about this time.
	LeaseTTL time.Duration `mapstructure:"lease_ttl" range:"100ms,24h"`
	// StreamBudget is the most sources (broadcast rounds, users, TV
	// channels, chess.com and DGT sources…) one instance follows at once:
	// Lichess allows few "events"-like streams per IP address.
	StreamBudget int `mapstructure:"stream_budget" range:"0,100000"`
	// GameBudget is the most single Lichess games (a spectator game stream
	// each) one instance follows at once.
	GameBudget int `mapstructure:"game_budget" range:"0,100000"`
	// OutboxHold is how long one instance's claim of an outbox row lasts
	// (its send is cancelled at half of it): an alert whose instance died
	// while sending it is sent by another after this time. 0: HoldPerLease
	// lease lifetimes.
	OutboxHold time.Duration `mapstructure:"outbox_hold" range:"0s,24h"`
}

// DefaultSettings are the Settings of a config file that sets none of
// their keys: Lichess allows 4 "events"-like streams and 8 spectator game
// streams per IP address.
func DefaultSettings() Settings {
	return Settings{LeaseTTL: 30 * time.Second, StreamBudget: 4, GameBudget: 8}
}

// Config is the membership of the settings s, sending to sinks.
func (s Settings) Config(sinks map[string]delivery.Sink, log *slog.Logger) Config {
	return Config{LeaseTTL: s.LeaseTTL, OutboxHold: s.OutboxHold, Sinks: sinks, Log: log,
		Budget: map[string]int{store.LeaseSource: s.StreamBudget, store.LeaseGame: s.GameBudget}}
}

// Config is a watch's membership of a group.
type Config struct {
	LeaseTTL time.Duration  // 0: store.DefaultLeaseTTL
	Budget   map[string]int // by lease kind; ≤ 0 or missing: no limit
	// OutboxHold is how long an outbox claim lasts; 0: HoldPerLease
	// lease lifetimes.
	OutboxHold time.Duration
	// Sinks are the webhooks, named alike on every instance.
	Sinks map[string]delivery.Sink
	Log   *slog.Logger
	Clock clock.Clock
}

// Session is a watch's membership of the group: the instance, its leased
// sources and the outbox relay to the webhooks.
type Session struct {
	st     *store.Store
	in     *store.Instance
	member *Member
	relay  *delivery.Relay
	sinks  map[string]delivery.Sink
	hold   time.Duration
	log    *slog.Logger
	clock  clock.Clock

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Join joins the group of st and builds the relay over the sinks.
func Join(ctx context.Context, st *store.Store, cfg Config) (*Session, error) {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	clk := clock.Or(cfg.Clock)
	in, err := st.Join(ctx, store.InstanceConfig{LeaseTTL: cfg.LeaseTTL, Budget: cfg.Budget, Now: clk.Now})
	if err != nil {
		return nil, fmt.Errorf("group: join: %w", err)
	}
	hold := cfg.OutboxHold
	if hold <= 0 {
		hold = HoldPerLease * in.LeaseTTL()
	}
	g := &Session{st: st, in: in, member: NewMember(st, in, Options{Log: log, Clock: clk}), log: log, sinks: cfg.Sinks, hold: hold, clock: clk,
		relay: delivery.NewRelay(st, delivery.RelayConfig{Claimer: in.ID(), Sinks: cfg.Sinks, Hold: hold, Log: log, Clock: clk})}
	log.Info("group: joined", "instance", in.ID(), "lease_ttl", in.LeaseTTL(), "outbox_hold", hold,
		"stream_budget", in.Budget(store.LeaseSource), "game_budget", in.Budget(store.LeaseGame))
	return g, nil
}

// Wrap returns src run under its lease; wrap every source before Start.
// kind is LeaseKind of the bare source.
func (g *Session) Wrap(src listener.Source, kind string) listener.Source {
	return g.member.Wrap(src, kind)
}

// Gate returns the function the watcher calls with each alert: stored with
// an outbox row for every sink, then passed to local (see delivery.Relay).
func (g *Session) Gate(ctx context.Context, local func(threefold.Alert)) func(threefold.Alert) {
	return g.relay.Gate(ctx, local)
}

// Hold is how long an outbox claim lasts.
func (g *Session) Hold() time.Duration { return g.hold }

// SaveState writes a source's stored state: fenced by the source's lease
// for a source of kind source.
func (g *Session) SaveState(ctx context.Context, source string, state []byte) error {
	if g.member.Leased(source) {
		return g.in.SaveSourceState(ctx, source, state)
	}
	return g.st.SaveSourceState(ctx, source, state)
}

// Start runs the lease loop (until ctx is done) and the relay (until
// Close, or deliverCtx is done); the sources must all be wrapped already.
func (g *Session) Start(ctx, deliverCtx context.Context) {
	rctx, cancelRelay := context.WithCancel(deliverCtx)
	mctx, cancelMember := context.WithCancel(ctx)
	g.cancel = func() { cancelMember(); cancelRelay() }
	g.wg.Add(2)
	go func() { defer g.wg.Done(); g.member.Run(mctx) }()
	go func() { defer g.wg.Done(); _ = g.relay.Run(rctx) }()
}

// pending counts the outbox rows of the relay's sinks not sent yet.
func (g *Session) pending(ctx context.Context) int {
	gs, err := g.st.Status(ctx, g.clock.Now())
	if err != nil {
		return 0
	}
	n := 0
	for _, o := range gs.Outbox {
		if _, ok := g.sinks[o.Sink]; ok {
			n += o.Pending
		}
	}
	return n
}

// Close sends what the outbox holds, stops the relay and the lease loop,
// and leaves the group: the leases still held are free for the others at
// once. It waits (at most drain) until no alert is pending: rows claimed
// by an instance that died are due again when their hold runs out, and
// the last instance of a group that ends must send them.
func (g *Session) Close(drain time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	for ctx.Err() == nil {
		n, err := g.relay.Once(ctx)
		if err != nil {
			break
		}
		if n > 0 {
			continue
		}
		if g.pending(ctx) == 0 {
			break
		}
		_ = clock.Sleep(ctx, g.clock, 250*time.Millisecond)
	}
	if n := g.pending(context.Background()); n > 0 {
		g.log.Warn("group: alerts still pending in the outbox at the end; an instance of the group sends them", "alerts", n)
	}
	if g.cancel != nil {
		g.cancel()
	}
	g.wg.Wait()
	lctx, lcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer lcancel()
	if err := g.in.Leave(lctx); err != nil {
		g.log.Warn("group: leave", "err", err)
	}
}
