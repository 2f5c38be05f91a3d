package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// TestPageLanguage: the page's language is the one the viewer picked
// (the cookie), else the first of ours the browser's Accept-Language
// names, else the dashboard's own.
func TestPageLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, cookie, accept string
		def                  i18n.Lang
		want                 string
	}{
		{name: "nothing: English", want: `<html lang="en" dir="ltr">`},
		{name: "Accept-Language", accept: "ru-RU,ru;q=0.9,en;q=0.8", want: `<html lang="ru" dir="ltr">`},
		{name: "Persian is right to left", accept: "fa", want: `<html lang="fa" dir="rtl">`},
		{name: "none of ours: the dashboard's own", accept: "de-DE", def: i18n.Turkish, want: `<html lang="tr" dir="ltr">`},
		{name: "ours over the dashboard's own", accept: "de-DE,fa;q=0.5", def: i18n.Turkish, want: `<html lang="fa" dir="rtl">`},
		{name: "the viewer's pick over the browser", cookie: "ru", accept: "fa", want: `<html lang="ru" dir="ltr">`},
		{name: "a bad cookie is ignored", cookie: "xx", accept: "tr", want: `<html lang="tr" dir="ltr">`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Options{Addr: "127.0.0.1:0", Hub: NewHub(HubOptions{}), Lang: tc.def})
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{"/", "/game?key=x"} {
				r := httptest.NewRequest(http.MethodGet, path, nil)
				r.Host = "127.0.0.1"
				if tc.accept != "" {
					r.Header.Set("Accept-Language", tc.accept)
				}
				if tc.cookie != "" {
					r.AddCookie(&http.Cookie{Name: langCookie, Value: tc.cookie})
				}
				w := httptest.NewRecorder()
				s.ServeHTTP(w, r)
				body, _ := io.ReadAll(w.Result().Body)
				if !strings.Contains(string(body), tc.want) {
					t.Errorf("%s: no %s in the page", path, tc.want)
				}
				if v := w.Result().Header.Get("Vary"); !strings.Contains(v, "Accept-Language") || !strings.Contains(v, "Cookie") {
					t.Errorf("%s: Vary %q must name Accept-Language and Cookie", path, v)
				}
			}
		})
	}
}

// TestPagesHaveEveryMessage: every {{key}} of the pages and every
// T('key') of their scripts is a message of every language.
func TestPagesHaveEveryMessage(t *testing.T) {
	scriptKey := regexp.MustCompile(`T\('([a-z_.]+)'`)
	var keys []string
	for _, name := range []string{"common.js", "index.js", "game.js"} {
		for _, m := range scriptKey.FindAllStringSubmatch(asset(name), -1) {
			keys = append(keys, m[1])
		}
	}
	if len(keys) < 30 {
		t.Fatalf("found %d message keys in the scripts: the pattern is wrong", len(keys))
	}
	for _, l := range i18n.Langs {
		msgs := i18n.Export(l, "web.", "color.", "list.sep")
		for _, k := range keys {
			if _, ok := msgs[k]; !ok && !strings.HasSuffix(k, ".") {
				t.Errorf("%s: the scripts say %s, which is no message", l, k)
			}
		}
		for _, page := range []map[i18n.Lang][]byte{indexPage(), gamePage()} {
			if s := string(page[l]); strings.Contains(s, "{{") || regexp.MustCompile(`>[^<]*\bweb\.[a-z_]+`).MatchString(strings.Split(s, `id="tf-messages">`)[0]) {
				t.Errorf("%s: a page keeps a key instead of its message", l)
			}
		}
	}
}
