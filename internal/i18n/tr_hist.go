package i18n

// trHist is the hist part of the tr catalog.
var trHist = catalogOf{
	HistAlertsTitle: s("Uyarılar (%[1]s)"),
	HistGamesTitle:  s("Oyunlar (%[1]s)"),
	HistListed:      s("%[1]d, %[2]s"),
	HistListedOf:    s("%[1]d / %[2]d, %[3]s; hepsi için --limit 0"),
	HistNewestFirst: s("en yeniler önce"),
	HistRecentFirst: s("en son güncellenenler önce"),
	HistAlertHeader: s("ZAMAN\tTÜR\tOYUN\tYARIM HAMLE\tOYUNCULAR\tNE\tBAĞLANTI"),
	HistGameHeader:  s("GÜNCELLEME\tOYUN\tOYUNCULAR\tYARIM HAMLE\tSONUÇ\tKAYNAK\tBAĞLANTI"),
	HistThreefold:   s("%[1]s oluşum (yarım hamle %[2]s): %[3]s talep edebilir"),
	HistFivefold:    s("%[1]s oluşum (yarım hamle %[2]s): berabere"),
	HistClaimByMove: s("%[1]s, %[2]s hamlesini bildirerek talep edebilir (yarım hamle %[3]s konumu)"),
	HistFifty:       s("%[1]s talep edebilir: 50 hamledir piyon sürülmedi, taş alınmadı"),
	HistSeventyFive: s("berabere: 75 hamledir piyon sürülmedi, taş alınmadı"),
	HistWithdrawn:   s("«%[1]s» uyarısını (%[2]s) geri alır: %[3]s"),
	HistCorrected:   s("hamleler düzeltildi"),
	HistGoingOn:     s(" (sürüyor)"),
}
