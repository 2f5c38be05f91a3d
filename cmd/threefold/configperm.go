package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/viper"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/store"
)

// warnConfigPermissions writes a warning to w when the config file at path
// sets a secret (a Lichess token, the dashboard token, a DSN with a
// password, a webhook URL) and its group or other users may read it. v is
// the config as read from that file (before the environment matters, a
// key counts only if the file sets it). The warning names the keys, never
// their values. Windows is skipped: its file modes say nothing of this.
func warnConfigPermissions(p *i18n.Printer, w io.Writer, path string, v *viper.Viper) {
	if runtime.GOOS == "windows" || path == "" || w == nil {
		return
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return
	}
	keys := configFileSecrets(v)
	if len(keys) == 0 {
		return
	}
	who := p.Sprintf(i18n.WhoGroup)
	switch {
	case fi.Mode().Perm()&0o007 != 0 && fi.Mode().Perm()&0o070 != 0:
		who = p.Sprintf(i18n.WhoGroupAndOthers)
	case fi.Mode().Perm()&0o007 != 0:
		who = p.Sprintf(i18n.WhoOthers)
	}
	fmt.Fprintln(w, p.Sprintf(i18n.WarnConfigSecrets, path, strings.Join(keys, ", "), who, fmt.Sprintf("%04o", fi.Mode().Perm())))
}

// configFileSecrets lists the keys with a secret that the config file
// sets: lichess.token, http.token, store.dsn when it carries a password,
// and watch.webhooks when one of them has a url.
func configFileSecrets(v *viper.Viper) []string {
	var keys []string
	for _, k := range []string{"lichess.token", "http.token"} {
		if v.InConfig(k) && strings.TrimSpace(v.GetString(k)) != "" {
			keys = append(keys, k)
		}
	}
	if v.InConfig("store.dsn") {
		if dsn := v.GetString("store.dsn"); dsn != "" && store.RedactDSN(dsn) != dsn {
			keys = append(keys, "store.dsn")
		}
	}
	if v.InConfig("watch.webhooks") {
		if hooks, ok := v.Get("watch.webhooks").([]any); ok {
			for _, h := range hooks {
				if m, ok := h.(map[string]any); ok {
					if u, _ := m["url"].(string); strings.TrimSpace(u) != "" {
						keys = append(keys, "watch.webhooks")
						break
					}
				}
			}
		}
	}
	return keys
}
