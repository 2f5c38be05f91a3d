package i18n

// tr is the Turkish catalog. Terms as Turkish players and arbiters write
// them: «aynı konum», «konum tekrarı», «beraberlik talep etmek»,
// «geçerken alma» (en passant), «rok», «yarım hamle» for a ply.
var tr = catalogOf{
	White:       s("Beyaz"),
	Black:       s("Siyah"),
	Occurrences: pluralOf(1, "one", "%[1]d kez", "other", "%[1]d kez"),

	ChatGreeting: s("Merhaba {opponent}! Ben {me}; her konum tekrarını izliyorum (FIDE 9.2). İyi şanslar!"),
	ChatGoodbye:  s("İyi oyundu, {opponent}. {ending}"),
	ChatSecond:   s("{move} sonrası bu konum ikinci kez oluştu (yarım hamle {plies})."),
	ChatThird:    s("{move} sonrası konum üçüncü kez oluştu (yarım hamle {plies}): {claimant} beraberlik talep edebilir."),
	ChatClaim:    s("{claimant} üç kez konum tekrarıyla beraberlik talep ediyor (yarım hamle {plies})."),
	ChatFifth:    s("Konum beşinci kez oluştu (yarım hamle {plies}): oyun berabere (FIDE 9.6.1)."),

	EndThreefoldClaimed:   s("Talep üzerine berabere: üç kez konum tekrarı (yarım hamle %[1]s)."),
	EndThreefoldAutomatic: s("Berabere: üç kez konum tekrarı (yarım hamle %[1]s)."),
	EndFivefold:           s("Berabere: beş kez konum tekrarı (yarım hamle %[1]s)."),
	EndFiftyMoves:         s("50 hamle kuralıyla berabere."),
	EndInsufficient:       s("Berabere: yetersiz materyal."),
	EndAgreement:          s("Anlaşmayla berabere."),
	EndMoveCap:            s("Berabere: Lichess'in hamle sınırına ulaşıldı."),
	EndCheckmate:          s("%[1]s mat ederek kazandı."),
	EndStalemate:          s("Pat: berabere."),
	EndResignation:        s("%[1]s kazandı: rakip terk etti."),
	EndTimeDraw:           s("Süre doldu; berabere."),
	EndTime:               s("%[1]s süreden kazandı."),
	EndOpponentLeft:       s("%[1]s kazandı: rakip oyundan ayrıldı."),
	EndAborted:            s("Oyun iptal edildi."),
	EndOver:               s("Oyun bitti."),
}
