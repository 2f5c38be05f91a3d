package i18n

// faHist is the hist part of the fa catalog.
var faHist = catalogOf{
	HistAlertsTitle: s("هشدارها (%[1]s)"),
	HistGamesTitle:  s("بازی‌ها (%[1]s)"),
	HistListed:      s("%[1]d، %[2]s"),
	HistListedOf:    s("%[1]d از %[2]d، %[3]s؛ --limit 0 همه را نشان می‌دهد"),
	HistNewestFirst: s("جدیدترین‌ها اول"),
	HistRecentFirst: s("تازه‌به‌روزشده‌ها اول"),
	HistAlertHeader: s("زمان\tنوع\tبازی\tنیم‌حرکت\tبازیکنان\tشرح\tپیوند"),
	HistGameHeader:  s("به‌روزرسانی\tبازی\tبازیکنان\tنیم‌حرکت‌ها\tنتیجه\tمنبع\tپیوند"),
	HistThreefold:   s("بار %[1]s (نیم‌حرکت‌های %[2]s): %[3]s می‌تواند ادعا کند"),
	HistFivefold:    s("بار %[1]s (نیم‌حرکت‌های %[2]s): مساوی"),
	HistClaimByMove: s("%[1]s می‌تواند با اعلام %[2]s ادعا کند (موقعیت نیم‌حرکت‌های %[3]s)"),
	HistFifty:       s("%[1]s می‌تواند ادعا کند: ۵۰ حرکت بدون حرکت پیاده یا زدن مهره"),
	HistSeventyFive: s("مساوی: ۷۵ حرکت بدون حرکت پیاده یا زدن مهره"),
	HistWithdrawn:   s("هشدار «%[1]s» (%[2]s) را لغو می‌کند: %[3]s"),
	HistCorrected:   s("حرکت‌ها اصلاح شد"),
	HistGoingOn:     s(" (در جریان)"),
}
