package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/lichess"
)

// TestDockerfileVolumesAreUsed: every VOLUME of the image is where the
// program reads or writes something: the store's data_dir (/data) and the
// user config directory (/config: the default config file and the saved
// token).
func TestDockerfileVolumesAreUsed(t *testing.T) {
	text, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^ENV (\w+)=(\S+)`).FindAllStringSubmatch(string(text), -1) {
		env[m[1]] = m[2]
	}
	m := regexp.MustCompile(`(?m)^VOLUME \[(.*)\]`).FindStringSubmatch(string(text))
	if m == nil {
		t.Fatal("no VOLUME line")
	}
	t.Setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
	tokenFile, err := lichess.TokenFile(lichess.RoleBot)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{
		"data_dir (THREEFOLD_DATA_DIR)": env["THREEFOLD_DATA_DIR"],
		"the default config file":       defaultConfigFile(),
		"the token of threefold login":  tokenFile,
	}
	for _, v := range strings.Split(m[1], ",") {
		vol := strings.Trim(strings.TrimSpace(v), `"`)
		var what []string
		for name, path := range used {
			if path == vol || strings.HasPrefix(path, vol+"/") {
				what = append(what, name)
			}
		}
		if len(what) == 0 {
			t.Errorf("VOLUME %s: nothing reads or writes there (%v)", vol, used)
		}
	}
}
