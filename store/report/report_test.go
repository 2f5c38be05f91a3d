package report

import (
	"strings"
	"testing"
	"time"
)

// TestRowEscapes: the tables escape every field, tabs included (a tab
// would shift the columns).
func TestRowEscapes(t *testing.T) {
	got := Row("%s\t%d\t%s\n", "a\tb\x1b[31m", 3, "ok")
	if got != "a\\tb\\x1b[31m\t3\tok\n" {
		t.Fatalf("Row = %q", got)
	}
}

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"spaces collapsed", " dial tcp:\n\tno  such host ", "dial tcp: no such host"},
		{"80 runes kept", strings.Repeat("é", 80), strings.Repeat("é", 80)},
		{"81 runes cut", strings.Repeat("é", 81), strings.Repeat("é", 79) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := oneLine(tc.in); got != tc.want {
				t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		in   string
		want time.Time
		bad  bool
	}{
		{"empty: since ever", "", time.Time{}, false},
		{"minutes", "90m", now.Add(-90 * time.Minute), false},
		{"hours", "2h", now.Add(-2 * time.Hour), false},
		{"negative duration counts back", "-2h", now.Add(-2 * time.Hour), false},
		{"days", "3d", now.Add(-72 * time.Hour), false},
		{"a day and a half", "1.5d", now.Add(-36 * time.Hour), false},
		{"RFC 3339", "2026-11-29T14:00:00Z", time.Date(2026, 11, 29, 14, 0, 0, 0, time.UTC), false},
		{"a date, local", "2026-11-28", time.Date(2026, 11, 28, 0, 0, 0, 0, time.Local), false},
		{"a date and time, local", "2026-11-28 09:30", time.Date(2026, 11, 28, 9, 30, 0, 0, time.Local), false},
		{"words", "last week", time.Time{}, true},
		{"negative days", "-1d", time.Time{}, true},
		{"days without a number", "-d", time.Time{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSince(tc.in, now)
			if (err != nil) != tc.bad || !got.Equal(tc.want) {
				t.Errorf("ParseSince(%q) = %v, %v; want %v (error: %v)", tc.in, got, err, tc.want, tc.bad)
			}
		})
	}
}
