package safetext

import (
	"strings"
	"testing"
)

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"short", "Nf3", "Nf3"},
		{"exactly the limit", strings.Repeat("a", MaxExcerpt), strings.Repeat("a", MaxExcerpt)},
		{"long", strings.Repeat("a", 50<<20), strings.Repeat("a", MaxExcerpt) + "…(52428800 bytes)"},
		{"cut at a character boundary", strings.Repeat("a", MaxExcerpt-1) + "é" + "b", strings.Repeat("a", MaxExcerpt-1) + "…(66 bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Excerpt(tc.in); got != tc.want {
				t.Fatalf("Excerpt = %.100q, want %.100q", got, tc.want)
			}
		})
	}
}

func TestTerminal(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "Carlsen, Magnus", "Carlsen, Magnus"},
		{"accents and tabs stay", "Ñandú\tÅström", "Ñandú\tÅström"},
		{"escape sequence", "\x1b[2J\x1b]0;pwned\x07Bob", `\x1b[2J\x1b]0;pwned\aBob`},
		{"newline and carriage return", "a\r\nb", `a\r\nb`},
		{"C1 and DEL", "a\u009bb\x7f", `a\u009bb\x7f`},
		{"bidi override", "abc\u202edcba", `abc\u202edcba`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Terminal(tc.in); got != tc.want {
				t.Fatalf("Terminal(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
