package i18n

// history's tables (cmd/threefold history).
const (
	HistAlertsTitle Key = "hist.alerts_title"
	HistGamesTitle  Key = "hist.games_title"
	HistListed      Key = "hist.listed"
	HistListedOf    Key = "hist.listed_of"
	HistNewestFirst Key = "hist.newest_first"
	HistRecentFirst Key = "hist.recent_first"
	HistAlertHeader Key = "hist.alert_header"
	HistGameHeader  Key = "hist.game_header"
	HistThreefold   Key = "hist.threefold"
	HistFivefold    Key = "hist.fivefold"
	HistClaimByMove Key = "hist.claim_by_move"
	HistFifty       Key = "hist.fifty_moves"
	HistSeventyFive Key = "hist.seventy_five_moves"
	HistWithdrawn   Key = "hist.withdrawn"
	HistCorrected   Key = "hist.corrected"
	HistGoingOn     Key = "hist.going_on"
)
