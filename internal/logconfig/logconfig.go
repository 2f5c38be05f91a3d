// Package logconfig is the log: section of threefold's config: the level
// and the format of the logs that watch and bot write to stderr.
package logconfig

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// Config is the log: section, keyed by its mapstructure tags.
type Config struct {
	Level  string `mapstructure:"level"`  // debug, info, warn, error (any case)
	Format string `mapstructure:"format"` // text or json (any case)
}

// Default logs at info, as text.
func Default() Config { return Config{Level: "info", Format: "text"} }

// Check refuses an unknown level or format, which would otherwise fall
// back silently to text at info.
func (c Config) Check() error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.Level)); err != nil {
		return fmt.Errorf("log.level = %q: it must be debug, info, warn or error", c.Level)
	}
	if f := strings.ToLower(c.Format); f != "text" && f != "json" {
		return fmt.Errorf("log.format = %q: it must be text or json", c.Format)
	}
	return nil
}

// Logger writes to w at the level and in the format of c (checked with
// Check: an unknown level logs at info, an unknown format as text).
func (c Config) Logger(w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.Level)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(c.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
