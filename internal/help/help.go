// Package help holds what threefold's --help says, in every language, as text files a translator edits.
//
// Each language has a folder (en, ru, tr, fa) with one file per command,
// named by the command's path without "threefold" ("watch.txt",
// "bot-challenge.txt"; "threefold.txt" for threefold itself), and
// cobra.txt, the words of the command-line library around them ("Usage:",
// "Flags:"), and sources.txt, the lists of the sources threefold reads
// (the placeholders {{source_forms}} and {{game_source_forms}}). A file is a list of sections: a line "[name]" opens one, and
// its text is every line up to the next such line, blank lines at its end
// left out:
//
//	[short]       the line in the list of commands
//	[long]        the text on top of the command's help
//	[example]     the examples (optional)
//	[flag NAME]   what --NAME does, one line
//
// A text may use placeholders, {{name}}, that the program fills in when it
// prints it (a file path, the list of sources threefold reads); they stay
// as they are in a translation. A section "[S, without NAME]" is said
// instead of [S] when the placeholder {{NAME}} of [S] has no value (the
// config file when the machine has no config directory).
package help

import (
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

//go:embed */*.txt
var files embed.FS

// English is the language the texts are written in first; every other
// language has the same files and sections.
const English = "en"

// Section names of a command's file.
const (
	Short   = "short"
	Long    = "long"
	Example = "example"
)

// Flag is the section name of what the flag --name does.
func Flag(name string) string { return "flag " + name }

// Cobra is the file of the command-line library's own words.
const Cobra = "cobra"

// Sources is the file of the lists of the sources threefold reads, [source
// forms] and [game source forms]: the program's own English lists
// (listener's), said in another language.
const Sources = "sources"

// Vars are the values of the placeholders, by name.
type Vars map[string]string

var (
	header      = regexp.MustCompile(`^\[([a-z][^\[\]]*)\]$`)
	placeholder = regexp.MustCompile(`\{\{([a-z_]+)\}\}`)
)

// File is one command's help (or cobra's words) in one language: its
// sections by name.
type File map[string]string

// Parse reads a help file.
func Parse(text string) (File, error) {
	f := File{}
	name := ""
	var lines []string
	flush := func() {
		if name != "" {
			f[name] = strings.TrimRight(strings.Join(lines, "\n"), "\n")
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if m := header.FindStringSubmatch(line); m != nil {
			flush()
			if _, dup := f[m[1]]; dup {
				return nil, fmt.Errorf("line %d: section [%s] again", i+1, m[1])
			}
			name, lines = m[1], nil
			continue
		}
		if name == "" {
			if strings.TrimSpace(line) != "" {
				return nil, fmt.Errorf("line %d: text before the first [section]", i+1)
			}
			continue
		}
		lines = append(lines, line)
	}
	flush()
	return f, nil
}

// Load reads the file of command (a command path without "threefold",
// words joined by "-"; Cobra for the library's words) in lang. A language
// or a command that has no file is an error.
func Load(lang, command string) (File, error) {
	b, err := files.ReadFile(lang + "/" + command + ".txt")
	if err != nil {
		return nil, fmt.Errorf("help of %s in %q: %w", command, lang, err)
	}
	f, err := Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("help of %s in %q: %w", command, lang, err)
	}
	return f, nil
}

// Say gives section name with its placeholders filled in from vars, or
// its variant "name, without P" when P has no value and the variant is
// there; "" when the file has no such section. A placeholder vars does not
// know is left as it is.
func (f File) Say(name string, vars Vars) string {
	text, ok := f[name]
	if !ok {
		return ""
	}
	for _, p := range Placeholders(text) {
		if alt, ok := f[name+", without "+p]; ok && vars[p] == "" {
			text = alt
			break
		}
	}
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := vars[m[2:len(m)-2]]; ok {
			return v
		}
		return m
	})
}

// Placeholders lists the names of the placeholders of text, sorted, each
// once.
func Placeholders(text string) []string {
	seen := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		seen[m[1]] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Langs lists the languages that have help, English first.
func Langs() []string {
	entries, _ := fs.ReadDir(files, ".")
	out := []string{English}
	for _, e := range entries {
		if e.IsDir() && e.Name() != English {
			out = append(out, e.Name())
		}
	}
	return out
}

// Commands lists the files of lang by the name Load takes, sorted.
func Commands(lang string) []string {
	entries, _ := fs.ReadDir(files, lang)
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".txt"); ok {
			out = append(out, name)
		}
	}
	return out
}
