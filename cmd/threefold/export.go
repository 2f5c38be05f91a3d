package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
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
	games, err := pgnexport.Select(ctx, st, args, f, listener.ParseOptions{LichessBase: cfg.Lichess.URL, ChessComBase: cfg.ChessCom.URL})
	var ambiguous *pgnexport.AmbiguousError
	if errors.As(err, &ambiguous) {
		return usageError{err}
	}
	if err != nil {
		return err
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
	failed := false
	err = pgnexport.WriteAll(w, games, func(me *pgnexport.MoveError) {
		failed = true
		fmt.Fprintln(env.stderr, env.printer().Sprintf(i18n.WarnExportPartial, me.Error()))
	})
	if err != nil {
		return err
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
