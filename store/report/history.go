package report

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/store"
)

// Query is what history lists: the alerts and games of a source (a site,
// or a part of a source's name), of a player, since a moment; Limit of
// each (0: all). A Kind selects alerts only, unless GamesOnly asks for the
// games.
type Query struct {
	Source, Player        string
	Kind                  threefold.AlertKind
	Since                 time.Time
	Limit                 int
	AlertsOnly, GamesOnly bool
}

func (q Query) listsAlerts() bool { return !q.GamesOnly }

// listsGames: a Kind is about alerts, so with one the games are listed
// only when asked.
func (q Query) listsGames() bool { return !q.AlertsOnly && (q.Kind == "" || q.GamesOnly) }

// HistoryStore is what ReadHistory reads of the store.
type HistoryStore interface {
	Alerts(ctx context.Context, f store.AlertFilter) ([]threefold.Alert, error)
	CountAlerts(ctx context.Context, f store.AlertFilter) (int, error)
	Games(ctx context.Context, f store.GameFilter) ([]store.Game, error)
	CountGames(ctx context.Context, f store.GameFilter) (int, error)
}

// History is what history lists, most recent first; its JSON is the one
// of history --json: {"alerts": […], "games": […]}, never null.
type History struct {
	Alerts []threefold.Alert `json:"alerts"`
	Games  []store.Game      `json:"games"`

	q                     Query
	alertTotal, gameTotal int // how many match, beyond the limit
}

// ReadHistory reads the alerts and games of q, and how many there are in
// all when the limit cut a list.
func ReadHistory(ctx context.Context, st HistoryStore, q Query) (*History, error) {
	h := &History{Alerts: []threefold.Alert{}, Games: []store.Game{}, q: q}
	if q.listsAlerts() {
		f := store.AlertFilter{Source: q.Source, Kind: q.Kind, Player: q.Player, Since: q.Since, Limit: q.Limit}
		as, err := st.Alerts(ctx, f)
		if err != nil {
			return nil, err
		}
		h.Alerts = append(h.Alerts, as...)
		h.alertTotal = len(as)
		if q.Limit > 0 && len(as) == q.Limit {
			f.Limit = 0
			if h.alertTotal, err = st.CountAlerts(ctx, f); err != nil {
				return nil, err
			}
		}
	}
	if q.listsGames() {
		f := store.GameFilter{Source: q.Source, Player: q.Player, Since: q.Since, Limit: q.Limit}
		gs, err := st.Games(ctx, f)
		if err != nil {
			return nil, err
		}
		h.Games = append(h.Games, gs...)
		h.gameTotal = len(gs)
		if q.Limit > 0 && len(gs) == q.Limit {
			f.Limit = 0
			if h.gameTotal, err = st.CountGames(ctx, f); err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}

// WriteText writes the tables of history: the alerts, then the games, as
// the query asked.
func (h *History) WriteText(p *i18n.Printer, w io.Writer) {
	if h.q.listsAlerts() {
		AlertTable(p, w, h.Alerts, h.alertTotal)
	}
	if h.q.listsGames() {
		if h.q.listsAlerts() {
			fmt.Fprintln(w)
		}
		GameTable(p, w, h.Games, h.gameTotal)
	}
}

// AlertTable writes the table of alerts as given, titled with how many of
// total are listed.
func AlertTable(p *i18n.Printer, w io.Writer, as []threefold.Alert, total int) {
	fmt.Fprintln(w, p.Sprintf(i18n.HistAlertsTitle, listed(p, len(as), total, p.Sprintf(i18n.HistNewestFirst))))
	if len(as) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.Sprintf(i18n.HistAlertHeader))
	for _, a := range as {
		fmt.Fprint(tw, Row("%s\t%s\t%s/%s\t%d\t%s\t%s\t%s\n",
			tableTime(p, a.ObservedAt), a.Kind, a.Game.Site, a.Game.ID, a.Ply,
			players(a.Game.White, a.Game.Black), alertSummary(p, a), first(a.Game.URL, "-")))
	}
	tw.Flush()
}

// GameTable writes the table of games as given, titled with how many of
// total are listed.
func GameTable(p *i18n.Printer, w io.Writer, gs []store.Game, total int) {
	fmt.Fprintln(w, p.Sprintf(i18n.HistGamesTitle, listed(p, len(gs), total, p.Sprintf(i18n.HistRecentFirst))))
	if len(gs) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.Sprintf(i18n.HistGameHeader))
	for _, g := range gs {
		result := first(g.Result, "*")
		if g.Termination != "" {
			result += " " + p.Termination(string(g.Termination))
		}
		if g.SiteResult != "" {
			result += " (" + g.Game.Site + ": " + p.SiteResult(g.SiteResult) + ")"
		}
		if !g.Finished {
			result += p.Sprintf(i18n.HistGoingOn)
		}
		fmt.Fprint(tw, Row("%s\t%s/%s\t%s\t%d\t%s\t%s\t%s\n",
			tableTime(p, g.UpdatedAt), g.Game.Site, g.Game.ID, players(g.Game.White, g.Game.Black),
			len(g.Moves), result, first(p.SourceName(g.Source), "-"), first(g.Game.URL, "-")))
	}
	tw.Flush()
}

