package notify

import (
	"strings"
	"testing"
)

func TestWebhookSpec(t *testing.T) {
	const secret = "https://discord.example/api/webhooks/1/SECRET"
	env := map[string]string{"HOOK": secret}
	for _, tc := range []struct {
		name     string
		spec     WebhookSpec
		i        int
		wantName string
		err      string
	}{
		{"a URL", WebhookSpec{Kind: "discord", URL: secret}, 0, "discord webhook 1", ""},
		{"from the environment", WebhookSpec{Kind: " JSON", URLEnv: "HOOK"}, 1, "json webhook 2", ""},
		{"plain http", WebhookSpec{Kind: "slack", URL: "http://localhost:9/x"}, 2, "slack webhook 3", ""},
		{"an unknown kind", WebhookSpec{Kind: "teams", URL: secret}, 0, "", `unknown webhook kind "teams"`},
		{"both", WebhookSpec{Kind: "json", URL: secret, URLEnv: "HOOK"}, 0, "", "give url or url_env, not both"},
		{"an empty variable", WebhookSpec{Kind: "json", URLEnv: "NOTSET"}, 0, "", "environment variable NOTSET (url_env) is empty"},
		{"no URL", WebhookSpec{Kind: "json"}, 0, "", "url must be an http(s) URL"},
		{"not http", WebhookSpec{Kind: "json", URL: "ftp://x/SECRET"}, 0, "", "url must be an http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := tc.spec.Webhook(tc.i, func(k string) string { return env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "SECRET") {
					t.Fatalf("error %v, want one with %q and no URL", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Name != tc.wantName || h.URL == "" || strings.Contains(h.Name, "SECRET") {
				t.Errorf("webhook %q at %q", h.Name, h.URL)
			}
		})
	}
}
