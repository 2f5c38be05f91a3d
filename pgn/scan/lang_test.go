package scan

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// TestTotalsInEveryLanguage: the totals take each language's plural
// forms (Russian: 1, 2–4, 5+, 21) and its way of writing numbers.
func TestTotalsInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lang         i18n.Lang
		games, plies int
		want         string
	}{
		{"english", i18n.English, 1, 1, "1 game, 1 ply: 0 with a threefold"},
		{"english many", i18n.English, 59915, 5100000, "59,915 games, 5,100,000 plies: "},
		{"russian 1", i18n.Russian, 1, 21, "1 партия, 21 полуход: с троекратным повторением: 0"},
		{"russian 2", i18n.Russian, 2, 3, "2 партии, 3 полухода: "},
		{"russian 5", i18n.Russian, 5, 11, "5 партий, 11 полуходов: "},
		{"russian 21", i18n.Russian, 21, 1001, "21 партия, 1\u00a0001 полуход: "},
		{"turkish", i18n.Turkish, 21, 1001, "21 oyun, 1.001 yarım hamle: üç kez tekrarlı: 0"},
		{"persian", i18n.Persian, 21, 1001, "۲۱ بازی، ۱٬۰۰۱ نیم‌حرکت: با تکرار سه‌باره: ۰"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Writer{Lang: tc.lang, games: tc.games, plies: tc.plies}
			var out bytes.Buffer
			if err := w.Totals(&out, 0); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.String(), tc.want) {
				t.Errorf("got %q, want it to start with %q", out.String(), tc.want)
			}
		})
	}
}

// TestRateInEveryLanguage: the time taken and the rate, in the totals and
// in the live count, are written as each language writes numbers and
// thousands or millions; English as it always was.
func TestRateInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lang         i18n.Lang
		plies        int
		totals, live string
	}{
		{"english millions", i18n.English, 4720000, " in 2.00s (2.36M plies/s): ", "0 games, 4,720,000 plies, 2.36M plies/s"},
		{"english thousands", i18n.English, 681000, " in 2.00s (340.5k plies/s): ", "0 games, 681,000 plies, 340.5k plies/s"},
		{"english units", i18n.English, 812, " in 2.00s (406 plies/s): ", "0 games, 812 plies, 406 plies/s"},
		{"russian millions", i18n.Russian, 4720000, " за 2 с (2,36 млн полуходов/с): ", "0 партий, 4\u00a0720\u00a0000 полуходов, 2,36 млн полуходов/с"},
		{"russian thousands", i18n.Russian, 681000, " за 2 с (340,5 тыс. полуходов/с): ", "340,5 тыс. полуходов/с"},
		{"turkish millions", i18n.Turkish, 4720000, ", 2 sn içinde (2,36 milyon yarım hamle/sn): ", "0 oyun, 4.720.000 yarım hamle, 2,36 milyon yarım hamle/sn"},
		{"persian thousands", i18n.Persian, 681000, " در ۲ ثانیه (۳۴۰٫۵ هزار نیم‌حرکت در ثانیه): ", "۰ بازی، ۶۸۱٬۰۰۰ نیم‌حرکت، ۳۴۰٫۵ هزار نیم‌حرکت در ثانیه"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Writer{Lang: tc.lang, plies: tc.plies}
			var out bytes.Buffer
			if err := w.Totals(&out, 2*time.Second); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tc.totals) {
				t.Errorf("totals %q, want %q in them", out.String(), tc.totals)
			}
			p := &Progress{Lang: tc.lang}
			p.plies.Store(int64(tc.plies))
			if got := p.line(2 * time.Second); !strings.Contains(got, tc.live) {
				t.Errorf("live count %q, want %q in it", got, tc.live)
			}
		})
	}
}

// TestErrorLineInEveryLanguage: why a game could not be read is said in
// the reader's language; the JSON's "error" stays English.
func TestErrorLineInEveryLanguage(t *testing.T) {
	const err = "ply 5 (3. Ne2): illegal move: Ne2 in r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	for _, tc := range []struct {
		name string
		lang i18n.Lang
		want string
	}{
		{"english", i18n.English, "ERROR: " + err},
		{"russian", i18n.Russian, "ОШИБКА: полуход 5 (3. Ne2): невозможный ход: Ne2 в позиции r1bqkbnr/"},
		{"turkish", i18n.Turkish, "HATA: yarım hamle 5 (3. Ne2): kural dışı hamle: Ne2, konum: r1bqkbnr/"},
		{"persian", i18n.Persian, "خطا: نیم‌حرکت 5 (3. Ne2): حرکت غیرقانونی: Ne2 در r1bqkbnr/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Error: err}
			if got := textLineIn(i18n.For(tc.lang), r); !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want it to start with %q", got, tc.want)
			}
			if r.Error != err {
				t.Errorf("the report's error changed: %q", r.Error)
			}
		})
	}
}
