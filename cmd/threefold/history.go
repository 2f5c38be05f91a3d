package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/store"
)

type historyOptions struct {
	source, kind, player, since string
	limit                       int
	json                        bool
	alertsOnly, gamesOnly       bool
}

func newHistoryCmd(env *environment) *cobra.Command {
	var opts historyOptions
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List the stored alerts and games, newest first",
		Long: `history lists what threefold watch and threefold bot stored: the alerts,
most recently observed first, and the games followed or played, most recently
updated first. The store is the one of the config file (store.dsn, or the
SQLite file threefold.db in data_dir).

--source matches a site exactly (lichess, chess.com, dgt, file) or a part of a
source's name ("broadcast round 4Yuk2i2H"); --player either player's name;
--kind an alert kind (threefold, claim_by_move, fivefold, fifty_moves,
seventy_five_moves, withdrawn; it selects alerts only); --since a duration back from now
(90m, 2h, 3d) or a date or time (2026-11-29, 2026-11-29T14:00:00Z).
With --json it writes one JSON object {"alerts": […], "games": […]}, the
alerts in the alert JSON of the README.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHistory(cmd.Context(), env, opts, histNow())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.source, "source", "", "a site, or a part of a source's name")
	f.StringVar(&opts.kind, "kind", "", "alert kind: threefold, claim_by_move, fivefold, fifty_moves, seventy_five_moves, withdrawn")
	f.StringVar(&opts.player, "player", "", "a player's name (either side, any case)")
	f.StringVar(&opts.since, "since", "", "only since: a duration back from now (2h, 3d) or a date/time (2026-11-29, RFC 3339)")
	f.IntVar(&opts.limit, "limit", 20, "at most this many alerts and this many games (0: all)")
	f.BoolVar(&opts.json, "json", false, `one JSON object: {"alerts": [...], "games": [...]}`)
	f.BoolVar(&opts.alertsOnly, "alerts", false, "list alerts only")
	f.BoolVar(&opts.gamesOnly, "games", false, "list games only")
	return cmd
}

// histNow is the clock --since counts back from (tests set it).
var histNow = time.Now

// parseSince reads --since: a duration back from now (with d for days) or
// a date or time.
func parseSince(s string, now time.Time) (time.Time, error) {
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
	return time.Time{}, fmt.Errorf("--since %q: want a duration (90m, 2h, 3d) or a date or time (2026-11-29, 2026-11-29T14:00:00Z)", s)
}

// openStoreToRead loads the config and opens the store it names for a
// command that only reads (history, export, status): a store that does not
// exist yet is reported, not created.
func (env *environment) openStoreToRead(ctx context.Context) (*config, *store.Store, error) {
	cfg, err := env.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	st, err := openStore(ctx, cfg, storeOptions{mustExist: true})
	if err != nil {
		return nil, nil, err
	}
	return cfg, st, nil
}

func runHistory(ctx context.Context, env *environment, opts historyOptions, now time.Time) error {
	since, err := parseSince(opts.since, now)
	if err != nil {
		return usageError{err}
	}
	kind := threefold.AlertKind(opts.kind)
	if kind != "" && !histKnownKind(kind) {
		return usagef("--kind %q: want one of %v", opts.kind, threefold.Kinds)
	}
	if opts.limit < 0 {
		return usagef("--limit %d: want 0 (all) or more", opts.limit)
	}
	if opts.alertsOnly && opts.gamesOnly {
		return usagef("--alerts and --games: give one or neither")
	}
	_, st, err := env.openStoreToRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()

	out := struct {
		Alerts []threefold.Alert `json:"alerts"`
		Games  []store.Game      `json:"games"`
	}{Alerts: []threefold.Alert{}, Games: []store.Game{}}
	if !opts.gamesOnly {
		as, err := st.Alerts(ctx, store.AlertFilter{Source: opts.source, Kind: kind, Player: opts.player, Since: since, Limit: opts.limit})
		if err != nil {
			return err
		}
		out.Alerts = append(out.Alerts, as...)
	}
	// --kind is about alerts: with it, games are listed only when asked.
	if !opts.alertsOnly && (kind == "" || opts.gamesOnly) {
		gs, err := st.Games(ctx, store.GameFilter{Source: opts.source, Player: opts.player, Since: since, Limit: opts.limit})
		if err != nil {
			return err
		}
		out.Games = append(out.Games, gs...)
	}
	if opts.json {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if !opts.gamesOnly {
		total := len(out.Alerts)
		if opts.limit > 0 && total == opts.limit {
			if total, err = st.CountAlerts(ctx, store.AlertFilter{Source: opts.source, Kind: kind, Player: opts.player, Since: since}); err != nil {
				return err
			}
		}
		writeAlertTable(env.stdout, out.Alerts, total)
	}
	if !opts.alertsOnly && (kind == "" || opts.gamesOnly) {
		if !opts.gamesOnly {
			fmt.Fprintln(env.stdout)
		}
		total := len(out.Games)
		if opts.limit > 0 && total == opts.limit {
			if total, err = st.CountGames(ctx, store.GameFilter{Source: opts.source, Player: opts.player, Since: since}); err != nil {
				return err
			}
		}
		writeGameTable(env.stdout, out.Games, total)
	}
	return nil
}

// listed says how many of how many are listed: "3", or "20 of 44" with
// the hint that --limit 0 lists them all.
func listed(shown, total int, order string) string {
	if total <= shown {
		return fmt.Sprintf("%d, %s", shown, order)
	}
	return fmt.Sprintf("%d of %d, %s; --limit 0 lists all", shown, total, order)
}

func histKnownKind(k threefold.AlertKind) bool {
	for _, x := range threefold.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

func writeAlertTable(w io.Writer, as []threefold.Alert, total int) {
	fmt.Fprintf(w, "Alerts (%s)\n", listed(len(as), total, "newest first"))
	if len(as) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OBSERVED\tKIND\tGAME\tPLY\tPLAYERS\tWHAT\tLINK")
	for _, a := range as {
		fmt.Fprint(tw, tableRow("%s\t%s\t%s/%s\t%d\t%s\t%s\t%s\n",
			a.ObservedAt.Local().Format("2006-01-02 15:04:05"), a.Kind, a.Game.Site, a.Game.ID, a.Ply,
			histPlayers(a.Game.White, a.Game.Black), alertSummary(a), histFirst(a.Game.URL, "-")))
	}
	tw.Flush()
}

// alertSummary says what an alert means in a few words.
func alertSummary(a threefold.Alert) string {
	plies := histJoinPlies(a.Occurrences)
	switch a.Kind {
	case threefold.KindThreefold:
		return fmt.Sprintf("%s occurrence (plies %s): %s may claim", histNth(a.Count), plies, a.Claimant)
	case threefold.KindFivefold:
		return fmt.Sprintf("%s occurrence (plies %s): drawn", histNth(a.Count), plies)
	case threefold.KindClaimByMove:
		return fmt.Sprintf("%s may claim by declaring %s (position of plies %s)", a.Claimant, histFirst(a.MoveSAN, a.Move), plies)
	case threefold.KindFiftyMoves:
		return a.Claimant + " may claim: 50 moves without pawn move or capture"
	case threefold.KindSeventyFiveMoves:
		return "drawn: 75 moves without pawn move or capture"
	case threefold.KindWithdrawn:
		return fmt.Sprintf("withdraws the %s alert %s: %s", a.WithdrawnKind, a.Withdraws, histFirst(a.Reason, "the moves were corrected"))
	}
	return string(a.Kind)
}

func writeGameTable(w io.Writer, gs []store.Game, total int) {
	fmt.Fprintf(w, "Games (%s)\n", listed(len(gs), total, "most recently updated first"))
	if len(gs) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "UPDATED\tGAME\tPLAYERS\tPLIES\tRESULT\tSOURCE\tLINK")
	for _, g := range gs {
		result := histFirst(g.Result, "*")
		if g.Termination != "" {
			result += " " + string(g.Termination)
		}
		if g.SiteResult != "" {
			result += " (" + g.Game.Site + ": " + g.SiteResult + ")"
		}
		if !g.Finished {
			result += " (going on)"
		}
		fmt.Fprint(tw, tableRow("%s\t%s/%s\t%s\t%d\t%s\t%s\t%s\n",
			g.UpdatedAt.Local().Format("2006-01-02 15:04:05"), g.Game.Site, g.Game.ID, histPlayers(g.Game.White, g.Game.Black),
			len(g.Moves), result, histFirst(g.Source, "-"), histFirst(g.Game.URL, "-")))
	}
	tw.Flush()
}

func histPlayers(white, black string) string {
	return histFirst(white, "?") + " - " + histFirst(black, "?")
}

func histJoinPlies(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}

func histNth(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return strconv.Itoa(n) + "th"
	case n%10 == 1:
		return strconv.Itoa(n) + "st"
	case n%10 == 2:
		return strconv.Itoa(n) + "nd"
	case n%10 == 3:
		return strconv.Itoa(n) + "rd"
	}
	return strconv.Itoa(n) + "th"
}

func histFirst(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// tableRow formats one row of a table, escaping every string field: text
// from outside (names, sources, errors) never reaches the terminal raw,
// and a tab in it never shifts a column.
func tableRow(format string, args ...any) string {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = safetext.Cell(s)
		}
	}
	return fmt.Sprintf(format, args...)
}
