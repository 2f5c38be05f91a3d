// Package i18n says what threefold tells a person in that person's
// language: English, Russian, Turkish or Persian.
//
// Every message lives in a catalog per language (en.go, ru.go, tr.go,
// fa.go), keyed by a Key; the catalogs are loaded into a
// golang.org/x/text/message catalog, which picks the plural form of each
// language (Russian: 1, 2–4, 5+ and 21 take different forms) and formats
// numbers as the language writes them (1,234 / 1 234 / 1.234 / ۱٬۲۳۴).
// Placeholders are numbered (%[1]s, %[2]d), so a translation may put them
// in another order; chat templates, which the bot's config can replace,
// use named placeholders ({opponent}) instead. Rule numbers (9.2.1), SAN,
// ply numbers, ids and URLs are never translated: they are what a person
// types or looks up.
//
// Logs are not translated: they are for whoever runs threefold, and for
// its developers.
package i18n

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Lang is one of the languages threefold speaks.
type Lang string

// The languages threefold speaks.
const (
	English Lang = "en"
	Russian Lang = "ru"
	Turkish Lang = "tr"
	Persian Lang = "fa"
)

// Langs lists every language, English first.
var Langs = []Lang{English, Russian, Turkish, Persian}

// Names is how each language calls itself, for a language picker.
var Names = map[Lang]string{English: "English", Russian: "Русский", Turkish: "Türkçe", Persian: "فارسی"}

var tags = map[Lang]language.Tag{
	English: language.English, Russian: language.Russian,
	Turkish: language.Turkish, Persian: language.Persian,
}

// Parse reads a language setting: "en", "ru", "tr" or "fa", in any case,
// with or without a region or encoding ("ru_RU.UTF-8", "fa-IR"). Anything
// else is an error that lists the languages.
func Parse(s string) (Lang, error) {
	if l, ok := FromLocale(s); ok {
		return l, nil
	}
	return "", fmt.Errorf("unknown language %q (want en, ru, tr or fa)", s)
}

// FromLocale reads a POSIX locale name ("ru_RU.UTF-8", "tr_TR",
// "fa_IR@calendar") or a language tag ("ru-RU") and says which of the
// languages it is, if any ("C", "POSIX" and others are none).
func FromLocale(s string) (Lang, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	s = strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s = s[:i]
	}
	switch Lang(s) {
	case English, Russian, Turkish, Persian:
		return Lang(s), true
	}
	return "", false
}

// FromEnv is the language the environment asks for: the first of LC_ALL,
// LC_MESSAGES and LANG that is set decides, as POSIX has it; a locale
// threefold does not speak (or none) is English.
func FromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		if l, ok := FromLocale(v); ok {
			return l
		}
		return English
	}
	return English
}

// Request is where a person may ask for a language, strongest first: the
// --lang flag, the lang key (from THREEFOLD_LANG or a config file), the
// locale of the environment.
type Request struct {
	Flag    string              // --lang; "" when not given
	Key     string              // the lang key; "" when not set
	KeyFrom string              // where Key was set, for its error
	Getenv  func(string) string // reads LC_ALL, LC_MESSAGES and LANG
}

// Choose is the language asked for: the first of Flag and Key that is set
// decides, else the locale (FromEnv). A Flag or Key that names no language
// is an error that says where it was set.
func (r Request) Choose() (Lang, error) {
	for _, v := range []struct{ value, from string }{{r.Flag, "--lang"}, {r.Key, r.KeyFrom}} {
		if v.value != "" {
			l, err := Parse(v.value)
			if err != nil {
				return "", fmt.Errorf("%s: %w", v.from, err)
			}
			return l, nil
		}
	}
	return FromEnv(r.Getenv), nil
}

// Guess is Choose where a wrong setting cannot be reported, as when the
// language of an error or of --help is decided: a Flag or Key that names
// no language gives English.
func (r Request) Guess() Lang {
	l, err := r.Choose()
	if err != nil {
		return English
	}
	return l
}

var matcher = language.NewMatcher([]language.Tag{language.English, language.Russian, language.Turkish, language.Persian})

// FromAcceptLanguage is the language of the four a browser's
// Accept-Language header prefers; English when it names none of them.
func FromAcceptLanguage(header string) Lang {
	l, _ := MatchAcceptLanguage(header)
	return l
}

