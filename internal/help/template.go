package help

import (
	"fmt"
	"strconv"
	"strings"
)

// usageWords are the sections of cobra.txt that are words of cobra's usage
// template.
var usageWords = []string{"usage", "aliases", "examples", "available commands", "additional commands",
	"flags", "global flags", "additional help topics", "more information"}

// DefaultsFunc is the name under which the program gives its templates
// Defaults.
const DefaultsFunc = "helpDefaults"

// Defaults says the "(default X)" that pflag writes after a flag's text in
// lang, in usages, the flags as pflag lists them.
func Defaults(lang, usages string) string {
	en, _ := Load(English, Cobra)
	said, err := Load(lang, Cobra)
	if err != nil {
		return usages
	}
	return strings.ReplaceAll(usages, " "+en["default"]+" ", " "+said["default"]+" ")
}

// UsageTemplate is template, cobra's usage template (in English), with the
// words of cobra.txt in lang in place of the English ones; {{command}} in
// them is the command's path. Each English phrase must begin exactly one
// line of template: anything else means the library changed its words,
// and the error says which. In a language other than English, the flags
// pflag lists pass through the template function DefaultsFunc, which the
// program must give the template: Defaults.
func UsageTemplate(template, lang string) (string, error) {
	en, err := Load(English, Cobra)
	if err != nil {
		return "", err
	}
	said, err := Load(lang, Cobra)
	if err != nil {
		return "", err
	}
	vars := Vars{"command": "{{.CommandPath}}"}
	out := "\n" + template
	for _, name := range usageWords {
		from, to := "\n"+en.Say(name, vars), "\n"+said.Say(name, vars)
		if n := strings.Count(out, from); n != 1 {
			return "", fmt.Errorf("usage template: %q begins %d lines, want 1", from[1:], n)
		}
		out = strings.Replace(out, from, to, 1)
	}
	if lang != English {
		if strings.Count(out, ".FlagUsages") == 0 {
			return "", fmt.Errorf("usage template: no .FlagUsages")
		}
		out = strings.ReplaceAll(out, ".FlagUsages", ".FlagUsages | "+DefaultsFunc+" "+strconv.Quote(lang))
	}
	return out[1:], nil
}
