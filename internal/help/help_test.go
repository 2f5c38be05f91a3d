package help

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       File
		err        string
	}{
		{name: "sections", text: "[short]\nOne line\n\n[long]\nFirst\n\n  indented\n\n\n[flag json]\nJSON\n",
			want: File{"short": "One line", "long": "First\n\n  indented", "flag json": "JSON"}},
		{name: "a leading blank line before the first section", text: "\n[short]\nx", want: File{"short": "x"}},
		{name: "brackets inside a line are text", text: "[long]\nThe [Variant] tag\n[x] y\n", want: File{"long": "The [Variant] tag\n[x] y"}},
		{name: "an empty section", text: "[example]\n\n[short]\ns\n", want: File{"example": "", "short": "s"}},
		{name: "text before the first section", text: "oops\n[short]\nx", err: "line 1: text before the first [section]"},
		{name: "a section twice", text: "[short]\na\n[short]\nb", err: "line 3: section [short] again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.text)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSay(t *testing.T) {
	f := File{
		"flag config":                       "config file (default {{config_file}}, read when it exists)",
		"flag config, without config_file":  "config file (no default)",
		"long":                              "SOURCE is one of:\n{{source_forms}}\nand {{unknown}} stays",
		"short":                             "plain",
		"flag lang, without config_file":    "never said: [flag lang] has no {{config_file}}",
		"flag lang":                         "language ({{command}})",
		"help flag":                         "help for {{command}}",
		"flag twice":                        "{{a}} and {{a}}",
		"flag twice, without a":             "no a",
		"flag other placeholder":            "{{b}}",
		"flag other placeholder, without a": "not this one",
	}
	for _, tc := range []struct {
		name, section string
		vars          Vars
		want          string
	}{
		{"a placeholder filled in", "flag config", Vars{"config_file": "/home/x/threefold.yaml"}, "config file (default /home/x/threefold.yaml, read when it exists)"},
		{"the variant when the value is empty", "flag config", Vars{"config_file": ""}, "config file (no default)"},
		{"the variant when the value is missing", "flag config", nil, "config file (no default)"},
		{"a text of many lines; an unknown placeholder kept", "long", Vars{"source_forms": "  FILE\n  URL"}, "SOURCE is one of:\n  FILE\n  URL\nand {{unknown}} stays"},
		{"no placeholder", "short", Vars{"x": "y"}, "plain"},
		{"a variant of another placeholder is not said", "flag lang", Vars{"command": "watch"}, "language (watch)"},
		{"a placeholder twice", "flag twice", Vars{"a": "A"}, "A and A"},
		{"a variant for a placeholder the text does not have", "flag other placeholder", Vars{"b": "B"}, "B"},
		{"no such section", "example", Vars{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := f.Say(tc.section, tc.vars); got != tc.want {
				t.Errorf("Say(%q) = %q, want %q", tc.section, got, tc.want)
			}
		})
	}
}

// TestEveryHelpHasEveryLanguage: every language has the files of English,
// each with the sections of English and no other, each section with the
// placeholders of its English text; a flag's text is one line without a
// backquote (pflag would read a `word` in it as the flag's value name).
func TestEveryHelpHasEveryLanguage(t *testing.T) {
	if got, want := slices.Sorted(slices.Values(Langs())), slices.Sorted(slices.Values(langs())); !slices.Equal(got, want) {
		t.Errorf("help in %q, want the languages threefold speaks, %q", got, want)
	}
	english := Commands(English)
	if len(english) < 10 || !slices.Contains(english, Cobra) {
		t.Fatalf("English help files %q: want every command and %s", english, Cobra)
	}
	for _, lang := range Langs() {
		if got := Commands(lang); !slices.Equal(got, english) {
			t.Errorf("%s has the files %q, want those of English %q", lang, got, english)
		}
		for _, command := range english {
			en, err := Load(English, command)
			if err != nil {
				t.Fatal(err)
			}
			said, err := Load(lang, command)
			if err != nil {
				t.Error(err)
				continue
			}
			for name, text := range said {
				if _, ok := en[name]; !ok {
					t.Errorf("%s/%s.txt: section [%s] is not in English", lang, command, name)
				}
				if strings.HasPrefix(name, "flag ") && (strings.Contains(text, "\n") || strings.Contains(text, "`")) {
					t.Errorf("%s/%s.txt: [%s] is more than one line or has a backquote: %q", lang, command, name, text)
				}
			}
			for name, text := range en {
				tr, ok := said[name]
				if !ok {
					t.Errorf("%s/%s.txt: no section [%s]", lang, command, name)
					continue
				}
				if strings.TrimSpace(tr) == "" && strings.TrimSpace(text) != "" {
					t.Errorf("%s/%s.txt: [%s] is empty", lang, command, name)
				}
				if got, want := Placeholders(tr), Placeholders(text); !slices.Equal(got, want) {
					t.Errorf("%s/%s.txt: [%s] has the placeholders %q, want %q", lang, command, name, got, want)
				}
			}
		}
	}
}

// langs are the languages threefold speaks, English first.
func langs() []string {
	var out []string
	for _, l := range i18n.Langs {
		out = append(out, string(l))
	}
	return out
}

// TestUsageTemplate: in English the template is cobra's own; in every
// other language each of cobra's words is said in that language; a
// template whose words changed is an error.
func TestUsageTemplate(t *testing.T) {
	cobras := (&cobra.Command{}).UsageTemplate()
	got, err := UsageTemplate(cobras, English)
	if err != nil {
		t.Fatal(err)
	}
	if got != cobras {
		t.Errorf("English template differs from cobra's:\n%s", got)
	}
	en, _ := Load(English, Cobra)
	for _, lang := range Langs()[1:] {
		got, err := UsageTemplate(cobras, lang)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		said, _ := Load(lang, Cobra)
		for _, name := range usageWords {
			word := strings.ReplaceAll(en[name], "{{command}}", "{{.CommandPath}}")
			if strings.Contains(got, "\n"+word) || strings.HasPrefix(got, word) {
				t.Errorf("%s: %q is still in the template", lang, word)
			}
			if s := strings.ReplaceAll(said[name], "{{command}}", "{{.CommandPath}}"); !strings.Contains(got, s) {
				t.Errorf("%s: %q is not in the template", lang, s)
			}
		}
	}
	for _, tc := range []struct{ name, template, err string }{
		{"a word cobra no longer has", strings.Replace(cobras, "Global Flags:", "Inherited Flags:", 1), `"Global Flags:" begins 0 lines, want 1`},
		{"a word twice", cobras + "\nFlags:\n", `"Flags:" begins 2 lines, want 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := UsageTemplate(tc.template, English); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
	if _, err := Load("xx", Cobra); err == nil {
		t.Error("Load of a language without help: no error")
	}
}

func TestDefaults(t *testing.T) {
	usages := "      --color string   the bot's colour (default \"random\")\n      --days int       days per move (default 3)\n"
	for _, tc := range []struct{ name, lang, want string }{
		{"English as pflag writes it", English, usages},
		{"Russian", "ru", "      --color string   the bot's colour (по умолчанию \"random\")\n      --days int       days per move (по умолчанию 3)\n"},
		{"Persian", "fa", "      --color string   the bot's colour (پیش‌فرض \"random\")\n      --days int       days per move (پیش‌فرض 3)\n"},
		{"a language without help", "xx", usages},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Defaults(tc.lang, usages); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	for _, lang := range Langs()[1:] {
		got, err := UsageTemplate((&cobra.Command{}).UsageTemplate(), lang)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(got, ".FlagUsages | "+DefaultsFunc+` "`+lang+`"`); n != 2 {
			t.Errorf("%s: the local and the inherited flags pass through %s %d times, want 2", lang, DefaultsFunc, n)
		}
	}
}

// code are the words of a help text that are typed or read as they are in
// every language: flags, addresses, config keys and file names, the names
// in capitals that stand for a value (SOURCE, USER), source forms.
var code = regexp.MustCompile(`--[a-z][a-z0-9-]*|(?:https?|ws)://[^\s,;)"]+|chesscom:[A-Za-z:/]+|\b[a-z_]{2,}(?:\.[a-z_]+)+\b|\b[A-Z][A-Z_]{2,}\b`)

// words are capitals that are English words, not code: a translation may
// say them in its language.
var words = map[string]bool{"OTB": true, "URL": true}

// TestCodeIsKept: a translation keeps every flag, address, key, file name
// and value name of the English text.
func TestCodeIsKept(t *testing.T) {
	for _, lang := range Langs()[1:] {
		for _, command := range Commands(English) {
			en, _ := Load(English, command)
			said, _ := Load(lang, command)
			for name, text := range en {
				for _, c := range code.FindAllString(text, -1) {
					if !words[c] && !strings.Contains(said[name], c) {
						t.Errorf("%s/%s.txt [%s]: no %s", lang, command, name, c)
					}
				}
			}
		}
	}
}
