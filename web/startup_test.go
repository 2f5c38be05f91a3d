package web

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestStartupBuildsNoPage: every threefold command links this package, so
// its start-up is every command's (threefold version, scan, the container's
// health check every 30 s). The dashboard's pages, in every language, are
// built when a dashboard is made, not when the program starts: the test
// binary is run again with GODEBUG=inittrace=1 and this package's init
// must allocate little (it allocated 4.3 MB, the eight pages).
func TestStartupBuildsNoPage(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	m := regexp.MustCompile(`(?m)^init github\.com/threefold-chess/threefold/web @.*, (\d+) bytes, \d+ allocs$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no init line for package web in:\n%s", out)
	}
	const most = 256 << 10
	if n, _ := strconv.Atoi(string(m[1])); n > most {
		t.Errorf("package web's init allocates %d bytes, want at most %d: is something built at start that only a dashboard needs?", n, most)
	}
}
