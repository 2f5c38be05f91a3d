package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
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
	q := lichess.BroadcastQuery{Top: opts.top, Search: opts.search, User: opts.user, Page: opts.page, Limit: opts.nb, Live: opts.live}
	if len(args) == 1 {
		q.TourID, err = listener.BroadcastTourID(ctx, client, args[0], listener.ParseOptions{LichessBase: cfg.Lichess.URL})
		var nb *listener.NotABroadcastError
		if errors.As(err, &nb) {
			return usagef("broadcasts: %w", err)
		}
		if err != nil {
			return fmt.Errorf("broadcasts: %w", err)
		}
	}
	l, err := client.FindBroadcasts(ctx, q)
	if err != nil && q.TourID != "" {
		return fmt.Errorf("broadcasts: %s: %w", args[0], err)
	}
	if err != nil {
		return fmt.Errorf("broadcasts: %w", err)
	}
	if opts.json {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(l.Answer)
	}
	l.WriteText(cfg.printer(), env.stdout)
	if l.NextPage != nil {
		fmt.Fprintln(env.stdout, cfg.printer().Sprintf(i18n.BcMore, strconv.Itoa(*l.NextPage)))
	}
	return nil
}
