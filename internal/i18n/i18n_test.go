package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// declaredKeys reads every Key constant declared in the package's source,
// so that a key added without a text is caught even if no catalog names it.
func declaredKeys(t *testing.T) []Key {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var keys []Key
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		{
			ast.Inspect(f, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok {
					return true
				}
				typ, ok := vs.Type.(*ast.Ident)
				if !ok || typ.Name != "Key" {
					return true
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						keys = append(keys, Key(s))
					}
				}
				return true
			})
		}
	}
	if len(keys) == 0 {
		t.Fatal("found no Key constant: the test reads the wrong files")
	}
	return keys
}

func TestEveryMessageHasEveryLanguage(t *testing.T) {
	keys := declaredKeys(t)
	for _, l := range Langs {
		cat := catalogs[l]
		for _, k := range keys {
			tx, ok := cat[k]
			if !ok {
				t.Errorf("%s: no text for %s", l, k)
				continue
			}
			if strings.TrimSpace(tx.forms["other"]) == "" {
				t.Errorf("%s: %s has no \"other\" form", l, k)
			}
		}
		for k := range cat {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: %s is in the catalog but no Key constant declares it", l, k)
			}
		}
	}
}

var placeholderRE = regexp.MustCompile(`%\[\d+\][-+# 0-9.]*[a-zA-Z]|\{[a-z]+\}`)

func placeholders(s string) []string {
	ps := placeholderRE.FindAllString(s, -1)
	slices.Sort(ps)
	return slices.Compact(ps)
}

// Every placeholder of the English text is in every form of every
// translation, and a translation has none the English text has not. A
// form for an exact number ("=3": "a third time") may leave out the
// number it is chosen by.
func TestPlaceholdersKept(t *testing.T) {
	for _, k := range declaredKeys(t) {
		want := placeholders(catalogs[English][k].forms["other"])
		for _, l := range Langs {
			for sel, form := range catalogs[l][k].forms {
				got := placeholders(form)
				for _, p := range want {
					exact := strings.HasPrefix(sel, "=") && strings.HasPrefix(p, "%["+strconv.Itoa(catalogs[l][k].arg)+"]")
					if !slices.Contains(got, p) && !exact {
						t.Errorf("%s %s (%s): %q lacks %s", l, k, sel, form, p)
					}
				}
				for _, p := range got {
					if !slices.Contains(want, p) {
						t.Errorf("%s %s (%s): %q has %s, which the English text has not", l, k, sel, form, p)
					}
				}
				if strings.Count(form, "%") != strings.Count(form, "%[")+2*strings.Count(form, "%%") {
					t.Errorf("%s %s (%s): %q has an unnumbered placeholder", l, k, sel, form)
				}
			}
		}
	}
}

// longest holds the longest realistic value of each chat placeholder: a
// Lichess username is at most 30 characters, a game at most four-digit
// plies, and a move the longest SAN with a four-digit move number.
var longest = map[string]string{
	"{me}":       strings.Repeat("W", 30),
	"{opponent}": strings.Repeat("W", 30),
	"{claimant}": strings.Repeat("W", 30),
	"{move}":     "1234... Qa1xb2+",
	"{ply}":      "2468",
	"{count}":    "5",
	"{result}":   "1/2-1/2",
}

// occurrencesIn is how many plies each notice lists: the second, third
// and fifth occurrence, a claim at the third.
var occurrencesIn = map[Key]int{ChatSecond: 2, ChatThird: 3, ChatClaim: 3, ChatFifth: 5, ChatGoodbye: 5}

func pliesList(n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = strconv.Itoa(2400 + 4*i)
	}
	return strings.Join(ps, ", ")
}

// longestEnding is the longest sentence the goodbye's {ending} can be in
// a language, filled with five four-digit plies or the longer side.
func longestEnding(p *Printer) string {
	var best string
	for _, k := range EndingKeys {
		for _, arg := range []string{pliesList(5), p.Sprintf(White), p.Sprintf(Black)} {
			if e := p.Sprintf(k, arg); utf8.RuneCountInString(e) > utf8.RuneCountInString(best) {
				best = e
			}
		}
	}
	return best
}

