package store

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// TestGameJSONShape: a stored game in history --json keeps the shape it had
// before it embedded threefold.GameState, key by key.
func TestGameJSONShape(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		g    Game
		want string
	}{
		{name: "every field",
			g: Game{GameState: threefold.GameState{
				Game:   threefold.GameRef{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"},
				Source: "lichess game abcdefgh", Event: "Rated blitz game", StartFEN: "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
				Notation: rules.UCI, Moves: []string{"e1g1"}, Result: "1/2-1/2", Termination: "fivefold", Finished: true,
				Audience: "arbiters", ObservedAt: at, Delay: time.Second, PlyAnchor: true,
			}, StartedAt: at, UpdatedAt: at},
			want: `{"game":{"site":"lichess","id":"abcdefgh","url":"https://lichess.org/abcdefgh","white":"Alice","black":"Bob"},"source":"lichess game abcdefgh","event":"Rated blitz game","start_fen":"8/8/8/4k3/8/8/8/4K2R w K - 0 1","notation":"uci","moves":["e1g1"],"result":"1/2-1/2","termination":"fivefold","finished":true,"audience":"arbiters","started_at":"2026-11-29T12:00:00Z","updated_at":"2026-11-29T12:00:00Z"}`},
		{name: "empty fields",
			g:    Game{GameState: threefold.GameState{Game: threefold.GameRef{Site: "file", ID: "r1.pgn#1"}}},
			want: `{"game":{"site":"file","id":"r1.pgn#1","url":"","white":"","black":""},"source":"","notation":"san","moves":null,"finished":false,"updated_at":"0001-01-01T00:00:00Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.g)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// The moves are written as json.Marshal writes them, whatever they hold.
func TestMovesJSON(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
	}{
		{"none", nil},
		{"empty", []string{}},
		{"san", []string{"e4", "Nf6", "exd5", "e8=Q+", "O-O-O#", "Nbd7"}},
		{"uci", []string{"e2e4", "e7e8q"}},
		{"an empty token", []string{""}},
		{"quotes and backslashes", []string{`a"b`, `c\d`}},
		{"html", []string{"<b>", "a&b"}},
		{"control characters", []string{"a\nb", "\x00", "\x7f"}},
		{"unicode", []string{"♘f3", "e4!?", "½-½"}},
		{"invalid utf-8", []string{"\xff\xfe", "a\xc3"}},
		{"line separators", []string{"\u2028\u2029"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moves := tc.moves
			if moves == nil {
				moves = []string{}
			}
			want, err := json.Marshal(moves)
			if err != nil {
				t.Fatal(err)
			}
			if got := movesJSON(tc.moves); got != string(want) {
				t.Errorf("movesJSON = %s, want %s", got, want)
			}
		})
	}
}
