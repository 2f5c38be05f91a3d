package i18n

// What `threefold demo` says on its console.
const (
	DemoIntro       Key = "demo.intro"     // %[1]s the simulated Lichess's URL
	DemoDashboard   Key = "demo.dashboard" // %[1]s the dashboard's URL
	DemoFollowing   Key = "demo.following" // %[1]d boards, %[2]s how long the demo runs
	DemoBotGame     Key = "demo.bot_game"  // %[1]s id, %[2]s %[3]s players, %[4]s result, %[5]s how it ended, %[6]d plies
	DemoStored      Key = "demo.stored"    // %[1]d games, %[2]d alerts, %[3]d received by the webhook
	DemoOver        Key = "demo.over"      // %[1]s why (DemoAfter, DemoInterrupted), %[2]d alerts
	DemoAfter       Key = "demo.after"     // %[1]s the demo's duration
	DemoInterrupted Key = "demo.interrupted"
)
