package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBadUsageExitsTwo: every way of calling threefold wrongly — a missing
// or extra argument, an unknown command or flag — exits 2 with a message
// that says what was wrong, as the README and --help promise.
func TestBadUsageExitsTwo(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"scan without a file", []string{"scan"}, "scan: which games? give one or more PGN files (- for stdin)"},
		{"unknown command", []string{"nosuchcmd"}, `unknown command "nosuchcmd" (threefold --help lists the commands)`},
		{"misspelt command", []string{"scna"}, "did you mean scan?"},
		{"unknown flag", []string{"scan", "--nosuchflag", "x.pgn"}, "unknown flag: --nosuchflag"},
		{"version with an argument", []string{"version", "extra"}, "threefold: version: "},
		{"history with an argument", []string{"history", "extra"}, "threefold: history: "},
		{"status with an argument", []string{"status", "extra"}, "threefold: status: "},
		{"healthcheck with an argument", []string{"healthcheck", "extra"}, "threefold: healthcheck: "},
		{"bot with an argument", []string{"bot", "extra"}, "threefold: bot: "},
		{"bot upgrade with an argument", []string{"bot", "upgrade", "extra"}, "threefold: bot upgrade: "},
		{"login with an argument", []string{"login", "extra"}, "threefold: login: "},
		{"logout with an argument", []string{"logout", "extra"}, "threefold: logout: "},
		{"demo with an argument", []string{"demo", "extra"}, "demo takes no arguments"},
		{"scan with a config file that does not exist", []string{"scan", "--config", "/no/such/threefold.yaml", "testdata/knights.pgn"}, "config /no/such/threefold.yaml"},
		{"scan with an unknown key in its config file", []string{"scan", "--config", "testdata/typo.yaml", "testdata/knights.pgn"}, "watch.sorces"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(context.Background(), tc.args, strings.NewReader(""), &out, &errb)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr %s", code, exitUsage, errb.String())
			}
			if !strings.Contains(errb.String(), tc.want) {
				t.Errorf("stderr %q, want it to say %q", errb.String(), tc.want)
			}
		})
	}
}

// TestNoCommandPrintsHelp: threefold alone prints its help and succeeds.
func TestNoCommandPrintsHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), nil, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("exit %d; stderr %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Available Commands:") {
		t.Errorf("stdout %q is not the help", out.String())
	}
}

// TestHelpTellsTheTruth: --help says what the commands do, as the README
// does: the exit codes, the default config file, a description of every
// command.
func TestHelpTellsTheTruth(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		wants []string
	}{
		{[]string{"--help"}, []string{"config file (default " + defaultConfigFile() + ", read when it exists)"}},
		{[]string{"scan", "--help"}, []string{"0 when every game was read", "3 when some game", "2 for bad usage", "1 when the\nscan itself failed", "numbered from 1"}},
		{[]string{"healthcheck", "--help"}, []string{"exits 0 when", "1 otherwise", "2 when there is nothing to ask"}},
		{[]string{"logout", "--help"}, []string{"revokes at Lichess", "deletes the\nfile", "Exit status"}},
		{[]string{"version", "--help"}, []string{"the Go release it was built with", `"devel"`}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runMain(t, tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, want := range tc.wants {
				if !strings.Contains(out, want) {
					t.Errorf("the help lacks %q:\n%s", want, out)
				}
			}
		})
	}
	// Every command says more than its one line.
	for _, c := range newRootCmd(&environment{}).Commands() {
		if c.Long == "" && !c.Hidden && c.Name() != "help" && c.Name() != "completion" {
			t.Errorf("threefold %s --help has only its one-line summary", c.Name())
		}
	}
}

// TestHealthcheckWithoutDashboardExitsTwo: as its help says.
func TestHealthcheckWithoutDashboardExitsTwo(t *testing.T) {
	isolateConfig(t)
	if code, _, errs := runMain(t, "healthcheck"); code != exitUsage || !strings.Contains(errs, "http.addr is not set") {
		t.Errorf("exit %d, stderr %q; want 2 saying http.addr is not set", code, errs)
	}
}
