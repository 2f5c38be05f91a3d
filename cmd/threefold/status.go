package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/store"
)

type statusOptions struct {
	json  bool
	limit int
}

func newStatusCmd(env *environment) *cobra.Command {
	var opts statusOptions
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the group of instances sharing the store: instances, leases, sources, lag, e-boards",
		Long: `status shows what the store (store.dsn, or the SQLite file threefold.db in
data_dir) says about the instances of threefold that share it:

  instances  each instance, alive (a heartbeat within its lease lifetime) or
             dead, when it was last seen, its budgets and what it holds;
  leases     which instance holds which source and game, and until when;
  sources    each source, its holder, when its resume state was saved, and
             its connection (Lichess streams, DGT servers): connected, or
             down since when, after how many attempts, and why;
  outbox     per sink, the alerts not yet sent, the oldest one's age, the
             attempts and the last error;
  games      each unfinished game: the last ply processed against the last
             ply seen, most behind first;
  boards     the e-boards of DGT LiveChess sources, as their source last
             kept them: LiveChess's state, whether the board is followed,
             why it fails (a refused subscription, switched off, not
             listed), its game.

With --json it writes the same as one JSON object.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(cmd.Context(), env, opts, statusNow())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.json, "json", false, "one JSON object")
	f.IntVar(&opts.limit, "limit", 50, "at most this many leases and games in the text (0: all)")
	return cmd
}

// statusNow is the clock liveness and ages are judged by (tests set it).
var statusNow = time.Now

func runStatus(ctx context.Context, env *environment, opts statusOptions, now time.Time) error {
	if opts.limit < 0 {
		return usagef("--limit %d: want 0 (all) or more", opts.limit)
	}
	cfg, st, err := env.openStoreToRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	p := cfg.printer()
	gs, err := st.Status(ctx, now)
	if err != nil {
		return err
	}
	boards, err := st.SourceBoards(ctx, gs.Sources)
	if err != nil {
		return err
	}
	if opts.json {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(statusJSON(gs, boards))
	}
	writeStatus(p, env.stdout, gs, opts.limit)
	writeBoards(p, env.stdout, boards, now)
	return nil
}

// writeBoards lists the e-boards, failing ones first.
func writeBoards(p *i18n.Printer, w io.Writer, boards []store.SourceBoard, now time.Time) {
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", b.Source, b.Serial, board, histFirst(b.State, p.Sprintf(i18n.StNotActivated)),
			followed, histFirst(b.Game, "-"), histFirst(oneLine(b.Failing), "-"), ago(p, now, b.AsOf))
	}
	tw.Flush()
}

// statusJSON is the --json form: the store's status with empty lists as
// [] and the lease lifetime in seconds.
func statusJSON(gs store.GroupStatus, boards []store.SourceBoard) any {
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

func writeStatus(p *i18n.Printer, w io.Writer, gs store.GroupStatus, limit int) {
	now := gs.Now
	alive := 0
	for _, i := range gs.Instances {
		if i.Alive {
			alive++
		}
	}
	fmt.Fprint(w, p.Sprintf(i18n.StStore, gs.Backend, gs.Where, now.UTC().Format("2006-01-02 15:04:05 UTC"))+"\n\n")

	fmt.Fprintln(w, p.Sprintf(i18n.StInstancesTitle, len(gs.Instances), alive))
	if len(gs.Instances) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, p.Sprintf(i18n.StInstancesHeader))
		for _, i := range gs.Instances {
			state := p.Sprintf(i18n.StAlive)
			if !i.Alive {
				state = p.Sprintf(i18n.StDead)
			}
			fmt.Fprint(tw, tableRow("%s\t%s\t%s\t%s\t%s\t%s\n", i.ID, i.Host, state, ago(p, now, i.LastSeen),
				i.StartedAt.UTC().Format("2006-01-02 15:04:05"), holdings(p, i)))
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\n"+p.Sprintf(i18n.StLeasesTitle, len(gs.Leases)))
	if len(gs.Leases) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, p.Sprintf(i18n.StLeasesHeader))
		for k, l := range gs.Leases {
			if limit > 0 && k == limit {
				fmt.Fprint(tw, tableRow("…\t%s\t\t\t\n", p.Sprintf(i18n.StMore, len(gs.Leases)-limit)))
				break
			}
			holder, expires := l.Holder, ago(p, now, l.ExpiresAt)
			switch {
			case l.Holder == "":
				holder, expires = "-", p.Sprintf(i18n.StFree)
			case l.Expired:
				holder, expires = p.Sprintf(i18n.StExpired, l.Holder), ago(p, now, l.ExpiresAt)
			}
			fmt.Fprint(tw, tableRow("%s\t%s\t%s\t%d\t%s\n", l.Kind, l.Name, holder, l.Epoch, expires))
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\n"+p.Sprintf(i18n.StSourcesTitle, len(gs.Sources)))
	if len(gs.Sources) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, p.Sprintf(i18n.StSourcesHeader))
		for _, s := range gs.Sources {
			saved := p.Sprintf(i18n.StNever)
			if s.HasState {
				saved = ago(p, now, s.StateUpdatedAt)
			}
			fmt.Fprint(tw, tableRow("%s\t%s\t%s\t%s\n", s.Name, histFirst(s.Holder, p.Sprintf(i18n.StNobody)), saved, connection(p, now, s.Health)))
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\n"+p.Sprintf(i18n.StOutboxTitle, len(gs.Outbox)))
	if len(gs.Outbox) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, p.Sprintf(i18n.StOutboxHeader))
		for _, o := range gs.Outbox {
			oldest := "-"
			if o.Pending > 0 {
				oldest = ago(p, now, o.Oldest)
			}
			fmt.Fprint(tw, tableRow("%s\t%d\t%d\t%d\t%s\t%d\t%s\n", o.Sink, o.Pending, o.Claimed, o.Sent, oldest, o.MaxAttempts, histFirst(oneLine(o.LastError), "-")))
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\n"+p.Sprintf(i18n.StGamesTitle, len(gs.Games)))
	if len(gs.Games) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, p.Sprintf(i18n.StGamesHeader))
		for k, g := range gs.Games {
			if limit > 0 && k == limit {
				fmt.Fprint(tw, tableRow("…\t%s\t\t\t\t\n", p.Sprintf(i18n.StMore, len(gs.Games)-limit)))
				break
			}
			processed, behind := fmt.Sprint(g.Processed), fmt.Sprint(g.Seen-g.Processed)
			if g.Processed < 0 {
				processed, behind = "-", fmt.Sprint(g.Seen)
			}
			fmt.Fprint(tw, tableRow("%s/%s\t%s\t%d\t%s\t%s\t%s\n", g.Site, g.ID, processed, g.Seen, behind, histFirst(g.Holder, p.Sprintf(i18n.StNobody)), ago(p, now, g.UpdatedAt)))
		}
		tw.Flush()
	}
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

// ago is how long before now t was, to the second: "35s ago", "2h5m0s ago".
func ago(p *i18n.Printer, now, t time.Time) string {
	if t.IsZero() {
		return p.Sprintf(i18n.StNever)
	}
	d := now.Sub(t).Round(time.Second)
	if d < 0 {
		return p.Sprintf(i18n.StIn, (-d).String())
	}
	return p.Sprintf(i18n.StAgo, d.String())
}

// since is how long since t, to the second: "2h5m0s".
func since(now, t time.Time) string { return now.Sub(t).Round(time.Second).String() }

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}

// connection says whether a source is connected, or since when and why
// not ("-" when nothing follows its connection: files, chess.com).
func connection(p *i18n.Printer, now time.Time, h *threefold.SourceHealth) string {
	switch {
	case h == nil:
		return "-"
	case h.Connected:
		return p.Sprintf(i18n.StConnectedFor, since(now, h.Since))
	}
	return p.Sprintf(i18n.StDownFor, since(now, h.Since), h.Failures, oneLine(h.LastError))
}
