package bot

import (
	"maps"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
)

func TestParseUCIOptions(t *testing.T) {
	tests := []struct {
		name   string
		list   []string
		want   map[string]string
		errHas string
	}{
		{name: "none", list: nil, want: nil},
		{name: "trimmed", list: []string{" Skill Level = 5 ", "UCI_Chess960=true"}, want: map[string]string{"Skill Level": "5", "UCI_Chess960": "true"}},
		{name: "an empty value", list: []string{"SyzygyPath="}, want: map[string]string{"SyzygyPath": ""}},
		{name: "the last of a name wins", list: []string{"Hash=1", "Hash=2"}, want: map[string]string{"Hash": "2"}},
		{name: "no equals sign", list: []string{"Ponder"}, errHas: `"Ponder" is not Name=Value`},
		{name: "no name", list: []string{" =5"}, errHas: "is not Name=Value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseUCIOptions(tc.list)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err = %v, want one with %q", err, tc.errHas)
				}
				return
			}
			if err != nil || !maps.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("ParseUCIOptions(%q) = %v, %v; want %v", tc.list, got, err, tc.want)
			}
		})
	}
}

// A notice without a text says its language's template; one with a text
// keeps it, and its room either way.
func TestChatConfigWithDefaultTexts(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.Russian} {
		t.Run(string(lang), func(t *testing.T) {
			c := ChatConfig{Lang: lang, Greeting: ChatLine{Room: "both", Text: "hi {opponent}"}, Fifth: ChatLine{Room: "none"}}
			got := c.WithDefaultTexts()
			want := ChatTemplates(lang)
			lines := map[string]ChatLine{NoticeGreeting: got.Greeting, NoticeGoodbye: got.Goodbye, NoticeSecond: got.Second,
				NoticeThird: got.Third, NoticeClaim: got.Claim, NoticeFifth: got.Fifth}
			for notice, l := range lines {
				switch {
				case notice == NoticeGreeting && (l.Text != "hi {opponent}" || l.Room != "both"):
					t.Errorf("greeting %+v: its own text and room are lost", l)
				case notice != NoticeGreeting && l.Text != want[notice]:
					t.Errorf("%s: text %q, want the template %q", notice, l.Text, want[notice])
				}
			}
			if got.Fifth.Room != "none" || c.Second.Text != "" {
				t.Errorf("the fifth's room %q, the original changed: %q", got.Fifth.Room, c.Second.Text)
			}
		})
	}
}
