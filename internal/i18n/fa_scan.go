package i18n

// faScan is the scan part of the fa catalog.
var faScan = catalogOf{
	ScanNothing:       s("گزارشی نیست"),
	ScanThreefold:     s("تکرار سه‌باره در نیم‌حرکت %[1]s پس از %[2]s (نیم‌حرکت‌های %[3]s)، %[4]s می‌تواند ادعا کند"),
	ScanAgain:         pluralOf(1, "other", "؛ و در %[1]d نیم‌حرکت دیگر"),
	ScanClaimByMove:   s("ادعا با اعلام حرکت از نیم‌حرکت %[1]s: %[2]s می‌تواند %[3]s را اعلام کند"),
	ScanFivefold:      s("بار پنجم در نیم‌حرکت %[1]s پس از %[2]s: بازی همین‌جا مساوی است (9.6.1)"),
	ScanAfterFivefold: pluralOf(1, "other", "، با این حال %[1]d نیم‌حرکت دیگر بازی شد"),
	ScanNear:          pluralOf(3, "other", "تکرار نزدیک در نیم‌حرکت %[1]s پس از %[2]s: چیدمان و نوبت مانند نیم‌حرکت %[4]s است، اما موقعیت دیگری است: %[5]s متفاوت است"),
	ScanNearMore:      pluralOf(1, "other", "؛ %[1]d نیم‌حرکت دیگر مانند آن"),
	ScanNearCastling:  s("حق قلعه"),
	ScanNearEnPassant: s("امکان گرفتن آن‌پاسان"),
	ScanAnd:           s(" و "),
	ScanFifty:         s("ادعا طبق قانون ۵۰ حرکت از نیم‌حرکت %[1]s"),
	ScanSeventyFive:   s("قانون ۷۵ حرکت در نیم‌حرکت %[1]s: بازی همین‌جا مساوی است (9.6.2)"),
	ScanPartSep:       s("؛ "),
	ScanNote:          s("یادداشت: %[1]s"),
	ScanError:         s("خطا: %[1]s"),
	ScanTheStart:      s("آغاز"),
	ScanGames:         pluralOf(1, "other", "%[1]d بازی"),
	ScanPlies:         pluralOf(1, "other", "%[1]d نیم‌حرکت"),
	ScanRate:          s(" در %[1]s ثانیه (%[2]s نیم‌حرکت در ثانیه)"),
	ScanTotals:        s("با تکرار سه‌باره: %[1]d، فقط با ادعا با اعلام حرکت: %[2]d دیگر، با تکرار پنج‌باره: %[3]d، پس از قانون ۷۵ حرکت: %[4]d، با خطا: %[5]d"),
	ScanThousands:     s("%[1]s هزار"),
	ScanMillions:      s("%[1]s میلیون"),
	ScanPerSecond:     s("%[1]s نیم‌حرکت در ثانیه"),
}
