package lichess

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
	"golang.org/x/oauth2"
)

// DefaultClientID is the OAuth client id threefold announces (Lichess needs
// no registration: any unique string will do).
const DefaultClientID = "threefold"

// LoginOptions configure Login.
type LoginOptions struct {
	BaseURL  string   // default DefaultBaseURL
	ClientID string   // default DefaultClientID
	Scopes   []string // e.g. ScopeBotPlay
	// HTTPClient is used for the code exchange (default: a fresh client).
	HTTPClient *http.Client
	// OpenBrowser opens the authorisation URL for the user; nil, or an
	// error, leaves the user to open the printed URL.
	OpenBrowser func(url string) error
	// Out receives the instructions for the user (default io.Discard).
	Out io.Writer
	// ListenAddr of the redirect listener (default 127.0.0.1:0).
	ListenAddr string
	// Lang is the language of the instructions and of the page the
	// browser shows at the end ("" is English).
	Lang i18n.Lang
}

// Login runs the OAuth2 authorisation-code flow with PKCE (S256): it
// listens on 127.0.0.1 for the redirect, sends the user to Lichess's
// /oauth page, waits for the code and exchanges it with the verifier at
// /api/token. It returns the access token (Lichess tokens last about a
// year and cannot be refreshed).
func Login(ctx context.Context, opts LoginOptions) (*oauth2.Token, error) {
	base := strings.TrimRight(opts.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	say := i18n.For(opts.Lang)
	addr := opts.ListenAddr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if u, err := url.Parse(base); err == nil && insecureBase(u) {
		fmt.Fprintln(out, say.Sprintf(i18n.LoginPlainHTTP, u.Scheme+"://"+u.Host))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("lichess: login: listen for the redirect: %w", err)
	}
	conf := &oauth2.Config{
		ClientID:    opts.ClientID,
		Endpoint:    oauth2.Endpoint{AuthURL: base + "/oauth", TokenURL: base + "/api/token", AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: "http://" + ln.Addr().String() + "/callback",
		Scopes:      opts.Scopes,
	}
	if conf.ClientID == "" {
		conf.ClientID = DefaultClientID
	}
	state, err := randomString()
	if err != nil {
		ln.Close()
		return nil, err
	}
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier))

	type result struct {
		code string
		err  error
	}
	results := make(chan result, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != state {
			// Not the answer to our request (another page, or someone
			// probing the port): refuse it and keep waiting for ours.
			http.Error(w, "this is not the answer threefold is waiting for (wrong state)", http.StatusBadRequest)
			return
		}
		var res result
		switch {
		case q.Get("error") != "":
			res.err = fmt.Errorf("lichess: login refused: %s %s", q.Get("error"), q.Get("error_description"))
		case q.Get("code") == "":
			res.err = errors.New("lichess: login: the redirect carries no code")
		default:
			res.code = q.Get("code")
		}
		if res.err != nil {
			http.Error(w, html.EscapeString(res.err.Error()), http.StatusBadRequest)
		} else {
			fmt.Fprintln(w, say.Sprintf(i18n.LoginBrowserDone))
		}
		select {
		case results <- res:
		default:
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ln)
	}()
	defer func() {
		_ = srv.Close()
		<-served
	}()

	fmt.Fprintln(out, say.Sprintf(i18n.LoginOpen, authURL, conf.RedirectURL))
	if opts.OpenBrowser != nil {
		if err := opts.OpenBrowser(authURL); err != nil {
			fmt.Fprintln(out, say.Sprintf(i18n.LoginNoBrowser, err.Error()))
		}
	}
	var res result
	select {
	case res = <-results:
	case <-ctx.Done():
		return nil, fmt.Errorf("lichess: login: %w", ctx.Err())
	}
	if res.err != nil {
		return nil, res.err
	}
	var hc *http.Client
	if opts.HTTPClient != nil {
		c := *opts.HTTPClient
		hc = &c
	} else {
		hc = &http.Client{Timeout: time.Minute}
		defer hc.CloseIdleConnections()
	}
	guardRedirects(hc) // the code and its verifier go to Lichess only
	tok, err := conf.Exchange(context.WithValue(ctx, oauth2.HTTPClient, hc), res.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("lichess: login: code exchange: %w", err)
	}
	return tok, nil
}

func randomString() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("lichess: login: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
