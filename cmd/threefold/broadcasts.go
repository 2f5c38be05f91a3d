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
		Use:  "broadcasts [TOURNAMENT]",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBroadcasts(cmd.Context(), env, opts, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.live, "live", false, "")
	f.BoolVar(&opts.top, "top", false, "")
	f.StringVar(&opts.search, "search", "", "")
	f.StringVar(&opts.user, "user", "", "")
	f.IntVar(&opts.page, "page", 1, "")
	f.IntVar(&opts.nb, "limit", 20, "")
	f.BoolVar(&opts.json, "json", false, "")
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
	token, err := cfg.Lichess.TokenFor(lichess.RoleWatch)
	if err != nil {
		return fmt.Errorf("broadcasts: %w", err)
	}
	if opts.user != "" && token == "" {
		return usagef("broadcasts: --user: Lichess lists a user's broadcasts only to a token with study:read: run `threefold login --for watch`")
	}
	client := lichess.NewClient(lichess.Options{BaseURL: cfg.Lichess.BaseURL, Token: token, Version: programVersion()})
	defer client.Close()
	q := lichess.BroadcastQuery{Top: opts.top, Search: opts.search, User: opts.user, Page: opts.page, Limit: opts.nb, Live: opts.live}
	if len(args) == 1 {
		q.TourID, err = listener.BroadcastTourID(ctx, client, args[0], listener.ParseOptions{LichessBase: cfg.Lichess.BaseURL})
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
