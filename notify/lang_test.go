package notify

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
)

func langAlert(kind threefold.AlertKind) threefold.Alert {
	a := threefold.Alert{ID: "id1", Kind: kind, Ply: 32, Count: 3, Occurrences: []int{24, 28, 32},
		OccurrenceSAN: []string{"Qxc3+", "Qc3+", "Qc3+"}, FEN: "r3k1r1/pR1b1p1p/2nPp1p1/8/8/2q2N2/P1P1PPPP/3QKB1R w Kq - 8 17",
		Claimant: "white", SAN: "Qc3+", Source: "lichess game Yy6fKDw6", DelayS: 90, Audience: "arbiters",
		Game: threefold.GameRef{Site: "lichess", ID: "Yy6fKDw6", White: "paspaspas", Black: "female_supremacy", Board: 2}}
	switch kind {
	case threefold.KindClaimByMove:
		a.Ply, a.Claimant, a.Move, a.MoveSAN, a.OtherMovesSAN = 31, "black", "c2c3", "Qc3+", []string{"Qd4"}
		a.Occurrences = []int{24, 28}
	case threefold.KindFivefold:
		a.Count = 5
	case threefold.KindWithdrawn:
		a.WithdrawnKind, a.Withdraws = threefold.KindThreefold, "id0"
	}
	return a
}

// TestAlertTextInEveryLanguage: each kind of alert says what happened in
// the reader's language, with the rule number, the SAN and the ply numbers
// as they are.
func TestAlertTextInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		name string
		lang i18n.Lang
		kind threefold.AlertKind
		want []string
	}{
		{"english threefold", i18n.English, threefold.KindThreefold, []string{"[for arbiters] board 2, paspaspas - female_supremacy: position occurred a third time: white may claim a draw (FIDE 9.2.2) | ply 32 after 16...Qc3+", "ply 24 (12...Qxc3+), ply 28 (14...Qc3+)", "(delay up to 1.5min)"}},
		{"russian threefold", i18n.Russian, threefold.KindThreefold, []string{"[для арбитров] доска 2, paspaspas - female_supremacy: позиция возникла в третий раз: Белые могут потребовать ничью (FIDE 9.2.2) | полуход 32 после 16...Qc3+", "появления: полуход 24 (12...Qxc3+), полуход 28 (14...Qc3+)", "(задержка до 1,5 мин)"}},
		{"russian claim by move", i18n.Russian, threefold.KindClaimByMove, []string{"Чёрные могут потребовать ничью, объявив ход Qc3+ или Qd4 (FIDE 9.2.1)", "(17.Qc3+, объявленный ход)"}},
		{"russian fivefold", i18n.Russian, threefold.KindFivefold, []string{"позиция возникла в пятый раз: партия закончилась вничью (FIDE 9.6.1)"}},
		{"russian withdrawn", i18n.Russian, threefold.KindWithdrawn, []string{"ОТОЗВАНО: оповещение «троекратное повторение» на полуходе 32 больше не действует", "отзывает id0"}},
		{"turkish threefold", i18n.Turkish, threefold.KindThreefold, []string{"[hakemler için] masa 2, paspaspas - female_supremacy: konum üçüncü kez oluştu: Beyaz beraberlik talep edebilir (FIDE 9.2.2)", "(gecikme en çok 1,5 dk)"}},
		{"turkish fifty moves", i18n.Turkish, threefold.KindFiftyMoves, []string{"50 hamledir taş alınmadı, piyon sürülmedi: Beyaz beraberlik talep edebilir (FIDE 9.3)"}},
		{"persian threefold", i18n.Persian, threefold.KindThreefold, []string{"[برای داوران] میز ۲، paspaspas - female_supremacy: موقعیت برای بار سوم پدید آمد: سفید می‌تواند ادعای تساوی کند (FIDE 9.2.2)", "نیم‌حرکت 24 (12...Qxc3+)، نیم‌حرکت 28", "(تأخیر تا ۱٫۵ دقیقه)"}},
		{"persian seventy-five moves", i18n.Persian, threefold.KindSeventyFiveMoves, []string{"۷۵ حرکت بدون زدن مهره یا حرکت پیاده: بازی مساوی است (FIDE 9.6.2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FormatTextIn(tc.lang, langAlert(tc.kind))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("text lacks %q:\n%s", w, got)
				}
			}
			if tc.lang != i18n.English {
				for _, en := range []string{"may claim", "occurred", "ply ", "source ", "delay", "for arbiters", "board "} {
					if strings.Contains(got, en) {
						t.Errorf("English %q left in the %s text:\n%s", en, tc.lang, got)
					}
				}
			}
		})
	}
}

