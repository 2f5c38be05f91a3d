package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/internal/configkeys"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/logconfig"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/web"
)

// config is every setting threefold reads. The mapstructure tags are the
// keys of the YAML file; every key can also be set from the environment as
// THREEFOLD_ plus the key in upper case with "_" for "." (for example
// THREEFOLD_LICHESS_TOKEN). config.example.yaml documents each key with its
// default; TestConfigExampleDocumentsEveryKey keeps the two in step.
type config struct {
	DataDir string `mapstructure:"data_dir"`
	// Lang is the language of what threefold says to people (alerts, chat
	// notices, tables, the dashboard's default): en, ru, tr or fa; ""
	// follows LC_ALL, LC_MESSAGES and LANG, then English. --lang overrides it.
	Lang string `mapstructure:"lang"`
	// lang is Lang resolved by loadConfig.
	lang i18n.Lang
	Log  logconfig.Config `mapstructure:"log"`
	// Each section is the type of the package it configures, keyed by
	// its mapstructure tags.
	Lichess  lichess.Options `mapstructure:"lichess"` // url, token ("" reads the one `threefold login` saved)
	ChessCom chessComConfig  `mapstructure:"chesscom"`
	Bot      botConfig       `mapstructure:"bot"`
	Watch    watchConfig     `mapstructure:"watch"`
	Store    store.Config    `mapstructure:"store"`
	HTTP     web.Options     `mapstructure:"http"` // the dashboard, /metrics and /healthz, served when addr is set
	PGN      pgn.Limits      `mapstructure:"pgn"`  // for scan and every source that reads PGN
}

// chessComConfig is the chesscom: section: the client's keys and the
// sources'.
type chessComConfig struct {
	chesscom.Options        `mapstructure:",squash"` // url, contact (sent in the User-Agent, as chess.com asks)
	listener.ChessComConfig `mapstructure:",squash"` // poll_interval, after_the_game
}

func defaultConfig() config {
	var c config
	c.DataDir = defaultDataDir()
	c.Log = logconfig.Default()
	c.Lichess.BaseURL = lichess.DefaultBaseURL
	c.ChessCom.BaseURL = chesscom.DefaultBaseURL
	c.ChessCom.PollInterval = 5 * time.Minute
	c.Bot = defaultBotConfig()
	c.Watch = defaultWatchConfig()
	c.Store.BusyTimeout = store.DefaultBusyTimeout
	c.HTTP = web.DefaultOptions()
	c.PGN = pgn.Limits{}.WithDefaults()
	return c
}

// parseOptions is how SOURCE and GAME arguments name Lichess and chess.com.
func (c *config) parseOptions() listener.ParseOptions {
	return listener.ParseOptions{LichessBase: c.Lichess.BaseURL, ChessComBase: c.ChessCom.BaseURL}
}

// hubOptions bounds what the dashboard keeps of each game: pgn.max_plies
// and watch.finished_grace.
func (c *config) hubOptions() web.HubOptions {
	return web.HubOptions{MaxPlies: c.PGN.MaxPlies, FinishedGrace: c.Watch.FinishedGrace}
}

// defaultDataDir is where records go when data_dir is not set: the XDG data
// directory on Unix ($XDG_DATA_HOME or ~/.local/share), plus "threefold".
func defaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "threefold")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "threefold")
	}
	return "threefold-data"
}

// defaultConfigFile is the file read when --config is not given, if it exists.
func defaultConfigFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "threefold", "threefold.yaml")
}

