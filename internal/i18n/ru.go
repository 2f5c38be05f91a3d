package i18n

// ru is the Russian catalog. Terms as Russian players and arbiters write
// them: «та же позиция», «троекратное повторение», «требовать ничью»,
// «взятие на проходе», «рокировка», «полуход» for a ply.
var ru = catalogOf{
	White:       s("Белые"),
	Black:       s("Чёрные"),
	Occurrences: pluralOf(1, "one", "%[1]d появление", "few", "%[1]d появления", "many", "%[1]d появлений", "other", "%[1]d появления"),

	ChatGreeting: s("Привет, {opponent}! Я {me}, слежу за каждым повторением позиции (FIDE 9.2). Удачи!"),
	ChatGoodbye:  s("Спасибо за партию, {opponent}. {ending}"),
	ChatSecond:   s("После {move} эта позиция возникла во второй раз (полуходы {plies})."),
	ChatThird:    s("После {move} позиция возникла в третий раз (полуходы {plies}): {claimant} может потребовать ничью."),
	ChatClaim:    s("{claimant} требует ничью: троекратное повторение (полуходы {plies})."),
	ChatFifth:    s("Позиция возникла в пятый раз (полуходы {plies}): ничья (FIDE 9.6.1)."),

	EndThreefoldClaimed:   s("Ничья по требованию: троекратное повторение (полуходы %[1]s)."),
	EndThreefoldAutomatic: s("Ничья: троекратное повторение (полуходы %[1]s)."),
	EndFivefold:           s("Ничья: пятикратное повторение (полуходы %[1]s)."),
	EndFiftyMoves:         s("Ничья по правилу 50 ходов."),
	EndInsufficient:       s("Ничья: недостаточно материала."),
	EndAgreement:          s("Ничья по соглашению."),
	EndMoveCap:            s("Ничья: достигнут предел числа ходов Lichess."),
	EndCheckmate:          s("%[1]s выиграли: мат."),
	EndStalemate:          s("Ничья: пат."),
	EndResignation:        s("%[1]s выиграли: соперник сдался."),
	EndTimeDraw:           s("Время истекло; ничья."),
	EndTime:               s("%[1]s выиграли по времени."),
	EndOpponentLeft:       s("%[1]s выиграли: соперник покинул партию."),
	EndAborted:            s("Партия прервана."),
	EndOver:               s("Партия окончена."),
}
