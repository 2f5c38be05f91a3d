package main

import (
	"time"

	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
)

// watchConfig is the `watch:` section of the config file (threefold watch).
type watchConfig struct {
	Sources []string `mapstructure:"sources"` // sources followed in addition to the command-line ones
	// Webhooks receive every alert. Each is {kind: discord|slack|json, url: …}
	// or, to keep the URL out of the file, {kind, url_env: VARIABLE}; the URL
	// is a secret and never appears in a log line.
	Webhooks []notify.WebhookSpec `mapstructure:"webhooks"`
	// QueueSize bounds the alerts waiting for one webhook; when full, the
	// oldest is dropped (and counted in a warning): a slow webhook never
	// delays detection.
	QueueSize int `mapstructure:"queue_size" range:"1,1000000"`
	// FilePollInterval is how often PGN files and folders are checked for
	// changes.
	FilePollInterval time.Duration `mapstructure:"file_poll_interval" range:"10ms,24h"`
	// DGTMaxFailures ends a DGT LiveChess source after this many connection
	// attempts in a row that never reach the server (0: retry forever).
	DGTMaxFailures int `mapstructure:"dgt_max_failures" range:"0,1000000"`
	// DGTSettle is how long a DGT board's change must stand before it is
	// taken: LiveChess misreads moves while pieces are in the air and
	// corrects them a moment later (0: take every change at once).
	DGTSettle time.Duration `mapstructure:"dgt_settle" range:"0s,1m"`
	// DGTBoardsEvery is how often the list of LiveChess's boards is read
	// again (boards added, switched off, their health).
	DGTBoardsEvery time.Duration `mapstructure:"dgt_boards_every" range:"1s,24h"`

	// Group makes this instance one of a group sharing store.dsn
	// (PostgreSQL; SQLite works for the instances of one machine): each
	// source is followed by the one instance holding its lease, and alerts
	// reach the webhooks through the store's outbox. See package group.
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
	// FinishedGrace is how long a finished game stays in memory (the
	// watcher, the dashboard, the PGN feeds) after it ended; then it is
	// forgotten (its records stay in the store).
	FinishedGrace time.Duration `mapstructure:"finished_grace" range:"1s,720h"`
	// OutboxHold is how long one instance's claim of an outbox row lasts
	// (its send is cancelled at half of it): an alert whose instance died
	// while sending it is sent by another after this time. 0: four lease
	// lifetimes (group.HoldPerLease).
	OutboxHold time.Duration `mapstructure:"outbox_hold" range:"0s,24h"`
}

func defaultWatchConfig() watchConfig {
	var c watchConfig
	c.QueueSize = 1000
	c.FilePollInterval = 2 * time.Second
	c.DGTSettle = 2500 * time.Millisecond // as long as Lichess's DGT connector holds a doubtful move
	c.DGTBoardsEvery = 30 * time.Second
	c.LeaseTTL = 30 * time.Second
	c.StreamBudget = 4 // Lichess: 4 "events"-like streams per IP
	c.GameBudget = 8   // Lichess: 8 spectator game streams per IP
	c.FinishedGrace = listener.DefaultFinishedGrace
	return c
}