// configPath is the config file to read: --config, else the default
// file if there is one; "" when there is none.
func (env *environment) configPath() string {
	if env.configFile != "" {
		return env.configFile
	}
	if f := defaultConfigFile(); f != "" {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return ""
}

// readConfigFile reads file into v, as YAML when its name has no
// extension that says otherwise.
func readConfigFile(v *viper.Viper, file string) error {
	v.SetConfigFile(file)
	if filepath.Ext(file) == "" {
		v.SetConfigType("yaml")
	}
	return v.ReadInConfig()
}

// loadConfig reads the config file (the --config flag, or the default file
// if present), then the environment, over the defaults. An unknown key in
// the file is an error that names it: a typo must not silently fall back to
// a default.
func (env *environment) loadConfig() (*config, error) {
	v := viper.New()
	v.SetEnvPrefix("THREEFOLD")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	def := defaultConfig()
	keys := configkeys.Keys(reflect.TypeOf(def))
	defaults := configkeys.Values(reflect.ValueOf(def))
	for _, k := range keys {
		v.SetDefault(k, defaults[k])
	}
	file := env.configPath()
	if file != "" {
		if err := readConfigFile(v, file); err != nil {
			return nil, usagef("config %s: %w", file, err)
		}
		env.sayLang = earlyLang(env.lang, v.GetString("lang"))
		if err := checkKnownKeys(v, keys, file); err != nil {
			return nil, usageError{err}
		}
		warnConfigPermissions(i18n.For(env.sayLang), env.stderr, file, v)
	}
	if err := checkWebhookList(v, file); err != nil {
		return nil, err
	}
	var c config
	err := v.Unmarshal(&c, func(dc *mapstructure.DecoderConfig) {
		dc.DecodeHook = mapstructure.ComposeDecodeHookFunc(
			mapstructure.StringToTimeDurationHookFunc(),
			mapstructure.StringToSliceHookFunc(","),
		)
	})
	if err != nil {
		return nil, configValueError(err, v, file)
	}
	if c.DataDir == "" {
		// data_dir: "" (as config.example.yaml shows it) is the default
		// place, not the working directory nor no directory at all.
		c.DataDir = defaultDataDir()
	}
	langFrom := "lang"
	if os.Getenv("THREEFOLD_LANG") != "" {
		langFrom = "THREEFOLD_LANG"
	} else if file != "" {
		langFrom = "config " + file + ": lang"
	}
	if err := resolveLang(&c, env.lang, langFrom); err != nil {
		return nil, usageError{err}
	}
	env.sayLang = c.lang
	c.HTTP.Lang = c.lang
	c.Bot.chatLang = c.lang // bot.chat.lang "" follows lang
	if c.Bot.Chat.Lang != "" {
		l, err := i18n.Parse(string(c.Bot.Chat.Lang))
		if err != nil { // said where it was set, as lang is
			from := "bot.chat.lang"
			if os.Getenv("THREEFOLD_BOT_CHAT_LANG") != "" {
				from = "THREEFOLD_BOT_CHAT_LANG"
			} else if file != "" {
				from = "config " + file + ": bot.chat.lang"
			}
			return nil, usagef("%s: %w", from, err)
		}
		c.Bot.chatLang = l
	}
	// Each numeric key has its sane range in its range tag.
	err = configkeys.CheckRanges(reflect.ValueOf(c))
	if err == nil {
		err = c.Log.Check()
	}
	if err != nil {
		if file != "" {
			return nil, usagef("config %s: %w", file, err)
		}
		return nil, usagef("config: %w", err)
	}
	return &c, nil
}

// resolveLang decides the language: the --lang flag, else the lang key
// (from THREEFOLD_LANG or the file: from names it in an error), else the
// locale of the environment.
func resolveLang(c *config, flag, from string) (err error) {
	c.lang, err = i18n.Request{Flag: flag, Key: c.Lang, KeyFrom: from, Getenv: os.Getenv}.Choose()
	return err
}

// printer says messages in the language the config resolved.
func (c *config) printer() *i18n.Printer { return i18n.For(c.lang) }

// checkKnownKeys reports every key of the config file that threefold does
// not know. Keys below a map-valued setting (such as webhook lists) are
// accepted as they are.
func checkKnownKeys(v *viper.Viper, known []string, file string) error {
	if unknown := configkeys.Unknown(v.AllKeys(), known); len(unknown) > 0 {
		return i18n.NewError(i18n.ErrUnknownKeys, file, strings.Join(unknown, ", "))
	}
	return nil
}

// earlyLang is the language of an error found while the config is read,
// before lang is resolved: --lang, THREEFOLD_LANG, the file's lang, the
// locale; English when the one that decides is not a language.
func earlyLang(flag, file string) i18n.Lang {
	return i18n.Request{Flag: flag, Key: cmp.Or(os.Getenv("THREEFOLD_LANG"), file), Getenv: os.Getenv}.Guess()
}

// webhooksEnv is the environment variable of watch.webhooks: a JSON list.
const webhooksEnv = "THREEFOLD_WATCH_WEBHOOKS"

// checkWebhookList reads watch.webhooks — from $THREEFOLD_WATCH_WEBHOOKS, a
// JSON list, when it is set, else from the file — and checks every key of
// every entry, as checkKnownKeys does for the rest of the file; the list
// checked is the one decoded. Errors name the entry and the key, never a
// value: a webhook URL is a secret.
func checkWebhookList(v *viper.Viper, file string) error {
	var raw any
	where := "watch.webhooks"
	switch {
	case os.Getenv(webhooksEnv) != "":
		where = webhooksEnv
		if err := json.Unmarshal([]byte(os.Getenv(webhooksEnv)), &raw); err != nil {
			return usagef(`%s: want a JSON list of webhooks such as [{"kind":"discord","url_env":"DISCORD_HOOK"}] (%v)`, webhooksEnv, safetext.JSONProblem(err))
		}
	case v.InConfig("watch.webhooks"):
		where = "config " + file + ": watch.webhooks"
		raw = v.Get("watch.webhooks")
	default:
		return nil
	}
	list, ok := raw.([]any)
	if !ok {
		return usagef("%s: want a list of webhooks, each with kind and url or url_env", where)
	}
	known := configkeys.Keys(reflect.TypeOf(notify.WebhookSpec{}))
	for i, e := range list {
		entry, ok := e.(map[string]any)
		if !ok {
			return usagef("%s[%d]: want a map with kind and url or url_env", where, i)
		}
		for k := range entry {
			if !slices.Contains(known, strings.ToLower(k)) {
				return usageError{i18n.NewError(i18n.ErrUnknownEntryKey, where, strconv.Itoa(i), k, strings.Join(known, ", "))}
			}
		}
	}
	v.Set("watch.webhooks", list)
	return nil
}

// configValueError says, for each setting whose value is not of its type
// (a word where a number goes), where it was set, as the other config
// errors do (the environment variable when it is set, else the config
// file), the value and what it should be. mapstructure's own message named
// neither place nor value, on lines of its own: "decoding failed due to
// the following error(s): ... cannot parse value as 'int'".
func configValueError(err error, v *viper.Viper, file string) error {
	var says []string
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var de *mapstructure.DecodeError
		if !errors.As(e, &de) {
			return
		}
		key := de.Name()
		where := key
		if env := "THREEFOLD_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_")); os.Getenv(env) != "" {
			where = env
		} else if file != "" {
			where = "config " + file + ": " + key
		}
		value := safetext.Terminal(fmt.Sprintf("%q", fmt.Sprint(v.Get(key))))
		var pe *mapstructure.ParseError
		var ue *mapstructure.UnconvertibleTypeError
		switch {
		case errors.As(de, &pe):
			says = append(says, fmt.Sprintf("%s: %s is not %s", where, value, configKind(pe.Expected.Type())))
		case errors.As(de, &ue):
			says = append(says, fmt.Sprintf("%s: want %s, not %s", where, configKind(ue.Expected.Type()), configKind(reflect.TypeOf(ue.Value))))
		default:
			says = append(says, fmt.Sprintf("%s: %s: %v", where, value, de.Unwrap()))
		}
	}
	walk(err)
	if len(says) == 0 {
		return usagef("config: %w", err)
	}
	return usagef("%s", strings.Join(says, "; "))
}

// configKind names a config value's type for a person.
func configKind(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a section"
	}
	return t.String()
}