func TestChatNoticesFitLichessChat(t *testing.T) {
	for _, l := range Langs {
		p := For(l)
		for _, k := range ChatKeys {
			line := p.Sprintf(k)
			for name, v := range longest {
				line = strings.ReplaceAll(line, name, v)
			}
			line = strings.ReplaceAll(line, "{plies}", pliesList(occurrencesIn[k]))
			line = strings.ReplaceAll(line, "{ending}", longestEnding(p))
			if strings.Contains(line, "{") {
				t.Errorf("%s %s: a placeholder the test does not fill: %q", l, k, line)
			}
			if n := utf8.RuneCountInString(line); n > 140 {
				t.Errorf("%s %s: %d characters with the longest values (at most 140): %q", l, k, n, line)
			}
		}
	}
}

func TestPluralForms(t *testing.T) {
	tests := []struct {
		name string
		lang Lang
		n    int
		want string
	}{
		{"english one", English, 1, "1 occurrence"},
		{"english other", English, 5, "5 occurrences"},
		{"russian one", Russian, 1, "1 появление"},
		{"russian few", Russian, 2, "2 появления"},
		{"russian many", Russian, 5, "5 появлений"},
		{"russian 11 is many", Russian, 11, "11 появлений"},
		{"russian 21 is one", Russian, 21, "21 появление"},
		{"russian 22 is few", Russian, 22, "22 появления"},
		{"turkish", Turkish, 5, "5 kez"},
		{"persian digits", Persian, 21, "۲۱ بار"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := For(tt.lang).Sprintf(Occurrences, tt.n); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNumbersAndDates(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 15, 0, 0, time.UTC)
	tests := []struct {
		lang         Lang
		number, date string
		decimal      string
	}{
		{English, "59,915", "2026-12-01 10:15", "1.5"},
		{Russian, "59\u00a0915", "1 декабря 2026, 10:15", "1,5"},
		{Turkish, "59.915", "1 Aralık 2026 10:15", "1,5"},
		{Persian, "۵۹٬۹۱۵", "۱۰ آذر ۱۴۰۵، ۱۰:۱۵", "۱٫۵"},
	}
	for _, tt := range tests {
		t.Run(string(tt.lang), func(t *testing.T) {
			p := For(tt.lang)
			if got := p.Number(59915); got != tt.number {
				t.Errorf("Number: got %q, want %q", got, tt.number)
			}
			if got := p.Decimal(1.5); got != tt.decimal {
				t.Errorf("Decimal: got %q, want %q", got, tt.decimal)
			}
			if got := p.DateTime(at); got != tt.date {
				t.Errorf("DateTime: got %q, want %q", got, tt.date)
			}
		})
	}
}

func TestJalali(t *testing.T) {
	tests := []struct {
		name       string
		gy, gm, gd int
		jy, jm, jd int
	}{
		{"nowruz 1400", 2021, 3, 21, 1400, 1, 1},
		{"nowruz 1403 (a leap year before it)", 2024, 3, 20, 1403, 1, 1},
		{"last day of 1402", 2024, 3, 19, 1402, 12, 29},
		{"nowruz 1404", 2025, 3, 21, 1404, 1, 1},
		{"first of mehr 1405", 2026, 9, 23, 1405, 7, 1},
		{"new year's day 2027", 2027, 1, 1, 1405, 10, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jy, jm, jd := jalali(tt.gy, tt.gm, tt.gd)
			if jy != tt.jy || jm != tt.jm || jd != tt.jd {
				t.Errorf("jalali(%d-%02d-%02d) = %d/%d/%d, want %d/%d/%d", tt.gy, tt.gm, tt.gd, jy, jm, jd, tt.jy, tt.jm, tt.jd)
			}
		})
	}
}

func TestLanguageSettings(t *testing.T) {
	parse := []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"en", English, true}, {"RU", Russian, true}, {"tr_TR.UTF-8", Turkish, true}, {"fa-IR", Persian, true},
		{"fa_IR@calendar=persian", Persian, true}, {"de", "", false}, {"", "", false}, {"C", "", false},
	}
	for _, tt := range parse {
		got, err := Parse(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Parse(%q) = %q, %v; want %q, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	env := []struct {
		name string
		vars map[string]string
		want Lang
	}{
		{"nothing set", nil, English},
		{"LANG", map[string]string{"LANG": "ru_RU.UTF-8"}, Russian},
		{"LC_MESSAGES over LANG", map[string]string{"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "tr_TR.UTF-8"}, Turkish},
		{"LC_ALL over both", map[string]string{"LANG": "ru_RU", "LC_MESSAGES": "tr_TR", "LC_ALL": "fa_IR.UTF-8"}, Persian},
		{"C locale is English", map[string]string{"LC_ALL": "C", "LANG": "ru_RU"}, English},
		{"a language threefold does not speak", map[string]string{"LANG": "de_DE.UTF-8"}, English},
	}
	for _, tt := range env {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromEnv(func(k string) string { return tt.vars[k] }); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	accept := []struct {
		header string
		want   Lang
	}{
		{"", English}, {"ru-RU,ru;q=0.9,en;q=0.8", Russian}, {"de-DE,tr;q=0.7", Turkish},
		{"fa", Persian}, {"de-DE", English}, {"en-GB,fa;q=0.5", English}, {"garbage;;q=x", English},
	}
	for _, tt := range accept {
		if got := FromAcceptLanguage(tt.header); got != tt.want {
			t.Errorf("FromAcceptLanguage(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
	if Persian.Dir() != "rtl" || Russian.Dir() != "ltr" {
		t.Errorf("Dir: fa %q, ru %q", Persian.Dir(), Russian.Dir())
	}
}

func TestRequest(t *testing.T) {
	locale := func(k string) string { return map[string]string{"LANG": "tr_TR.UTF-8"}[k] }
	tests := []struct {
		name    string
		r       Request
		want    Lang
		wantErr string // Choose's error; Guess gives English then
	}{
		{name: "the flag decides", r: Request{Flag: "ru", Key: "fa", KeyFrom: "lang"}, want: Russian},
		{name: "the key when no flag", r: Request{Key: "fa_IR", KeyFrom: "lang"}, want: Persian},
		{name: "the locale when neither", r: Request{}, want: Turkish},
		{name: "a wrong flag", r: Request{Flag: "de", Key: "ru"}, wantErr: `--lang: unknown language "de"`},
		{name: "a wrong key names where", r: Request{Key: "xx", KeyFrom: "config a.yaml: lang"}, wantErr: `config a.yaml: lang: unknown language "xx"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.r.Getenv = locale
			got, err := tt.r.Choose()
			switch {
			case tt.wantErr == "" && (err != nil || got != tt.want):
				t.Errorf("Choose() = %q, %v; want %q", got, err, tt.want)
			case tt.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.wantErr)):
				t.Errorf("Choose() error = %v; want it to start %q", err, tt.wantErr)
			}
			guess := tt.want
			if tt.wantErr != "" {
				guess = English
			}
			if g := tt.r.Guess(); g != guess {
				t.Errorf("Guess() = %q, want %q", g, guess)
			}
		})
	}
}

func TestEnglishOrdinal(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "1st"}, {2, "2nd"}, {3, "3rd"}, {4, "4th"}, {5, "5th"}, {11, "11th"}, {12, "12th"}, {13, "13th"},
		{21, "21st"}, {22, "22nd"}, {23, "23rd"}, {101, "101st"}, {103, "103rd"}, {111, "111th"}, {112, "112th"},
	} {
		if got := EnglishOrdinal(tc.n); got != tc.want {
			t.Errorf("EnglishOrdinal(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestSide(t *testing.T) {
	for _, tc := range []struct {
		name           string
		lang           Lang
		color          string
		side, asStored string
	}{
		{"english white", English, "white", "White", "white"},
		{"english black", English, "black", "Black", "black"},
		{"russian white", Russian, "white", "Белые", "Белые"},
		{"unknown kept", Turkish, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := For(tc.lang)
			if got := p.Side(tc.color); got != tc.side {
				t.Errorf("Side(%q) = %q, want %q", tc.color, got, tc.side)
			}
			if got := p.SideAsStored(tc.color); got != tc.asStored {
				t.Errorf("SideAsStored(%q) = %q, want %q", tc.color, got, tc.asStored)
			}
		})
	}
}
