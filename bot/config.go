package bot

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/threefold-chess/threefold/bot/book"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// Config is everything the bot needs besides the Lichess client. The
// command line builds it from the `bot:` section of the config file,
// whose keys are the mapstructure tags (the engine's are those of
// EngineConfig, with its options written otherwise); DefaultConfig gives
// the documented defaults.
type Config struct {
	Engine      EngineConfig      `mapstructure:"-"`
	Policy      PolicyConfig      `mapstructure:"policy"`
	Draws       DrawOfferConfig   `mapstructure:"draw_offers"`
	Challenge   ChallengeConfig   `mapstructure:"challenge"`
	Matchmaking MatchmakingConfig `mapstructure:"matchmaking"`
	Chat        ChatConfig        `mapstructure:"chat"`
	Book        BookConfig        `mapstructure:"book"`

	// OnStop says what happens to running games when the bot is told to
	// stop: "finish" plays them to the end (up to StopTimeout, then
	// resigns), "resign" resigns (or aborts) them at once. Correspondence
	// games are left running either way and resumed at the next start.
	OnStop      string        `mapstructure:"on_stop"`
	StopTimeout time.Duration `mapstructure:"stop_timeout" range:"0s,168h"`
	// RecordFile is the JSON-lines file every finished game is appended
	// to ("" records to the log only).
	RecordFile string
	// Takebacks answers the opponent's takeback proposals: TakebacksDecline
	// (the default), TakebacksAccept, or TakebacksCasual (accept in casual
	// games only).
	Takebacks string `mapstructure:"takebacks"`
}

// Takeback policies (Config.Takebacks).
const (
	TakebacksDecline = "decline"
	TakebacksAccept  = "accept"
	TakebacksCasual  = "casual"
)

// EngineConfig configures the engine that chooses moves. The mapstructure
// tags are the keys of bot.engine in the config file, where the options
// are a list of "Name=Value" (ParseUCIOptions).
type EngineConfig struct {
	Path    string            `mapstructure:"path"`                   // UCI engine binary; "" plays with the built-in mover
	Args    []string          `mapstructure:"args"`                   // arguments for the engine binary
	Threads int               `mapstructure:"threads" range:"0,1024"` // UCI option Threads (0: not set)
	Hash    int               `mapstructure:"hash" range:"0,1048576"` // UCI option Hash in MB (0: not set)
	Options map[string]string `mapstructure:"-"`                      // other UCI options, by name
	// Per-move limits. The time for a move comes from the clock (remaining
	// time and increment), less MoveOverhead, within [MinMoveTime,
	// MaxMoveTime]. Depth and Nodes, when set, also bound each search.
	MinMoveTime  time.Duration `mapstructure:"min_move_time" range:"0s,1h"`
	MaxMoveTime  time.Duration `mapstructure:"max_move_time" range:"1ms,24h"`
	MoveOverhead time.Duration `mapstructure:"move_overhead" range:"0s,1m"`
	Depth        int           `mapstructure:"depth" range:"0,1000"`
	Nodes        int64         `mapstructure:"nodes" range:"0,1125899906842624"`
	// Restarts is how often a crashed engine is started again within one
	// game before the built-in mover takes over.
	Restarts int `mapstructure:"restarts" range:"0,100"`
	// Seed makes the built-in mover's choices among equal moves
	// reproducible.
	Seed int64 `mapstructure:"seed" range:"-9223372036854775808,9223372036854775807"`
	// StartTimeout bounds the engine's start-up handshake (0: 10 s).
	StartTimeout time.Duration
	// CPUBudget, when above 0, is the number of threads all the engines
	// may use together: each game's engine gets CPUBudget / max_games
	// threads (at least 1), instead of Threads.
	CPUBudget int `mapstructure:"cpu_budget" range:"0,4096"`
	// HashBudget, when above 0, is the hash memory in MB all the engines
	// may use together: each game's engine gets HashBudget / max_games MB
	// (at least 1), instead of Hash.
	HashBudget int `mapstructure:"hash_budget" range:"0,1048576"`
	// Slack is added to twice the planned time of a move before a search
	// that has not answered is stopped (0: 3 s).
	Slack time.Duration
}

