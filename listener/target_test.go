package listener

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/internal/configkeys"
	"github.com/threefold-chess/threefold/internal/i18n"
)

func TestParseTarget(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "round.pgn")
	if err := os.WriteFile(file, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := ParseOptions{LichessBase: "http://127.0.0.1:9999/lichess", ChessComBase: "http://127.0.0.1:9998/chesscom"}
	tests := []struct {
		name, in string
		kind     TargetKind
		id       string
		check    func(Target) bool
	}{
		{"game", "https://lichess.org/abcdEFGH", TargetLichessGame, "abcdEFGH", nil},
		{"game without scheme, as black, at a ply", "lichess.org/abcdEFGH/black#31", TargetLichessGame, "abcdEFGH",
			func(t Target) bool { return t.Color == "black" && t.Ply == 31 }},
		{"game full id", "https://lichess.org/abcdEFGHijkl", TargetLichessGame, "abcdEFGH", nil},
		{"game on the configured base", "http://127.0.0.1:9999/lichess/abcdEFGH", TargetLichessGame, "abcdEFGH", nil},
		{"user", "https://lichess.org/@/DrNykterstein", TargetLichessUser, "drnykterstein", nil},
		{"user on the configured base", "http://127.0.0.1:9999/lichess/@/alice", TargetLichessUser, "alice", nil},
		{"tv", "https://lichess.org/tv", TargetLichessTV, "", nil},
		{"tv channel", "https://lichess.org/tv/ultraBullet", TargetLichessTV, "ultraBullet", nil},
		{"broadcast round", "https://lichess.org/broadcast/knight-invitational-2/final-round-2/4Yuk2i2H", TargetLichessRound, "4Yuk2i2H", nil},
		{"broadcast game url follows its round", "https://lichess.org/broadcast/knight-invitational-2/final-round-2/4Yuk2i2H/5rsW2cRb", TargetLichessRound, "4Yuk2i2H", nil},
		{"broadcast tour", "https://lichess.org/broadcast/knight-invitational-2/8aAbCdEf", TargetLichessTour, "8aAbCdEf", nil},
		{"broadcast round on the configured base", "http://127.0.0.1:9999/lichess/broadcast/-/-/4Yuk2i2H", TargetLichessRound, "4Yuk2i2H", nil},
		{"chess.com member", "https://www.chess.com/member/Hikaru", TargetChessCom, "", func(t Target) bool { return t.ChessCom.ID != "" }},
		{"chess.com short form", "chesscom:player:hikaru", TargetChessCom, "", nil},
		{"chess.com on the configured base", "http://127.0.0.1:9998/chesscom/pub/player/hikaru", TargetChessCom, "", nil},
		{"dgt", "ws://localhost:1982/api/v1.0", TargetDGT, "", func(t Target) bool { return t.URL == "ws://localhost:1982/api/v1.0" }},
		{"dgt without path", "ws://10.0.0.5:1982", TargetDGT, "", func(t Target) bool { return t.URL == "ws://10.0.0.5:1982/api/v1.0" }},
		{"file", file, TargetFile, "", func(t Target) bool { return t.Path == file }},
		{"folder", dir, TargetFile, "", func(t Target) bool { return t.Path == dir }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTarget(tc.in, opts)
			if err != nil {
				t.Fatalf("ParseTarget(%q): %v", tc.in, err)
			}
			if got.Kind != tc.kind || got.ID != tc.id || (tc.check != nil && !tc.check(got)) {
				t.Errorf("ParseTarget(%q) = %+v", tc.in, got)
			}
		})
	}
}

func TestParseTargetErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", " ", "accepted forms"},
		{"other site", "https://example.org/abcdEFGH", "not a Lichess or chess.com address"},
		{"unknown scheme", "gopher://lichess.org/abcdEFGH", "unknown URL scheme"},
		{"lichess home", "https://lichess.org/", "without a game"},
		{"bad tv", "https://lichess.org/tv/nonsense", "unknown Lichess TV channel"},
		{"broadcast without id", "https://lichess.org/broadcast/some-event", "round id"},
		{"game with a bad color", "https://lichess.org/abcdEFGH/red", "/white or /black"},
		{"bad chess.com", "https://www.chess.com/nonsense/x", "chess.com"},
		{"missing file", "/no/such/round.pgn", "no such file"},
		{"missing file in the current folder", "nosuch.pgn", "no such file"},
		{"missing gzip file in the current folder", "round5.PGN.gz", "no such file"},
		{"missing zstd file below the current folder", "relay/round5.pgn.zst", "no such file"},
		{"words", "hello", "accepted forms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTarget(tc.in, ParseOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseTarget(%q) error %v, want %q", tc.in, err, tc.want)
			}
			if tc.want == "accepted forms" && !errors.Is(err, ErrUnknownForm) {
				t.Errorf("error %v is not ErrUnknownForm", err)
			}
			if tc.want == "no such file" && (errors.Is(err, ErrUnknownForm) || strings.Contains(err.Error(), "accepted forms")) {
				t.Errorf("a missing file gets the list of forms: %v", err)
			}
		})
	}
}

