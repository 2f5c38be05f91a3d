package logconfig

import (
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	for _, tc := range []struct {
		name      string
		c         Config
		wantErr   string
		wantJSON  bool
		wantDebug bool
	}{
		{name: "default", c: Default()},
		{name: "json in capitals, debug", c: Config{Level: "DEBUG", Format: "JSON"}, wantJSON: true, wantDebug: true},
		{name: "warn hides info", c: Config{Level: "warn", Format: "text"}},
		{name: "unknown level", c: Config{Level: "loud", Format: "text"}, wantErr: `log.level = "loud": it must be debug, info, warn or error`},
		{name: "unknown format", c: Config{Level: "info", Format: "xml"}, wantErr: `log.format = "xml": it must be text or json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Check()
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("Check() = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			log := tc.c.Logger(&out)
			log.Debug("debug line")
			log.Warn("warn line")
			if got := strings.HasPrefix(out.String(), "{"); got != tc.wantJSON {
				t.Errorf("log %q: JSON %v, want %v", out.String(), got, tc.wantJSON)
			}
			if got := strings.Contains(out.String(), "debug line"); got != tc.wantDebug {
				t.Errorf("log %q: debug shown %v, want %v", out.String(), got, tc.wantDebug)
			}
			if !strings.Contains(out.String(), "warn line") {
				t.Errorf("log %q: no warn line", out.String())
			}
		})
	}
}
