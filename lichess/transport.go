package lichess

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// ErrRedirectRefused is matched (errors.Is) by the error of a call that
// Lichess (or something posing as it) redirected to another host: the
// client never follows such a redirect, since the token travels with the
// request, in a header or in a body (POST /api/token/test).
var ErrRedirectRefused = errors.New("lichess: redirect to another host refused")

// guardRedirects makes hc refuse every redirect that leaves the origin
// (scheme and host) of the first request, and keeps at most 10 redirects
// otherwise. The standard library drops the Authorization header on a
// cross-host redirect but resends a 307/308 body to any host.
func guardRedirects(hc *http.Client) {
	prev := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if !strings.EqualFold(req.URL.Scheme, first.Scheme) || !strings.EqualFold(req.URL.Host, first.Host) {
			return fmt.Errorf("%w: from %s://%s to %s://%s", ErrRedirectRefused, first.Scheme, first.Host, req.URL.Scheme, req.URL.Host)
		}
		if prev != nil {
			return prev(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// isLocalHost reports whether host (without port) is this machine:
// localhost, a name under .localhost, or a loopback address.
func isLocalHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// insecureBase reports whether u is plain http to a host other than this
// machine: the token and every answer would cross the network unencrypted.
func insecureBase(u *url.URL) bool {
	return u != nil && strings.EqualFold(u.Scheme, "http") && !isLocalHost(u.Hostname())
}

// warnInsecure logs once that base is plain http to a remote host.
func warnInsecure(log *slog.Logger, u *url.URL) {
	if insecureBase(u) {
		log.Warn("lichess: lichess.url is plain http to a host other than this machine: the token and every answer travel unencrypted; use https",
			"url", u.Scheme+"://"+u.Host)
	}
}
