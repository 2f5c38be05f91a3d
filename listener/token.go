package listener

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/threefold-chess/threefold/lichess"
)

// ScopeChecker checks that a Lichess token has scopes (lichess.Client).
type ScopeChecker interface {
	CheckScopes(ctx context.Context, required ...string) (*lichess.Account, error)
}

// CheckBroadcastToken checks, before anything is followed, the token of a
// watcher that follows Lichess broadcasts: every broadcast endpoint needs
// study:read, and a token without it is refused (403) on each of them. A
// missing scope or a token Lichess does not know is an error that says
// what to do; no token at all is allowed, with a warning, since Lichess
// still serves anonymous broadcast requests (heavily rate-limited, and
// announced to stop). A check that cannot be made (no network) is left to
// the streams, which retry. Without a broadcast among targets, nothing is
// checked.
func CheckBroadcastToken(ctx context.Context, c ScopeChecker, haveToken bool, targets []Target, log *slog.Logger) error {
	broadcasts := false
	for _, t := range targets {
		broadcasts = broadcasts || t.Kind == TargetLichessRound || t.Kind == TargetLichessTour
	}
	if !broadcasts {
		return nil
	}
	if !haveToken {
		log.Warn("following Lichess broadcasts without a token: Lichess rate-limits anonymous broadcast requests heavily and has announced they may stop working; run `threefold login --for watch` (scope study:read)")
		return nil
	}
	_, err := c.CheckScopes(ctx, lichess.ScopeStudyRead)
	var ae *lichess.AuthError
	switch {
	case errors.As(err, &ae):
		if ae.Scope == "" {
			return fmt.Errorf("%w; run `threefold login --for watch` for a token with study:read", err)
		}
		return err
	case err != nil && ctx.Err() == nil: // stopping: nothing to warn of
		log.Warn("cannot check the Lichess token's scopes now; going on", "err", err)
	}
	return nil
}
