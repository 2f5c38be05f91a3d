package main

import (
	"github.com/threefold-chess/threefold/group"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/store/delivery"
)

// watchConfig is the `watch:` section of the config file (threefold
// watch); the keys of its parts are declared by the packages they
// configure.
type watchConfig struct {
	Sources []string `mapstructure:"sources"` // sources followed in addition to the command-line ones
	// Webhooks receive every alert. Each is {kind: discord|slack|json, url: …}
	// or, to keep the URL out of the file, {kind, url_env: VARIABLE}; the URL
	// is a secret and never appears in a log line.
	Webhooks               []notify.WebhookSpec     `mapstructure:"webhooks"`
	delivery.DurableConfig `mapstructure:",squash"` // queue_size: the alerts waiting for one webhook
	listener.Config        `mapstructure:",squash"` // how the sources read: file_poll_interval, dgt_*, finished_grace
	group.Settings         `mapstructure:",squash"` // group mode: group, lease_ttl, the budgets, outbox_hold
}

func defaultWatchConfig() watchConfig {
	return watchConfig{DurableConfig: delivery.DurableConfig{QueueSize: 1000}, Config: listener.DefaultConfig(), Settings: group.DefaultSettings()}
}
