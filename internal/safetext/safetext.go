// Package safetext makes text from outside safe to show in errors and on terminals.
//
// It makes text that came from outside (a PGN, a network
// stream, a player's name) safe to show: Excerpt cuts it short for an
// error message, Terminal escapes what a terminal would obey (escape
// sequences, other control characters, bidirectional overrides), and
// JSONProblem says what is wrong with a JSON text without quoting it.
package safetext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxExcerpt is how many bytes of an input an error message quotes.
const MaxExcerpt = 64

// Excerpt returns s when it is at most MaxExcerpt bytes, else its first
// bytes (cut at a character boundary) followed by "…" and its length, so
// that a huge bad input never makes a huge message.
func Excerpt(s string) string {
	if len(s) <= MaxExcerpt {
		return s
	}
	cut := MaxExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// Terminal returns s with every control character (C0 but tab, DEL, C1),
// every bidirectional formatting character and every invalid UTF-8 byte
// written as an escape (\x1b, \u202e, \xff), so that text from outside
// cannot move the cursor, recolour or reorder a terminal's output. Text
// without such characters is returned as it is.
func Terminal(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case unsafeRune(r, n):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Cell is Terminal for one cell of a table: a tab is escaped too, so that
// it cannot shift the columns.
func Cell(s string) string {
	s = Terminal(s)
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\t", `\t`)
}

func unsafeRune(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r < 0x20:
		return r != '\t'
	case r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x200e && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // marks, embeddings, overrides and isolates of bidirectional text
	}
	return false
}
