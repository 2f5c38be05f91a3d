package web

import (
	"embed"
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// The pages are plain HTML, CSS and JavaScript, embedded in the binary and
// served as one document each (no build step, no CDN, no other request:
// with a token in the URL, every request must carry it).
//
//go:embed assets
var assets embed.FS

// The pages in every language, built the first time a dashboard is made:
// every command links this package, and none but a dashboard needs them.
var (
	indexPage = sync.OnceValue(func() map[i18n.Lang][]byte { return buildPages("index.html", "index.js") })
	gamePage  = sync.OnceValue(func() map[i18n.Lang][]byte { return buildPages("game.html", "game.js") })
)

func asset(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic("web: missing embedded asset " + name) // a build mistake, caught by every test
	}
	return string(b)
}

// buildPages makes a page in every language: the style sheet and the
// scripts inlined, every {{key}} of the page replaced by its message, and
// the messages the script says (web.*, the sides, the list separator, the
// words of reasons, sources and site results) put in the page as JSON. A Persian page is right to left (dir="rtl").
func buildPages(page, script string) map[i18n.Lang][]byte {
	out := map[i18n.Lang][]byte{}
	for _, l := range i18n.Langs {
		out[l] = buildPage(l, page, script)
	}
	return out
}

var messageMarker = regexp.MustCompile(`\{\{([a-z_.]+)\}\}`)

func buildPage(l i18n.Lang, page, script string) []byte {
	p := i18n.For(l)
	said := i18n.Export(l, "web.", "color.", "list.sep", "reason.", "source.", "site.", "attn.", "move.")
	// The English texts the feed keeps (reasons, source names, site
	// results, why a game needs attention), for the script to read back
	// (TF.rephrase), as "en:" + key.
	for k, t := range i18n.Export(i18n.English, "reason.", "source.", "site.", "attn.", "move.") {
		said["en:"+k] = t
	}
	msgs, err := json.Marshal(said)
	if err != nil {
		panic("web: messages: " + err.Error()) // a build mistake, caught by every test
	}
	s := asset(page)
	s = strings.Replace(s, "/*STYLE*/", asset("style.css"), 1)
	// json.Marshal escapes <, > and &: the JSON cannot close its element.
	s = strings.Replace(s, "<script>/*SCRIPT*/</script>", `<script type="application/json" id="tf-messages">`+string(msgs)+"</script>\n"+
		"<script>"+asset("common.js")+"\n"+asset(script)+"</script>", 1)
	s = strings.Replace(s, "{{LANGPICKER}}", langPicker(p), 1)
	s = strings.ReplaceAll(s, "{{LANG}}", string(l))
	s = strings.ReplaceAll(s, "{{DIR}}", l.Dir())
	s = messageMarker.ReplaceAllStringFunc(s, func(m string) string {
		return html.EscapeString(p.Sprintf(i18n.Key(m[2 : len(m)-2])))
	})
	return []byte(s)
}

// langPicker is the page's language menu, each language in its own name.
func langPicker(p *i18n.Printer) string {
	var b strings.Builder
	b.WriteString(`<select id="lang" class="lang" aria-label="` + html.EscapeString(p.Sprintf(i18n.WebLanguage)) + `">`)
	for _, l := range i18n.Langs {
		b.WriteString(`<option value="` + string(l) + `" lang="` + string(l) + `"`)
		if l == p.Lang() {
			b.WriteString(" selected")
		}
		b.WriteString(">" + html.EscapeString(i18n.Names[l]) + "</option>")
	}
	b.WriteString("</select>")
	return b.String()
}

// langCookie keeps the language a viewer picked in the page.
const langCookie = "threefold_lang"

// pageLang is the language of a page for one request: the one the viewer
// picked in the page (a cookie), else the first of the four the browser's
// Accept-Language names, else the dashboard's own (lang of the config).
func pageLang(r *http.Request, def i18n.Lang) i18n.Lang {
	if c, err := r.Cookie(langCookie); err == nil {
		if l, ok := i18n.FromLocale(c.Value); ok {
			return l
		}
	}
	if h := r.Header.Get("Accept-Language"); h != "" {
		if l, ok := i18n.MatchAcceptLanguage(h); ok {
			return l
		}
	}
	if def == "" {
		return i18n.English
	}
	return def
}
