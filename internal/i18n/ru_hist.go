package i18n

// ruHist is the hist part of the ru catalog.
var ruHist = catalogOf{
	HistAlertsTitle: s("Оповещения (%[1]s)"),
	HistGamesTitle:  s("Партии (%[1]s)"),
	HistListed:      s("%[1]d, %[2]s"),
	HistListedOf:    s("%[1]d из %[2]d, %[3]s; --limit 0 покажет все"),
	HistNewestFirst: s("сначала новые"),
	HistRecentFirst: s("сначала недавно обновлённые"),
	HistAlertHeader: s("ВРЕМЯ\tВИД\tПАРТИЯ\tПОЛУХОД\tИГРОКИ\tЧТО\tССЫЛКА"),
	HistGameHeader:  s("ОБНОВЛЕНО\tПАРТИЯ\tИГРОКИ\tПОЛУХОДЫ\tРЕЗУЛЬТАТ\tИСТОЧНИК\tССЫЛКА"),
	HistThreefold:   s("%[1]s появление (полуходы %[2]s): требовать ничью могут %[3]s"),
	HistFivefold:    s("%[1]s появление (полуходы %[2]s): ничья"),
	HistClaimByMove: s("%[1]s могут потребовать ничью, объявив ход %[2]s (позиция полуходов %[3]s)"),
	HistFifty:       s("%[1]s могут потребовать ничью: 50 ходов без ходов пешками и взятий"),
	HistSeventyFive: s("ничья: 75 ходов без ходов пешками и взятий"),
	HistWithdrawn:   s("отзывает оповещение «%[1]s» %[2]s: %[3]s"),
	HistCorrected:   s("ходы исправлены"),
	HistGoingOn:     s(" (продолжается)"),
}
