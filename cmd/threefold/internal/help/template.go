package help

import (
	"fmt"
	"strings"
)

// usageWords are the sections of cobra.txt that are words of cobra's usage
// template.
var usageWords = []string{"usage", "aliases", "examples", "available commands", "additional commands",
	"flags", "global flags", "additional help topics", "more information"}

// UsageTemplate is template, cobra's usage template (in English), with the
// words of cobra.txt in lang in place of the English ones; {{command}} in
// them is the command's path. Each English phrase must begin exactly one
// line of template: anything else means the library changed its words,
// and the error says which.
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
	return out[1:], nil
}
