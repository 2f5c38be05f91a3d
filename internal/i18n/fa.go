package i18n

// fa is the Persian catalog (written right to left; SAN, rule numbers and
// ply numbers stay in Latin script inside it). Terms as Persian players
// write them: «همان موقعیت», «تکرار سه‌باره», «ادعای تساوی»,
// «آن‌پاسان» (en passant), «قلعه» (castling), «نیم‌حرکت» for a ply.
var fa = catalogOf{
	White:       s("سفید"),
	Black:       s("سیاه"),
	Occurrences: pluralOf(1, "one", "%[1]d بار", "other", "%[1]d بار"),

	ChatGreeting: s("سلام {opponent}! من {me} هستم و هر تکرار موقعیت را دنبال می‌کنم (FIDE 9.2). موفق باشید!"),
	ChatGoodbye:  s("بازی خوبی بود، {opponent}. {ending}"),
	ChatSecond:   s("پس از {move} این موقعیت برای بار دوم پدید آمد (نیم‌حرکت‌های {plies})."),
	ChatThird:    s("پس از {move} موقعیت برای بار سوم پدید آمد (نیم‌حرکت‌های {plies}): {claimant} می‌تواند ادعای تساوی کند."),
	ChatClaim:    s("{claimant} با تکرار سه‌باره ادعای تساوی می‌کند (نیم‌حرکت‌های {plies})."),
	ChatFifth:    s("موقعیت برای بار پنجم پدید آمد (نیم‌حرکت‌های {plies}): بازی مساوی است (FIDE 9.6.1)."),

	EndThreefoldClaimed:   s("تساوی با ادعای تکرار سه‌باره (نیم‌حرکت‌های %[1]s)."),
	EndThreefoldAutomatic: s("تساوی با تکرار سه‌باره (نیم‌حرکت‌های %[1]s)."),
	EndFivefold:           s("تساوی با تکرار پنج‌باره (نیم‌حرکت‌های %[1]s)."),
	EndFiftyMoves:         s("تساوی طبق قانون ۵۰ حرکت."),
	EndInsufficient:       s("تساوی: مهرهٔ کافی برای مات نمانده است."),
	EndAgreement:          s("تساوی با توافق."),
	EndMoveCap:            s("تساوی: بازی به سقف تعداد حرکت‌های Lichess رسید."),
	EndCheckmate:          s("%[1]s با مات برد."),
	EndStalemate:          s("تساوی: پات."),
	EndResignation:        s("%[1]s برد: حریف تسلیم شد."),
	EndTimeDraw:           s("وقت تمام شد؛ تساوی."),
	EndTime:               s("%[1]s با اتمام وقت حریف برد."),
	EndOpponentLeft:       s("%[1]s برد: حریف بازی را ترک کرد."),
	EndAborted:            s("بازی لغو شد."),
	EndOver:               s("بازی تمام شد."),
}
