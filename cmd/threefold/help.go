package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/threefold-chess/threefold/internal/help"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/listener"
)

// The usage template of a language other than English says pflag's
// "(default X)" in that language.
func init() { cobra.AddTemplateFunc(help.DefaultsFunc, help.Defaults) }

// sayHelpIn makes --help of root speak the language of the command: its
// texts are set in the locale's language as the tree is built (for shell
// completion), and again in the command's language (--lang, THREEFOLD_LANG,
// the config file's lang, the locale) when help is printed.
func (env *environment) sayHelpIn(root *cobra.Command) {
	sayHelp(root, earlyLang("", ""))
	printHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		sayHelp(root, earlyLang(env.lang, env.configLang()))
		printHelp(c, args)
	})
}

// configLang is the lang key of the config file, "" when there is none
// or it cannot be read (help is printed all the same).
func (env *environment) configLang() string {
	if env.lang != "" || os.Getenv("THREEFOLD_LANG") != "" {
		return ""
	}
	v := viper.New()
	if file := env.configPath(); file == "" || readConfigFile(v, file) != nil {
		return ""
	}
	return v.GetString("lang")
}

// sayHelp sets the help of root and of every command under it (what they
// do, their flags, cobra's words around them) in language l, from the
// files of package help; a text missing in l is said in English.
func sayHelp(root *cobra.Command, l i18n.Lang) {
	load := func(command string) help.File {
		f, err := help.Load(string(l), command)
		if err != nil {
			f, _ = help.Load(help.English, command)
		}
		return f
	}
	vars := help.Vars{"config_file": defaultConfigFile(), "source_forms": listener.SourceForms,
		"game_source_forms": listener.GameSourceForms, "command": root.DisplayName()}
	if sources := load(help.Sources); l != i18n.English {
		vars["source_forms"], vars["game_source_forms"] = sources["source forms"], sources["game source forms"]
	}
	words := load(help.Cobra)
	if t, err := help.UsageTemplate((&cobra.Command{}).UsageTemplate(), string(l)); err == nil {
		root.SetUsageTemplate(t)
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		key := strings.ReplaceAll(strings.TrimPrefix(c.CommandPath(), root.Name()+" "), " ", "-")
		f := load(key)
		switch {
		case f != nil:
			c.Short, c.Long, c.Example = f.Say(help.Short, vars), f.Say(help.Long, vars), f.Say(help.Example, vars)
		case key == "help" || key == "completion":
			c.Short, c.Long = words.Say(key+" command short", vars), words.Say(key+" command long", vars)
		case c.HasParent() && c.Parent().Name() == "completion":
			f = words
			c.Short = words.Say("completion shell short", help.Vars{"shell": c.Name()})
			c.Long = words.Say("completion "+c.Name()+" long", vars)
		}
		c.LocalFlags().VisitAll(func(flag *pflag.Flag) {
			switch {
			case flag.Name == "help":
				flag.Usage = words.Say("help flag", help.Vars{"command": c.DisplayName()})
			case f != nil:
				flag.Usage = f.Say(help.Flag(flag.Name), vars)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
