package main

import (
	"fmt"
	"path/filepath"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// botConfig is the `bot:` section of the config file (threefold bot):
// the keys of bot.Config, and the engine's with its options as a list.
// config.example.yaml documents every key; the defaults come from
// bot.DefaultConfig.
type botConfig struct {
	Engine struct {
		bot.EngineConfig `mapstructure:",squash"`
		Options          []string `mapstructure:"options"` // more UCI options as "Name=Value"
	} `mapstructure:"engine"`
	bot.Config `mapstructure:",squash"`
	chatLang   i18n.Lang // bot.chat.lang, else lang: resolved by loadConfig
}

func defaultBotConfig() botConfig {
	var c botConfig
	c.Config = bot.DefaultConfig()
	c.Engine.EngineConfig = c.Config.Engine
	// Each notice's text is "" by default: the template of the chat's
	// language (bot.ChatTemplates).
	t := &c.Chat
	for _, l := range []*bot.ChatLine{&t.Greeting, &t.Goodbye, &t.Second, &t.Third, &t.Claim, &t.Fifth} {
		l.Text = ""
	}
	return c
}

// toBot turns the config section into the bot's configuration; records
// go to games.jsonl in the data directory.
func (c botConfig) toBot(dataDir string) (bot.Config, error) {
	d := c.Config
	d.Engine = c.Engine.EngineConfig
	var err error
	if d.Engine.Options, err = bot.ParseUCIOptions(c.Engine.Options); err != nil {
		return d, fmt.Errorf("bot.engine.options: %w", err)
	}
	d.Chat.Lang = c.chatLang
	d.Chat = d.Chat.WithDefaultTexts()
	if dataDir != "" {
		d.RecordFile = filepath.Join(dataDir, "games.jsonl")
	}
	return d, d.Validate()
}
