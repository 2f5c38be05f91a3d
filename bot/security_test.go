package bot

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// link is what a chat client could turn into a link or a mention: a
// scheme, a www. host, a dotted domain name, an @name.
var link = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*:/)|(www\.)|([a-z0-9-]\.(com|org|net|io|ru|gg|ly|me|co|xyz|tv|be|de)\b)|(@\w)`)

// TestChatFromHostileNames: the names that reach chat lines come from other
// people (an opponent's username, an event's name). Whatever they hold,
// the line the bot writes is one line of at most ChatMaxLen characters,
// without links, mentions, control or invisible formatting characters, and
// a name cannot inject a placeholder.
func TestChatFromHostileNames(t *testing.T) {
	cfg := DefaultConfig()
	templates := map[string]string{
		"greeting": cfg.Chat.Greeting.Text,
		"third":    cfg.Chat.Third.Text,
		"claim":    cfg.Chat.Claim.Text,
		"goodbye":  cfg.Chat.Goodbye.Text,
		"bare":     "{opponent} {me} {claimant} {ending}",
	}
	hostile := []struct{ name, value string }{
		{"url", "https://evil.example.com/login?next=x"},
		{"scheme without slashes", "javascript:alert(1)"},
		{"upper-case scheme", "HTTPS://EVIL.COM"},
		{"www", "www.evil.com"},
		{"bare domain", "visit lichess-prizes.com now"},
		{"lichess link", "lichess.org/@/mod?x"},
		{"mention", "@lichess look here"},
		{"newline", "alice\nlichess: you have been banned"},
		{"carriage return and tab", "alice\r\n\tbob"},
		{"bidi override", "alice\u202emoc.live\u202c"},
		{"zero-width", "a\u200bl\u200ci\u200dc\ufeffe"},
		{"nul and escapes", "al\x00ice\x1b[31m"},
		{"placeholder injection", "{me}{opponent}{ending}"},
		{"very long", strings.Repeat("W", 500)},
		{"long unicode", strings.Repeat("👑", 200)},
		{"invalid utf-8", "al\xffice\xc3"},
		{"html", "<script>alert(1)</script>"},
	}
	for tname, tmpl := range templates {
		for _, h := range hostile {
			t.Run(tname+"/"+h.name, func(t *testing.T) {
				v := ChatVars{Me: "threefoldbot", Opponent: h.value, Claimant: h.value, Ending: "Game over.",
					Move: "23. Nf3", Plies: "10, 14, 18", Ply: 18, Count: 3, Result: "1/2-1/2"}
				got := RenderChat(tmpl, v)
				if n := utf8.RuneCountInString(got); n > ChatMaxLen {
					t.Errorf("%d characters: %q", n, got)
				}
				if !utf8.ValidString(got) {
					t.Errorf("invalid UTF-8: %q", got)
				}
				if m := link.FindString(got); m != "" {
					t.Errorf("a link or mention (%q) in %q", m, got)
				}
				for _, r := range got {
					if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
						t.Errorf("control or format character %U in %q", r, got)
					}
				}
				if strings.Contains(h.value, "{") && strings.Count(got, "threefoldbot") > strings.Count(tmpl, "{me}") {
					t.Errorf("the name injected a placeholder: %q", got)
				}
			})
		}
	}
}

// TestChatKeepsOrdinaryNames: escaping leaves what real names look like.
func TestChatKeepsOrdinaryNames(t *testing.T) {
	for _, name := range []string{"alice", "Magnus_Carlsen", "DrNykterstein", "bot-3000", "Ivanchuk V.", "St. Louis Rapid & Blitz 2026", "Ding Liren", "Élodie Müller"} {
		if got := RenderChat("{opponent}", ChatVars{Opponent: name}); got != name {
			t.Errorf("%q became %q", name, got)
		}
	}
}
