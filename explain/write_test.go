package explain

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/rules"
)

// marked is an answer whose JSON holds what HTML escaping would change.
type marked struct {
	Says string `json:"says"`
}

func (m marked) Text() string { return m.Says + "\n" }

func TestWrite(t *testing.T) {
	a, err := rules.ParseFEN("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := rules.ParseFEN("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	r := Compare(a, b, i18n.English)
	for _, tc := range []struct {
		name   string
		answer interface{ Text() string }
		asJSON bool
		want   string
	}{
		{"a report as text", r, false, r.Text()},
		{"a report as JSON", r, true, mustJSON(t, r)},
		{"JSON without HTML escapes", marked{Says: "a<b & c>d"}, true, `{"says":"a<b & c>d"}` + "\n"},
		{"text as it is", marked{Says: "a<b"}, false, "a<b\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			if err := Write(&out, tc.answer, tc.asJSON); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("Write = %q, want %q", out.String(), tc.want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}
