package explain

import (
	"regexp"
	"slices"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// placeholder is a numbered placeholder of a message: %[2]d.
var placeholder = regexp.MustCompile(`%\[\d+\][a-z]`)

// placeholders returns the distinct placeholders of s, sorted.
func placeholders(s string) []string {
	return slices.Compact(slices.Sorted(slices.Values(placeholder.FindAllString(s, -1))))
}

// TestEveryMessageInEveryLanguage: every language threefold speaks has its
// own catalogue of explain and claim, every message of it is written, and
// it keeps exactly the placeholders of the English text.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	for _, l := range i18n.Langs {
		t.Run(string(l), func(t *testing.T) {
			text, ok := catalogues[l]
			if !ok {
				t.Fatalf("no catalogue for %s", l)
			}
			if l != i18n.English && text == &English {
				t.Fatalf("%s speaks English", l)
			}
			for m := range msgCount {
				got := text[m]
				if got == "" {
					t.Errorf("message %d has no %s text (English: %q)", m, l, English[m])
					continue
				}
				if want, have := placeholders(English[m]), placeholders(got); !slices.Equal(want, have) {
					t.Errorf("message %d in %s has placeholders %v, English %v: %q", m, l, have, want, got)
				}
			}
		})
	}
}

// TestPlaceholdersAreNumbered: a translation may reorder its arguments
// only if every placeholder says which one it takes.
func TestPlaceholdersAreNumbered(t *testing.T) {
	unnumbered := regexp.MustCompile(`%[^\[%]`)
	for l, text := range catalogues {
		for m := range msgCount {
			if s := unnumbered.FindString(text[m]); s != "" {
				t.Errorf("message %d in %s has the unnumbered placeholder %q: %q", m, l, s, text[m])
			}
		}
	}
}

func TestForUnknownLanguageIsEnglish(t *testing.T) {
	if For("de") != &English {
		t.Error("For(de) is not English")
	}
}