// TestParseTargets: every target in order, or the first that is not
// understood.
func TestParseTargets(t *testing.T) {
	dir := t.TempDir()
	got, err := ParseTargets([]string{"https://lichess.org/abcdefgh", dir}, ParseOptions{})
	if err != nil || len(got) != 2 || got[0].Kind != TargetLichessGame || got[1].Kind != TargetFile {
		t.Errorf("ParseTargets = %+v, %v", got, err)
	}
	if _, err := ParseTargets([]string{dir, "https://example.com/x", "ftp://y"}, ParseOptions{}); err == nil || !strings.Contains(err.Error(), "example.com") {
		t.Errorf("error %v, want the first not understood", err)
	}
}

func TestTargetKindLichess(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind TargetKind
		want bool
	}{
		{"a game", TargetLichessGame, true},
		{"a user", TargetLichessUser, true},
		{"a TV channel", TargetLichessTV, true},
		{"a broadcast round", TargetLichessRound, true},
		{"a broadcast tournament", TargetLichessTour, true},
		{"chess.com", TargetChessCom, false},
		{"a DGT board", TargetDGT, false},
		{"a file", TargetFile, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.kind.Lichess(); got != tc.want {
				t.Errorf("%s.Lichess() = %v, want %v", tc.kind, got, tc.want)
			}
		})
	}
}

// noPolls is a chess.com poller never asked.
type noPolls struct{}

func (noPolls) Poll(context.Context, chesscom.Target, time.Duration, func(chesscom.Update) error) error {
	return nil
}

// The watch: keys of Config, the chesscom: keys of ChessComConfig and
// FilesOnce reach the sources that read by them.
func TestSourcesTakeTheirConfig(t *testing.T) {
	cfg := Config{FilePollInterval: 3 * time.Second, DGTMaxFailures: 7, DGTSettle: time.Second, DGTBoardsEvery: time.Minute, FinishedGrace: time.Hour}
	cc := ChessComConfig{PollInterval: 10 * time.Minute, AfterTheGame: true}
	targets := []Target{{Kind: TargetFile, Raw: "games.pgn", Path: "games.pgn"}, {Kind: TargetDGT, Raw: "dgt", URL: "ws://127.0.0.1:1/api/v1.0"},
		{Kind: TargetChessCom, Raw: "https://www.chess.com/member/hikaru"}}
	sources, err := Sources(targets, Deps{Config: cfg, ChessCom: noPolls{}, ChessComConfig: cc, FilesOnce: true})
	if err != nil {
		t.Fatal(err)
	}
	f, ok := sources[0].(*FileSource)
	if !ok || f.Interval != cfg.FilePollInterval || f.FinishedGrace != cfg.FinishedGrace || !f.Once {
		t.Errorf("file source %+v, want the interval and grace of %+v, read once", sources[0], cfg)
	}
	d, ok := sources[1].(*DGTSource)
	if !ok || d.MaxFailures != cfg.DGTMaxFailures || d.Settle != cfg.DGTSettle || d.BoardsEvery != cfg.DGTBoardsEvery {
		t.Errorf("DGT source %+v, want the DGT keys of %+v", sources[1], cfg)
	}
	c, ok := sources[2].(*ChessComSource)
	if !ok || c.Interval != cc.PollInterval || !c.AfterTheGame || c.FinishedGrace != cfg.FinishedGrace {
		t.Errorf("chess.com source %+v, want the keys of %+v and the grace", sources[2], cc)
	}
}

// Every key of Config has a range, and the defaults lie within them.
func TestDefaultConfigWithinRanges(t *testing.T) {
	ranges, err := configkeys.Ranges(reflect.TypeOf(Config{}))
	if err != nil {
		t.Fatal(err)
	}
	if n := reflect.TypeOf(Config{}).NumField(); len(ranges) != n {
		t.Errorf("%d ranges for %d keys: %v", len(ranges), n, ranges)
	}
	if err := configkeys.CheckRanges(reflect.ValueOf(DefaultConfig())); err != nil {
		t.Error(err)
	}
}

// A path and a file that are not there say so in the user's language;
// in English, as their Error.
func TestNotThereSayIn(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  i18n.Sayer
		lang i18n.Lang
		want string
	}{
		{"a path, in Persian", &NoSuchPathError{Path: "round5.pgn"}, i18n.Persian, "\"round5.pgn\": چنین پرونده یا پوشه‌ای وجود ندارد"},
		{"a path, in English", &NoSuchPathError{Path: "round5.pgn"}, i18n.English, (&NoSuchPathError{Path: "round5.pgn"}).Error()},
		{"a file, in Russian", &NoSuchFileError{Path: "game.pgn"}, i18n.Russian, "game.pgn: нет такого файла"},
		{"a file, in English", &NoSuchFileError{Path: "game.pgn"}, i18n.English, (&NoSuchFileError{Path: "game.pgn"}).Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := tc.err.SayIn(i18n.For(tc.lang)); !ok || got != tc.want {
				t.Errorf("SayIn = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
}
