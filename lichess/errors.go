package lichess

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// ErrNotFound is matched (errors.Is) by the error of any call Lichess
// answered with 404: no such game, challenge, round or user, or "Not your
// game".
var ErrNotFound = errors.New("lichess: not found")

// ErrTokenMissing is returned when a call needs a token and the client has
// none.
var ErrTokenMissing = errors.New("lichess: no token configured")

// ErrTokenMalformed is matched (errors.Is) when the token has a space, a
// control character or a non-ASCII character inside it, which no Lichess
// token has (a line break pasted into an environment variable, a
// non-breaking space copied from a web page): it is refused before any
// request, which it could not go into, or Lichess would refuse.
var ErrTokenMalformed = errors.New("lichess: the token has a character no Lichess token has")

// AuthError says that the token is missing, invalid, expired, revoked or
// lacks a scope. It never holds the token itself.
type AuthError struct {
	Op      string // what was being done, e.g. "stream events"
	Status  int    // HTTP status (401, 403), 0 when found by a token check
	Scope   string // the scope that is missing, "" if the token as a whole is bad
	Message string // Lichess's message or our explanation
}

// SayIn says a missing scope or a rejected token in p's language
// (i18n.Sayer); another refusal has Lichess's words only.
func (e *AuthError) SayIn(p *i18n.Printer) (string, bool) {
	switch {
	case e.Scope != "":
		return p.Sprintf(i18n.ErrScope, e.Op, e.Scope, ScopeRole(e.Scope), "https://lichess.org/account/oauth/token/create?scopes[]="+e.Scope), true
	case e.Status != 0 && e.Message == "":
		return p.Sprintf(i18n.ErrTokenRejected, e.Op, strconv.Itoa(e.Status)), true
	}
	return "", false
}

func (e *AuthError) Error() string {
	switch {
	case e.Scope != "":
		return fmt.Sprintf("lichess: %s: the token lacks the %q scope: run `threefold login --for %s`, or create a token with it at https://lichess.org/account/oauth/token/create?scopes[]=%s",
			e.Op, e.Scope, ScopeRole(e.Scope), e.Scope)
	case e.Status == 0:
		return fmt.Sprintf("lichess: %s: %s", e.Op, e.Message)
	case e.Message != "":
		return fmt.Sprintf("lichess: %s: token rejected (HTTP %d): %s", e.Op, e.Status, e.Message)
	default:
		return fmt.Sprintf("lichess: %s: token rejected (HTTP %d): invalid, expired or revoked", e.Op, e.Status)
	}
}

// RateLimitError is returned for a 429. The whole account is paused for
// Pause (at least a minute) before the next request is sent; the caller
// need not wait itself, the next call does.
type RateLimitError struct {
	Op      string
	Pause   time.Duration
	Key     string // the ratelimit key from the body, e.g. "bot.vsBot.day", if any
	Message string
}

func (e *RateLimitError) Error() string {
	s := fmt.Sprintf("lichess: %s: rate limited, account paused for %s", e.Op, e.Pause)
	if e.Key != "" {
		s += " (" + e.Key + ")"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// APIError is any other non-2xx answer. A 404 APIError matches ErrNotFound.
type APIError struct {
	Op      string
	Status  int
	Message string // the "error" field of the JSON body, or the body text
}

func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("lichess: %s: HTTP %d", e.Op, e.Status)
	}
	return fmt.Sprintf("lichess: %s: HTTP %d: %s", e.Op, e.Status, e.Message)
}

// Is makes a 404 match ErrNotFound.
func (e *APIError) Is(target error) bool { return target == ErrNotFound && e.Status == 404 }

// Temporary reports whether the request may succeed when sent again later
// (5xx).
func (e *APIError) Temporary() bool { return e.Status >= 500 }

// ScopeRole names the role whose token carries scope (`threefold login
// --for ROLE`): RoleWatch for study:read (broadcasts), RoleBot otherwise.
func ScopeRole(scope string) string {
	if scope == ScopeStudyRead {
		return RoleWatch
	}
	return RoleBot
}

// missingScope reads the scope a 403 names ("Missing scope: study:read",
// or the X-Accepted-OAuth-Scopes header), "" if none.
func missingScope(msg, accepted string) string {
	if rest, ok := strings.CutPrefix(msg, "Missing scope: "); ok {
		accepted = rest
	}
	first, _, _ := strings.Cut(accepted, ",")
	first, _, _ = strings.Cut(first, " or ")
	return strings.TrimSpace(first)
}
