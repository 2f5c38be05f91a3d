package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// botConfig is the `bot:` section of the config file (threefold bot).
// config.example.yaml documents every key; the defaults come from
// bot.DefaultConfig.
type botConfig struct {
	Engine struct {
		Path         string        `mapstructure:"path"`                                                  // UCI engine binary; "" plays with the built-in mover
		Args         []string      `mapstructure:"args"`                                                  // arguments for the engine binary
		Threads      int           `mapstructure:"threads" range:"0,1024"`                                // UCI option Threads (0: engine default)
		Hash         int           `mapstructure:"hash" range:"0,1048576"`                                // UCI option Hash in MB (0: engine default)
		Options      []string      `mapstructure:"options"`                                               // more UCI options as "Name=Value"
		MinMoveTime  time.Duration `mapstructure:"min_move_time" range:"0s,1h"`                           // least time per move
		MaxMoveTime  time.Duration `mapstructure:"max_move_time" range:"1ms,24h"`                         // most time per move (and the time per move without a clock)
		MoveOverhead time.Duration `mapstructure:"move_overhead" range:"0s,1m"`                           // kept back from every move for the network
		Depth        int           `mapstructure:"depth" range:"0,1000"`                                  // also stop at this depth (0: no limit)
		Nodes        int64         `mapstructure:"nodes" range:"0,1125899906842624"`                      // also stop after this many nodes (0: no limit)
		Restarts     int           `mapstructure:"restarts" range:"0,100"`                                // restarts of a crashed engine per game before the built-in mover takes over
		Seed         int64         `mapstructure:"seed" range:"-9223372036854775808,9223372036854775807"` // seed of the built-in mover's choices among equal moves
		CPUBudget    int           `mapstructure:"cpu_budget" range:"0,4096"`                             // threads for all engines together (0: threads each)
		HashBudget   int           `mapstructure:"hash_budget" range:"0,1048576"`                         // hash MB for all engines together (0: hash each)
	} `mapstructure:"engine"`
	Policy      bot.PolicyConfig      `mapstructure:"policy"`
	DrawOffers  bot.DrawOfferConfig   `mapstructure:"draw_offers"`
	Challenge   bot.ChallengeConfig   `mapstructure:"challenge"`
	Matchmaking bot.MatchmakingConfig `mapstructure:"matchmaking"`
	Book        bot.BookConfig        `mapstructure:"book"`
	Chat        struct {
		MinInterval time.Duration `mapstructure:"min_interval" range:"0s,1h"`
		// Lang is the language of the chat notices: en, ru, tr or fa; ""
		// is lang. A notice whose text is "" says that language's default.
		Lang     string       `mapstructure:"lang"`
		Greeting bot.ChatLine `mapstructure:"greeting"`
		Goodbye  bot.ChatLine `mapstructure:"goodbye"`
		Second   bot.ChatLine `mapstructure:"second"`
		Third    bot.ChatLine `mapstructure:"third"`
		Claim    bot.ChatLine `mapstructure:"claim"`
		Fifth    bot.ChatLine `mapstructure:"fifth"`
	} `mapstructure:"chat"`
	// chatLang is Chat.Lang resolved by loadConfig.
	chatLang    i18n.Lang
	OnStop      string        `mapstructure:"on_stop"`                      // finish or resign
	StopTimeout time.Duration `mapstructure:"stop_timeout" range:"0s,168h"` // with finish: resign what still runs after this
	Takebacks   string        `mapstructure:"takebacks"`                    // decline, accept or casual
}

func defaultBotConfig() botConfig {
	d := bot.DefaultConfig()
	var c botConfig
	e := d.Engine
	c.Engine.Path, c.Engine.Threads, c.Engine.Hash = e.Path, e.Threads, e.Hash
	c.Engine.MinMoveTime, c.Engine.MaxMoveTime, c.Engine.MoveOverhead = e.MinMoveTime, e.MaxMoveTime, e.MoveOverhead
	c.Engine.Depth, c.Engine.Nodes, c.Engine.Restarts, c.Engine.Seed = e.Depth, e.Nodes, e.Restarts, e.Seed
	c.Engine.CPUBudget, c.Engine.HashBudget = e.CPUBudget, e.HashBudget
	c.Policy, c.DrawOffers, c.Challenge, c.Matchmaking, c.Book = d.Policy, d.Draws, d.Challenge, d.Matchmaking, d.Book
	// Each notice's text is "" by default: the template of the chat's
	// language (bot.ChatTemplates).
	t := d.Chat
	c.Chat.MinInterval = t.MinInterval
	c.Chat.Greeting = bot.ChatLine{Room: t.Greeting.Room}
	c.Chat.Goodbye = bot.ChatLine{Room: t.Goodbye.Room}
	c.Chat.Second = bot.ChatLine{Room: t.Second.Room}
	c.Chat.Third = bot.ChatLine{Room: t.Third.Room}
	c.Chat.Claim = bot.ChatLine{Room: t.Claim.Room}
	c.Chat.Fifth = bot.ChatLine{Room: t.Fifth.Room}
	c.OnStop, c.StopTimeout, c.Takebacks = d.OnStop, d.StopTimeout, d.Takebacks
	return c
}

// toBot turns the config section into the bot's configuration; records go
// to games.jsonl in the data directory.
func (c botConfig) toBot(dataDir string) (bot.Config, error) {
	d := bot.DefaultConfig()
	e := &d.Engine
	e.Path, e.Args, e.Threads, e.Hash = c.Engine.Path, c.Engine.Args, c.Engine.Threads, c.Engine.Hash
	e.MinMoveTime, e.MaxMoveTime, e.MoveOverhead = c.Engine.MinMoveTime, c.Engine.MaxMoveTime, c.Engine.MoveOverhead
	e.Depth, e.Nodes, e.Restarts, e.Seed = c.Engine.Depth, c.Engine.Nodes, c.Engine.Restarts, c.Engine.Seed
	e.CPUBudget, e.HashBudget = c.Engine.CPUBudget, c.Engine.HashBudget
	var err error
	if e.Options, err = bot.ParseUCIOptions(c.Engine.Options); err != nil {
		return d, fmt.Errorf("bot.engine.options: %w", err)
	}
	d.Policy, d.Draws, d.Challenge, d.Matchmaking, d.Book = c.Policy, c.DrawOffers, c.Challenge, c.Matchmaking, c.Book
	t := c.Chat
	d.Chat = bot.ChatConfig{MinInterval: t.MinInterval, Lang: c.chatLang, Greeting: t.Greeting, Goodbye: t.Goodbye,
		Second: t.Second, Third: t.Third, Claim: t.Claim, Fifth: t.Fifth}.WithDefaultTexts()
	d.OnStop, d.StopTimeout, d.Takebacks = c.OnStop, c.StopTimeout, c.Takebacks
	if dataDir != "" {
		d.RecordFile = filepath.Join(dataDir, "games.jsonl")
	}
	return d, d.Validate()
}
