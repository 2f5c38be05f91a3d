package main

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/threefold-chess/threefold/internal/help"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/listener"
)

// helpTree is the command tree with cobra's own commands (help,
// completion), which cobra adds when it runs.
func helpTree() *cobra.Command {
	root := newRootCmd(&environment{})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return root
}

// helpKey names c's help file and golden file: its path without
// "threefold", words joined by "-"; "threefold" for the root.
func helpKey(c *cobra.Command) string {
	if !c.HasParent() {
		return c.Name()
	}
	return strings.ReplaceAll(strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" "), " ", "-")
}

func eachCommand(c *cobra.Command, do func(*cobra.Command)) {
	do(c)
	for _, sub := range c.Commands() {
		eachCommand(sub, do)
	}
}

// TestHelpGolden: the English --help of every command, cobra's help and
// completion included, is byte for byte testdata/help/<command>.txt,
// which the program printed before its help texts moved to files (the
// config file's path and the number of workers, which depend on the
// machine, are $CONFIG and $WORKERS there). "threefold" alone and
// "threefold help watch" print the same.
func TestHelpGolden(t *testing.T) {
	isolateConfig(t)
	normal := strings.NewReplacer(defaultConfigFile(), "$CONFIG",
		"games analysed in parallel (default "+strconv.Itoa(runtime.GOMAXPROCS(0))+")", "games analysed in parallel (default $WORKERS)")
	seen := map[string]bool{}
	eachCommand(helpTree(), func(c *cobra.Command) {
		key := helpKey(c)
		seen[key+".txt"] = true
		args := append(strings.Fields(c.CommandPath())[1:], "--help")
		t.Run(key, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "help", key+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			runs := [][]string{args}
			switch key {
			case "threefold":
				runs = append(runs, nil)
			case "watch":
				runs = append(runs, []string{"help", "watch"})
			}
			for _, args := range runs {
				code, out, errs := runMain(t, args...)
				if code != 0 || errs != "" {
					t.Fatalf("threefold %q: exit %d, stderr %q", args, code, errs)
				}
				if got := normal.Replace(out); got != string(want) {
					t.Errorf("threefold %q printed\n%s\nwant\n%s", args, got, want)
				}
			}
		})
	})
	files, _ := os.ReadDir(filepath.Join("testdata", "help"))
	for _, f := range files {
		if !seen[f.Name()] {
			t.Errorf("testdata/help/%s: no such command", f.Name())
		}
	}
}

// TestEveryCommandHasItsHelp: every command of threefold has a help file,
// with a line, a text and each of its flags (English: the other languages
// have the sections of English, see package help), and every help file is
// of a command; in every language every command, cobra's help and
// completion included, has its line and text, not the English ones, and
// every flag its text.
func TestEveryCommandHasItsHelp(t *testing.T) {
	root := newRootCmd(&environment{})
	var commands []string
	eachCommand(root, func(c *cobra.Command) {
		key := helpKey(c)
		commands = append(commands, key)
		f, err := help.Load(help.English, key)
		if err != nil {
			t.Error(err)
			return
		}
		for _, s := range []string{help.Short, help.Long} {
			if f[s] == "" {
				t.Errorf("%s.txt: no [%s]", key, s)
			}
		}
		c.LocalFlags().VisitAll(func(flag *pflag.Flag) {
			if _, ok := f[help.Flag(flag.Name)]; !ok {
				t.Errorf("%s.txt: no [%s]", key, help.Flag(flag.Name))
			}
		})
		for name := range f {
			if flag, ok := strings.CutPrefix(name, "flag "); ok && c.LocalFlags().Lookup(strings.Split(flag, ",")[0]) == nil {
				t.Errorf("%s.txt: [%s], but %s has no --%s", key, name, c.CommandPath(), flag)
			}
		}
	})
	for _, file := range help.Commands(help.English) {
		if file != help.Cobra && file != help.Sources && !slices.Contains(commands, file) {
			t.Errorf("help file %s.txt: no such command", file)
		}
	}
	english := map[string]string{}
	for _, l := range i18n.Langs {
		root := helpTree()
		sayHelp(root, l)
		eachCommand(root, func(c *cobra.Command) {
			if c.Short == "" || c.Long == "" {
				t.Errorf("%s: %s has no line in the list of commands or no text", l, c.CommandPath())
			}
			if l == i18n.English {
				english[c.CommandPath()] = c.Short + c.Long
			} else if english[c.CommandPath()] == c.Short+c.Long {
				t.Errorf("%s: %s is said in English", l, c.CommandPath())
			}
			c.InitDefaultHelpFlag()
			c.LocalFlags().VisitAll(func(flag *pflag.Flag) {
				if flag.Usage == "" {
					t.Errorf("%s: %s --%s says nothing", l, c.CommandPath(), flag.Name)
				}
			})
		})
	}
}

