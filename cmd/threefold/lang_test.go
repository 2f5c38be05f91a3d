package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
)

// TestMain runs the tests in a locale threefold does not speak, so what
// they expect in English does not depend on the developer's LANG; tests
// of the language setting set the locale they need.
func TestMain(m *testing.M) {
	os.Unsetenv("LC_ALL")
	os.Unsetenv("LC_MESSAGES")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}

// TestLangSetting: --lang, then the lang key (THREEFOLD_LANG over the
// file), then LC_ALL/LC_MESSAGES/LANG, then English; a bad value is a
// usage error naming where it came from.
func TestLangSetting(t *testing.T) {
	for _, tc := range []struct {
		name, flag, yaml string
		env              map[string]string
		want             i18n.Lang
		err              string
	}{
		{name: "nothing set", want: i18n.English},
		{name: "LANG", env: map[string]string{"LANG": "ru_RU.UTF-8"}, want: i18n.Russian},
		{name: "LC_ALL over LANG", env: map[string]string{"LANG": "ru_RU.UTF-8", "LC_ALL": "tr_TR.UTF-8"}, want: i18n.Turkish},
		{name: "the file over the locale", yaml: "lang: fa\n", env: map[string]string{"LANG": "ru_RU.UTF-8"}, want: i18n.Persian},
		{name: "THREEFOLD_LANG over the file", yaml: "lang: fa\n", env: map[string]string{"THREEFOLD_LANG": "tr"}, want: i18n.Turkish},
		{name: "--lang over everything", flag: "ru", yaml: "lang: fa\n", env: map[string]string{"THREEFOLD_LANG": "tr", "LC_ALL": "tr_TR"}, want: i18n.Russian},
		{name: "an unspoken locale is English", env: map[string]string{"LANG": "de_DE.UTF-8"}, want: i18n.English},
		{name: "a bad --lang", flag: "de", err: `--lang: unknown language "de" (want en, ru, tr or fa)`},
		{name: "a bad THREEFOLD_LANG", env: map[string]string{"THREEFOLD_LANG": "klingon"}, err: `THREEFOLD_LANG: unknown language "klingon"`},
		{name: "a bad lang in the file", yaml: "lang: german\n", err: `: lang: unknown language "german"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
				t.Setenv(k, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := (&environment{configFile: path, lang: tc.flag}).loadConfig()
			if tc.err != "" {
				var ue usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want a usage error saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.lang != tc.want {
				t.Errorf("language %q, want %q", cfg.lang, tc.want)
			}
		})
	}
}

// TestWatchSpeaksTheLanguage: THREEFOLD_LANG=ru (tr, fa) threefold watch
// --once examples/lichess-repetitions.pgn prints its alerts in that
// language; --json keeps its keys and kinds.
func TestWatchSpeaksTheLanguage(t *testing.T) {
	readme := readmeAlertInEveryLanguage(t)
	for _, tc := range []struct {
		lang    string
		want    []string
		english []string // what must not be left in English
	}{
		{"en", []string{"position occurred a third time: white may claim a draw (FIDE 9.2.2) | ply 32 after 16...Qc3+"}, nil},
		{"ru", []string{"[для арбитров] paspaspas - female_supremacy: позиция возникла в третий раз: Белые могут потребовать ничью (FIDE 9.2.2) | полуход 32 после 16...Qc3+",
			"Чёрные могут потребовать ничью, объявив ход Qc3+ (FIDE 9.2.1)", "партия закончилась вничью (FIDE 9.6.1)"}, []string{"may claim", "ply ", "occurrences", "file examples"}},
		{"tr", []string{"konum üçüncü kez oluştu: Beyaz beraberlik talep edebilir (FIDE 9.2.2) | yarım hamle 32, 16...Qc3+ sonrası",
			"konum beşinci kez oluştu: oyun berabere bitti (FIDE 9.6.1)"}, []string{"may claim", "ply ", "occurrences", "file examples"}},
		{"fa", []string{"موقعیت برای بار سوم پدید آمد: سفید می‌تواند ادعای تساوی کند (FIDE 9.2.2) | نیم‌حرکت 32 پس از 16...Qc3+",
			"سیاه می‌تواند با اعلام حرکت Qc3+ ادعای تساوی کند (FIDE 9.2.1)"}, []string{"may claim", "ply ", "occurrences", "file examples"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			isolateConfig(t)
			t.Setenv("THREEFOLD_LANG", tc.lang)
			config := emptyConfig(t)
			t.Chdir("../..") // the command as the README runs it, from the repository's root
			code, out, errs := runMain(t, "watch", "--once", "--config", config, "examples/lichess-repetitions.pgn")
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errs)
			}
			// The README shows the second alert in each language.
			if second, want := strings.Split(out, "\n")[1], readme[tc.lang]; second != want {
				t.Errorf("the second alert is\n%s\nthe README shows\n%s", second, want)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, firstLines(out, 4))
				}
			}
			for _, en := range tc.english {
				if strings.Contains(out, en) {
					t.Errorf("English %q left in the output:\n%s", en, firstLines(out, 4))
				}
			}
			code, out, errs = runMain(t, "watch", "--once", "--json", "--config", emptyConfig(t), "examples/lichess-repetitions.pgn")
			if code != 0 || !strings.Contains(out, `"kind":"threefold"`) || !strings.Contains(out, `"claimant":"white"`) {
				t.Errorf("--json in %s: exit %d, the keys and kinds must stay as they are:\n%s%s", tc.lang, code, firstLines(out, 2), errs)
			}
		})
	}
}

// readmeAlertInEveryLanguage reads the alert README.md shows in each
// language, by language ("en", "ru", "tr", "fa", in that order).
func readmeAlertInEveryLanguage(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "here is the second alert of that command with `lang` en, ru, tr and fa")
	if !ok {
		t.Fatal("README.md: no alert in every language")
	}
	_, block, _ := strings.Cut(after, "```\n")
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) != 4 {
		t.Fatalf("README.md shows %d alerts, want 4 (en, ru, tr, fa):\n%s", len(lines), block)
	}
	return map[string]string{"en": lines[0], "ru": lines[1], "tr": lines[2], "fa": lines[3]}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestBotChatLanguage: the notices are the chat language's defaults
// (bot.chat.lang, else lang) unless a text is set, which is kept as it is.
func TestBotChatLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, yaml        string
		greeting, goodbye string
		ending            i18n.Lang
		err               string
	}{
		{name: "English by default", greeting: "Hi {opponent}! I am {me} and I watch every repetition (FIDE 9.2). Good luck!",
			goodbye: "Good game, {opponent}. {ending}", ending: i18n.English},
		{name: "lang", yaml: "lang: ru\n", greeting: "Привет, {opponent}! Я {me}, слежу за каждым повторением позиции (FIDE 9.2). Удачи!",
			goodbye: "Спасибо за партию, {opponent}. {ending}", ending: i18n.Russian},
		{name: "bot.chat.lang over lang", yaml: "lang: ru\nbot:\n  chat:\n    lang: tr\n", greeting: "Merhaba {opponent}! Ben {me}; her konum tekrarını izliyorum (FIDE 9.2). İyi şanslar!",
			goodbye: "İyi oyundu, {opponent}. {ending}", ending: i18n.Turkish},
		{name: "a text of one's own is kept", yaml: "lang: fa\nbot:\n  chat:\n    greeting:\n      text: \"درود {opponent}\"\n",
			greeting: "درود {opponent}", goodbye: "بازی خوبی بود، {opponent}. {ending}", ending: i18n.Persian},
		{name: "a bad bot.chat.lang", yaml: "bot:\n  chat:\n    lang: english\n", err: `bot.chat.lang: unknown language "english"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := (&environment{configFile: path}).loadConfig()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			bc, err := cfg.Bot.toBot(cfg.DataDir)
			if err != nil {
				t.Fatal(err)
			}
			if bc.Chat.Greeting.Text != tc.greeting || bc.Chat.Goodbye.Text != tc.goodbye || bc.Chat.Lang != tc.ending {
				t.Errorf("greeting %q, goodbye %q, ending in %q; want %q, %q, %q", bc.Chat.Greeting.Text, bc.Chat.Goodbye.Text, bc.Chat.Lang,
					tc.greeting, tc.goodbye, tc.ending)
			}
			if err := bc.Validate(); err != nil {
				t.Errorf("the chat config does not validate: %v", err)
			}
		})
	}
}

// TestScanSpeaksTheLanguage: scan's per-game lines and totals in the
// language of --lang; --json never changes.
func TestScanSpeaksTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang       string
		line, tail string
	}{
		{"en", "#4 johnny92 - GigantedeFlandes (Rated Classical game): threefold at ply 100 after 50...R4g5+ (plies 92, 96, 100), White may claim", "10 games, 806 plies"},
		{"ru", "#4 johnny92 - GigantedeFlandes (Rated Classical game): троекратное повторение на полуходе 100 после 50...R4g5+ (полуходы 92, 96, 100), требовать ничью могут Белые", "10 партий, 806 полуходов"},
		{"tr", "#4 johnny92 - GigantedeFlandes (Rated Classical game): yarım hamle 100, 50...R4g5+ sonrası üç kez tekrar (yarım hamle 92, 96, 100), Beyaz talep edebilir", "10 oyun, 806 yarım hamle"},
		{"fa", "#4 johnny92 - GigantedeFlandes (Rated Classical game): تکرار سه‌باره در نیم‌حرکت 100 پس از 50...R4g5+ (نیم‌حرکت‌های 92, 96, 100)، سفید می‌تواند ادعا کند", "۱۰ بازی، ۸۰۶ نیم‌حرکت"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			isolateConfig(t)
			code, out, errs := runMain(t, "scan", "--lang", tc.lang, "--config", emptyConfig(t), "../../examples/lichess-repetitions.pgn")
			if code != 0 || !strings.Contains(out, tc.line) || !strings.HasPrefix(errs, tc.tail) {
				t.Errorf("exit %d; want a line %q and totals %q:\n%s%s", code, tc.line, tc.tail, firstLines(out, 5), errs)
			}
			_, js, _ := runMain(t, "scan", "--json", "--lang", tc.lang, "--config", emptyConfig(t), "../../examples/lichess-repetitions.pgn")
			if !strings.Contains(js, `"first_threefold":{"ply":100,"claimant":"white","rule":"9.2.2"`) {
				t.Errorf("--json changed with the language:\n%s", firstLines(js, 4))
			}
		})
	}
}

// TestTablesSpeakTheLanguage: history's and status's titles, headers,
// summaries and times in the language, on a store watch --once filled.
func TestTablesSpeakTheLanguage(t *testing.T) {
	isolateConfig(t)
	cfg := emptyConfig(t)
	if code, _, errs := runMain(t, "watch", "--once", "--config", cfg, "../../examples/lichess-repetitions.pgn"); code != 0 {
		t.Fatalf("watch: %s", errs)
	}
	for _, tc := range []struct {
		command, lang string
		want          []string
	}{
		{"history", "en", []string{"Alerts (20 of ", "newest first; --limit 0 lists all", "OBSERVED", "occurrence (plies ", "Games (10, most recently updated first)", "UPDATED"}},
		{"history", "ru", []string{"Оповещения (20 из ", "сначала новые; --limit 0 покажет все", "ВРЕМЯ", "появление (полуходы ", "Партии (10, сначала недавно обновлённые)", "ОБНОВЛЕНО"}},
		{"history", "tr", []string{"Uyarılar (20 / ", "ZAMAN", "oluşum (yarım hamle ", "Oyunlar (10, en son güncellenenler önce)", "GÜNCELLEME"}},
		{"history", "fa", []string{"هشدارها (۲۰ از ", "زمان", "بار سوم (نیم‌حرکت‌های ", "بازی‌ها (۱۰، تازه‌به‌روزشده‌ها اول)", "به‌روزرسانی"}},
		{"status", "en", []string{"Store: sqlite", "Instances (", "Sources (", "HOLDER", "nobody"}},
		{"status", "ru", []string{"Хранилище: sqlite", "Экземпляры (", "Источники (", "ДЕРЖАТЕЛЬ", "никто", "назад"}},
		{"status", "tr", []string{"Depo: sqlite", "Örnekler (", "Kaynaklar (", "KAYNAK"}},
		{"status", "fa", []string{"پایگاه: sqlite", "نمونه‌ها (", "منبع‌ها (", "دارنده"}},
	} {
		t.Run(tc.command+"/"+tc.lang, func(t *testing.T) {
			code, out, errs := runMain(t, tc.command, "--lang", tc.lang, "--config", cfg)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, firstLines(out, 10))
				}
			}
		})
	}
}

// TestErrorsInTheLanguage: the errors a user acts on — a missing token or
// scope, a file that is not there, a key the config does not know — are
// printed in the user's language; English stays as it was.
func TestErrorsInTheLanguage(t *testing.T) {
	scope := fmt.Errorf("bot: %w", &lichess.AuthError{Op: "check token", Scope: "bot:play"})
	for _, tc := range []struct {
		name string
		lang i18n.Lang
		err  error
		want string
	}{
		{"english scope as it was", i18n.English, scope, scope.Error()},
		{"russian scope, its command kept", i18n.Russian, scope, "bot: lichess: check token: у токена нет разрешения \"bot:play\": выполните `threefold login --for bot`"},
		{"turkish rejected token", i18n.Turkish, &lichess.AuthError{Op: "stream events", Status: 401}, "lichess: stream events: belirteç reddedildi (HTTP 401)"},
		{"persian missing path, its command kept", i18n.Persian, fmt.Errorf("watch: %w", &listener.NoSuchPathError{Path: "round5.pgn"}), "watch: \"round5.pgn\": چنین پرونده یا پوشه‌ای وجود ندارد"},
		{"russian context said", i18n.Russian, fmt.Errorf("login: the new token does not work: %w", &lichess.AuthError{Op: "check token", Status: 401}),
			"login: новый токен не работает: lichess: check token: токен отклонён (HTTP 401)"},
		{"turkish context after the error", i18n.Turkish, fmt.Errorf("%w; run `threefold login --for watch` for a token with study:read", &lichess.AuthError{Op: "check token", Status: 401}),
			"lichess: check token: belirteç reddedildi (HTTP 401): geçersiz, süresi dolmuş ya da iptal edilmiş; study:read izinli bir belirteç için `threefold login --for watch` çalıştırın"},
		{"persian config file missing", i18n.Persian, fmt.Errorf("config %s: %w", "x.yaml", &fs.PathError{Op: "open", Path: "x.yaml", Err: fs.ErrNotExist}),
			"پروندهٔ پیکربندی x.yaml: x.yaml: چنین پرونده‌ای وجود ندارد"},
		{"an unknown context kept", i18n.Turkish, fmt.Errorf("bot: warming up: %w", &lichess.AuthError{Op: "stream events", Status: 401}), "bot: warming up: lichess: stream events: belirteç reddedildi"},
		{"another error as it is", i18n.Russian, errors.New("lichess: stream events: HTTP 500"), "lichess: stream events: HTTP 500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := i18n.ErrorText(tc.lang, tc.err); !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want it to start with %q", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		args []string
		yaml string
		want string
	}{
		{"english unknown key", []string{"history"}, "lichess:\n  tokne: x\n", ": unknown key(s): lichess.tokne (config.example.yaml lists every key)"},
		{"unknown key, lang from the same file", []string{"history"}, "lang: ru\nlichess:\n  tokne: x\n", ": неизвестные ключи: lichess.tokne (все ключи перечислены в config.example.yaml)"},
		{"unknown key in a webhook", []string{"--lang", "tr", "history"}, "watch:\n  webhooks:\n    - kind: json\n      urll: x\n", "watch.webhooks[0]: bilinmeyen anahtar urll"},
		{"no token", []string{"--lang", "fa", "bot"}, "", "threefold: bot: توکن Lichess نیست"},
		{"no such file", []string{"--lang", "ru", "scan", "no-such.pgn"}, "", "threefold: scan: no-such.pgn: нет такого файла"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, errs := runMain(t, append([]string{"--config", path}, tc.args...)...)
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q, want %q in it", errs, tc.want)
			}
		})
	}
}

// TestExplainAndClaimSpeakTheLanguage: --lang (or THREEFOLD_LANG) makes
// explain and claim speak that language, rule numbers and SAN as they are.
func TestExplainAndClaimSpeakTheLanguage(t *testing.T) {
	explainArgs := []string{"explain", "../../examples/same-position.pgn", "--game", "3", "--plies", "0,4"}
	claimArgs := []string{"claim", "../../examples/same-position.pgn", "--game", "5"}
	for _, tc := range []struct {
		name, flag, env string
		args            []string
		want            []string
		english         []string // what must not be left in English
	}{
		{name: "explain --lang ru", flag: "ru", args: explainArgs, want: []string{
			"Не та же позиция: полуход 0 (начальная позиция) и полуход 4 (после 2...Nb8) различаются (FIDE 9.2.3).",
			"Белые сохраняют право на рокировку с ладьёй h1 (O-O) на полуходе 0, но не на полуходе 4: ладья ушла с h1 на полуходе 1 (1.Rh2)",
			"права на рокировку: Kkq"}, english: []string{"position", "castle", "ply"}},
		{name: "explain THREEFOLD_LANG=tr", env: "tr", args: explainArgs, want: []string{
			"Aynı konum değil: yarım hamle 0 (başlangıç konumu) ve yarım hamle 4 (2...Nb8 hamlesinden sonra) farklı (FIDE 9.2.3)."},
			english: []string{"position", "castle", "ply"}},
		{name: "claim THREEFOLD_LANG=ru", env: "ru", args: claimArgs, want: []string{
			"Белые требуют ничью — полуход 5 (после 3...Nb8): требование не обосновано.",
			"Белые могут взять на проходе на полуходе 1: exd6, пешка e5 бьёт на d6; на полуходе 5 такого взятия нет."},
			english: []string{"claim", "position", "ply"}},
		{name: "claim --lang fa", flag: "fa", args: claimArgs, want: []string{
			"سفید ادعای تساوی می‌کند — نیم‌حرکت 5 (پس از 3...Nb8): ادعا درست نیست.",
			"سفید در نیم‌حرکت 1 می‌تواند آن‌پاسان بگیرد: exd6"}, english: []string{"claim", "position", "ply"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			t.Setenv("THREEFOLD_LANG", tc.env)
			args := []string{"--config", emptyConfig(t)}
			if tc.flag != "" {
				args = append(args, "--lang", tc.flag)
			}
			_, out, errs := runMain(t, append(args, tc.args...)...)
			if errs != "" {
				t.Fatalf("stderr: %s", errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, en := range tc.english {
				if strings.Contains(out, en) {
					t.Errorf("English %q left in the output:\n%s", en, out)
				}
			}
		})
	}
}

// TestWarningsInTheLanguage: the warnings and refusals a user acts on
// (a config others may read, an upgrade not confirmed) are said in the
// language of lang.
func TestWarningsInTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, lang, want string
	}{
		{"english", "en", "threefold: warning: config "},
		{"russian", "ru", "threefold: внимание: файл настроек "},
		{"turkish", "tr", "threefold: uyarı: yapılandırma dosyası "},
		{"persian", "fa", "threefold: هشدار: پروندهٔ پیکربندی "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			path := filepath.Join(t.TempDir(), "threefold.yaml")
			if err := os.WriteFile(path, []byte("lang: "+tc.lang+"\nlichess:\n  token: lip_notarealtoken\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, errs := runMain(t, "--config", path, "history")
			if !strings.Contains(errs, tc.want) || !strings.Contains(errs, "chmod 600 "+path) {
				t.Errorf("stderr %q, want %q … chmod 600 in it", errs, tc.want)
			}
		})
	}
	if got := i18n.ErrorText(i18n.Russian, i18n.NewError(i18n.ErrNotConfirmed)); got != "bot upgrade: не подтверждено; ничего не изменено (--yes пропускает вопрос)" {
		t.Errorf("not confirmed, in Russian: %q", got)
	}
}
