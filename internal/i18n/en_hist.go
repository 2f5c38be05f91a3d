package i18n

// enHist is the hist part of the en catalog.
var enHist = catalogOf{
	HistAlertsTitle: s("Alerts (%[1]s)"),
	HistGamesTitle:  s("Games (%[1]s)"),
	HistListed:      s("%[1]d, %[2]s"),
	HistListedOf:    s("%[1]d of %[2]d, %[3]s; --limit 0 lists all"),
	HistNewestFirst: s("newest first"),
	HistRecentFirst: s("most recently updated first"),
	HistAlertHeader: s("OBSERVED\tKIND\tGAME\tPLY\tPLAYERS\tWHAT\tLINK"),
	HistGameHeader:  s("UPDATED\tGAME\tPLAYERS\tPLIES\tRESULT\tSOURCE\tLINK"),
	HistThreefold:   s("%[1]s occurrence (plies %[2]s): %[3]s may claim"),
	HistFivefold:    s("%[1]s occurrence (plies %[2]s): drawn"),
	HistClaimByMove: s("%[1]s may claim by declaring %[2]s (position of plies %[3]s)"),
	HistFifty:       s("%[1]s may claim: 50 moves without pawn move or capture"),
	HistSeventyFive: s("drawn: 75 moves without pawn move or capture"),
	HistWithdrawn:   s("withdraws the %[1]s alert %[2]s: %[3]s"),
	HistCorrected:   s("the moves were corrected"),
	HistGoingOn:     s(" (going on)"),
}
