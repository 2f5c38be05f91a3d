package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// botConfig is the `bot:` section of the config file (threefold bot).
// config.example.yaml documents every key; the defaults come from
// bot.DefaultConfig.
type botConfig struct {
	Engine struct {
		Path         string        `mapstructure:"path"`          // UCI engine binary; "" plays with the built-in mover
		Args         []string      `mapstructure:"args"`          // arguments for the engine binary
		Threads      int           `mapstructure:"threads"`       // UCI option Threads (0: engine default)
		Hash         int           `mapstructure:"hash"`          // UCI option Hash in MB (0: engine default)
		Options      []string      `mapstructure:"options"`       // more UCI options as "Name=Value"
		MinMoveTime  time.Duration `mapstructure:"min_move_time"` // least time per move
		MaxMoveTime  time.Duration `mapstructure:"max_move_time"` // most time per move (and the time per move without a clock)
		MoveOverhead time.Duration `mapstructure:"move_overhead"` // kept back from every move for the network
		Depth        int           `mapstructure:"depth"`         // also stop at this depth (0: no limit)
		Nodes        int64         `mapstructure:"nodes"`         // also stop after this many nodes (0: no limit)
		Restarts     int           `mapstructure:"restarts"`      // restarts of a crashed engine per game before the built-in mover takes over
		Seed         int64         `mapstructure:"seed"`          // seed of the built-in mover's choices among equal moves
		CPUBudget    int           `mapstructure:"cpu_budget"`    // threads for all engines together (0: threads each)
		HashBudget   int           `mapstructure:"hash_budget"`   // hash MB for all engines together (0: hash each)
	} `mapstructure:"engine"`
	Policy struct {
		AheadMargin   int           `mapstructure:"ahead_margin"`   // centipawns: above, never allow a repetition draw
		BehindMargin  int           `mapstructure:"behind_margin"`  // centipawns: below minus this, seek and claim one
		SeekTolerance int           `mapstructure:"seek_tolerance"` // centipawns a repeating move may cost when behind
		ClaimWait     time.Duration `mapstructure:"claim_wait"`     // wait for the game to end after draw/yes before playing on
	} `mapstructure:"policy"`
	DrawOffers struct {
		AcceptBehind int `mapstructure:"accept_behind"` // centipawns behind at which an offer is accepted
		AcceptEven   int `mapstructure:"accept_even"`   // within ± this, a dead even game: accepted from min_move on
		MinMove      int `mapstructure:"min_move"`
	} `mapstructure:"draw_offers"`
	Challenge struct {
		Variants       []string      `mapstructure:"variants"`
		MinBase        time.Duration `mapstructure:"min_base"`
		MaxBase        time.Duration `mapstructure:"max_base"`
		MinIncrement   time.Duration `mapstructure:"min_increment"`
		MaxIncrement   time.Duration `mapstructure:"max_increment"`
		Correspondence bool          `mapstructure:"correspondence"`
		Rated          bool          `mapstructure:"rated"`
		Casual         bool          `mapstructure:"casual"`
		Humans         bool          `mapstructure:"humans"`
		Bots           bool          `mapstructure:"bots"`
		Allow          []string      `mapstructure:"allow"`
		Block          []string      `mapstructure:"block"`
		MaxGames       int           `mapstructure:"max_games"`
	} `mapstructure:"challenge"`
	Matchmaking struct {
		Enabled          bool          `mapstructure:"enabled"`
		Idle             time.Duration `mapstructure:"idle"`
		TimeControls     []string      `mapstructure:"time_controls"`
		Days             []int         `mapstructure:"days"`
		Variant          string        `mapstructure:"variant"`
		Rated            bool          `mapstructure:"rated"`
		RatingDifference int           `mapstructure:"rating_difference"`
		Block            []string      `mapstructure:"block"`
		DailyChallenges  int           `mapstructure:"daily_challenges"`
		ChallengeTimeout time.Duration `mapstructure:"challenge_timeout"`
		DeclineBackoff   time.Duration `mapstructure:"decline_backoff"`
	} `mapstructure:"matchmaking"`
	Book struct {
		Path     string `mapstructure:"path"`      // Polyglot .bin opening book; "" plays without one
		MaxMoves int    `mapstructure:"max_moves"` // used up to this move number
		Choice   string `mapstructure:"choice"`    // weighted or best
	} `mapstructure:"book"`
	Chat struct {
		MinInterval time.Duration `mapstructure:"min_interval"`
		// Lang is the language of the chat notices: en, ru, tr or fa; ""
		// is lang. A notice whose text is "" says that language's default.
		Lang     string         `mapstructure:"lang"`
		Greeting chatLineConfig `mapstructure:"greeting"`
		Goodbye  chatLineConfig `mapstructure:"goodbye"`
		Second   chatLineConfig `mapstructure:"second"`
		Third    chatLineConfig `mapstructure:"third"`
		Claim    chatLineConfig `mapstructure:"claim"`
		Fifth    chatLineConfig `mapstructure:"fifth"`
	} `mapstructure:"chat"`
	// chatLang is Chat.Lang resolved by loadConfig.
	chatLang    i18n.Lang
	OnStop      string        `mapstructure:"on_stop"`      // finish or resign
	StopTimeout time.Duration `mapstructure:"stop_timeout"` // with finish: resign what still runs after this
	Takebacks   string        `mapstructure:"takebacks"`    // decline, accept or casual
}

