package chesscom

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Kind is what a Target follows.
type Kind string

// The kinds of target.
const (
	KindPlayer     Kind = "player"     // a player's current daily games
	KindClub       Kind = "club"       // a club's in-progress team matches, every board
	KindMatch      Kind = "match"      // one team match (daily, or live when Target.Live), every board
	KindTournament Kind = "tournament" // a tournament's round groups (or one round, or one group): daily, live or arena
)

// Target is something to follow on chess.com, as ParseTarget reads it.
type Target struct {
	Kind Kind
	// ID: the username (lower case) for a player, the club's slug, the
	// match's number, the tournament's slug.
	ID string
	// Live: a live (not daily) team match or tournament.
	Live bool
	// Arena: a live arena tournament (Live is set too).
	Arena bool
	// AfterTheGame (player targets): also report the player's finished
	// live games, from the monthly archive, after they ended. Not part of
	// the target's identity (String).
	AfterTheGame bool
	// Board narrows a match to one board (from a /pub/match/{id}/{board} URL).
	Board string
	// Round and Group narrow a tournament (from /pub/tournament/{id}/{r}[/{g}] URLs).
	Round, Group string
}

// String returns the short form, which ParseTarget reads back:
// chesscom:player:NAME, chesscom:club:SLUG, chesscom:match:ID,
// chesscom:match:live/ID, chesscom:tournament:SLUG (with /ROUND[/GROUP]).
func (t Target) String() string {
	switch t.Kind {
	case KindMatch:
		id := t.ID
		if t.Live {
			id = "live/" + id
		}
		if t.Board != "" {
			id += "/" + t.Board
		}
		return "chesscom:match:" + id
	case KindTournament:
		id := t.ID
		switch {
		case t.Arena:
			id = "live/arena/" + id
		case t.Live:
			id = "live/" + id
		}
		if t.Round != "" {
			id += "/" + t.Round
			if t.Group != "" {
				id += "/" + t.Group
			}
		}
		return "chesscom:tournament:" + id
	}
	return "chesscom:" + string(t.Kind) + ":" + t.ID
}

// Path returns the PubAPI path the poller starts from.
func (t Target) Path() string {
	switch t.Kind {
	case KindPlayer:
		return "/pub/player/" + esc(t.ID) + "/games"
	case KindClub:
		return "/pub/club/" + esc(t.ID) + "/matches"
	case KindMatch:
		p := "/pub/match/"
		if t.Live {
			p += "live/"
		}
		p += esc(t.ID)
		if t.Board != "" {
			p += "/" + esc(t.Board)
		}
		return p
	case KindTournament:
		p := "/pub/tournament/" + esc(t.ID)
		if t.Round != "" {
			p += "/" + esc(t.Round)
			if t.Group != "" {
				p += "/" + esc(t.Group)
			}
		}
		return p
	}
	return ""
}

// WebURL returns the chess.com page of the target, for people.
func (t Target) WebURL() string {
	switch t.Kind {
	case KindPlayer:
		return "https://www.chess.com/member/" + esc(t.ID)
	case KindClub:
		return "https://www.chess.com/club/" + esc(t.ID)
	case KindMatch:
		if t.Live {
			return "https://www.chess.com/club/matches/live/" + esc(t.ID)
		}
		return "https://www.chess.com/club/matches/" + esc(t.ID)
	case KindTournament:
		switch {
		case t.Arena:
			return "https://www.chess.com/tournament/live/arena/" + esc(t.ID)
		case t.Live:
			return "https://www.chess.com/tournament/live/" + esc(t.ID)
		}
		return "https://www.chess.com/tournament/" + esc(t.ID)
	}
	return ""
}

// AcceptedForms lists what ParseTarget understands, one form a line, for
// help texts and error messages.
const AcceptedForms = `  https://www.chess.com/member/NAME             a player's daily games (also /games/archive/NAME)
  https://www.chess.com/club/SLUG               a club's in-progress team matches
  https://www.chess.com/club/matches/ID         a daily team match (also /club/matches/SLUG/ID)
  https://www.chess.com/club/matches/live/ID    a live team match
  https://www.chess.com/tournament/SLUG         a tournament (also /tournament/live/SLUG, /tournament/live/arena/SLUG)
  https://api.chess.com/pub/player/NAME[/games], /pub/club/SLUG[/matches], /pub/match/[live/]ID[/BOARD],
  /pub/tournament/SLUG[/ROUND[/GROUP]]          the same, as PubAPI URLs
  the same paths on the configured chesscom base URL
  chesscom:player:NAME, chesscom:club:SLUG, chesscom:match:ID, chesscom:match:live/ID, chesscom:tournament:SLUG
  (chesscom:tournament:live/SLUG, chesscom:tournament:live/arena/SLUG)`

