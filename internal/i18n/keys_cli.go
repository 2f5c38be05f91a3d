package i18n

// What the commands that talk to Lichess say: broadcasts, healthcheck,
// login and logout, bot upgrade, bot challenge.
const (
	BcOnNow            Key = "bc.on_now" // the top broadcasts: those on now
	BcPast             Key = "bc.past"
	BcNone             Key = "bc.none"
	BcFinished         Key = "bc.finished" // a round's state
	BcOngoing          Key = "bc.ongoing"
	BcStarts           Key = "bc.starts" // %[1]s the date and time, UTC
	BcAfterPrevious    Key = "bc.after_previous"
	BcNotStarted       Key = "bc.not_started"
	BcTier             Key = "bc.tier"            // %[1]d Lichess's tier
	BcMore             Key = "bc.more"            // %[1]s the next page
	HealthConnected    Key = "health.connected"   // healthcheck: a source's state
	HealthDown         Key = "health.down"        // %[1]s the error
	LoginOpen          Key = "login.open"         // %[1]s the address to open, %[2]s where the answer comes
	LoginNoBrowser     Key = "login.no_browser"   // %[1]s the error
	LoginPlainHTTP     Key = "login.plain_http"   // %[1]s the address
	LoginBrowserDone   Key = "login.browser_done" // the page the browser shows after the login
	LoginDone          Key = "login.done"         // %[1]s account, %[2]s scopes, %[3]s token file
	LoginNotBot        Key = "login.not_bot"
	LogoutUnknown      Key = "logout.unknown"
	LogoutDone         Key = "logout.done"         // %[1]s token file
	BotAlready         Key = "bot.already"         // %[1]s account
	BotUpgradeAsk      Key = "bot.upgrade_ask"     // %[1]s account; the user types yes (in English) to go on
	BotUpgraded        Key = "bot.upgraded"        // %[1]s account
	ChallengeCancelled Key = "challenge.cancelled" // %[1]s id
	ChallengeSent      Key = "challenge.sent"      // %[1]s id, %[2]s opponent, %[3]s time control, %[4]s rated or casual, %[5]s colour
	ChallengeUnlimited Key = "challenge.unlimited"
	ChallengeDays      Key = "challenge.days" // %[1]d days per move
	ChallengeRated     Key = "challenge.rated"
	ChallengeCasual    Key = "challenge.casual"
	ChallengeRandom    Key = "challenge.random" // the colour Lichess draws
	ChallengeWhite     Key = "challenge.white"
	ChallengeBlack     Key = "challenge.black"
	ChallengeExpires   Key = "challenge.expires"
)
