package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
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
	lang           string    // --lang, "" when not given
	sayLang        i18n.Lang // the language errors are printed in, once known
	code           int       // an exit code a command asks for without failing
}

// usageError marks errors caused by how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// printer says messages in the language of the command: the config's once
// it is loaded, else --lang, THREEFOLD_LANG or the locale.
func (env *environment) printer() *i18n.Printer {
	return i18n.For(cmp.Or(env.sayLang, earlyLang(env.lang, "")))
}

func (env *environment) exitCode(err error) int {
	if err == nil {
		return env.code
	}
	fmt.Fprintf(env.stderr, "threefold: %s\n", i18n.ErrorText(cmp.Or(env.sayLang, earlyLang(env.lang, "")), err))
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

func newRootCmd(env *environment) *cobra.Command {
	root := &cobra.Command{
		Use:           "threefold",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&env.configFile, "config", "", "")
	root.PersistentFlags().StringVar(&env.lang, "lang", "", "")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newVersionCmd(env),
		newScanCmd(env),
		newExplainCmd(env),
		newClaimCmd(env),
		newWatchCmd(env),
		newBotCmd(env),
		newDemoCmd(env),
		newLoginCmd(env), newLogoutCmd(env),
		newHistoryCmd(env),
		newExportCmd(env),
		newHealthcheckCmd(env),
		newStatusCmd(env),
		newBroadcastsCmd(env),
	)
	// An unknown command is bad usage (exit 2), like a bad flag: the root
	// takes no arguments of its own, and runs (prints its help) without.
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q", args[0])
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return usagef("%s (threefold --help lists the commands)", msg)
	}
	root.SuggestionsMinimumDistance = 2
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	argsAreUsage(root)
	env.sayHelpIn(root)
	return root
}

// argsAreUsage makes every argument check of c and its subcommands (a
// missing FILE, an extra argument) a usage error: exit 2.
func argsAreUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				var ue usageError
				if errors.As(err, &ue) {
					return err
				}
				return usageError{fmt.Errorf("%s: %w", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), err)}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		argsAreUsage(sub)
	}
}
