package i18n

// trScan is the scan part of the tr catalog.
var trScan = catalogOf{
	ScanNothing:       s("bildirilecek bir şey yok"),
	ScanThreefold:     s("yarım hamle %[1]s, %[2]s sonrası üç kez tekrar (yarım hamle %[3]s), %[4]s talep edebilir"),
	ScanAgain:         pluralOf(1, "other", "; ardından %[1]d yarım hamlede daha"),
	ScanClaimByMove:   s("yarım hamle %[1]s itibarıyla hamle bildirerek talep: %[2]s, %[3]s hamlesini bildirebilir"),
	ScanFivefold:      s("BEŞİNCİ oluşum, yarım hamle %[1]s, %[2]s sonrası: oyun burada berabere (9.6.1)"),
	ScanAfterFivefold: pluralOf(1, "other", ", yine de %[1]d yarım hamle daha oynandı"),
	ScanNear:          pluralOf(3, "other", "yakın tekrar, yarım hamle %[1]s (%[2]s sonrası): diziliş ve hamle sırası yarım hamle %[4]s ile aynı, ama konum farklı: %[5]s farklı"),
	ScanNearMore:      pluralOf(1, "other", "; bunun gibi %[1]d yarım hamle daha"),
	ScanNearCastling:  s("rok hakları"),
	ScanNearEnPassant: s("geçerken alma olanakları"),
	ScanAnd:           s(" ve "),
	ScanFifty:         s("yarım hamle %[1]s itibarıyla 50 hamle kuralıyla talep"),
	ScanSeventyFive:   s("yarım hamle %[1]s: 75 hamle kuralı, oyun burada berabere (9.6.2)"),
	ScanPartSep:       s("; "),
	ScanNote:          s("not: %[1]s"),
	ScanError:         s("HATA: %[1]s"),
	ScanTheStart:      s("başlangıç"),
	ScanGames:         pluralOf(1, "other", "%[1]d oyun"),
	ScanPlies:         pluralOf(1, "other", "%[1]d yarım hamle"),
	ScanRate:          s(", %[1]s sn içinde (%[2]s yarım hamle/sn)"),
	ScanTotals:        s("üç kez tekrarlı: %[1]d, yalnızca hamle bildirerek talepli: %[2]d daha, beş kez tekrarlı: %[3]d, 75 hamle kuralını aşan: %[4]d, hatalı: %[5]d"),
	ScanThousands:     s("%[1]s bin"),
	ScanMillions:      s("%[1]s milyon"),
	ScanPerSecond:     s("%[1]s yarım hamle/sn"),
}
