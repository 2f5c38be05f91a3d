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
	"github.com/threefold-chess/threefold/internal/i18n"
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
	cfg, st, err := env.openStoreToRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	p := cfg.printer()

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
		writeAlertTable(p, env.stdout, out.Alerts, total)
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
		writeGameTable(p, env.stdout, out.Games, total)
	}
	return nil
}

// listed says how many of how many are listed: "3", or "20 of 44" with
// the hint that --limit 0 lists them all.
func listed(p *i18n.Printer, shown, total int, order string) string {
	if total <= shown {
		return p.Sprintf(i18n.HistListed, shown, order)
	}
	return p.Sprintf(i18n.HistListedOf, shown, total, order)
}

// tableTime writes a moment of a table: the sortable form in English,
// the language's own otherwise.
func tableTime(p *i18n.Printer, t time.Time) string {
	if p.Lang() == i18n.English {
		return t.Local().Format("2006-01-02 15:04:05")
	}
	return p.DateTime(t.Local())
}

// histSide names the side that may claim: as the alert JSON has it
// ("white") in English, as the language names it otherwise.
func histSide(p *i18n.Printer, color string) string {
	if p.Lang() == i18n.English {
		return color
	}
	switch color {
	case "white":
		return p.Sprintf(i18n.White)
	case "black":
		return p.Sprintf(i18n.Black)
	}
	return color
}

// histOrdinal writes the nth occurrence: 3rd, 3-е, 3., ۳مین.
func histOrdinal(p *i18n.Printer, n int) string {
	if p.Lang() == i18n.English {
		return histNth(n)
	}
	return p.Sprintf(i18n.WebOrdinal, n)
}

// histKind names an alert kind: its value in English, its name otherwise.
func histKind(p *i18n.Printer, k threefold.AlertKind) string {
	name := map[threefold.AlertKind]i18n.Key{threefold.KindThreefold: i18n.KindThreefold, threefold.KindClaimByMove: i18n.KindClaimByMove,
		threefold.KindFivefold: i18n.KindFivefold, threefold.KindFiftyMoves: i18n.KindFiftyMoves, threefold.KindSeventyFiveMoves: i18n.KindSeventyFiveMoves}[k]
	if p.Lang() == i18n.English || name == "" {
		return string(k)
	}
	return p.Sprintf(name)
}

func histKnownKind(k threefold.AlertKind) bool {
	for _, x := range threefold.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

func writeAlertTable(p *i18n.Printer, w io.Writer, as []threefold.Alert, total int) {
	fmt.Fprintln(w, p.Sprintf(i18n.HistAlertsTitle, listed(p, len(as), total, p.Sprintf(i18n.HistNewestFirst))))
	if len(as) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.Sprintf(i18n.HistAlertHeader))
	for _, a := range as {
		fmt.Fprint(tw, tableRow("%s\t%s\t%s/%s\t%d\t%s\t%s\t%s\n",
			tableTime(p, a.ObservedAt), a.Kind, a.Game.Site, a.Game.ID, a.Ply,
			histPlayers(a.Game.White, a.Game.Black), alertSummary(p, a), histFirst(a.Game.URL, "-")))
	}
	tw.Flush()
}

// alertSummary says what an alert means in a few words.
func alertSummary(p *i18n.Printer, a threefold.Alert) string {
	plies := histJoinPlies(a.Occurrences)
	switch a.Kind {
	case threefold.KindThreefold:
		return p.Sprintf(i18n.HistThreefold, histOrdinal(p, a.Count), plies, histSide(p, a.Claimant))
	case threefold.KindFivefold:
		return p.Sprintf(i18n.HistFivefold, histOrdinal(p, a.Count), plies)
	case threefold.KindClaimByMove:
		return p.Sprintf(i18n.HistClaimByMove, histSide(p, a.Claimant), histFirst(a.MoveSAN, a.Move), plies)
	case threefold.KindFiftyMoves:
		return p.Sprintf(i18n.HistFifty, histSide(p, a.Claimant))
	case threefold.KindSeventyFiveMoves:
		return p.Sprintf(i18n.HistSeventyFive)
	case threefold.KindWithdrawn:
		return p.Sprintf(i18n.HistWithdrawn, histKind(p, a.WithdrawnKind), a.Withdraws, histFirst(a.Reason, p.Sprintf(i18n.HistCorrected)))
	}
	return string(a.Kind)
}

func writeGameTable(p *i18n.Printer, w io.Writer, gs []store.Game, total int) {
	fmt.Fprintln(w, p.Sprintf(i18n.HistGamesTitle, listed(p, len(gs), total, p.Sprintf(i18n.HistRecentFirst))))
	if len(gs) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.Sprintf(i18n.HistGameHeader))
	for _, g := range gs {
		result := histFirst(g.Result, "*")
		if g.Termination != "" {
			result += " " + string(g.Termination)
		}
		if g.SiteResult != "" {
			result += " (" + g.Game.Site + ": " + g.SiteResult + ")"
		}
		if !g.Finished {
			result += p.Sprintf(i18n.HistGoingOn)
		}
		fmt.Fprint(tw, tableRow("%s\t%s/%s\t%s\t%d\t%s\t%s\t%s\n",
			tableTime(p, g.UpdatedAt), g.Game.Site, g.Game.ID, histPlayers(g.Game.White, g.Game.Black),
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
