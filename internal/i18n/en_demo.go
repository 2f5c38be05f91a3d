package i18n

// enDemo is the demo part of the en catalog.
var enDemo = catalogOf{
	DemoIntro:       s("threefold demo — no account, no network: a simulated Lichess at %[1]s replays recorded real games."),
	DemoDashboard:   s("dashboard: %[1]s"),
	DemoFollowing:   s("following: a broadcast round of %[1]d boards, a blitz game that reaches a fifth occurrence, and the bot's games; the demo ends after %[2]s (Ctrl-C ends it sooner)."),
	DemoBotGame:     pluralOf(6, "one", "bot game %[1]s (%[2]s vs %[3]s) over: %[4]s, %[5]s after %[6]d ply.", "other", "bot game %[1]s (%[2]s vs %[3]s) over: %[4]s, %[5]s after %[6]d plies."),
	DemoStored:      s("the store (a temporary one) holds %[1]d games and %[2]d alerts; the webhook (watch.webhooks) received %[3]d of them."),
	DemoOver:        s("demo over (%[1]s): %[2]d alerts."),
	DemoAfter:       s("after %[1]s"),
	DemoInterrupted: s("interrupted"),
}
