package i18n

// Key names one message. Its text in each language is in that language's
// catalog (en.go, ru.go, tr.go, fa.go).
type Key string

// The words every part uses.
const (
	White Key = "color.white" // the side, as a subject: "White may claim"
	Black Key = "color.black"

	// ListSep separates the items of a list: ", ", in Persian "، ".
	ListSep Key = "list.sep"
	// Occurrences is a count of occurrences: "3 occurrences".
	Occurrences Key = "count.occurrences"
)

// The bot's chat notices: templates with named placeholders ({opponent},
// {plies}, …; see bot.RenderChat), at most 140 characters once filled.
const (
	ChatGreeting Key = "chat.greeting"
	ChatGoodbye  Key = "chat.goodbye"
	ChatSecond   Key = "chat.second"
	ChatThird    Key = "chat.third"
	ChatClaim    Key = "chat.claim"
	ChatFifth    Key = "chat.fifth"
)

// ChatKeys lists the chat notices.
var ChatKeys = []Key{ChatGreeting, ChatGoodbye, ChatSecond, ChatThird, ChatClaim, ChatFifth}

// How a game ended, one sentence each (the bot's goodbye says it).
// %[1]s is the plies of the occurrences ("8, 12, 16") or the winner
// (White, Black).
const (
	EndThreefoldClaimed   Key = "end.threefold_claimed"
	EndThreefoldAutomatic Key = "end.threefold_automatic"
	EndFivefold           Key = "end.fivefold"
	EndFiftyMoves         Key = "end.fifty_moves"
	EndInsufficient       Key = "end.insufficient"
	EndAgreement          Key = "end.agreement"
	EndMoveCap            Key = "end.move_cap"
	EndCheckmate          Key = "end.checkmate"
	EndStalemate          Key = "end.stalemate"
	EndResignation        Key = "end.resignation"
	EndTimeDraw           Key = "end.time_draw"
	EndTime               Key = "end.time"
	EndOpponentLeft       Key = "end.opponent_left"
	EndAborted            Key = "end.aborted"
	EndOver               Key = "end.over"
)

// EndingKeys lists the endings.
var EndingKeys = []Key{EndThreefoldClaimed, EndThreefoldAutomatic, EndFivefold, EndFiftyMoves,
	EndInsufficient, EndAgreement, EndMoveCap, EndCheckmate, EndStalemate, EndResignation,
	EndTimeDraw, EndTime, EndOpponentLeft, EndAborted, EndOver}

// catalogOf is every message of one language.
type catalogOf map[Key]text

var catalogs = map[Lang]catalogOf{
	English: merge(en, enWeb, enScan, enHist, enErr, enStatus, enSrc, enGame, enDemo, enCli), Russian: merge(ru, ruWeb, ruScan, ruHist, ruErr, ruStatus, ruSrc, ruGame, ruDemo, ruCli),
	Turkish: merge(tr, trWeb, trScan, trHist, trErr, trStatus, trSrc, trGame, trDemo, trCli), Persian: merge(fa, faWeb, faScan, faHist, faErr, faStatus, faSrc, faGame, faDemo, faCli),
}

// merge puts the parts of one language's catalog together.
func merge(parts ...catalogOf) catalogOf {
	out := catalogOf{}
	for _, p := range parts {
		for k, t := range p {
			if _, dup := out[k]; dup {
				panic("i18n: " + string(k) + " is in two parts of a catalog") // a programming error, caught by every test
			}
			out[k] = t
		}
	}
	return out
}

// Alerts: the text of an alert on a terminal, in Discord and Slack, and in
// the "text" of a JSON webhook (its keys and kind values stay English).
const (
	AlertForArbiters     Key = "alert.for_arbiters" // who the alert is for
	AlertForOperator     Key = "alert.for_operator"
	AlertFor             Key = "alert.for" // another audience, %[1]s as it is
	AlertBoard           Key = "alert.board"
	AlertThreefold       Key = "alert.threefold" // %[1]d the count, %[2]s the claimant
	AlertClaimByMove     Key = "alert.claim_by_move"
	AlertOr              Key = "alert.or" // between two moves that may be declared
	AlertFivefold        Key = "alert.fivefold"
	AlertFiftyMoves      Key = "alert.fifty_moves"
	AlertSeventyFive     Key = "alert.seventy_five_moves"
	AlertWithdrawn       Key = "alert.withdrawn" // %[1]s the kind withdrawn, %[2]s its ply
	AlertReason          Key = "alert.reason"
	KindThreefold        Key = "kind.threefold" // the kinds, as a withdrawal names them
	KindClaimByMove      Key = "kind.claim_by_move"
	KindFivefold         Key = "kind.fivefold"
	KindFiftyMoves       Key = "kind.fifty_moves"
	KindSeventyFiveMoves Key = "kind.seventy_five_moves"
	AlertPly             Key = "alert.ply"       // "ply 32"
	AlertPlyAfter        Key = "alert.ply_after" // "ply 32 after 17.Qc3+"
	AlertOccurrences     Key = "alert.occurrences"
	// Near repetitions of the position an alert is about: %[1]s the plies,
	// %[2]s how they differ (AlertNearCastling, AlertNearEnPassant).
	AlertNear          Key = "alert.near"
	AlertNearCastling  Key = "alert.near.castling"
	AlertNearEnPassant Key = "alert.near.en_passant"
	OccurrencePly      Key = "occurrence.ply"
	OccurrenceStart    Key = "occurrence.start"
	OccurrenceMove     Key = "occurrence.move"
	OccurrenceClocks   Key = "occurrence.clocks"
	OccurrenceDeclared Key = "occurrence.declared"
	AlertSource        Key = "alert.source"
	AlertDelay         Key = "alert.delay"  // "delay up to 8s"
	AlertBehind        Key = "alert.behind" // "3 plies behind" (a Lichess spectator stream)
	AlertWithdraws     Key = "alert.withdraws"
	DelaySeconds       Key = "delay.seconds"
	DelayMinutes       Key = "delay.minutes"
	DelayHours         Key = "delay.hours"
	FieldPosition      Key = "field.position" // Discord and Slack field names
	FieldOccurrences   Key = "field.occurrences"
	FieldPly           Key = "field.ply"
	FieldFor           Key = "field.for"
	AfterMove          Key = "after_move" // " (after Qc3+)"
	ArbitersWord       Key = "audience.arbiters"
	OperatorWord       Key = "audience.operator"
)