type chatLineConfig struct {
	Room string `mapstructure:"room"` // player, spectator, both or none
	Text string `mapstructure:"text"`
}

func defaultBotConfig() botConfig {
	d := bot.DefaultConfig()
	var c botConfig
	e := d.Engine
	c.Engine.Path, c.Engine.Threads, c.Engine.Hash = e.Path, e.Threads, e.Hash
	c.Engine.MinMoveTime, c.Engine.MaxMoveTime, c.Engine.MoveOverhead = e.MinMoveTime, e.MaxMoveTime, e.MoveOverhead
	c.Engine.Depth, c.Engine.Nodes, c.Engine.Restarts, c.Engine.Seed = e.Depth, e.Nodes, e.Restarts, e.Seed
	c.Engine.CPUBudget, c.Engine.HashBudget = e.CPUBudget, e.HashBudget
	p := d.Policy
	c.Policy.AheadMargin, c.Policy.BehindMargin, c.Policy.SeekTolerance, c.Policy.ClaimWait = p.AheadMargin, p.BehindMargin, p.SeekTolerance, p.ClaimWait
	c.DrawOffers.AcceptBehind, c.DrawOffers.AcceptEven, c.DrawOffers.MinMove = d.Draws.AcceptBehind, d.Draws.AcceptEven, d.Draws.MinMove
	ch := d.Challenge
	c.Challenge.Variants = append([]string(nil), ch.Variants...)
	c.Challenge.MinBase, c.Challenge.MaxBase = ch.MinBase, ch.MaxBase
	c.Challenge.MinIncrement, c.Challenge.MaxIncrement = ch.MinIncrement, ch.MaxIncrement
	c.Challenge.Correspondence, c.Challenge.Rated, c.Challenge.Casual = ch.Correspondence, ch.Rated, ch.Casual
	c.Challenge.Humans, c.Challenge.Bots, c.Challenge.MaxGames = ch.Humans, ch.Bots, ch.MaxGames
	mm := d.Matchmaking
	c.Matchmaking.Enabled, c.Matchmaking.Idle, c.Matchmaking.Variant, c.Matchmaking.Rated = mm.Enabled, mm.Idle, mm.Variant, mm.Rated
	c.Matchmaking.TimeControls, c.Matchmaking.Days = append([]string(nil), mm.TimeControls...), append([]int(nil), mm.Days...)
	c.Matchmaking.RatingDifference, c.Matchmaking.Block, c.Matchmaking.DailyChallenges = mm.RatingDifference, mm.Block, mm.DailyChallenges
	c.Matchmaking.ChallengeTimeout, c.Matchmaking.DeclineBackoff = mm.ChallengeTimeout, mm.DeclineBackoff
	c.Book.Path, c.Book.MaxMoves, c.Book.Choice = d.Book.Path, d.Book.MaxMoves, d.Book.Choice
	// Each notice's text is "" by default: the template of the chat's
	// language (bot.ChatTemplates).
	t := d.Chat
	c.Chat.MinInterval = t.MinInterval
	c.Chat.Greeting = chatLineConfig{Room: t.Greeting.Room}
	c.Chat.Goodbye = chatLineConfig{Room: t.Goodbye.Room}
	c.Chat.Second = chatLineConfig{Room: t.Second.Room}
	c.Chat.Third = chatLineConfig{Room: t.Third.Room}
	c.Chat.Claim = chatLineConfig{Room: t.Claim.Room}
	c.Chat.Fifth = chatLineConfig{Room: t.Fifth.Room}
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
	e.Options = nil
	for _, o := range c.Engine.Options {
		k, v, ok := strings.Cut(o, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return d, fmt.Errorf("bot.engine.options: %q is not Name=Value", o)
		}
		if e.Options == nil {
			e.Options = map[string]string{}
		}
		e.Options[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	d.Policy = bot.PolicyConfig{AheadMargin: c.Policy.AheadMargin, BehindMargin: c.Policy.BehindMargin,
		SeekTolerance: c.Policy.SeekTolerance, ClaimWait: c.Policy.ClaimWait}
	d.Draws = bot.DrawOfferConfig{AcceptBehind: c.DrawOffers.AcceptBehind, AcceptEven: c.DrawOffers.AcceptEven, MinMove: c.DrawOffers.MinMove}
	ch := c.Challenge
	d.Challenge = bot.ChallengeConfig{Variants: ch.Variants, MinBase: ch.MinBase, MaxBase: ch.MaxBase,
		MinIncrement: ch.MinIncrement, MaxIncrement: ch.MaxIncrement, Correspondence: ch.Correspondence,
		Rated: ch.Rated, Casual: ch.Casual, Humans: ch.Humans, Bots: ch.Bots, Allow: ch.Allow, Block: ch.Block, MaxGames: ch.MaxGames}
	m := c.Matchmaking
	d.Matchmaking = bot.MatchmakingConfig{Enabled: m.Enabled, Idle: m.Idle, TimeControls: m.TimeControls, Days: m.Days,
		Variant: m.Variant, Rated: m.Rated, RatingDifference: m.RatingDifference, Block: m.Block, DailyChallenges: m.DailyChallenges,
		ChallengeTimeout: m.ChallengeTimeout, DeclineBackoff: m.DeclineBackoff}
	d.Book = bot.BookConfig{Path: c.Book.Path, MaxMoves: c.Book.MaxMoves, Choice: c.Book.Choice}
	t := c.Chat
	defaults := bot.ChatTemplates(c.chatLang)
	line := func(l chatLineConfig, notice string) bot.ChatLine {
		if l.Text == "" {
			l.Text = defaults[notice]
		}
		return bot.ChatLine(l)
	}
	d.Chat = bot.ChatConfig{MinInterval: t.MinInterval, Lang: c.chatLang,
		Greeting: line(t.Greeting, bot.NoticeGreeting), Goodbye: line(t.Goodbye, bot.NoticeGoodbye),
		Second: line(t.Second, bot.NoticeSecond), Third: line(t.Third, bot.NoticeThird),
		Claim: line(t.Claim, bot.NoticeClaim), Fifth: line(t.Fifth, bot.NoticeFifth)}
	d.OnStop, d.StopTimeout, d.Takebacks = c.OnStop, c.StopTimeout, c.Takebacks
	if dataDir != "" {
		d.RecordFile = filepath.Join(dataDir, "games.jsonl")
	}
	return d, d.Validate()
}
