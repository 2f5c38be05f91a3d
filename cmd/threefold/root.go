package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit codes. They are part of the command-line contract (see README).
const (
	exitOK        = 0
	exitFailure   = 1 // the command could not do its job
	exitUsage     = 2 // bad flags, arguments or configuration
	exitSomeGames = 3 // scan: the command ran, but some games could not be read
)

// environment is what every subcommand gets: the process streams and the
// configuration loaded for this run.
type environment struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	configFile     string
	code           int // an exit code a command asks for without failing
}

// usageError marks errors caused by how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func (env *environment) exitCode(err error) int {
	if err == nil {
		return env.code
	}
	fmt.Fprintf(env.stderr, "threefold: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

func newRootCmd(env *environment) *cobra.Command {
	root := &cobra.Command{
		Use:   "threefold",
		Short: "Follow chess games and know exactly when a position repeats (FIDE 9.2, 9.6)",
		Long: `threefold follows chess games and knows, exactly as the FIDE Laws define it,
when the same position has appeared a third time (a draw may be claimed,
9.2) and a fifth time (the game is drawn, 9.6.1).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&env.configFile, "config", "", "config file (default: threefold.yaml in the user config directory, if present)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newVersionCmd(env),
		newScanCmd(env),
		newWatchCmd(env),
		newBotCmd(env),
		newDemoCmd(env),
		newLoginCmd(env), newLogoutCmd(env),
		newHistoryCmd(env),
		newExportCmd(env),
		newHealthcheckCmd(env),
		newStatusCmd(env),
	)
	return root
}
