package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
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
		Use: "export [GAME...]",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd.Context(), env, args, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.source, "source", "", "")
	f.StringVar(&opts.event, "event", "", "")
	f.StringVar(&opts.player, "player", "", "")
	f.StringVar(&opts.since, "since", "", "")
	f.BoolVar(&opts.all, "all", false, "")
	f.StringVarP(&opts.output, "output", "o", "", "")
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
	games, err := pgnexport.Select(ctx, st, args, f, cfg.parseOptions())
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
