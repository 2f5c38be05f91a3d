package main

import "time"

// watchConfig is the `watch:` section of the config file (threefold watch).
type watchConfig struct {
	Sources []string `mapstructure:"sources"` // sources followed in addition to the command-line ones
	// Webhooks receive every alert. Each is {kind: discord|slack|json, url: …};
	// the URL is a secret and never appears in a log line.
	Webhooks []webhookConfig `mapstructure:"webhooks"`
	// QueueSize bounds the alerts waiting for one webhook; when full, the
	// oldest is dropped (and counted in a warning): a slow webhook never
	// delays detection.
	QueueSize int `mapstructure:"queue_size"`
	// FilePollInterval is how often PGN files and folders are checked for
	// changes.
	FilePollInterval time.Duration `mapstructure:"file_poll_interval"`
	// DGTMaxFailures ends a DGT LiveChess source after this many connection
	// attempts in a row that never reach the server (0: retry forever).
	DGTMaxFailures int `mapstructure:"dgt_max_failures"`
}

// webhookConfig is one entry of watch.webhooks. The URL is a secret: it
// may be given in the file (url) or, to keep it out of the file, in the
// environment variable named by url_env.
type webhookConfig struct {
	Kind   string `mapstructure:"kind"`
	URL    string `mapstructure:"url"`
	URLEnv string `mapstructure:"url_env"`
}

func defaultWatchConfig() watchConfig {
	var c watchConfig
	c.QueueSize = 1000
	c.FilePollInterval = 2 * time.Second
	return c
}
