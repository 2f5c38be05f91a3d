package main

// watchConfig is the `watch:` section of the config file (threefold watch).
type watchConfig struct {
	Sources []string `mapstructure:"sources"` // sources followed in addition to the command-line ones
}

func defaultWatchConfig() watchConfig {
	var c watchConfig
	return c
}
