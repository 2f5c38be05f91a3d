package listener

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/pgn"
)

// TargetKind says what a pasted source names.
type TargetKind string

const (
	TargetLichessGame  TargetKind = "lichess-game"
	TargetLichessUser  TargetKind = "lichess-user"
	TargetLichessTV    TargetKind = "lichess-tv"
	TargetLichessRound TargetKind = "lichess-broadcast-round"
	TargetLichessTour  TargetKind = "lichess-broadcast-tour"
	TargetChessCom     TargetKind = "chess.com"
	TargetDGT          TargetKind = "dgt"
	TargetFile         TargetKind = "file"
)

// Lichess reports whether a target of kind k is read through the Lichess
// API (and needs a Lichess client).
func (k TargetKind) Lichess() bool {
	switch k {
	case TargetLichessGame, TargetLichessUser, TargetLichessTV, TargetLichessRound, TargetLichessTour:
		return true
	}
	return false
}

// Target is a parsed source: what a user pasted, understood.
type Target struct {
	Kind TargetKind
	Raw  string
	// ID is the Lichess game id, user name, TV channel ("" for the featured
	// game), broadcast round id or tournament id.
	ID string
	// Color and Ply are the optional /white, /black and #ply of a game URL
	// (informative: the whole game is followed).
	Color    string
	Ply      int
	ChessCom chesscom.Target // TargetChessCom
	URL      string          // TargetDGT: the websocket URL
	Path     string          // TargetFile: a file or a folder
}

// ErrUnknownForm is matched by the error of ParseTarget for text that is no
// source form at all.
var ErrUnknownForm = errors.New("unknown source form")

// SourceForms lists every form ParseTarget understands, one a line, for
// --help and usage errors.
var SourceForms = `Lichess:
  https://lichess.org/GAMEID[/white|/black][#PLY]   a game (spectator stream, 3 moves behind while on)
  https://lichess.org/@/USER                       the user's current game, whoever they play (asked every 30 s;
                                                   games between users given: at once, one stream for all)
  https://lichess.org/tv[/CHANNEL]                 a TV channel (best, bullet, blitz, rapid, classical, bot, …)
  https://lichess.org/broadcast/SLUG/ROUND/ROUNDID a broadcast round (OTB: alerts are for arbiters)
  https://lichess.org/broadcast/SLUG/TOURID        every round of a broadcast tournament
chess.com (polled; data may be hours old):
` + chesscom.AcceptedForms + `
DGT LiveChess 2 e-boards (OTB: alerts are for arbiters):
  ws://localhost:1982/api/v1.0
Files (OTB: alerts are for arbiters):
  FILE.pgn[.gz|.zst] | FOLDER                      a PGN file, or a folder of them, that a relay keeps rewriting
The scheme may be left out (lichess.org/abcdefgh). URLs on the configured lichess.url
and chesscom.url are recognised like the same URLs on the public sites.`

// ParseOptions are the configured base URLs.
type ParseOptions struct {
	LichessBase  string // lichess.url, e.g. https://lichess.org or a fake
	ChessComBase string // chesscom.url (the PubAPI base)
}

