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