// MatchAcceptLanguage is the language of the four a browser's
// Accept-Language header prefers, and whether it names one of them at all
// (English, false when not).
func MatchAcceptLanguage(header string) (Lang, bool) {
	prefs, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(prefs) == 0 {
		return English, false
	}
	_, i, conf := matcher.Match(prefs...)
	if conf == language.No {
		return English, false
	}
	return Langs[i], true
}

// RTL reports whether the language is written right to left.
func (l Lang) RTL() bool { return l == Persian }

// Dir is the HTML dir attribute of the language: "rtl" or "ltr".
func (l Lang) Dir() string {
	if l.RTL() {
		return "rtl"
	}
	return "ltr"
}

// Printer says messages in one language.
type Printer struct {
	lang Lang
	p    *message.Printer
}

var printers = func() map[Lang]*Printer {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for l, cat := range catalogs {
		for k, t := range cat {
			if err := b.Set(tags[l], string(k), t.message()); err != nil {
				panic(fmt.Sprintf("i18n: %s %s: %v", l, k, err)) // a programming error, caught by the tests
			}
		}
	}
	m := map[Lang]*Printer{}
	for _, l := range Langs {
		m[l] = &Printer{lang: l, p: message.NewPrinter(tags[l], message.Catalog(b))}
	}
	return m
}()

// For returns the printer of a language; an unknown one is English.
func For(l Lang) *Printer {
	if p, ok := printers[l]; ok {
		return p
	}
	return printers[English]
}

// Lang is the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// Sprintf says the message k with its arguments. Numbers given as %d are
// written as the language writes them; give ply numbers and ids as
// strings, so they stay as the user types them.
func (p *Printer) Sprintf(k Key, args ...any) string { return p.p.Sprintf(string(k), args...) }

// Number writes an integer as the language writes it.
func (p *Printer) Number(n int) string { return p.p.Sprint(n) }

// Decimal writes a number with as many decimals as it needs, with the
// language's decimal separator and digits ("1.5" / "1,5" / "۱٫۵").
func (p *Printer) Decimal(f float64) string {
	t := strconv.FormatFloat(f, 'f', -1, 64)
	switch p.lang {
	case Russian, Turkish:
		return strings.Replace(t, ".", ",", 1)
	case Persian:
		return persianDigits(strings.Replace(t, ".", "٫", 1))
	}
	return t
}

// text is one message in one language: one form, or one form per plural
// category of argument arg (1-based) — "one", "few", "many", "other", or
// "=3" for that exact number.
type text struct {
	arg   int
	forms map[string]string
}

// s is a message with one form.
func s(t string) text { return text{forms: map[string]string{"other": t}} }

// pluralOf is a message whose form depends on the number in argument arg;
// pairs are selector, form, selector, form…; "other" is required.
func pluralOf(arg int, pairs ...string) text {
	t := text{arg: arg, forms: map[string]string{}}
	for i := 0; i+1 < len(pairs); i += 2 {
		t.forms[pairs[i]] = pairs[i+1]
	}
	return t
}

// selectors lists the selectors, exact numbers first: x/text takes the first case
// that matches.
func (t text) selectors() []string {
	var out []string
	for sel := range t.forms {
		if strings.HasPrefix(sel, "=") {
			out = append(out, sel)
		}
	}
	slices.Sort(out)
	for _, sel := range []string{"zero", "one", "two", "few", "many", "other"} {
		if _, ok := t.forms[sel]; ok {
			out = append(out, sel)
		}
	}
	return out
}

func (t text) message() catalog.Message {
	if t.arg == 0 {
		return catalog.String(t.forms["other"])
	}
	var cases []any
	for _, sel := range t.selectors() {
		cases = append(cases, sel, t.forms[sel])
	}
	return plural.Selectf(t.arg, "", cases...)
}

// Export is every message whose key starts with one of the prefixes, for
// a page's script: a message with one form as its text, a message with
// plural forms as {"arg": n, "forms": {"one": …, "other": …}}; the script
// picks the form with the browser's Intl.PluralRules for the language.
func Export(l Lang, prefixes ...string) map[string]any {
	out := map[string]any{}
	for k, t := range catalogs[l] {
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(string(k), p) }) {
			continue
		}
		if t.arg == 0 {
			out[string(k)] = t.forms["other"]
			continue
		}
		out[string(k)] = map[string]any{"arg": t.arg, "forms": t.forms}
	}
	return out
}
