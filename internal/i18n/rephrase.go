package i18n

import (
	"regexp"
	"strings"
	"sync"
)

// Some texts are made in English where they are kept — an alert's reason
// and a source's name are fields of the alert JSON, whose contract is
// English — and shown to a person later, maybe after a restart. Rephrase
// reads such a text back: when it is the English form of one of the
// messages asked for, with its placeholders filled in, it says the same
// message with the same values in the printer's language. Those messages
// take only %[n]s placeholders (values as they are: plies, ids, paths).

var (
	englishREsMu sync.Mutex
	englishREs   = map[Key]*regexp.Regexp{}
)

var stringPlaceholderRE = regexp.MustCompile(`%\[(\d+)\]s`)

// englishRE matches the English text of k with any values in its
// placeholders, each value a submatch in the order the text has them.
func englishRE(k Key) *regexp.Regexp {
	englishREsMu.Lock()
	defer englishREsMu.Unlock()
	if re, ok := englishREs[k]; ok {
		return re
	}
	t := catalogs[English][k].forms["other"]
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range stringPlaceholderRE.FindAllStringIndex(t, -1) {
		b.WriteString(regexp.QuoteMeta(t[last:m[0]]))
		b.WriteString("(.+?)")
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(t[last:]))
	b.WriteString("$")
	re := regexp.MustCompile(b.String())
	englishREs[k] = re
	return re
}

// placeholderOrder is the argument number of each %[n]s of the English
// text of k, in the order the text has them.
func placeholderOrder(k Key) []int {
	var out []int
	for _, m := range stringPlaceholderRE.FindAllStringSubmatch(catalogs[English][k].forms["other"], -1) {
		n := 0
		for _, c := range m[1] {
			n = 10*n + int(c-'0')
		}
		out = append(out, n)
	}
	return out
}

// Rephrase says english, the English text of one of the messages keys with
// its values filled in, in the printer's language, with the same values;
// the first key whose English text fits is taken. A text none fits is
// returned as it is, with false.
func (p *Printer) Rephrase(english string, keys ...Key) (string, bool) {
	for _, k := range keys {
		m := englishRE(k).FindStringSubmatch(english)
		if m == nil {
			continue
		}
		order := placeholderOrder(k)
		args := make([]any, len(order))
		for i, n := range order {
			if n >= 1 && n <= len(args) {
				args[n-1] = m[i+1]
			}
		}
		return p.Sprintf(k, args...), true
	}
	return english, false
}
