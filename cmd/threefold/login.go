package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/lichess"
)

// openBrowser opens a URL in the user's browser. Tests replace it: no test
// ever launches a real browser.
var openBrowser = lichess.OpenInBrowser

// loginFlags are the flags login and logout share.
type loginFlags struct {
	tokenFile  string
	lichessURL string
}

func (f *loginFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.tokenFile, "token-file", "", "")
	cmd.Flags().StringVar(&f.lichessURL, "lichess-url", "", "")
}

// resolve returns the token file of the role and the Lichess URL to use.
func (f *loginFlags) resolve(env *environment, role string) (tokenFile, baseURL string, err error) {
	tokenFile = f.tokenFile
	if tokenFile == "" {
		if tokenFile, err = lichess.TokenFile(role); err != nil {
			return "", "", err
		}
	}
	baseURL = f.lichessURL
	if baseURL == "" {
		cfg, err := env.loadConfig()
		if err != nil {
			return "", "", err
		}
		baseURL = cfg.Lichess.BaseURL
	}
	if baseURL == "" {
		baseURL = lichess.DefaultBaseURL
	}
	return tokenFile, baseURL, nil
}

func newLoginCmd(env *environment) *cobra.Command {
	var flags loginFlags
	var mode string
	var noBrowser bool
	cmd := &cobra.Command{
		Use:  "login",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			scopes, ok := lichess.RoleScopes(mode)
			if !ok {
				return usagef("login: --for must be bot or watch, not %q", mode)
			}
			tokenFile, baseURL, err := flags.resolve(env, mode)
			if err != nil {
				return err
			}
			opener := openBrowser
			if noBrowser {
				opener = nil
			}
			acct, err := lichess.LoginToFile(cmd.Context(), lichess.LoginOptions{BaseURL: baseURL, Scopes: scopes, OpenBrowser: opener, Out: env.stdout, Lang: env.printer().Lang()}, tokenFile)
			if err != nil {
				return err
			}
			say := env.printer()
			fmt.Fprintln(env.stdout, say.Sprintf(i18n.LoginDone, safetext.Terminal(acct.Username), safetext.Terminal(strings.Join(scopes, " ")), tokenFile))
			if mode == lichess.RoleBot && !acct.IsBot() {
				fmt.Fprintln(env.stdout, say.Sprintf(i18n.LoginNotBot))
			}
			return nil
		},
	}
	flags.add(cmd)
	cmd.Flags().StringVar(&mode, "for", lichess.RoleBot, "")
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "")
	return cmd
}

func newLogoutCmd(env *environment) *cobra.Command {
	var flags loginFlags
	var mode string
	cmd := &cobra.Command{
		Use:  "logout",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, ok := lichess.RoleScopes(mode); !ok {
				return usagef("logout: --for must be bot or watch, not %q", mode)
			}
			tokenFile, baseURL, err := flags.resolve(env, mode)
			if err != nil {
				return err
			}
			known, err := lichess.RevokeTokenFile(cmd.Context(), lichess.Options{BaseURL: baseURL}, tokenFile)
			if errors.Is(err, lichess.ErrNoSavedToken) {
				return usagef("logout: no saved token in %s", tokenFile)
			}
			if !known && err == nil {
				fmt.Fprintln(env.stdout, env.printer().Sprintf(i18n.LogoutUnknown))
			}
			if err != nil {
				return fmt.Errorf("logout: %w", err)
			}
			fmt.Fprintln(env.stdout, env.printer().Sprintf(i18n.LogoutDone, tokenFile))
			return nil
		},
	}
	flags.add(cmd)
	cmd.Flags().StringVar(&mode, "for", lichess.RoleBot, "")
	return cmd
}
