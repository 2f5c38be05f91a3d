// Package report writes what the store holds as tables for people: the alerts and games, the group, the e-boards.
//
// history's tables (AlertTable, GameTable, after ReadHistory has read
// them), status's (StatusTables, BoardTable, and StatusJSON for --json)
// and the --since of history and export (ParseSince) live here; the
// commands only read flags and open the store. Every table says its words
// through an *i18n.Printer, and every field that comes from outside (names,
// sources, errors) is escaped by Row before it reaches a terminal.
package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
)

// Row formats one row of a table, escaping every string field: text
// from outside (names, sources, errors) never reaches the terminal raw,
// and a tab in it never shifts a column.
func Row(format string, args ...any) string {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = safetext.Cell(s)
		}
	}
	return fmt.Sprintf(format, args...)
}

// tableTime writes a moment of a table: the sortable form in English,
// the language's own otherwise.
func tableTime(p *i18n.Printer, t time.Time) string {
	if p.Lang() == i18n.English {
		return t.Local().Format("2006-01-02 15:04:05")
	}
	return p.DateTime(t.Local())
}

// first is the first of xs that is not empty.
func first(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// oneLine puts s on one line of at most 80 runes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}
