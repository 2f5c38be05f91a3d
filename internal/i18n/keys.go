package i18n

// Key names one message. Its text in each language is in that language's
// catalog (en.go, ru.go, tr.go, fa.go).
type Key string

// The words every part uses.
const (
	White Key = "color.white" // the side, as a subject: "White may claim"
	Black Key = "color.black"

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

var catalogs = map[Lang]catalogOf{English: en, Russian: ru, Turkish: tr, Persian: fa}
