// Command threefold follows chess games and applies the FIDE repetition rule exactly.
//
// It knows, exactly as the FIDE Laws define it, when a position has occurred
// for the third and for the fifth time. It is the only package that reads configuration, builds concrete
// types and wires them together; every subcommand lives in its own file.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal asks for a clean stop (the bot finishes or resigns
	// its games, scan writes its totals, stores flush); a second one ends
	// the process at once, as the signal's default does: a clean stop can
	// wait for ever on a read from a terminal or a pipe that sends nothing.
	context.AfterFunc(ctx, stop)
	code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Main runs threefold with the given arguments and streams and returns the
// process exit code. It never calls os.Exit, so end-to-end tests run it
// in-process.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &environment{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(env)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	return env.exitCode(err)
}
