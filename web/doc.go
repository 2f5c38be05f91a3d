// Package web is the live dashboard, its websocket feed, /metrics and /healthz.
//
// It is the live dashboard: an http.Handler serving a page of every
// game followed (a live SVG board each, the occurrence count of the current
// position, the claims available, an alert feed), a page per game (the move
// list with every occurrence of a repeated position marked, the board at any
// ply), the websocket that pushes every change to the pages, /metrics for
// Prometheus and /healthz. A Hub holds the state; the program feeds it game
// updates, alerts and source states (Hub.Update, Hub.Alert,
// Hub.SourceStatus), and it replays each game with package rules to mark
// the repetitions. Dashboard runs a Hub, its Metrics and its Server
// together for a program. Everything the pages need is embedded in the
// binary.
package web
