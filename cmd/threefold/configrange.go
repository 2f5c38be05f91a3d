package main

import (
	"reflect"
	"time"

	"github.com/threefold-chess/threefold/internal/configkeys"
	"github.com/threefold-chess/threefold/pgn"
)

// ints and durs keep the table of ranges short.
var (
	ints = configkeys.Ints
	durs = configkeys.Durations
)

const day = 24 * time.Hour

// keyRanges holds the range of every numeric and duration key;
// TestEveryNumericKeyHasARange keeps it complete.
var keyRanges = map[string]configkeys.Range{
	"chesscom.poll_interval":            durs(time.Second, 7*day),
	"bot.engine.threads":                ints(0, 1024),
	"bot.engine.hash":                   ints(0, 1<<20),
	"bot.engine.min_move_time":          durs(0, time.Hour),
	"bot.engine.max_move_time":          durs(time.Millisecond, day),
	"bot.engine.move_overhead":          durs(0, time.Minute),
	"bot.engine.depth":                  ints(0, 1000),
	"bot.engine.nodes":                  ints(0, 1<<50),
	"bot.engine.restarts":               ints(0, 100),
	"bot.engine.seed":                   ints(-1<<63, 1<<63-1),
	"bot.engine.cpu_budget":             ints(0, 4096),
	"bot.engine.hash_budget":            ints(0, 1<<20),
	"bot.policy.ahead_margin":           ints(0, 100000),
	"bot.policy.behind_margin":          ints(0, 100000),
	"bot.policy.seek_tolerance":         ints(0, 100000),
	"bot.policy.claim_wait":             durs(0, time.Hour),
	"bot.draw_offers.accept_behind":     ints(0, 100000),
	"bot.draw_offers.accept_even":       ints(0, 100000),
	"bot.draw_offers.min_move":          ints(0, 10000),
	"bot.challenge.min_base":            durs(0, 30*day),
	"bot.challenge.max_base":            durs(0, 30*day),
	"bot.challenge.min_increment":       durs(0, day),
	"bot.challenge.max_increment":       durs(0, day),
	"bot.challenge.max_games":           ints(0, 1000),
	"bot.chat.min_interval":             durs(0, time.Hour),
	"bot.matchmaking.idle":              durs(time.Second, day),
	"bot.matchmaking.rating_difference": ints(0, 4000),
	"bot.matchmaking.daily_challenges":  ints(0, 100000),
	"bot.matchmaking.challenge_timeout": durs(time.Second, 30*day),
	"bot.matchmaking.decline_backoff":   durs(0, 30*day),
	"bot.book.max_moves":                ints(1, 1000),
	"bot.stop_timeout":                  durs(0, 7*day),
	"watch.queue_size":                  ints(1, 1000000),
	"watch.file_poll_interval":          durs(10*time.Millisecond, day),
	"watch.dgt_settle":                  durs(0, time.Minute),
	"watch.dgt_boards_every":            durs(time.Second, day),
	"watch.dgt_max_failures":            ints(0, 1000000),
	"watch.lease_ttl":                   durs(100*time.Millisecond, day),
	"watch.stream_budget":               ints(0, 100000),
	"watch.game_budget":                 ints(0, 100000),
	"watch.outbox_hold":                 durs(0, day),
	"watch.finished_grace":              durs(time.Second, 30*day),
	"http.max_connections":              ints(8, 1000000),
	"http.max_connections_per_client":   ints(4, 1000000),
	"http.max_websockets":               ints(1, 100000),
	"http.max_websockets_per_client":    ints(1, 100000),
	"store.busy_timeout":                durs(0, time.Hour),
	"pgn.max_line_bytes":                ints(1<<10, pgn.MaxLimit),
	"pgn.max_game_bytes":                ints(1<<10, pgn.MaxLimit),
	"pgn.max_plies":                     ints(1, pgn.MaxLimit),
	"pgn.max_tag_bytes":                 ints(1, pgn.MaxLimit),
}

// checkRanges refuses the first numeric or duration value outside its
// range, naming the key, the value and the range.
func checkRanges(c *config) error { return configkeys.CheckRanges(reflect.ValueOf(*c), keyRanges) }
