package i18n

// ruSrc is the src part of the ru catalog. Lichess's own Russian names:
// «трансляция», «турнир», «тур», «Lichess TV».
var ruSrc = catalogOf{
	ReasonCorrected:    s("источник исправил ходы начиная с полухода %[1]s"),
	ReasonTookBack:     s("источник отменил ходы начиная с полухода %[1]s: теперь в партии полуходов: %[2]s"),
	ReasonStartChanged: s("источник изменил начальную позицию"),

	SourceFile:             s("файл %[1]s"),
	SourceDGT:              s("доски DGT %[1]s"),
	SourceLichessGame:      s("партия Lichess %[1]s"),
	SourceLichessUsers:     s("игроки Lichess %[1]s"),
	SourceLichessTV:        s("Lichess TV"),
	SourceLichessTVChannel: s("Lichess TV, канал %[1]s"),
	SourceLichessBroadcast: s("трансляция Lichess, турнир %[1]s"),
	SourceLichessRound:     s("трансляция Lichess, тур %[1]s"),
	SourceLichessBot:       s("бот Lichess"),
	SourceLichessBotNamed:  s("бот Lichess %[1]s"),
	SourceChessCom:         s("chess.com %[1]s"),
	AttnBadStart:           s("недопустимая начальная позиция: %[1]s"),
	AttnBadMove:            s("ход %[1]s (%[2]s) невозможно сделать: %[3]s"),
	AttnTooLong:            s("больше %[1]s полуходов (предел pgn.max_plies): партия прослежена до него"),
	AttnUnreadable:         s("источник не смог прочитать партию дальше полухода %[1]s: %[2]s"),
	MoveAtPly:              s("полуход %[1]s (%[2]s): %[3]s"),
	MoveAtStart:            s("начальная позиция %[1]s: %[2]s"),
	MoveIllegal:            s("невозможный ход: %[1]s в позиции %[2]s"),
	MoveAmbiguous:          s("неоднозначный ход: %[1]s в позиции %[2]s; его могут сделать фигур: %[3]s"),
	MoveUnreadable:         s("нечитаемый ход: %[1]s"),
	PGNAtLine:              s("строка %[1]s: %[2]s"),
	PGNUnexpectedToken:     s("неожиданный элемент %[1]s"),
	PGNUnterminatedComment: s("незакрытый комментарий, открытый в строке %[1]s"),
	PGNUnterminatedVar:     s("незакрытый вариант, открытый в строке %[1]s"),
	PGNTooManyPlies:        s("больше %[1]s полуходов (предел pgn.max_plies)"),
}
