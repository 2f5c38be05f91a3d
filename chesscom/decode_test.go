package chesscom_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/chesscom"
)

func TestDecodeGamesTolerance(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		wantErr bool
		check   func(t *testing.T, g []chesscom.Game)
	}{
		{name: "empty object", body: `{}`, check: func(t *testing.T, g []chesscom.Game) {
			if len(g) != 0 {
				t.Errorf("games = %v", g)
			}
		}},
		{name: "null games", body: `{"games":null}`},
		{name: "numbers as strings and strings as numbers", body: `{"games":[{"url":"u","white":"https://api.chess.com/pub/player/A","black":"https://api.chess.com/pub/player/b",
			"last_activity":"1795859280","start_time":1.7e9,"time_control":259200,"rules":"chess","pgn":"1. e4 *"}]}`,
			check: func(t *testing.T, g []chesscom.Game) {
				if len(g) != 1 || !g[0].LastActivity.Equal(time.Unix(1795859280, 0)) || g[0].TimeControl != "259200" || g[0].White != "A" || g[0].StartTime.IsZero() {
					t.Errorf("game = %+v", g)
				}
			}},
		{name: "players as objects without username", body: `{"games":[{"url":"u","white":{"@id":"https://api.chess.com/pub/player/wname","result":"win"},"black":{"username":"B","result":"resigned","rating":"1500"},"end_time":1795859280}]}`,
			check: func(t *testing.T, g []chesscom.Game) {
				if g[0].White != "wname" || g[0].Black != "B" || !g[0].Finished || g[0].WhiteResult != "win" {
					t.Errorf("game = %+v", g[0])
				}
			}},
		{name: "missing players taken from the PGN", body: `{"games":[{"url":"u","pgn":"[White \"x1\"]\n[Black \"y2\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2"}]}`,
			check: func(t *testing.T, g []chesscom.Game) {
				if g[0].White != "x1" || g[0].Black != "y2" || !g[0].Finished {
					t.Errorf("game = %+v", g[0])
				}
			}},
		{name: "nulls everywhere", body: `{"games":[{"url":null,"white":null,"black":null,"pgn":null,"last_activity":null,"end_time":""}]}`},
		{name: "absurd timestamps are zero", body: `{"games":[{"url":"u","last_activity":-5,"end_time":1e300}]}`, check: func(t *testing.T, g []chesscom.Game) {
			if !g[0].LastActivity.IsZero() || !g[0].EndTime.IsZero() || g[0].Finished {
				t.Errorf("game = %+v", g[0])
			}
		}},
		{name: "unknown fields ignored", body: `{"games":[{"url":"u","accuracies":{"white":1},"tcn":"x","new_field":[1,2]}],"extra":{}}`},
		{name: "top-level array", body: `[{"url":"u"}]`, wantErr: true},
		{name: "not json", body: `<html>oops</html>`, wantErr: true},
		{name: "empty body", body: ``, wantErr: true},
		{name: "games is an object", body: `{"games":{"url":"u"}}`, wantErr: true},
		{name: "pgn is an object", body: `{"games":[{"url":"u","pgn":{"moves":1}}]}`, wantErr: true},
		{name: "time is an object", body: `{"games":[{"url":"u","last_activity":{}}]}`, wantErr: true},
		{name: "time is not a number", body: `{"games":[{"url":"u","last_activity":"yesterday"}]}`, wantErr: true},
		{name: "truncated", body: `{"games":[{"url":"u"`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := chesscom.DecodeGames([]byte(tt.body))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %+v", g)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, g)
			}
		})
	}
}

func TestDecodeOthersTolerance(t *testing.T) {
	tests := []struct {
		name    string
		decode  func([]byte) error
		body    string
		wantErr bool
	}{
		{"match boards as string", decodeMatch, `{"boards":"12","teams":{"team1":{"score":"3.5","players":[{"username":"a","board":"https://api.chess.com/pub/match/1/1"}]}}}`, false},
		{"match without teams", decodeMatch, `{"name":"x","status":"finished"}`, false},
		{"match team is a string", decodeMatch, `{"teams":{"team1":"x"}}`, true},
		{"match board scores as strings", decodeBoard, `{"board_scores":{"a":"0.5","b":null},"games":[]}`, false},
		{"match board scores object", decodeBoard, `{"board_scores":{"a":{}}}`, true},
		{"club matches empty", decodeClub, `{}`, false},
		{"club match ids as numbers", decodeClub, `{"in_progress":[{"@id":123,"start_time":"0"}]}`, false},
		{"club matches list is an object", decodeClub, `{"finished":{}}`, true},
		{"tournament rounds with null", decodeTournament, `{"rounds":["https://api.chess.com/pub/tournament/x/1",null],"settings":{"total_rounds":"3"}}`, false},
		{"tournament is_advancing as string", decodeRound, `{"groups":[],"players":[{"username":"a","is_advancing":"true"}]}`, false},
		{"tournament is_advancing nonsense", decodeRound, `{"players":[{"username":"a","is_advancing":"perhaps"}]}`, true},
		{"group points as string", decodeGroup, `{"players":[{"username":"a","points":"1.5","tie_break":null}],"games":[]}`, false},
		{"archives with a number", decodeArchives, `{"archives":["a",1]}`, false},
		{"archives an object", decodeArchives, `{"archives":{}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode([]byte(tt.body))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}

func decodeMatch(b []byte) error      { _, err := chesscom.DecodeMatch(b); return err }
func decodeBoard(b []byte) error      { _, err := chesscom.DecodeMatchBoard(b); return err }
func decodeClub(b []byte) error       { _, err := chesscom.DecodeClubMatches(b); return err }
func decodeTournament(b []byte) error { _, err := chesscom.DecodeTournament(b); return err }
func decodeRound(b []byte) error      { _, err := chesscom.DecodeTournamentRound(b); return err }
func decodeGroup(b []byte) error      { _, err := chesscom.DecodeTournamentGroup(b); return err }
func decodeArchives(b []byte) error   { _, err := chesscom.DecodeArchives(b); return err }

func TestUsernameFromURL(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"api profile", "https://api.chess.com/pub/player/Hikaru", "Hikaru"},
		{"web profile", "https://www.chess.com/member/erik", "erik"},
		{"bare name", "magnus", "magnus"},
		{"empty", "", ""},
		{"trailing slash", "https://api.chess.com/pub/player/abc/", "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := chesscom.UsernameFromURL(tt.in); got != tt.want {
				t.Errorf("UsernameFromURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzDecode feeds every decoder the same bytes: none may panic, and a
// decoded game list keeps its invariants. Seeds: testdata/fuzz/FuzzDecode
// and the recorded payloads of the fake.
func FuzzDecode(f *testing.F) {
	_ = filepath.WalkDir(filepath.Join("chesscomtest", "testdata", "pub"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, b []byte) {
		if games, err := chesscom.DecodeGames(b); err == nil {
			for _, g := range games {
				if g.Finished && g.EndTime.IsZero() && g.WhiteResult == "" && !strings.Contains(g.PGN, "Result") {
					t.Errorf("finished without a reason: %+v", g)
				}
			}
		}
		_, _ = chesscom.DecodeArchives(b)
		_, _ = chesscom.DecodeClubMatches(b)
		if m, err := chesscom.DecodeMatch(b); err == nil {
			_ = m.BoardURLs()
		}
		_, _ = chesscom.DecodeMatchBoard(b)
		_, _ = chesscom.DecodeTournament(b)
		_, _ = chesscom.DecodeTournamentRound(b)
		_, _ = chesscom.DecodeTournamentGroup(b)
	})
}
