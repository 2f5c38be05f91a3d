package i18n

// en is the English catalog: the source every translation follows.
var en = catalogOf{
	White:       s("White"),
	Black:       s("Black"),
	Occurrences: pluralOf(1, "one", "%[1]d occurrence", "other", "%[1]d occurrences"),

	ChatGreeting: s("Hi {opponent}! I am {me} and I watch every repetition (FIDE 9.2). Good luck!"),
	ChatGoodbye:  s("Good game, {opponent}. {ending}"),
	ChatSecond:   s("After {move} this position occurred the second time (plies {plies})."),
	ChatThird:    s("After {move} this position occurred the third time (plies {plies}): {claimant} may claim a draw."),
	ChatClaim:    s("{claimant} claims a draw by threefold repetition (plies {plies})."),
	ChatFifth:    s("Fifth occurrence (plies {plies}): the game is drawn (FIDE 9.6.1)."),

	EndThreefoldClaimed:   s("Drawn by threefold repetition, claimed (plies %[1]s)."),
	EndThreefoldAutomatic: s("Drawn by threefold repetition (plies %[1]s)."),
	EndFivefold:           s("Drawn by fivefold repetition (plies %[1]s)."),
	EndFiftyMoves:         s("Drawn by the 50-move rule."),
	EndInsufficient:       s("Drawn: insufficient material."),
	EndAgreement:          s("Drawn by agreement."),
	EndMoveCap:            s("Drawn at Lichess's move limit."),
	EndCheckmate:          s("%[1]s wins by checkmate."),
	EndStalemate:          s("Drawn by stalemate."),
	EndResignation:        s("%[1]s wins by resignation."),
	EndTimeDraw:           s("Time ran out; drawn."),
	EndTime:               s("%[1]s wins on time."),
	EndOpponentLeft:       s("%[1]s wins: the opponent left."),
	EndAborted:            s("Game aborted."),
	EndOver:               s("Game over."),
}
