package threefold_test

import (
	"fmt"
	"maps"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/threefold-chess/threefold"

// layers is the dependency direction of ARCHITECTURE.md, package by
// package (paths below the module; "" is the root package). A package may
// import ours only from a lower layer: the layer above never reaches up,
// and packages of one layer never import each other (bot and listener;
// the clients lichess, chesscom and pgn). A new package gets its line
// here and in ARCHITECTURE.md.
var layers = map[string]int{
	// 0: the law and the small tools with no vocabulary of ours.
	"rules": 0, "clock": 0, "backoff": 0, "internal/safetext": 0, "internal/i18n": 0, "internal/configkeys": 0,
	"internal/help": 0, "internal/logconfig": 0, "internal/inflate": 0, "internal/zstframes": 0,
	// 1: the shared vocabulary, and the formats and clients of the outside
	// world, which speak only rules.
	"": 1, "pgn": 1, "lichess": 1, "chesscom": 1,
	// 2: built on one format or client: scan and explain on pgn, the engine
	// protocol, and the fakes of the outside world.
	"pgn/scan": 2, "explain": 2, "bot/uci": 2, "bot/book": 2,
	"lichess/fakelichess": 2, "chesscom/chesscomtest": 2, "listener/dgttest": 2, "bot/uci/ucitest": 2,
	// 3: the parts: sources and the watcher, the bot, the sinks, the store,
	// the dashboard.
	"listener": 3, "bot": 3, "notify": 3, "store": 3, "web": 3,
	// 4: what joins two parts: durable delivery (store, notify), export
	// (store, pgn; listener reads game URLs), the store's tables for people (store, i18n), the demo's
	// scenario and its props (bot, listener, the fake Lichess).
	"store/delivery": 4, "store/pgnexport": 4, "store/report": 4, "internal/demo": 4,
	// 5: group mode (listener, store, delivery).
	"group": 5,
	// 6: the binary, the only place that reads configuration and wires.
	"cmd/threefold": 6,
	// Test support: imported by tests only (testOnly).
	"internal/testenv": 0, "internal/testlog": 0, "internal/testmeasure": 0, "internal/testzstd": 0, "internal/randgame": 1, "internal/refgames": 1,
}

// testOnly says whether a package of ours is for tests only: a *test
// package (a fake with assertions for tests) or the test helpers of
// internal/. No package of the program may import one.
func testOnly(rel string) bool {
	base := path.Base(rel)
	return strings.HasSuffix(base, "test") || strings.HasPrefix(base, "test") ||
		rel == "internal/randgame" || rel == "internal/refgames"
}

// onlyInCmd are the libraries of configuration and the command line:
// DESIGN.md keeps them in cmd.
var onlyInCmd = []string{"github.com/spf13/viper", "github.com/spf13/cobra", "github.com/go-viper/mapstructure/v2"}

// layerProblems returns what breaks the layering in imports (package →
// its non-test imports, full paths).
func layerProblems(imports map[string][]string) []string {
	var out []string
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		rel, ours := relative(pkg)
		if !ours {
			continue
		}
		layer, known := layers[rel]
		if !known {
			out = append(out, fmt.Sprintf("%s: not in the layer table (layers_test.go, ARCHITECTURE.md)", pkg))
			continue
		}
		for _, imp := range imports[pkg] {
			if slices.Contains(onlyInCmd, imp) && rel != "cmd/threefold" {
				out = append(out, fmt.Sprintf("%s imports %s, which only cmd may", pkg, imp))
			}
			irel, iours := relative(imp)
			if !iours {
				if rel == "rules" && strings.Contains(strings.Split(imp, "/")[0], ".") {
					out = append(out, fmt.Sprintf("rules imports %s: only the standard library", imp))
				}
				continue
			}
			if testOnly(irel) && !testOnly(rel) {
				out = append(out, fmt.Sprintf("%s imports the test package %s", pkg, imp))
				continue
			}
			if il, ok := layers[irel]; ok && il >= layer {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): only lower layers", pkg, layer, imp, il))
			}
		}
	}
	return out
}

func relative(pkg string) (string, bool) {
	if pkg == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(pkg, module+"/")
	return rel, ok
}

// TestLayering holds every package of the module to the layer table: no
// import upward or sideways, rules on the standard library only, no test
// package in the program, viper and cobra in cmd only.
func TestLayering(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	if _, ok := imports[module+"/rules"]; !ok || len(imports) < 10 {
		t.Fatalf("go list saw %d packages, without rules: run from the module root", len(imports))
	}
	for _, p := range layerProblems(imports) {
		t.Error(p)
	}
}

// The checker finds each kind of break.
func TestLayerProblems(t *testing.T) {
	m := func(rel string) string {
		if rel == "" {
			return module
		}
		return module + "/" + rel
	}
	tests := []struct {
		name    string
		pkg     string
		imports []string
		want    string // a problem that contains this; "" for none
	}{
		{"downward", m("listener"), []string{m("lichess"), m("rules"), m(""), "fmt"}, ""},
		{"rules on a library", m("rules"), []string{"github.com/notnil/chess"}, "only the standard library"},
		{"rules on ours", m("rules"), []string{m("clock")}, "only lower layers"},
		{"listener and bot", m("listener"), []string{m("bot")}, "only lower layers"},
		{"a client on a client", m("lichess"), []string{m("pgn")}, "only lower layers"},
		{"vocabulary on a part", m(""), []string{m("store")}, "only lower layers"},
		{"the program on a test package", m("cmd/threefold"), []string{m("chesscom/chesscomtest")}, "test package"},
		{"a part on a test helper", m("store"), []string{m("internal/testenv")}, "test package"},
		{"a fake on a test helper", m("lichess/fakelichess"), []string{m("internal/testlog")}, "test package"},
		{"viper outside cmd", m("store"), []string{"github.com/spf13/viper"}, "only cmd"},
		{"viper in cmd", m("cmd/threefold"), []string{"github.com/spf13/viper", m("group")}, ""},
		{"a new package", m("newthing"), nil, "not in the layer table"},
		{"not ours", "example.com/x", []string{m("cmd/threefold")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := layerProblems(map[string][]string{tc.pkg: tc.imports})
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("problems %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("problems %q, want one with %q", got, tc.want)
			}
		})
	}
}
