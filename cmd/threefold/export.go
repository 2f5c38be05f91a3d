package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/pgnexport"
)

type exportOptions struct {
	source, event, player, since string
	all                          bool
	output                       string
}

func newExportCmd(env *environment) *cobra.Command {
	var opts exportOptions
	cmd := &cobra.Command{
		Use:   "export [GAME...]",
		Short: "Write stored games as PGN annotated with the proof of every repetition",
		Long: `export writes stored games as PGN. Each occurrence of a position that repeats
is commented with its number and the plies of every occurrence so far, who may
claim at the third (FIDE 9.2.2), the draw at the fifth (9.6.1); a position
where a player may claim by declaring a move says which move (9.2.1); the 50-
and 75-move rules are marked where they start to apply. The comments come from
replaying the game with the rules, so they hold for any stored game. Any PGN
viewer shows them.

GAME is a game's id (abcdefgh), site/id (lichess/abcdefgh) or URL
(https://lichess.org/abcdefgh). Without GAME, --source, --event or --player
(or --all) selects the games, oldest update first.

Exit status: 0 when every game was written, 3 when some game's moves could
not all be replayed (written up to there, with a comment, and reported), 2 for
bad usage.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd.Context(), env, args, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.source, "source", "", "every game of a site, or of sources whose name contains this")
	f.StringVar(&opts.event, "event", "", "every game of events whose name contains this")
	f.StringVar(&opts.player, "player", "", "every game of a player (either side, any case)")
	f.StringVar(&opts.since, "since", "", "only games updated since: a duration back from now (2h, 3d) or a date/time")
	f.BoolVar(&opts.all, "all", false, "every stored game")
	f.StringVarP(&opts.output, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func runExport(ctx context.Context, env *environment, args []string, opts exportOptions) error {
	filtered := opts.source != "" || opts.event != "" || opts.player != "" || opts.since != ""
	switch {
	case len(args) > 0 && (filtered || opts.all):
		return usagef("export: give games, or --source/--event/--player/--since/--all, not both")
	case len(args) == 0 && !filtered && !opts.all:
		return usagef("export: which games? give GAME (an id, site/id or URL), --source, --event, --player or --all")
	}
	var f store.GameFilter
	if filtered {
		since, err := parseSince(opts.since, histNow())
		if err != nil {
			return err
		}
		f = store.GameFilter{Source: opts.source, Event: opts.event, Player: opts.player, Since: since}
	}
	cfg, st, err := env.openStoreToRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()

	var games []store.Game
	if len(args) > 0 {
		for _, a := range args {
			g, err := findGame(ctx, st, a, listener.ParseOptions{LichessBase: cfg.Lichess.URL, ChessComBase: cfg.ChessCom.URL})
			if err != nil {
				return err
			}
			games = append(games, g)
		}
	} else {
		if games, err = st.Games(ctx, f); err != nil {
			return err
		}
		if len(games) == 0 {
			return errors.New("export: no stored game matches")
		}
		// Oldest first: an event reads in the order it was played.
		sort.SliceStable(games, func(i, j int) bool { return games[i].UpdatedAt.Before(games[j].UpdatedAt) })
	}

	var w io.Writer = env.stdout
	var file *os.File
	if opts.output != "" && opts.output != "-" {
		if file, err = os.Create(opts.output); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer file.Close()
		w = file
	}
	bw := bufio.NewWriter(w)
	failed := false
	for _, g := range games {
		err := pgnexport.Write(bw, g)
		var me *pgnexport.MoveError
		switch {
		case errors.As(err, &me):
			failed = true
			fmt.Fprintf(env.stderr, "threefold: %v (written up to the move before)\n", me)
		case err != nil:
			return fmt.Errorf("export: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if file != nil {
		if err := file.Close(); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	if failed {
		env.code = exitSomeGames
	}
	return nil
}

// findGame looks a game up by id, site/id or URL (any form of a Lichess
// game URL that watch understands, too).
func findGame(ctx context.Context, st *store.Store, arg string, popts listener.ParseOptions) (store.Game, error) {
	var tries []store.GameFilter
	if strings.Contains(arg, "://") {
		tries = append(tries, store.GameFilter{URL: arg})
		if u, err := url.Parse(arg); err == nil {
			u.Fragment, u.RawQuery = "", ""
			bare := u.String()
			tries = append(tries, store.GameFilter{URL: bare})
			// A Lichess game URL may name a side: /abcdefgh/white.
			parts := strings.Split(strings.Trim(u.Path, "/"), "/")
			if n := len(parts); n >= 2 && (parts[n-1] == "white" || parts[n-1] == "black") {
				u.Path = "/" + strings.Join(parts[:n-1], "/")
				tries = append(tries, store.GameFilter{URL: u.String()})
			}
		}
	} else {
		tries = append(tries, store.GameFilter{ID: arg})
		if site, id, ok := strings.Cut(arg, "/"); ok {
			tries = append(tries, store.GameFilter{Site: site, ID: id})
		}
	}
	if t, err := listener.ParseTarget(arg, popts); err == nil && t.Kind == listener.TargetLichessGame {
		tries = append(tries, store.GameFilter{Site: "lichess", ID: t.ID})
	}
	for _, f := range tries {
		gs, err := st.Games(ctx, f)
		if err != nil {
			return store.Game{}, err
		}
		switch len(gs) {
		case 0:
			continue
		case 1:
			return gs[0], nil
		default:
			var names []string
			for _, g := range gs {
				names = append(names, g.Game.Site+"/"+g.Game.ID)
			}
			return store.Game{}, usagef("export: %q names %d games: %s; give site/id", arg, len(gs), strings.Join(names, ", "))
		}
	}
	return store.Game{}, fmt.Errorf("export: no stored game %q (threefold history --games lists them)", arg)
}
