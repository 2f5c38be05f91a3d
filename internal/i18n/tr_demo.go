package i18n

// trDemo is the demo part of the tr catalog. No case suffix follows a
// value.
var trDemo = catalogOf{
	DemoIntro:       s("threefold demo — hesap yok, ağ yok: şu adresteki benzetim Lichess kaydedilmiş gerçek oyunları yeniden oynatıyor: %[1]s"),
	DemoDashboard:   s("pano: %[1]s"),
	DemoFollowing:   s("izlenenler: bir canlı yayın turu (masa sayısı: %[1]d), bir konumun beşinci kez oluştuğu bir blitz oyunu ve botun oyunları; demo süresi: %[2]s (Ctrl-C ile daha erken biter)."),
	DemoBotGame:     pluralOf(6, "other", "bot oyunu %[1]s (%[2]s - %[3]s) bitti: %[4]s, %[5]s; yarım hamle sayısı: %[6]d."),
	DemoStored:      s("geçici depoda oyun sayısı: %[1]d, uyarı sayısı: %[2]d; webhook (watch.webhooks) bunlardan %[3]d tanesini aldı."),
	DemoOver:        s("demo bitti (%[1]s): uyarı sayısı: %[2]d."),
	DemoAfter:       s("süre doldu: %[1]s"),
	DemoInterrupted: s("yarıda kesildi"),
}
