package report

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads a --since: a duration back from now (90m, 2h, or 3d
// with d for days) or a date or time (2026-11-29, RFC 3339, in the local
// zone when it names none). "" is the zero time: since ever.
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseFloat(days, 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			d = -d
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("want a duration (90m, 2h, 3d) or a date or time (2026-11-29, 2026-11-29T14:00:00Z)")
}