// TestWebhookBodiesInEveryLanguage: a JSON webhook's keys and kind values
// are the same in every language, its "text" is in the webhook's; Discord
// and Slack say it in the webhook's language.
func TestWebhookBodiesInEveryLanguage(t *testing.T) {
	decode := func(w *Webhook, a threefold.Alert) map[string]any {
		t.Helper()
		b, err := w.body(a)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, kind := range []threefold.AlertKind{threefold.KindThreefold, threefold.KindClaimByMove, threefold.KindWithdrawn} {
		a := langAlert(kind)
		english := decode(&Webhook{Kind: JSON}, a)
		for _, l := range i18n.Langs {
			t.Run(string(kind)+"/"+string(l), func(t *testing.T) {
				got := decode(&Webhook{Kind: JSON, Lang: l}, a)
				if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(english))) {
					t.Errorf("keys %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(english)))
				}
				if got["kind"] != string(kind) || got["claimant"] != english["claimant"] {
					t.Errorf("kind %v claimant %v: values changed with the language", got["kind"], got["claimant"])
				}
				if got["text"] != FormatTextIn(l, a) {
					t.Errorf("text %q, want %q", got["text"], FormatTextIn(l, a))
				}
				discord, _ := json.Marshal(decode(&Webhook{Kind: Discord, Lang: l}, a))
				slack, _ := json.Marshal(decode(&Webhook{Kind: Slack, Lang: l}, a))
				head, _ := json.Marshal(HeadlineIn(l, a))
				for name, body := range map[string][]byte{"discord": discord, "slack": slack} {
					if !strings.Contains(string(body), strings.Trim(string(head), `"`)) {
						t.Errorf("%s body lacks the headline %s:\n%s", name, head, body)
					}
				}
			})
		}
	}
}

// TestReasonAndSourceInEveryLanguage: a withdrawal's reason and the
// source's name, which the alert JSON keeps in English, are said in the
// reader's language on the terminal, in Discord and Slack and in a JSON
// webhook's text, while the JSON's own "reason" and "source" stay English;
// a reason threefold did not write is shown as it is.
func TestReasonAndSourceInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		name           string
		lang           i18n.Lang
		reason, source string
		want           []string
	}{
		{"english as it was", i18n.English, "the source corrected the moves from ply 13", "lichess game Yy6fKDw6",
			[]string{"no longer holds (the source corrected the moves from ply 13)", "source lichess game Yy6fKDw6"}},
		{"russian taken back", i18n.Russian, "the source took back the moves from ply 13: the game now has 20", "lichess game Yy6fKDw6",
			[]string{"больше не действует (источник отменил ходы начиная с полухода 13: теперь в партии полуходов: 20)", "источник: партия Lichess Yy6fKDw6"}},
		{"russian file", i18n.Russian, "the source changed the start position", "file round5.pgn",
			[]string{"(источник изменил начальную позицию)", "источник: файл round5.pgn"}},
		{"turkish start changed", i18n.Turkish, "the source changed the start position", "dgt ws://localhost:1982/api/v1.0",
			[]string{"(kaynak başlangıç konumunu değiştirdi)", "kaynak: DGT tahtaları ws://localhost:1982/api/v1.0"}},
		{"turkish broadcast", i18n.Turkish, "the source corrected the moves from ply 13", "lichess broadcast round rnd1",
			[]string{"(kaynak hamleleri düzeltti (ilk değişen yarım hamle: 13))", "kaynak: Lichess canlı yayını, tur rnd1"}},
		{"persian corrected", i18n.Persian, "the source corrected the moves from ply 13", "lichess broadcast round rnd1",
			[]string{"(منبع حرکت‌ها را از نیم‌حرکت 13 به بعد اصلاح کرد)", "منبع: پخش زندهٔ Lichess، دور rnd1"}},
		{"persian bot", i18n.Persian, "the source took back the moves from ply 13: the game now has 20", "lichess bot",
			[]string{"(منبع حرکت‌ها را از نیم‌حرکت 13 به بعد پس گرفت: اکنون بازی 20 نیم‌حرکت دارد)", "منبع: ربات Lichess"}},
		{"a reason threefold did not write", i18n.Russian, "a DGT board was reset", "a source of a test",
			[]string{"(a DGT board was reset)", "источник: a source of a test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := langAlert(threefold.KindWithdrawn)
			a.Reason, a.Source = tc.reason, tc.source
			bodies := map[string]string{"text": FormatTextIn(tc.lang, a)}
			for name, kind := range map[string]Kind{"discord": Discord, "slack": Slack, "json": JSON} {
				b, err := (&Webhook{Kind: kind, Lang: tc.lang}).body(a)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				if kind == JSON {
					if m["reason"] != tc.reason || m["source"] != tc.source {
						t.Errorf("JSON reason %q source %q: the JSON keeps them in English", m["reason"], m["source"])
					}
					bodies[name] = m["text"].(string)
					continue
				}
				var s strings.Builder
				if err := json.NewEncoder(&s).Encode(m); err != nil {
					t.Fatal(err)
				}
				bodies[name] = s.String()
			}
			for name, body := range bodies {
				for _, w := range tc.want {
					if name == "slack" || name == "discord" {
						w = strings.Trim(mustJSON(t, w), `"`)
					}
					if !strings.Contains(body, w) {
						t.Errorf("%s lacks %q:\n%s", name, w, body)
					}
				}
			}
		})
	}
}

func mustJSON(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}
