package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/listener"
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

// userError is an error a user acts on (a missing token or scope, a file
// that is not there, a key the config does not know): its text is English,
// and exitCode says it in the user's language.
type userError struct {
	key  i18n.Key
	args []any
}

func (e userError) Error() string { return i18n.For(i18n.English).Sprintf(e.key, e.args...) }

// say makes the userError of message key.
func say(key i18n.Key, args ...any) error { return userError{key: key, args: args} }

// errorText is what the user reads of err: in English as it is; in another
// language, the error a user acts on that it carries (a userError, a
// missing file, a Lichess token error) said in that language, inside the
// context err wraps it in, said in that language too where it is one of
// i18n's contexts ("login: save the token: …"); any other error as it is.
func errorText(l i18n.Lang, err error) string {
	full := err.Error()
	if l == "" || l == i18n.English {
		return full
	}
	p := i18n.For(l)
	inner, said, ok := sayable(p, err)
	if !ok {
		return full
	}
	at := strings.LastIndex(full, inner)
	if at < 0 {
		return said
	}
	return contextIn(p, full[:at]) + said + contextIn(p, full[at+len(inner):])
}

// sayable finds in err's chain the error a user acts on, and gives its
// English text and its text in p's language.
func sayable(p *i18n.Printer, err error) (english, said string, ok bool) {
	var ue userError
	if errors.As(err, &ue) {
		return ue.Error(), p.Sprintf(ue.key, ue.args...), true
	}
	var np *listener.NoSuchPathError
	if errors.As(err, &np) {
		return np.Error(), p.Sprintf(i18n.ErrNoSuchPath, np.Path), true
	}
	var ae *lichess.AuthError
	if errors.As(err, &ae) {
		switch {
		case ae.Scope != "":
			return ae.Error(), p.Sprintf(i18n.ErrScope, ae.Op, ae.Scope, lichess.ScopeRole(ae.Scope), "https://lichess.org/account/oauth/token/create?scopes[]="+ae.Scope), true
		case ae.Status != 0 && ae.Message == "":
			return ae.Error(), p.Sprintf(i18n.ErrTokenRejected, ae.Op, strconv.Itoa(ae.Status)), true
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrNotExist) {
		return pe.Error(), p.Sprintf(i18n.ErrNoSuchFile, pe.Path), true
	}
	return "", "", false
}

// contextIn says the context around an error ("login: the new token does
// not work: ") in p's language: the whole of it if it is one of i18n's
// contexts, else each part between ": " that is; command names, flags and
// paths are kept as they are.
func contextIn(p *i18n.Printer, context string) string {
	if s, ok := p.Rephrase(context, i18n.ContextKeys...); ok {
		return s
	}
	parts := strings.Split(context, ": ")
	for i, part := range parts {
		parts[i], _ = p.Rephrase(part, i18n.ContextKeys...)
	}
	return strings.Join(parts, ": ")
}

// printer says messages in the language of the command: the config's once
// it is loaded, else --lang, THREEFOLD_LANG or the locale.
func (env *environment) printer() *i18n.Printer {
	return i18n.For(cmp.Or(env.sayLang, earlyLang(env.lang, "")))
}

func (env *environment) exitCode(err error) int {
	if err == nil {
		return env.code
	}
	fmt.Fprintf(env.stderr, "threefold: %s\n", errorText(cmp.Or(env.sayLang, earlyLang(env.lang, "")), err))
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