// ErrUnknownTarget is wrapped by every ParseTarget error.
var ErrUnknownTarget = errors.New("not a chess.com source")

func targetErr(s, why string) error {
	return fmt.Errorf("chesscom: %q: %w: %s; accepted forms:\n%s", s, ErrUnknownTarget, why, AcceptedForms)
}

// ParseTarget reads what a user would paste: a chess.com web URL, a PubAPI
// URL, the same paths on base (the configured PubAPI base URL, "" for none),
// or a chesscom:KIND:ID short form. See AcceptedForms.
func ParseTarget(s, base string) (Target, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return Target{}, targetErr(s, "empty")
	}
	if rest, ok := cutPrefixFold(in, "chesscom:"); ok {
		return parseShort(s, rest)
	}
	// A URL on the configured base: the path after the base's prefix.
	if base = strings.TrimRight(strings.TrimSpace(base), "/"); base != "" {
		if bu, err := url.Parse(base); err == nil && bu.Host != "" {
			if u, err := url.Parse(in); err == nil && strings.EqualFold(u.Host, bu.Host) && (u.Scheme == bu.Scheme || u.Scheme == "") {
				prefix := strings.TrimRight(bu.Path, "/")
				if p, ok := strings.CutPrefix(u.Path, prefix); ok && (p == "" || strings.HasPrefix(p, "/")) {
					return parsePath(s, p)
				}
			}
		}
	}
	raw := in
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return Target{}, targetErr(s, "not a URL")
	}
	host := strings.ToLower(u.Hostname())
	switch host {
	case "chess.com", "www.chess.com", "api.chess.com", "m.chess.com":
	default:
		return Target{}, targetErr(s, "not a chess.com address")
	}
	return parsePath(s, u.Path)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func parseShort(s, rest string) (Target, error) {
	kind, id, ok := strings.Cut(rest, ":")
	if !ok || strings.TrimSpace(id) == "" {
		return Target{}, targetErr(s, "short form wants chesscom:KIND:ID")
	}
	segs := splitPath(id)
	switch strings.ToLower(kind) {
	case "user", "player", "member":
		if len(segs) != 1 {
			return Target{}, targetErr(s, "a player is one name")
		}
		return playerTarget(s, segs[0])
	case "club":
		if len(segs) != 1 {
			return Target{}, targetErr(s, "a club is one slug")
		}
		return clubTarget(s, segs[0])
	case "match", "livematch":
		if strings.EqualFold(kind, "livematch") {
			segs = append([]string{"live"}, segs...)
		}
		return parsePath(s, "/pub/match/"+strings.Join(segs, "/"))
	case "tournament":
		if strings.EqualFold(segs[0], "live") {
			return parsePath(s, "/tournament/"+strings.Join(segs, "/"))
		}
		return parsePath(s, "/pub/tournament/"+strings.Join(segs, "/"))
	}
	return Target{}, targetErr(s, "unknown kind "+strings.ToLower(kind))
}

