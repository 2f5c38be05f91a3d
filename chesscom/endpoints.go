package chesscom

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// Every method takes the context first and returns the decoded value, the
// Meta of the response it came from (Meta.NotModified for a 304, in which
// case the value is the one decoded before), and an error: ErrNotFound for
// a 404, a *GoneError for a 410 (errors.Is(err, ErrGone)), a
// *RateLimitError, a *StatusError, a *DecodeError or a network error.
// A value returned for a 304 shares its slices and maps with the one
// returned before: treat returned values as read-only.
// Methods named after an id build the URL; methods taking a ref accept an
// API URL as found in payloads (https://api.chess.com/pub/...), a URL on the
// configured base, or a "/pub/..." path.

func esc(s string) string { return url.PathEscape(strings.TrimSpace(s)) }

// PlayerGames returns a player's current daily games (/pub/player/{u}/games).
// Live games are not there; white and black come as profile URLs, turned
// into usernames here.
func (c *Client) PlayerGames(ctx context.Context, username string) ([]Game, Meta, error) {
	return c.Games(ctx, "/pub/player/"+esc(strings.ToLower(username))+"/games")
}

// Games reads any {"games":[...]} resource: a player's current games or a
// monthly archive URL.
func (c *Client) Games(ctx context.Context, ref string) ([]Game, Meta, error) {
	return fetch(ctx, c, ref, DecodeGames)
}

// PlayerArchives returns the URLs of a player's monthly archives, oldest
// first (/pub/player/{u}/games/archives).
func (c *Client) PlayerArchives(ctx context.Context, username string) ([]string, Meta, error) {
	return fetch(ctx, c, "/pub/player/"+esc(strings.ToLower(username))+"/games/archives", DecodeArchives)
}

// MonthGames returns a player's finished games of one month
// (/pub/player/{u}/games/{YYYY}/{MM}), live and daily.
func (c *Client) MonthGames(ctx context.Context, username string, year, month int) ([]Game, Meta, error) {
	if month < 1 || month > 12 || year < 1000 || year > 9999 {
		return nil, Meta{}, fmt.Errorf("chesscom: month games: bad month %04d/%02d", year, month)
	}
	return c.Games(ctx, fmt.Sprintf("/pub/player/%s/games/%04d/%02d", esc(strings.ToLower(username)), year, month))
}

// ClubMatches returns a club's team matches (/pub/club/{id}/matches); id is
// the club's web slug.
func (c *Client) ClubMatches(ctx context.Context, clubID string) (ClubMatches, Meta, error) {
	return fetch(ctx, c, "/pub/club/"+esc(clubID)+"/matches", DecodeClubMatches)
}

// MatchURL returns the API URL of a team match on the client's base.
func (c *Client) MatchURL(id string, live bool) string {
	if live {
		return c.base + "/pub/match/live/" + esc(id)
	}
	return c.base + "/pub/match/" + esc(id)
}

// Match returns a team match; ref is its API URL (see MatchURL).
func (c *Client) Match(ctx context.Context, ref string) (Match, Meta, error) {
	return fetch(ctx, c, ref, DecodeMatch)
}

// MatchBoard returns one board of a team match with its one or two games;
// ref is the board's API URL (/pub/match/{id}/{board}).
func (c *Client) MatchBoard(ctx context.Context, ref string) (MatchBoard, Meta, error) {
	return fetch(ctx, c, ref, DecodeMatchBoard)
}

// Tournament returns a tournament (/pub/tournament/{id}); id is its web slug.
func (c *Client) Tournament(ctx context.Context, id string) (Tournament, Meta, error) {
	return fetch(ctx, c, "/pub/tournament/"+esc(id), DecodeTournament)
}

// TournamentRound returns a round; ref is its API URL as listed in
// Tournament.Rounds (/pub/tournament/{id}/{round}).
func (c *Client) TournamentRound(ctx context.Context, ref string) (TournamentRound, Meta, error) {
	return fetch(ctx, c, ref, DecodeTournamentRound)
}

// TournamentGroup returns a round group with every game's current PGN; ref
// is its API URL as listed in TournamentRound.Groups
// (/pub/tournament/{id}/{round}/{group}).
func (c *Client) TournamentGroup(ctx context.Context, ref string) (TournamentGroup, Meta, error) {
	return fetch(ctx, c, ref, DecodeTournamentGroup)
}
