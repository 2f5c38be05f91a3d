package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/store"
)

// StatusTables writes the group as status shows it: the store, then the
// instances, leases, sources, outbox and unfinished games, at most limit
// leases and games (0: all). Ages count from gs.Now.
func StatusTables(p *i18n.Printer, w io.Writer, gs store.GroupStatus, limit int) {
	now := gs.Now
	fmt.Fprint(w, p.Sprintf(i18n.StStore, gs.Backend, gs.Where, now.UTC().Format("2006-01-02 15:04:05 UTC"))+"\n\n")
	instanceTable(p, w, now, gs.Instances)
	leaseTable(p, w, now, gs.Leases, limit)
	sourceTable(p, w, now, gs.Sources)
	outboxTable(p, w, now, gs.Outbox)
	gameLagTable(p, w, now, gs.Games, limit)
}

func instanceTable(p *i18n.Printer, w io.Writer, now time.Time, instances []store.InstanceStatus) {
	alive := 0
	for _, i := range instances {
		if i.Alive {
			alive++
		}
	}
	title := p.Sprintf(i18n.StInstancesTitle, len(instances), alive)
	table(p, w, title, p.Sprintf(i18n.StInstancesHeader), instances, 0, func(i store.InstanceStatus) string {
		state := p.Sprintf(i18n.StAlive)
		if !i.Alive {
			state = p.Sprintf(i18n.StDead)
		}
		return Row("%s\t%s\t%s\t%s\t%s\t%s\n", i.ID, i.Host, state, ago(p, now, i.LastSeen),
			i.StartedAt.UTC().Format("2006-01-02 15:04:05"), holdings(p, i))
	})
}

func leaseTable(p *i18n.Printer, w io.Writer, now time.Time, leases []store.LeaseStatus, limit int) {
	title := "\n" + p.Sprintf(i18n.StLeasesTitle, len(leases))
	table(p, w, title, p.Sprintf(i18n.StLeasesHeader), leases, limit, func(l store.LeaseStatus) string {
		holder, expires := l.Holder, ago(p, now, l.ExpiresAt)
		switch {
		case l.Holder == "":
			holder, expires = "-", p.Sprintf(i18n.StFree)
		case l.Expired:
			holder = p.Sprintf(i18n.StExpired, l.Holder)
		}
		name := l.Name
		if l.Kind == store.LeaseSource {
			name = p.SourceName(name)
		}
		return Row("%s\t%s\t%s\t%d\t%s\n", l.Kind, name, holder, l.Epoch, expires)
	})
}

func sourceTable(p *i18n.Printer, w io.Writer, now time.Time, sources []store.SourceStatus) {
	title := "\n" + p.Sprintf(i18n.StSourcesTitle, len(sources))
	table(p, w, title, p.Sprintf(i18n.StSourcesHeader), sources, 0, func(s store.SourceStatus) string {
		saved := p.Sprintf(i18n.StNever)
		if s.HasState {
			saved = ago(p, now, s.StateUpdatedAt)
		}
		return Row("%s\t%s\t%s\t%s\n", p.SourceName(s.Name), first(s.Holder, p.Sprintf(i18n.StNobody)), saved, connection(p, now, s.Health))
	})
}

func outboxTable(p *i18n.Printer, w io.Writer, now time.Time, outbox []store.SinkLag) {
	title := "\n" + p.Sprintf(i18n.StOutboxTitle, len(outbox))
	table(p, w, title, p.Sprintf(i18n.StOutboxHeader), outbox, 0, func(o store.SinkLag) string {
		oldest := "-"
		if o.Pending > 0 {
			oldest = ago(p, now, o.Oldest)
		}
		return Row("%s\t%d\t%d\t%d\t%s\t%d\t%s\n", o.Sink, o.Pending, o.Claimed, o.Sent, oldest, o.MaxAttempts, first(oneLine(o.LastError), "-"))
	})
}

func gameLagTable(p *i18n.Printer, w io.Writer, now time.Time, games []store.GameLag, limit int) {
	title := "\n" + p.Sprintf(i18n.StGamesTitle, len(games))
	table(p, w, title, p.Sprintf(i18n.StGamesHeader), games, limit, func(g store.GameLag) string {
		processed, behind := fmt.Sprint(g.Processed), fmt.Sprint(g.Seen-g.Processed)
		if g.Processed < 0 {
			processed, behind = "-", fmt.Sprint(g.Seen)
		}
		return Row("%s/%s\t%s\t%d\t%s\t%s\t%s\n", g.Site, g.ID, processed, g.Seen, behind, first(g.Holder, p.Sprintf(i18n.StNobody)), ago(p, now, g.UpdatedAt))
	})
}