func splitPath(p string) []string {
	var out []string
	for _, seg := range strings.Split(p, "/") {
		if seg = strings.TrimSpace(seg); seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// parsePath reads a web path (/member/x, /club/matches/1, …) or a PubAPI
// path (/pub/...).
func parsePath(s, p string) (Target, error) {
	segs := splitPath(p)
	if len(segs) == 0 {
		return Target{}, targetErr(s, "no path")
	}
	if strings.EqualFold(segs[0], "pub") {
		return parsePub(s, segs[1:])
	}
	switch strings.ToLower(segs[0]) {
	case "member":
		if len(segs) < 2 {
			return Target{}, targetErr(s, "no username after /member/")
		}
		return playerTarget(s, segs[1])
	case "games":
		if len(segs) >= 3 && strings.EqualFold(segs[1], "archive") {
			return playerTarget(s, segs[2])
		}
	case "club":
		if len(segs) >= 2 && strings.EqualFold(segs[1], "matches") {
			return matchWebTarget(s, segs[2:])
		}
		if len(segs) == 2 {
			return clubTarget(s, segs[1])
		}
	case "tournament":
		// Live and arena tournaments are in the same PubAPI endpoint as
		// daily ones, by the slug of their page.
		switch {
		case len(segs) == 4 && strings.EqualFold(segs[1], "live") && strings.EqualFold(segs[2], "arena"):
			t, err := tournamentTarget(s, segs[3], "", "")
			t.Live, t.Arena = err == nil, err == nil
			return t, err
		case len(segs) == 3 && strings.EqualFold(segs[1], "live") && !strings.EqualFold(segs[2], "arena"):
			t, err := tournamentTarget(s, segs[2], "", "")
			t.Live = err == nil
			return t, err
		case len(segs) >= 2 && strings.EqualFold(segs[1], "live"):
			return Target{}, targetErr(s, "no tournament after /tournament/live/ (or /tournament/live/arena/)")
		case len(segs) == 2:
			return tournamentTarget(s, segs[1], "", "")
		}
	case "game":
		return Target{}, targetErr(s, "a single game cannot be followed by itself; give the player (/member/NAME)")
	}
	return Target{}, targetErr(s, "unrecognised path "+p)
}

func parsePub(s string, segs []string) (Target, error) {
	if len(segs) < 2 {
		return Target{}, targetErr(s, "incomplete PubAPI path")
	}
	switch strings.ToLower(segs[0]) {
	case "player":
		if len(segs) == 2 || (len(segs) >= 3 && strings.EqualFold(segs[2], "games")) {
			return playerTarget(s, segs[1])
		}
	case "club":
		if len(segs) == 2 || (len(segs) == 3 && strings.EqualFold(segs[2], "matches")) {
			return clubTarget(s, segs[1])
		}
	case "match":
		live := strings.EqualFold(segs[1], "live")
		rest := segs[1:]
		if live {
			rest = segs[2:]
		}
		if len(rest) == 1 || len(rest) == 2 {
			t, err := matchTarget(s, rest[0], live)
			if err != nil {
				return t, err
			}
			if len(rest) == 2 {
				if !isDigits(rest[1]) {
					return Target{}, targetErr(s, "a board is a number")
				}
				t.Board = rest[1]
			}
			return t, nil
		}
	case "tournament":
		if len(segs) <= 4 {
			var r, g string
			if len(segs) >= 3 {
				r = segs[2]
			}
			if len(segs) == 4 {
				g = segs[3]
			}
			return tournamentTarget(s, segs[1], r, g)
		}
	}
	return Target{}, targetErr(s, "unrecognised PubAPI path /pub/"+strings.Join(segs, "/"))
}

// matchWebTarget reads what follows /club/matches/: ID, live/ID, SLUG/ID,
// live/SLUG/ID.
func matchWebTarget(s string, segs []string) (Target, error) {
	live := false
	if len(segs) > 0 && strings.EqualFold(segs[0], "live") {
		live = true
		segs = segs[1:]
	}
	switch {
	case len(segs) == 1:
		return matchTarget(s, segs[0], live)
	case len(segs) >= 2 && isDigits(segs[1]):
		return matchTarget(s, segs[1], live)
	case len(segs) >= 2 && isDigits(segs[0]):
		return matchTarget(s, segs[0], live)
	}
	return Target{}, targetErr(s, "no match number after /club/matches/")
}

func isDigits(s string) bool {
	if s == "" || len(s) > 19 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// validName: chess.com usernames, club and tournament slugs are letters,
// digits, '-' and '_'.
func validName(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func playerTarget(s, name string) (Target, error) {
	if !validName(name) {
		return Target{}, targetErr(s, "bad username "+strconvQuote(name))
	}
	return Target{Kind: KindPlayer, ID: strings.ToLower(name)}, nil
}

func clubTarget(s, slug string) (Target, error) {
	if !validName(slug) {
		return Target{}, targetErr(s, "bad club slug "+strconvQuote(slug))
	}
	return Target{Kind: KindClub, ID: strings.ToLower(slug)}, nil
}

func matchTarget(s, id string, live bool) (Target, error) {
	if !isDigits(id) {
		return Target{}, targetErr(s, "a match id is a number, got "+strconvQuote(id))
	}
	return Target{Kind: KindMatch, ID: id, Live: live}, nil
}

func tournamentTarget(s, slug, round, group string) (Target, error) {
	if !validName(slug) {
		return Target{}, targetErr(s, "bad tournament slug "+strconvQuote(slug))
	}
	if (round != "" && !isDigits(round)) || (group != "" && !isDigits(group)) {
		return Target{}, targetErr(s, "tournament round and group are numbers")
	}
	return Target{Kind: KindTournament, ID: strings.ToLower(slug), Round: round, Group: group}, nil
}

func strconvQuote(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return fmt.Sprintf("%q", s)
}