// listed says how many of how many are listed: "3", or "20 of 44" with
// the hint that --limit 0 lists them all.
func listed(p *i18n.Printer, shown, total int, order string) string {
	if total <= shown {
		return p.Sprintf(i18n.HistListed, shown, order)
	}
	return p.Sprintf(i18n.HistListedOf, shown, total, order)
}

// alertSummary says what an alert means in a few words.
func alertSummary(p *i18n.Printer, a threefold.Alert) string {
	plies := joinPlies(a.Occurrences)
	switch a.Kind {
	case threefold.KindThreefold:
		return p.Sprintf(i18n.HistThreefold, ordinal(p, a.Count), plies, p.SideAsStored(a.Claimant))
	case threefold.KindFivefold:
		return p.Sprintf(i18n.HistFivefold, ordinal(p, a.Count), plies)
	case threefold.KindClaimByMove:
		return p.Sprintf(i18n.HistClaimByMove, p.SideAsStored(a.Claimant), first(a.MoveSAN, a.Move), plies)
	case threefold.KindFiftyMoves:
		return p.Sprintf(i18n.HistFifty, p.SideAsStored(a.Claimant))
	case threefold.KindSeventyFiveMoves:
		return p.Sprintf(i18n.HistSeventyFive)
	case threefold.KindWithdrawn:
		return p.Sprintf(i18n.HistWithdrawn, kindName(p, a.WithdrawnKind), a.Withdraws, first(p.Reason(a.Reason), p.Sprintf(i18n.HistCorrected)))
	}
	return string(a.Kind)
}

// ordinal writes the nth occurrence: 3rd, 3-е, 3., سوم («بار سوم»).
func ordinal(p *i18n.Printer, n int) string {
	if p.Lang() == i18n.English {
		return i18n.EnglishOrdinal(n)
	}
	return p.Sprintf(i18n.WebOrdinal, n)
}

// kindNames are the keys of the alert kinds' names.
var kindNames = map[threefold.AlertKind]i18n.Key{
	threefold.KindThreefold: i18n.KindThreefold, threefold.KindClaimByMove: i18n.KindClaimByMove,
	threefold.KindFivefold: i18n.KindFivefold, threefold.KindFiftyMoves: i18n.KindFiftyMoves,
	threefold.KindSeventyFiveMoves: i18n.KindSeventyFiveMoves,
}

// kindName names an alert kind: its value in English, its name otherwise.
func kindName(p *i18n.Printer, k threefold.AlertKind) string {
	name := kindNames[k]
	if p.Lang() == i18n.English || name == "" {
		return string(k)
	}
	return p.Sprintf(name)
}

func players(white, black string) string {
	return first(white, "?") + " - " + first(black, "?")
}

func joinPlies(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}
