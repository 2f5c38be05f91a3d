package i18n

import (
	"strconv"
	"time"
)

var monthsRU = [12]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}
var monthsTR = [12]string{"Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim", "Kasım", "Aralık"}

// monthsFA are the months of the Solar Hijri calendar, as Iran names them.
var monthsFA = [12]string{"فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند"}

// DateTime writes a moment to the minute as the language writes dates,
// in t's own time zone: "2026-12-01 10:15" (English keeps the sortable
// form), "1 декабря 2026, 10:15", "1 Aralık 2026 10:15", and in Persian the
// Solar Hijri date with Persian digits, "۱۰ آذر ۱۴۰۵، ۱۰:۱۵".
func (p *Printer) DateTime(t time.Time) string {
	clock := t.Format("15:04")
	switch p.lang {
	case Russian:
		return strconv.Itoa(t.Day()) + " " + monthsRU[t.Month()-1] + " " + strconv.Itoa(t.Year()) + ", " + clock
	case Turkish:
		return strconv.Itoa(t.Day()) + " " + monthsTR[t.Month()-1] + " " + strconv.Itoa(t.Year()) + " " + clock
	case Persian:
		y, m, d := jalali(t.Year(), int(t.Month()), t.Day())
		return persianDigits(strconv.Itoa(d) + " " + monthsFA[m-1] + " " + strconv.Itoa(y) + "، " + clock)
	}
	return t.Format("2006-01-02 15:04")
}

// persianDigits writes the ASCII digits of s as Persian digits.
func persianDigits(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= '0' && r <= '9' {
			r = '۰' + (r - '0')
		}
		out = append(out, r)
	}
	return string(out)
}

// jalali converts a Gregorian date to the Solar Hijri (Jalali) calendar
// by the 33-year arithmetic rule, exact for the years 1178–1633 of that
// calendar (1799–2254 AD).
func jalali(gy, gm, gd int) (jy, jm, jd int) {
	daysBefore := [12]int{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
	gy2 := gy
	if gm > 2 {
		gy2 = gy + 1
	}
	days := 355666 + 365*gy + (gy2+3)/4 - (gy2+99)/100 + (gy2+399)/400 + gd + daysBefore[gm-1]
	jy = -1595 + 33*(days/12053)
	days %= 12053
	jy += 4 * (days / 1461)
	days %= 1461
	if days > 365 {
		jy += (days - 1) / 365
		days = (days - 1) % 365
	}
	if days < 186 {
		return jy, 1 + days/31, 1 + days%31
	}
	return jy, 7 + (days-186)/30, 1 + (days-186)%30
}