var (
	lichessGameID = regexp.MustCompile(`^[A-Za-z0-9]{8}([A-Za-z0-9]{4})?$`)
	lichessUser   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,29}$`)
	lichessID8    = regexp.MustCompile(`^[A-Za-z0-9]{8}$`)
	lichessTVs    = map[string]bool{"best": true, "bullet": true, "blitz": true, "rapid": true, "classical": true,
		"ultrabullet": true, "bot": true, "computer": true, "chess960": true, "kingofthehill": true, "threecheck": true,
		"antichess": true, "atomic": true, "horde": true, "racingkings": true, "crazyhouse": true}
	lichessTVKey = map[string]string{"ultrabullet": "ultraBullet", "kingofthehill": "kingOfTheHill", "threecheck": "threeCheck", "racingkings": "racingKings"}
)

func formErr(s, why string) error {
	return fmt.Errorf("%q: %w: %s; accepted forms:\n%s", s, ErrUnknownForm, why, SourceForms)
}

// ParseTargets reads each of ss with ParseTarget, in order; the first
// that is not understood is the error.
func ParseTargets(ss []string, opts ParseOptions) ([]Target, error) {
	targets := make([]Target, 0, len(ss))
	for _, s := range ss {
		t, err := ParseTarget(s, opts)
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// ParseTarget understands what a user pastes: see SourceForms.
func ParseTarget(s string, opts ParseOptions) (Target, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return Target{}, formErr(s, "empty")
	}
	lower := strings.ToLower(in)
	if strings.HasPrefix(lower, "ws://") || strings.HasPrefix(lower, "wss://") {
		u, err := url.Parse(in)
		if err != nil || u.Host == "" {
			return Target{}, formErr(s, "not a websocket URL")
		}
		if u.Path == "" || u.Path == "/" {
			u.Path = "/api/v1.0"
		}
		return Target{Kind: TargetDGT, Raw: s, URL: u.String()}, nil
	}
	if strings.HasPrefix(lower, "chesscom:") {
		return chessComTarget(s, in, opts)
	}
	if u, ok := asURL(in); ok {
		if u.Scheme != "http" && u.Scheme != "https" {
			return Target{}, formErr(s, "unknown URL scheme "+strconv.Quote(u.Scheme))
		}
		if p, ok := underBase(u, opts.LichessBase, "lichess.org"); ok {
			return parseLichessPath(s, p, u.Fragment)
		}
		if _, ok := underBase(u, opts.ChessComBase, "chess.com", "www.chess.com", "api.chess.com", "m.chess.com"); ok {
			return chessComTarget(s, in, opts)
		}
		return Target{}, formErr(s, "not a Lichess or chess.com address (nor on the configured lichess.url or chesscom.url)")
	}
	if _, err := os.Stat(in); err == nil {
		return Target{Kind: TargetFile, Raw: s, Path: in}, nil
	}
	if strings.Contains(in, "://") {
		return Target{}, formErr(s, "unknown URL scheme")
	}
	if looksLikePath(in) {
		return Target{}, &NoSuchPathError{Path: s}
	}
	return Target{}, formErr(s, "not a URL, a websocket URL or an existing file")
}

// NoSuchPathError is a source that looks like a path to a file or folder
// that is not there.
type NoSuchPathError struct{ Path string }

func (e *NoSuchPathError) Error() string { return fmt.Sprintf("%q: no such file or folder", e.Path) }

// SayIn says e in p's language (i18n.Sayer).
func (e *NoSuchPathError) SayIn(p *i18n.Printer) (string, bool) {
	return p.Sprintf(i18n.ErrNoSuchPath, e.Path), true
}

func chessComTarget(s, in string, opts ParseOptions) (Target, error) {
	t, err := chesscom.ParseTarget(in, opts.ChessComBase)
	if err != nil {
		return Target{}, fmt.Errorf("%w (%w)", err, ErrUnknownForm)
	}
	return Target{Kind: TargetChessCom, Raw: s, ChessCom: t}, nil
}

func looksLikePath(s string) bool {
	return strings.ContainsRune(s, os.PathSeparator) || hasPGNSuffix(s)
}

// hasPGNSuffix reports whether s names a PGN file (.pgn, .pgn.gz, .pgn.zst).
func hasPGNSuffix(s string) bool {
	l := strings.ToLower(s)
	return strings.HasSuffix(l, ".pgn") || strings.HasSuffix(l, ".pgn.gz") || strings.HasSuffix(l, ".pgn.zst")
}

// asURL parses s as a URL with a host, adding https:// when the scheme is
// left out and the text starts like a host name.
func asURL(s string) (*url.URL, bool) {
	raw := s
	if !strings.Contains(raw, "://") {
		first, _, _ := strings.Cut(raw, "/")
		if !strings.Contains(first, ".") && !strings.Contains(first, ":") {
			return nil, false
		}
		if _, err := os.Stat(s); err == nil || hasPGNSuffix(s) {
			return nil, false // a file such as games.pgn, existing or not
		}
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, false
	}
	return u, true
}

// underBase returns the path of u below base (a configured base URL) or
// below one of the public hosts.
func underBase(u *url.URL, base string, hosts ...string) (string, bool) {
	if base = strings.TrimSpace(base); base != "" {
		if b, err := url.Parse(strings.TrimRight(base, "/")); err == nil && b.Host != "" && strings.EqualFold(b.Host, u.Host) {
			if p, ok := strings.CutPrefix(u.Path, b.Path); ok && (p == "" || strings.HasPrefix(p, "/")) {
				return p, true
			}
		}
	}
	h := strings.ToLower(u.Hostname())
	for _, x := range hosts {
		if h == x || h == "www."+x {
			return u.Path, true
		}
	}
	return "", false
}

func parseLichessPath(s, p, fragment string) (Target, error) {
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	if len(segs) == 0 {
		return Target{}, formErr(s, "a Lichess address without a game, user, TV channel or broadcast")
	}
	switch {
	case segs[0] == "@" && len(segs) >= 2:
		if !lichessUser.MatchString(segs[1]) {
			return Target{}, formErr(s, "not a Lichess user name")
		}
		return Target{Kind: TargetLichessUser, Raw: s, ID: strings.ToLower(segs[1])}, nil
	case segs[0] == "tv":
		if len(segs) == 1 {
			return Target{Kind: TargetLichessTV, Raw: s}, nil
		}
		ch := strings.ToLower(segs[1])
		if !lichessTVs[ch] {
			return Target{}, formErr(s, "unknown Lichess TV channel "+strconv.Quote(segs[1]))
		}
		if k, ok := lichessTVKey[ch]; ok {
			ch = k
		}
		return Target{Kind: TargetLichessTV, Raw: s, ID: ch}, nil
	case segs[0] == "broadcast":
		switch {
		case len(segs) >= 4 && lichessID8.MatchString(segs[3]):
			return Target{Kind: TargetLichessRound, Raw: s, ID: segs[3]}, nil
		case len(segs) == 3 && lichessID8.MatchString(segs[2]):
			return Target{Kind: TargetLichessTour, Raw: s, ID: segs[2]}, nil
		}
		return Target{}, formErr(s, "a Lichess broadcast address needs a round id (/broadcast/SLUG/ROUND/ROUNDID) or a tournament id (/broadcast/SLUG/TOURID)")
	case lichessGameID.MatchString(segs[0]) && len(segs) <= 2:
		t := Target{Kind: TargetLichessGame, Raw: s, ID: segs[0][:8]}
		if len(segs) == 2 {
			c := strings.ToLower(segs[1])
			if c != "white" && c != "black" {
				return Target{}, formErr(s, "a Lichess game address ends in /white or /black, if anything")
			}
			t.Color = c
		}
		if fragment != "" {
			n, err := strconv.Atoi(fragment)
			if err != nil || n < 0 {
				return Target{}, formErr(s, "the #ply of a Lichess game address is a number")
			}
			t.Ply = n
		}
		return t, nil
	}
	return Target{}, formErr(s, "not a Lichess game, user, TV channel or broadcast address")
}

// Config is how the sources read: the keys of the watch: section of the
// config file that are theirs (the mapstructure tags, with the sane range
// of each), DefaultConfig their defaults.
type Config struct {
	// FilePollInterval is how often PGN files and folders are checked for
	// changes (FileSource.Interval).
	FilePollInterval time.Duration `mapstructure:"file_poll_interval" range:"10ms,24h"`
	// DGTMaxFailures ends a DGT LiveChess source after this many connection
	// attempts in a row that never reach the server (0: retry forever).
	DGTMaxFailures int `mapstructure:"dgt_max_failures" range:"0,1000000"`
	// DGTSettle is how long a DGT board's change must stand before it is
	// taken: LiveChess misreads moves while pieces are in the air and
	// corrects them a moment later (0: take every change at once).
	DGTSettle time.Duration `mapstructure:"dgt_settle" range:"0s,1m"`
	// DGTBoardsEvery is how often the list of LiveChess's boards is read
	// again (boards added, switched off, their health).
	DGTBoardsEvery time.Duration `mapstructure:"dgt_boards_every" range:"1s,24h"`
	// FinishedGrace is how long a finished game stays in memory (the
	// watcher, the dashboard, the PGN feeds) after it ended; then it is
	// forgotten (its records stay in the store).
	FinishedGrace time.Duration `mapstructure:"finished_grace" range:"1s,720h"`
}

// DefaultConfig is the Config of a config file that sets none of its keys.
func DefaultConfig() Config {
	return Config{
		FilePollInterval: 2 * time.Second,
		DGTSettle:        2500 * time.Millisecond, // as long as Lichess's DGT connector holds a doubtful move
		DGTBoardsEvery:   30 * time.Second,
		FinishedGrace:    DefaultFinishedGrace,
	}
}

// ChessComConfig is how the chess.com sources read: the keys of the
// chesscom: section of the config file that are theirs.
type ChessComConfig struct {
	// PollInterval is the time between two polls of one target.
	PollInterval time.Duration `mapstructure:"poll_interval" range:"1s,168h"`
	// AfterTheGame: a player target also reports the player's live games,
	// from the monthly archive, once they ended (the PubAPI has no live
	// game in progress); their alerts say "(after the game)".
	AfterTheGame bool `mapstructure:"after_the_game"`
}

// Deps are what sources are built from.
type Deps struct {
	Config         // how they read: their keys in the config file
	Lichess        LichessStreamer
	LichessBase    string
	ChessCom       ChessComPoller
	ChessComConfig ChessComConfig // how the chess.com sources read: their keys
	PGNLimits      pgn.Limits     // for every source that reads PGN
	FilesOnce      bool           // PGN files and folders are read once, not followed (FileSource.Once)
	Clock          clock.Clock
	Logger         *slog.Logger
	// OnSourceState, if set, is told by each source that knows its
	// connection (Lichess streams, DGT servers) when it connects and when
	// it loses the connection (with the reason), by the source's Name: so
	// a quiet source shows as connected before its first game.
	OnSourceState func(name string, connected bool, err error)
	// OnBoards, if set, is told by each source that follows e-boards (DGT
	// LiveChess) the health of its boards, by the source's Name.
	OnBoards func(name string, boards []threefold.BoardStatus)
}

// Sources builds the sources for the targets. The Lichess users of several
// targets share one games-by-users stream (Lichess reports the games
// between the users given, and allows few such streams per IP).
func Sources(targets []Target, d Deps) ([]Source, error) {
	var out []Source
	var users []string
	for _, t := range targets {
		switch {
		case t.Kind.Lichess() && d.Lichess == nil:
			return nil, fmt.Errorf("%s: no Lichess client", t.Raw)
		case t.Kind == TargetChessCom && d.ChessCom == nil:
			return nil, fmt.Errorf("%s: no chess.com client", t.Raw)
		}
		switch t.Kind {
		case TargetLichessGame:
			out = append(out, &LichessGameSource{Client: d.Lichess, GameID: t.ID, Base: d.LichessBase, Clock: d.Clock, Logger: d.Logger})
		case TargetLichessUser:
			users = append(users, t.ID)
		case TargetLichessTV:
			out = append(out, &LichessTVSource{Client: d.Lichess, Channel: t.ID, Base: d.LichessBase, Clock: d.Clock, Logger: d.Logger})
		case TargetLichessRound:
			out = append(out, &LichessBroadcastSource{Client: d.Lichess, RoundID: t.ID, Clock: d.Clock, Logger: d.Logger, Limits: d.PGNLimits,
				FinishedGrace: d.FinishedGrace})
		case TargetLichessTour:
			out = append(out, &LichessBroadcastSource{Client: d.Lichess, TourID: t.ID, Clock: d.Clock, Logger: d.Logger, Limits: d.PGNLimits,
				FinishedGrace: d.FinishedGrace})
		case TargetChessCom:
			out = append(out, &ChessComSource{Client: d.ChessCom, Target: t.ChessCom, Interval: d.ChessComConfig.PollInterval,
				AfterTheGame: d.ChessComConfig.AfterTheGame, Clock: d.Clock, Logger: d.Logger, Limits: d.PGNLimits, FinishedGrace: d.FinishedGrace})
		case TargetDGT:
			src := &DGTSource{URL: t.URL, Clock: d.Clock, Logger: d.Logger, MaxFailures: d.DGTMaxFailures,
				Settle: d.DGTSettle, BoardsEvery: d.DGTBoardsEvery}
			if d.OnBoards != nil {
				name, on := src.Name(), d.OnBoards
				src.OnBoards = func(b []threefold.BoardStatus) { on(name, b) }
			}
			out = append(out, src)
		case TargetFile:
			out = append(out, &FileSource{Path: t.Path, Interval: d.FilePollInterval, Once: d.FilesOnce, Clock: d.Clock, Logger: d.Logger,
				Limits: d.PGNLimits, FinishedGrace: d.FinishedGrace})
		default:
			return nil, fmt.Errorf("%s: unknown target kind %q", t.Raw, t.Kind)
		}
	}
	if len(users) > 0 {
		out = append(out, &LichessUsersSource{Client: d.Lichess, Users: users, Base: d.LichessBase, Clock: d.Clock, Logger: d.Logger})
	}
	if d.OnSourceState != nil {
		for _, src := range out {
			on := stateHook(d.OnSourceState, src.Name())
			switch s := src.(type) {
			case *LichessGameSource:
				s.OnState = on
			case *LichessUsersSource:
				s.OnState = on
			case *LichessTVSource:
				s.OnState = on
			case *LichessBroadcastSource:
				s.OnState = on
			case *DGTSource:
				s.OnState = on
			}
		}
	}
	return out, nil
}

func stateHook(f func(string, bool, error), name string) func(bool, error) {
	return func(connected bool, err error) { f(name, connected, err) }
}