// TestSourcesAreListenersInEnglish: the English lists of sources.txt,
// which translators translate, are listener's lists that --help and the
// errors show in English.
func TestSourcesAreListenersInEnglish(t *testing.T) {
	f, err := help.Load(help.English, help.Sources)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"source forms": listener.SourceForms, "game source forms": listener.GameSourceForms} {
		if f[name] != want {
			t.Errorf("en/sources.txt [%s] is\n%s\nlistener's list is\n%s", name, f[name], want)
		}
	}
}

// TestHelpSpeaksTheLanguage: --help is in the language of --lang,
// THREEFOLD_LANG, the config file's lang and the locale, in order: the
// command's text, the list of commands, the flags and cobra's words.
func TestHelpSpeaksTheLanguage(t *testing.T) {
	script := map[i18n.Lang]*unicode.RangeTable{i18n.Russian: unicode.Cyrillic, i18n.Persian: unicode.Arabic, i18n.Turkish: unicode.Latin}
	for _, l := range help.Langs()[1:] {
		l := i18n.Lang(l)
		for _, how := range []string{"--lang", "THREEFOLD_LANG", "config", "LC_ALL", "--lang over THREEFOLD_LANG"} {
			for _, command := range [][]string{nil, {"watch"}, {"bot", "challenge"}} {
				t.Run(string(l)+"/"+how+"/"+strings.Join(command, "-"), func(t *testing.T) {
					isolateConfig(t)
					args := append(slices.Clone(command), "--help")
					switch how {
					case "--lang":
						args = append(args, "--lang", string(l))
					case "THREEFOLD_LANG":
						t.Setenv("THREEFOLD_LANG", string(l))
					case "config":
						file := filepath.Join(t.TempDir(), "threefold.yaml")
						if err := os.WriteFile(file, []byte("lang: "+l+"\n"), 0o600); err != nil {
							t.Fatal(err)
						}
						args = append(args, "--config", file)
					case "LC_ALL":
						t.Setenv("LC_ALL", map[i18n.Lang]string{i18n.Russian: "ru_RU.UTF-8", i18n.Turkish: "tr_TR.UTF-8", i18n.Persian: "fa_IR.UTF-8"}[l])
					case "--lang over THREEFOLD_LANG":
						t.Setenv("THREEFOLD_LANG", "en")
						args = append(args, "--lang", string(l))
					}
					code, out, errs := runMain(t, args...)
					if code != 0 || errs != "" {
						t.Fatalf("threefold %q: exit %d, stderr %q", args, code, errs)
					}
					key := "threefold"
					if len(command) > 0 {
						key = strings.Join(command, "-")
					}
					said, _ := help.Load(string(l), key)
					en, _ := help.Load(help.English, key)
					words, _ := help.Load(string(l), help.Cobra)
					firstLine := func(s string) string { return strings.SplitN(s, "\n", 2)[0] }
					for _, want := range []string{firstLine(said[help.Long]), words["usage"], said[help.Flag("color")], said[help.Flag("once")]} {
						if !strings.Contains(out, want) {
							t.Errorf("no %q in\n%s", want, out)
						}
					}
					for _, english := range []string{firstLine(en[help.Long]), "Usage:", "Flags:", "help for", "(default"} {
						if strings.Contains(out, english) {
							t.Errorf("English %q in\n%s", english, out)
						}
					}
					if !strings.ContainsFunc(out, func(r rune) bool { return r > unicode.MaxASCII && unicode.Is(script[l], r) }) {
						t.Errorf("no letter of the language's script in\n%s", out)
					}
				})
			}
		}
	}
}
