package chesscom_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/chesscom"
)

func TestParseTarget(t *testing.T) {
	const base = "http://127.0.0.1:8080/chesscom"
	player := func(id string) chesscom.Target { return chesscom.Target{Kind: chesscom.KindPlayer, ID: id} }
	club := func(id string) chesscom.Target { return chesscom.Target{Kind: chesscom.KindClub, ID: id} }
	match := func(id string, live bool) chesscom.Target {
		return chesscom.Target{Kind: chesscom.KindMatch, ID: id, Live: live}
	}
	tour := func(id string) chesscom.Target { return chesscom.Target{Kind: chesscom.KindTournament, ID: id} }
	tests := []struct {
		name    string
		in      string
		base    string
		want    chesscom.Target
		wantErr string // substring of the error; "" for success
	}{
		{name: "member page", in: "https://www.chess.com/member/Hikaru", want: player("hikaru")},
		{name: "member page without scheme", in: "chess.com/member/magnuscarlsen", want: player("magnuscarlsen")},
		{name: "member page with query and slash", in: "https://www.chess.com/member/erik/?tab=games", want: player("erik")},
		{name: "games archive page", in: "https://www.chess.com/games/archive/Ivan_Daily?gameType=daily", want: player("ivan_daily")},
		{name: "mobile host", in: "https://m.chess.com/member/abc-def", want: player("abc-def")},
		{name: "club page", in: "https://www.chess.com/club/chess-com-developer-community", want: club("chess-com-developer-community")},
		{name: "club match", in: "https://www.chess.com/club/matches/1700001", want: match("1700001", false)},
		{name: "club match with slug", in: "https://www.chess.com/club/matches/threefold-club/1700001", want: match("1700001", false)},
		{name: "live club match", in: "https://www.chess.com/club/matches/live/1800001", want: match("1800001", true)},
		{name: "live club match with slug", in: "https://www.chess.com/club/matches/live/threefold-club/1800001", want: match("1800001", true)},
		{name: "club match id then slug", in: "https://www.chess.com/club/matches/1700001/games", want: match("1700001", false)},
		{name: "tournament page", in: "https://www.chess.com/tournament/Threefold-Daily-Open", want: tour("threefold-daily-open")},
		{name: "api player", in: "https://api.chess.com/pub/player/hikaru", want: player("hikaru")},
		{name: "api player games", in: "https://api.chess.com/pub/player/hikaru/games", want: player("hikaru")},
		{name: "api player archive month", in: "https://api.chess.com/pub/player/hikaru/games/2026/11", want: player("hikaru")},
		{name: "api club", in: "https://api.chess.com/pub/club/threefold-club", want: club("threefold-club")},
		{name: "api club matches", in: "https://api.chess.com/pub/club/threefold-club/matches", want: club("threefold-club")},
		{name: "api match", in: "https://api.chess.com/pub/match/12803", want: match("12803", false)},
		{name: "api live match", in: "https://api.chess.com/pub/match/live/5833", want: match("5833", true)},
		{name: "api match board", in: "https://api.chess.com/pub/match/12803/4", want: chesscom.Target{Kind: chesscom.KindMatch, ID: "12803", Board: "4"}},
		{name: "api live match board", in: "https://api.chess.com/pub/match/live/5833/1", want: chesscom.Target{Kind: chesscom.KindMatch, ID: "5833", Live: true, Board: "1"}},
		{name: "api tournament", in: "https://api.chess.com/pub/tournament/threefold-daily-open", want: tour("threefold-daily-open")},
		{name: "api tournament round", in: "https://api.chess.com/pub/tournament/t-1/2", want: chesscom.Target{Kind: chesscom.KindTournament, ID: "t-1", Round: "2"}},
		{name: "api tournament group", in: "https://api.chess.com/pub/tournament/t-1/2/3", want: chesscom.Target{Kind: chesscom.KindTournament, ID: "t-1", Round: "2", Group: "3"}},
		{name: "fake base api path", in: base + "/pub/player/ivan_daily/games", base: base, want: player("ivan_daily")},
		{name: "fake base web path", in: base + "/club/matches/live/1800001", base: base + "/", want: match("1800001", true)},
		{name: "fake base tournament", in: base + "/pub/tournament/threefold-daily-open", base: base, want: tour("threefold-daily-open")},
		{name: "short user", in: "chesscom:user:Ivan_Daily", want: player("ivan_daily")},
		{name: "short player", in: "chesscom:player:ivan_daily", want: player("ivan_daily")},
		{name: "short club", in: "chesscom:club:threefold-club", want: club("threefold-club")},
		{name: "short match", in: "chesscom:match:1700001", want: match("1700001", false)},
		{name: "short live match", in: "chesscom:match:live/1800001", want: match("1800001", true)},
		{name: "short livematch", in: "ChessCom:livematch:1800001", want: match("1800001", true)},
		{name: "short tournament", in: "chesscom:tournament:threefold-daily-open", want: tour("threefold-daily-open")},
		{name: "live tournament", in: "https://www.chess.com/tournament/live/late-titled-tuesday-blitz-january-31-2023-3727346",
			want: chesscom.Target{Kind: chesscom.KindTournament, ID: "late-titled-tuesday-blitz-january-31-2023-3727346", Live: true}},
		{name: "arena", in: "https://www.chess.com/tournament/live/arena/hourly-blitz-arena-4047297",
			want: chesscom.Target{Kind: chesscom.KindTournament, ID: "hourly-blitz-arena-4047297", Live: true, Arena: true}},
		{name: "short live tournament", in: "chesscom:tournament:live/titled-1", want: chesscom.Target{Kind: chesscom.KindTournament, ID: "titled-1", Live: true}},
		{name: "short arena", in: "chesscom:tournament:live/arena/a-1", want: chesscom.Target{Kind: chesscom.KindTournament, ID: "a-1", Live: true, Arena: true}},
		{name: "spaces trimmed", in: "  https://www.chess.com/member/abc  ", want: player("abc")},

		{name: "empty", in: "", wantErr: "empty"},
		{name: "lichess url", in: "https://lichess.org/abcdefgh", wantErr: "not a chess.com address"},
		{name: "other host same path", in: "https://example.org/member/x", wantErr: "not a chess.com address"},
		{name: "path on a base not configured", in: base + "/pub/player/x", wantErr: "not a chess.com address"},
		{name: "single game", in: "https://www.chess.com/game/daily/900000001", wantErr: "single game"},
		{name: "member without name", in: "https://www.chess.com/member/", wantErr: "no username"},
		{name: "bad username", in: "https://www.chess.com/member/a%20b", wantErr: "bad username"},
		{name: "match not numeric", in: "https://www.chess.com/club/matches/abc", wantErr: "match id is a number"},
		{name: "api match board not numeric", in: "https://api.chess.com/pub/match/1/x", wantErr: "board is a number"},
		{name: "live tournament without slug", in: "https://www.chess.com/tournament/live/", wantErr: "no tournament after"},
		{name: "arena without slug", in: "https://www.chess.com/tournament/live/arena", wantErr: "no tournament after"},
		{name: "unknown api path", in: "https://api.chess.com/pub/country/US", wantErr: "unrecognised PubAPI path"},
		{name: "short unknown kind", in: "chesscom:country:US", wantErr: "unknown kind"},
		{name: "short without id", in: "chesscom:user:", wantErr: "chesscom:KIND:ID"},
		{name: "home page", in: "https://www.chess.com/", wantErr: "no path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chesscom.ParseTarget(tt.in, tt.base)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("ParseTarget(%q) = %+v, want an error", tt.in, got)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, chesscom.ErrUnknownTarget) {
					t.Errorf("error %q: want %q and ErrUnknownTarget", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "chess.com/member/NAME") {
					t.Errorf("error does not list the accepted forms: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTarget(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("ParseTarget(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			// The short form reads back to the same target.
			back, err := chesscom.ParseTarget(got.String(), "")
			if err != nil || back != got {
				t.Errorf("round trip of %q: %+v, %v", got.String(), back, err)
			}
			if got.Path() == "" || !strings.HasPrefix(got.Path(), "/pub/") || got.WebURL() == "" {
				t.Errorf("Path %q, WebURL %q", got.Path(), got.WebURL())
			}
		})
	}
}