// table writes one table of status: its title line, then, when there are
// rows, the tab-separated header and a line per row (row returns it with
// its newline), at most limit of them (0: all) and then a line saying how
// many more there are.
func table[T any](p *i18n.Printer, w io.Writer, title, header string, rows []T, limit int, row func(T) string) {
	fmt.Fprintln(w, title)
	if len(rows) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for k, r := range rows {
		if limit > 0 && k == limit {
			blanks := strings.Repeat("\t", strings.Count(header, "\t")-1)
			fmt.Fprint(tw, Row("…\t%s"+blanks+"\n", p.Sprintf(i18n.StMore, len(rows)-limit)))
			break
		}
		fmt.Fprint(tw, row(r))
	}
	tw.Flush()
}

// BoardTable writes the e-boards, failing ones first, their ages counted
// from now.
func BoardTable(p *i18n.Printer, w io.Writer, boards []store.SourceBoard, now time.Time) {
	failing := 0
	for _, b := range boards {
		if !b.Healthy() {
			failing++
		}
	}
	fmt.Fprintln(w, "\n"+p.Sprintf(i18n.StBoardsTitle, len(boards), failing))
	if len(boards) == 0 {
		return
	}
	sorted := slices.Clone(boards)
	slices.SortStableFunc(sorted, func(a, b store.SourceBoard) int {
		if a.Healthy() != b.Healthy() {
			if a.Healthy() {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Source+"\x00"+a.Serial, b.Source+"\x00"+b.Serial)
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.Sprintf(i18n.StBoardsHeader))
	for _, b := range sorted {
		board := "-"
		if b.Board > 0 {
			board = fmt.Sprint(b.Board)
		}
		followed := p.Sprintf(i18n.StNo)
		if b.Followed {
			followed = p.Sprintf(i18n.StYes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.SourceName(b.Source), b.Serial, board, first(b.State, p.Sprintf(i18n.StNotActivated)),
			followed, first(b.Game, "-"), first(oneLine(b.Failing), "-"), ago(p, now, b.AsOf))
	}
	tw.Flush()
}

// StatusJSON is the --json form of status: the store's status with empty
// lists as [] and the lease lifetime in seconds as well.
func StatusJSON(gs store.GroupStatus, boards []store.SourceBoard) any {
	type instance struct {
		store.InstanceStatus
		LeaseTTLS float64 `json:"lease_ttl_s"`
	}
	ins := []instance{}
	for _, i := range gs.Instances {
		ins = append(ins, instance{InstanceStatus: i, LeaseTTLS: i.LeaseTTL.Seconds()})
	}
	return struct {
		Backend   string               `json:"backend"`
		Where     string               `json:"where"`
		Now       time.Time            `json:"now"`
		Instances []instance           `json:"instances"`
		Leases    []store.LeaseStatus  `json:"leases"`
		Sources   []store.SourceStatus `json:"sources"`
		Outbox    []store.SinkLag      `json:"outbox"`
		Games     []store.GameLag      `json:"games"`
		Boards    []store.SourceBoard  `json:"boards"`
	}{gs.Backend, gs.Where, gs.Now, ins, orEmpty(gs.Leases), orEmpty(gs.Sources), orEmpty(gs.Outbox), orEmpty(gs.Games), orEmpty(boards)}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// holdings is "source 2/4, game 17": the unexpired leases by kind, with
// the budget where there is one.
func holdings(p *i18n.Printer, i store.InstanceStatus) string {
	kinds := map[string]bool{}
	for k := range i.Held {
		kinds[k] = true
	}
	for k := range i.Budget {
		kinds[k] = true
	}
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		if b := i.Budget[k]; b > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", k, i.Held[k], b))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d", k, i.Held[k]))
		}
	}
	if len(parts) == 0 {
		return p.Sprintf(i18n.StNothing)
	}
	return strings.Join(parts, ", ")
}

// ago is how long before now t was, to the second: "35s ago", "2h5m0s
// ago"; in Russian «2 ч 5 мин назад».
func ago(p *i18n.Printer, now, t time.Time) string {
	if t.IsZero() {
		return p.Sprintf(i18n.StNever)
	}
	d := now.Sub(t).Round(time.Second)
	if d < 0 {
		return p.Sprintf(i18n.StIn, p.Duration(-d))
	}
	return p.Sprintf(i18n.StAgo, p.Duration(d))
}

// since is how long since t, to the second: "2h5m0s", «2 ч 5 мин».
func since(p *i18n.Printer, now, t time.Time) string { return p.Duration(now.Sub(t)) }

// connection says whether a source is connected, or since when and why
// not ("-" when nothing follows its connection: files, chess.com).
func connection(p *i18n.Printer, now time.Time, h *threefold.SourceHealth) string {
	switch {
	case h == nil:
		return "-"
	case h.Connected:
		return p.Sprintf(i18n.StConnectedFor, since(p, now, h.Since))
	}
	return p.Sprintf(i18n.StDownFor, since(p, now, h.Since), h.Failures, oneLine(h.LastError))
}
