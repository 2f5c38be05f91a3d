package notify

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// WebhookSpec is one webhook of a list as a configuration gives it: its
// kind (discord, slack or json) and its URL, given in URL or in the
// environment variable named by URLEnv (to keep the secret out of a file).
// The mapstructure tags are the keys of an entry of watch.webhooks in the
// config file.
type WebhookSpec struct {
	Kind   string `mapstructure:"kind"`
	URL    string `mapstructure:"url"`
	URLEnv string `mapstructure:"url_env"`
}

// Webhook makes the webhook of the spec at position i (from 0) of its
// list, reading URLEnv with getenv. It is named by its kind and position
// ("json webhook 2"): the name is stable across restarts (the store records
// deliveries under it) and never quotes the URL, a secret; no error quotes
// it either.
func (s WebhookSpec) Webhook(i int, getenv func(string) string) (*Webhook, error) {
	kind, err := ParseKind(s.Kind)
	if err != nil {
		return nil, err
	}
	u := s.URL
	if s.URLEnv != "" {
		if u != "" {
			return nil, errors.New("give url or url_env, not both")
		}
		u = getenv(s.URLEnv)
		if u == "" {
			return nil, fmt.Errorf("environment variable %s (url_env) is empty", s.URLEnv)
		}
	}
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return nil, errors.New("url must be an http(s) URL")
	}
	return &Webhook{Kind: kind, URL: u, Name: string(kind) + " webhook " + strconv.Itoa(i+1)}, nil
}
