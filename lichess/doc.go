// Package lichess is the one client threefold uses for the Lichess HTTP API.
//
// It is the one client threefold uses for the Lichess HTTP API:
// the BOT endpoints (event stream, game stream, moves, chat, draws,
// challenges), the spectator streams (game moves, games by users or ids, TV,
// broadcast PGN) and the token checks. A [Client] serves one account: its
// requests go through a governor that sends one request at a time and pauses
// the whole account when Lichess answers 429; its streams are NDJSON readers
// with a keep-alive watchdog that reconnect with jittered backoff and resume
// exactly, so a consumer never sees an event twice and never misses the state
// after a reconnect; stream opens are kept within Lichess's per-IP limits by
// a shared [StreamBudget]. Time comes from an injected clock.Clock and the token
// never reaches a log line, an error or a panic. An offline Lichess, for
// tests and the demo, is package fakelichess.
package lichess
