package main

// botConfig is the `bot:` section of the config file (threefold bot).
type botConfig struct {
	Engine struct {
		Path string `mapstructure:"path"` // UCI engine binary; "" plays with the built-in mover
	} `mapstructure:"engine"`
}

func defaultBotConfig() botConfig {
	var c botConfig
	return c
}
