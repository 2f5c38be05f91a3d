package main

import "github.com/spf13/cobra"

func newScanCmd(env *environment) *cobra.Command {
	return &cobra.Command{
		Use:   "scan FILE...",
		Short: "Report every repetition in the games of PGN files (plain, .gz or .zst; - for stdin)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("scan: not built yet")
		},
	}
}
