package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
)

type broadcastsOptions struct {
	live, top, json bool
	search, user    string
	page, nb        int
}

func newBroadcastsCmd(env *environment) *cobra.Command {
	var opts broadcastsOptions
	cmd := &cobra.Command{
		Use:   "broadcasts [TOURNAMENT]",
		Short: "Find Lichess broadcasts to watch: official, top, a search, a user's, a tournament's rounds",
		Long: `broadcasts lists Lichess broadcasts and their rounds, with the address to give
threefold watch:

  (no flag)      the official broadcasts: those under way or scheduled first
                 (by tier), then finished ones; each with its rounds and
                 their state (on now, finished, starts at …)
  --live         only official broadcasts with a round on now
  --top          Lichess's top broadcasts: under way, then a page of past ones
  --search TEXT  the broadcasts whose name matches TEXT
  --user USER    the broadcasts USER created (Lichess asks a token with
                 study:read for this one: threefold login --for watch)
  TOURNAMENT     a tournament's address (or id, or one of its rounds'
                 addresses): its rounds and their state

The listings need no token; with the watch token (threefold login --for watch)
Lichess limits them less.`,
		Example: `  threefold broadcasts --live
  threefold broadcasts --search "world cup"
  threefold broadcasts https://lichess.org/broadcast/some-event/AbCdEfGh
  threefold watch https://lichess.org/broadcast/some-event/round-1/IjKlMnOp`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBroadcasts(cmd.Context(), env, opts, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.live, "live", false, "only official broadcasts with a round on now")
	f.BoolVar(&opts.top, "top", false, "Lichess's top broadcasts")
	f.StringVar(&opts.search, "search", "", "broadcasts whose name matches this text")
	f.StringVar(&opts.user, "user", "", "broadcasts this Lichess user created (token with study:read)")
	f.IntVar(&opts.page, "page", 1, "page of --top, --search and --user (from 1)")
	f.IntVar(&opts.nb, "limit", 20, "at most this many official broadcasts (1 to 100)")
	f.BoolVar(&opts.json, "json", false, "what Lichess answered, as JSON")
	return cmd
}

func runBroadcasts(ctx context.Context, env *environment, opts broadcastsOptions, args []string) error {
	modes := 0
	for _, on := range []bool{opts.top, opts.search != "", opts.user != "", len(args) == 1} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return usagef("broadcasts: give one of --top, --search, --user or a tournament")
	case opts.live && modes > 0:
		return usagef("broadcasts: --live filters the official list; it goes with no other choice")
	case opts.page < 1 || opts.page > 20 && opts.user == "":
		return usagef("broadcasts: --page %d: want 1 to 20", opts.page)
	case opts.nb < 1 || opts.nb > 100:
		return usagef("broadcasts: --limit %d: want 1 to 100", opts.nb)
	}
	cfg, err := env.loadConfig()
	if err != nil {
		return err
	}
	token, err := cfg.lichessToken(lichess.RoleWatch)
	if err != nil {
		return fmt.Errorf("broadcasts: %w", err)
	}
	if opts.user != "" && token == "" {
		return usagef("broadcasts: --user: Lichess lists a user's broadcasts only to a token with study:read: run `threefold login --for watch`")
	}
	client := lichess.NewClient(lichess.Options{BaseURL: cfg.Lichess.URL, Token: token, Version: programVersion()})
	defer client.Close()
	var (
		out   any
		print func(io.Writer)
	)
	switch {
	case len(args) == 1:
		tour, err := broadcastTourOf(ctx, client, cfg.Lichess.URL, args[0])
		if err != nil {
			return err
		}
		out, print = tour, func(w io.Writer) { printTours(w, []lichess.BroadcastTour{*tour}) }
	case opts.top:
		top, err := client.TopBroadcasts(ctx, opts.page)
		if err != nil {
			return fmt.Errorf("broadcasts: %w", err)
		}
		out, print = top, func(w io.Writer) {
			if len(top.Active) > 0 {
				fmt.Fprintln(w, "On now:")
				printPreviews(w, top.Active)
			}
			fmt.Fprintln(w, "Past:")
			printPreviews(w, top.Past.Results)
			printNextPage(w, top.Past)
		}
	case opts.search != "" || opts.user != "":
		var page *lichess.BroadcastPage
		if opts.search != "" {
			page, err = client.SearchBroadcasts(ctx, opts.search, opts.page)
		} else {
			page, err = client.UserBroadcasts(ctx, opts.user, opts.page)
		}
		if err != nil {
			return fmt.Errorf("broadcasts: %w", err)
		}
		out, print = page, func(w io.Writer) {
			printPreviews(w, page.Results)
			printNextPage(w, *page)
		}
	default:
		tours, err := client.OfficialBroadcasts(ctx, opts.nb, opts.live)
		if err != nil {
			return fmt.Errorf("broadcasts: %w", err)
		}
		out, print = tours, func(w io.Writer) { printTours(w, tours) }
	}
	if opts.json {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	print(env.stdout)
	return nil
}

// broadcastTourOf reads a tournament from its address, id, or one of its
// rounds' addresses.
func broadcastTourOf(ctx context.Context, c *lichess.Client, base, arg string) (*lichess.BroadcastTour, error) {
	id := arg
	if t, err := listener.ParseTarget(arg, listener.ParseOptions{LichessBase: base}); err == nil {
		switch t.Kind {
		case listener.TargetLichessTour:
			id = t.ID
		case listener.TargetLichessRound:
			r, err := c.BroadcastRound(ctx, t.ID)
			if err != nil {
				return nil, fmt.Errorf("broadcasts: %s: %w", arg, err)
			}
			id = r.Tour.ID
		default:
			return nil, usagef("broadcasts: %s is not a broadcast's address", arg)
		}
	} else if strings.ContainsAny(arg, "/.:") {
		return nil, usagef("broadcasts: %s: %v", arg, err)
	}
	tour, err := c.BroadcastTour(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("broadcasts: %s: %w", arg, err)
	}
	return tour, nil
}

// roundState says where a round stands: on now, finished, when it starts.
func roundState(r lichess.BroadcastRoundInfo) string {
	switch {
	case r.Over():
		return "finished"
	case r.Ongoing:
		return "on now"
	case r.StartsAt > 0:
		return "starts " + time.UnixMilli(r.StartsAt).UTC().Format("2006-01-02 15:04 UTC")
	case r.StartsAfterPrevious:
		return "after the previous round"
	}
	return "not started"
}

func printTours(w io.Writer, tours []lichess.BroadcastTour) {
	if len(tours) == 0 {
		fmt.Fprintln(w, "no broadcast")
		return
	}
	for i, t := range tours {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, tourLine(t.Tour, t.Group)+"  "+t.Tour.URL)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range t.Rounds {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, roundState(r), r.URL)
		}
		tw.Flush()
	}
}

func printPreviews(w io.Writer, ps []lichess.BroadcastPreview) {
	if len(ps) == 0 {
		fmt.Fprintln(w, "  no broadcast")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range ps {
		if p.Round.ID == "" { // a user's list: no round
			fmt.Fprintf(tw, "  %s\t%s\n", tourLine(p.Tour, p.Group), p.Tour.URL)
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s: %s\t%s\n", tourLine(p.Tour, p.Group), p.Round.Name, roundState(p.Round), p.Round.URL)
	}
	tw.Flush()
}

func printNextPage(w io.Writer, p lichess.BroadcastPage) {
	if p.NextPage != nil {
		fmt.Fprintf(w, "more: --page %d\n", *p.NextPage)
	}
}

// tourLine names a tournament: its name, group and tier, and for a whole
// tournament its address.
func tourLine(t lichess.BroadcastTourInfo, group string) string {
	s := t.Name
	if group != "" && !strings.Contains(s, group) {
		s = group + " | " + s
	}
	if t.Tier > 0 {
		s += fmt.Sprintf(" (tier %d)", t.Tier)
	}
	return s
}