// ParseUCIOptions reads UCI options written "Name=Value" (spaces around
// either trimmed) into EngineConfig.Options; none is nil.
func ParseUCIOptions(list []string) (map[string]string, error) {
	var opts map[string]string
	for _, o := range list {
		k, v, ok := strings.Cut(o, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q is not Name=Value", o)
		}
		if opts == nil {
			opts = map[string]string{}
		}
		opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return opts, nil
}

// BookConfig is the optional Polyglot opening book (bot.book). Its
// mapstructure tags are the keys of that section of the config file.
type BookConfig struct {
	Path string `mapstructure:"path"` // a Polyglot .bin file; "" plays without a book
	// MaxMoves: the book is used up to this move number (the full move
	// number of the position, 1 at the start).
	MaxMoves int `mapstructure:"max_moves" range:"1,1000"`
	// Choice among the book moves of a position: "weighted" (at random,
	// in proportion to the weights) or "best" (the heaviest).
	Choice string `mapstructure:"choice"`
}

// PolicyConfig sets the repetition-aware move policy (bot.policy; the
// mapstructure tags are the keys of the config file).
type PolicyConfig struct {
	// AheadMargin: when the evaluation for the bot is above this many
	// centipawns, the bot never plays a move that lets a position occur a
	// third time (by its move or by the opponent's next one).
	AheadMargin int `mapstructure:"ahead_margin" range:"0,100000"`
	// BehindMargin: when the evaluation is below minus this many
	// centipawns, the bot claims a threefold, makes the move that produces
	// one (offering a draw with it), or steers into a repetition.
	BehindMargin int `mapstructure:"behind_margin" range:"0,100000"`
	// SeekTolerance: when behind, a move that repeats an earlier position
	// (a second occurrence) is preferred to the engine's move if it is
	// evaluated at most this many centipawns worse.
	SeekTolerance int `mapstructure:"seek_tolerance" range:"0,100000"`
	// ClaimWait is how long the bot waits for the game to end after a
	// draw claim before it plays on (capped by a tenth of its clock).
	ClaimWait time.Duration `mapstructure:"claim_wait" range:"0s,1h"`
}

// DrawOfferConfig answers the opponent's draw offers, with the evaluation
// of the bot's own search for its move (centipawns for the bot); the
// mapstructure tags are the keys of bot.draw_offers in the config file.
type DrawOfferConfig struct {
	// AcceptBehind: accept when the evaluation is at or below minus this.
	AcceptBehind int `mapstructure:"accept_behind" range:"0,100000"`
	// AcceptEven: accept when the evaluation is within ±AcceptEven (a dead
	// even game), from move MinMove on; 0 never accepts on these grounds.
	AcceptEven int `mapstructure:"accept_even" range:"0,100000"`
	MinMove    int `mapstructure:"min_move" range:"0,10000"`
}

// ChallengeConfig is the challenge policy (bot.challenge; the mapstructure
// tags are the keys of the config file).
type ChallengeConfig struct {
	Variants       []string      `mapstructure:"variants"`                 // accepted variant keys: "standard", "fromPosition", "chess960"
	MinBase        time.Duration `mapstructure:"min_base" range:"0s,720h"` // initial clock time bounds (real-time games)
	MaxBase        time.Duration `mapstructure:"max_base" range:"0s,720h"`
	MinIncrement   time.Duration `mapstructure:"min_increment" range:"0s,24h"`
	MaxIncrement   time.Duration `mapstructure:"max_increment" range:"0s,24h"`
	Correspondence bool          `mapstructure:"correspondence"` // accept correspondence and unlimited games
	Rated          bool          `mapstructure:"rated"`          // accept rated games
	Casual         bool          `mapstructure:"casual"`         // accept casual games
	Humans         bool          `mapstructure:"humans"`         // accept challenges from human accounts
	Bots           bool          `mapstructure:"bots"`           // accept challenges from BOT accounts
	Allow          []string      `mapstructure:"allow"`
	Block          []string      `mapstructure:"block"`
	MaxGames       int           `mapstructure:"max_games" range:"0,1000"` // games played at the same time
}

// ChatConfig says what the bot writes in the game chats. The mapstructure
// tags are the keys of bot.chat in the config file, where a notice's text
// "" is the template of the chat's language (WithDefaultTexts) and a lang
// "" the config's own.
type ChatConfig struct {
	Greeting ChatLine `mapstructure:"greeting"` // at the start of a game
	Goodbye  ChatLine `mapstructure:"goodbye"`  // at the end of a game
	Second   ChatLine `mapstructure:"second"`   // a position occurred the second time
	Third    ChatLine `mapstructure:"third"`    // a position occurred the third time
	Claim    ChatLine `mapstructure:"claim"`    // the bot claimed a draw by repetition
	Fifth    ChatLine `mapstructure:"fifth"`    // a position occurred the fifth time
	// MinInterval is the least time between two lines the bot writes in
	// one room (player or spectator) of a game.
	MinInterval time.Duration `mapstructure:"min_interval" range:"0s,1h"`
	// Lang is the language of what the bot fills in ({ending}); the
	// templates are the caller's (ChatTemplates gives each language's).
	// "" is English.
	Lang i18n.Lang `mapstructure:"lang"`
}

// ChatTemplates is the default template of each notice in the language l.
func ChatTemplates(l i18n.Lang) map[string]string {
	p := i18n.For(l)
	return map[string]string{
		NoticeGreeting: p.Sprintf(i18n.ChatGreeting), NoticeGoodbye: p.Sprintf(i18n.ChatGoodbye),
		NoticeSecond: p.Sprintf(i18n.ChatSecond), NoticeThird: p.Sprintf(i18n.ChatThird),
		NoticeClaim: p.Sprintf(i18n.ChatClaim), NoticeFifth: p.Sprintf(i18n.ChatFifth),
	}
}

// WithDefaultTexts returns c with the template of c.Lang (ChatTemplates)
// for every notice whose text is "".
func (c ChatConfig) WithDefaultTexts() ChatConfig {
	defaults := ChatTemplates(c.Lang)
	for notice, l := range map[string]*ChatLine{NoticeGreeting: &c.Greeting, NoticeGoodbye: &c.Goodbye,
		NoticeSecond: &c.Second, NoticeThird: &c.Third, NoticeClaim: &c.Claim, NoticeFifth: &c.Fifth} {
		if l.Text == "" {
			l.Text = defaults[notice]
		}
	}
	return c
}

// SpeakDefaults makes the notices the default templates of the language l,
// and l what the bot fills in; the rooms and the interval are kept.
func (c *ChatConfig) SpeakDefaults(l i18n.Lang) {
	c.Lang = l
	for _, line := range []*ChatLine{&c.Greeting, &c.Goodbye, &c.Second, &c.Third, &c.Claim, &c.Fifth} {
		line.Text = ""
	}
	*c = c.WithDefaultTexts()
}

// ChatLine is one notice: the room it goes to and its template (the
// mapstructure tags are the keys of a notice in the config file).
type ChatLine struct {
	Room string `mapstructure:"room"` // "player", "spectator", "both" or "none"
	Text string `mapstructure:"text"` // template; see RenderChat for the placeholders
}

// english is the default template of each notice in English.
var english = ChatTemplates(i18n.English)

// DefaultConfig returns the defaults documented in config.example.yaml.
func DefaultConfig() Config {
	return Config{
		Engine: EngineConfig{
			Threads:      1,
			Hash:         64,
			MinMoveTime:  50 * time.Millisecond,
			MaxMoveTime:  10 * time.Second,
			MoveOverhead: 300 * time.Millisecond,
			Restarts:     2,
			Seed:         1,
		},
		Policy: PolicyConfig{
			AheadMargin:   150,
			BehindMargin:  150,
			SeekTolerance: 50,
			ClaimWait:     2 * time.Second,
		},
		Draws: DrawOfferConfig{AcceptBehind: 200, AcceptEven: 20, MinMove: 40},
		Challenge: ChallengeConfig{
			Variants:       []string{"standard", "fromPosition", "chess960"},
			MinBase:        60 * time.Second,
			MaxBase:        3 * time.Hour,
			MinIncrement:   0,
			MaxIncrement:   180 * time.Second,
			Correspondence: true,
			Rated:          true,
			Casual:         true,
			Humans:         true,
			Bots:           true,
			MaxGames:       2,
		},
		Matchmaking: MatchmakingConfig{
			Idle:             time.Minute,
			TimeControls:     []string{"1+0", "3+2"},
			Variant:          "standard",
			Rated:            true,
			RatingDifference: 300,
			DailyChallenges:  100,
			ChallengeTimeout: 30 * time.Second,
			DeclineBackoff:   time.Hour,
		},
		Book: BookConfig{MaxMoves: 12, Choice: book.ChooseWeighted},
		Chat: ChatConfig{
			Greeting:    ChatLine{Room: "player", Text: english[NoticeGreeting]},
			Goodbye:     ChatLine{Room: "player", Text: english[NoticeGoodbye]},
			Second:      ChatLine{Room: "spectator", Text: english[NoticeSecond]},
			Third:       ChatLine{Room: "spectator", Text: english[NoticeThird]},
			Claim:       ChatLine{Room: "player", Text: english[NoticeClaim]},
			Fifth:       ChatLine{Room: "spectator", Text: english[NoticeFifth]},
			MinInterval: 2 * time.Second,
		},
		OnStop:      "finish",
		StopTimeout: 10 * time.Minute,
		Takebacks:   TakebacksDecline,
	}
}

// Validate checks a config and says what is wrong with it.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	e := c.Engine
	if e.MinMoveTime < 0 || e.MaxMoveTime < 0 || e.MoveOverhead < 0 {
		bad("bot.engine: move times must not be negative")
	}
	if e.MaxMoveTime > 0 && e.MinMoveTime > e.MaxMoveTime {
		bad("bot.engine: min_move_time %v is above max_move_time %v", e.MinMoveTime, e.MaxMoveTime)
	}
	if e.Restarts < 0 {
		bad("bot.engine.restarts must not be negative")
	}
	if e.CPUBudget < 0 {
		bad("bot.engine.cpu_budget must not be negative")
	}
	if e.HashBudget < 0 {
		bad("bot.engine.hash_budget must not be negative")
	}
	if c.Policy.AheadMargin < 0 || c.Policy.BehindMargin < 0 || c.Policy.SeekTolerance < 0 {
		bad("bot.policy: margins must not be negative")
	}
	if c.Draws.AcceptBehind < 0 || c.Draws.AcceptEven < 0 || c.Draws.MinMove < 0 {
		bad("bot.draw_offers: thresholds must not be negative")
	}
	ch := c.Challenge
	for _, v := range ch.Variants {
		if v != "standard" && v != "fromPosition" && v != "chess960" {
			bad("bot.challenge.variants: %q is not supported (standard, fromPosition, chess960)", v)
		}
	}
	if ch.MaxBase > 0 && ch.MinBase > ch.MaxBase {
		bad("bot.challenge: min_base %v is above max_base %v", ch.MinBase, ch.MaxBase)
	}
	if ch.MaxIncrement > 0 && ch.MinIncrement > ch.MaxIncrement {
		bad("bot.challenge: min_increment %v is above max_increment %v", ch.MinIncrement, ch.MaxIncrement)
	}
	if ch.MaxGames < 1 {
		bad("bot.challenge.max_games must be at least 1")
	}
	for name, l := range map[string]ChatLine{"greeting": c.Chat.Greeting, "goodbye": c.Chat.Goodbye,
		"second": c.Chat.Second, "third": c.Chat.Third, "claim": c.Chat.Claim, "fifth": c.Chat.Fifth} {
		switch l.Room {
		case "player", "spectator", "both", "none", "":
		default:
			bad("bot.chat.%s.room: %q is not player, spectator, both or none", name, l.Room)
		}
		if err := checkTemplate(l.Text); err != nil {
			bad("bot.chat.%s.text: %v", name, err)
		}
	}
	if mm := c.Matchmaking; mm.Enabled {
		if _, err := mm.offers(); err != nil {
			bad("bot.matchmaking: %v", err)
		} else if len(mm.TimeControls)+len(mm.Days) == 0 {
			bad("bot.matchmaking: no time_controls nor days to offer")
		}
		if mm.Idle <= 0 || mm.ChallengeTimeout <= 0 {
			bad("bot.matchmaking: idle and challenge_timeout must be above 0")
		}
		if mm.Variant != "standard" && mm.Variant != "" {
			bad("bot.matchmaking.variant: %q is not supported (standard)", mm.Variant)
		}
		if mm.RatingDifference < 0 || mm.DailyChallenges < 0 || mm.DeclineBackoff < 0 {
			bad("bot.matchmaking: rating_difference, daily_challenges and decline_backoff must not be negative")
		}
	}
	if c.Book.Path != "" {
		if c.Book.MaxMoves < 1 {
			bad("bot.book.max_moves must be at least 1")
		}
		if c.Book.Choice != book.ChooseWeighted && c.Book.Choice != book.ChooseBest {
			bad("bot.book.choice: %q is not %s or %s", c.Book.Choice, book.ChooseWeighted, book.ChooseBest)
		}
	}
	if c.Chat.MinInterval < 0 {
		bad("bot.chat.min_interval must not be negative")
	}
	switch c.OnStop {
	case "finish", "resign":
	default:
		bad("bot.on_stop: %q is neither finish nor resign", c.OnStop)
	}
	switch c.Takebacks {
	case TakebacksDecline, TakebacksAccept, TakebacksCasual:
	default:
		bad("bot.takebacks: %q is not decline, accept or casual", c.Takebacks)
	}
	return errors.Join(errs...)
}

// checkTemplate refuses links and templates that cannot fit a chat line.
func checkTemplate(t string) error {
	low := strings.ToLower(t)
	for _, l := range []string{"http:", "https:", "://", "www."} {
		if strings.Contains(low, l) {
			return errors.New("links are not allowed in chat lines")
		}
	}
	if utf8.RuneCountInString(t) > ChatMaxLen {
		return fmt.Errorf("longer than %d characters", ChatMaxLen)
	}
	for rest := t; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return fmt.Errorf("unclosed placeholder in %q", t)
		}
		name := rest[i+1 : i+j]
		if !knownPlaceholder(name) {
			return fmt.Errorf("unknown placeholder {%s} (known: %s)", name, strings.Join(placeholders, ", "))
		}
		rest = rest[i+j+1:]
	}
	return nil
}
