package scan

import (
	"bytes"
	"strings"
	"testing"

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
