package web

import (
	"embed"
	"strings"
)

// The pages are plain HTML, CSS and JavaScript, embedded in the binary and
// served as one document each (no build step, no CDN, no other request:
// with a token in the URL, every request must carry it).
//
//go:embed assets
var assets embed.FS

var (
	indexPage = buildPage("index.html", "index.js")
	gamePage  = buildPage("game.html", "game.js")
)

func asset(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic("web: missing embedded asset " + name) // a build mistake, caught by every test
	}
	return string(b)
}

// buildPage inlines the style sheet and the scripts into a page.
func buildPage(html, script string) []byte {
	page := asset(html)
	page = strings.Replace(page, "/*STYLE*/", asset("style.css"), 1)
	page = strings.Replace(page, "/*SCRIPT*/", asset("common.js")+"\n"+asset(script), 1)
	return []byte(page)
}
