package safetext

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestJSONProblem(t *testing.T) {
	const secret = "https://hooks.example/SECRET"
	for _, tc := range []struct {
		name, text, want string
		into             any
	}{
		{"cut short", `[{"url": "` + secret, "not JSON at byte 38", &[]any{}},
		{"not JSON at all", secret, "not JSON at byte 1", &[]any{}},
		{"the wrong type", `{"url": "` + secret + `"}`, "a object where a value was expected", &[]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := json.Unmarshal([]byte(tc.text), tc.into)
			got := JSONProblem(err)
			if got != tc.want || strings.Contains(got, "SECRET") {
				t.Errorf("JSONProblem(%v) = %q, want %q", err, got, tc.want)
			}
		})
	}
	if got := JSONProblem(errors.New("io: read failed " + secret)); got != "not JSON" {
		t.Errorf("another error: %q", got)
	}
}
