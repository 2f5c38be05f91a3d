package threefold

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/rules"
)

// The JSON forms of a game state (the games of history --json) and of the
// bot's record (games.jsonl) are contracts: these are their shapes, key by
// key, as they were when each had its own declaration in store and bot.
func TestJSONShapes(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		v    any
		want string
	}{
		{name: "game state",
			v: GameState{Game: GameRef{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"},
				Source: "lichess game abcdefgh", Event: "Rated blitz game", StartFEN: "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
				Notation: rules.UCI, Moves: []string{"e1g1"}, Result: "1/2-1/2", Termination: TermFivefold, Finished: true,
				Audience: AudienceArbiters, ObservedAt: at, Delay: time.Second, PlyAnchor: true},
			want: `{"game":{"site":"lichess","id":"abcdefgh","url":"https://lichess.org/abcdefgh","white":"Alice","black":"Bob"},` +
				`"source":"lichess game abcdefgh","event":"Rated blitz game","start_fen":"8/8/8/4k3/8/8/8/4K2R w K - 0 1",` +
				`"notation":"uci","moves":["e1g1"],"result":"1/2-1/2","termination":"fivefold","finished":true,"audience":"arbiters"}`},
		{name: "game state, empty fields left out",
			v:    GameState{Game: GameRef{Site: "file", ID: "r1.pgn#1"}},
			want: `{"game":{"site":"file","id":"r1.pgn#1","url":"","white":"","black":""},"source":"","notation":"san","moves":null,"finished":false}`},
		{name: "bot record",
			v: BotRecord{Site: "lichess", GameID: "abcdefgh", URL: "https://lichess.org/abcdefgh",
				White: BotPlayer{ID: "threefold-bot", Name: "threefold-bot", Title: "BOT"}, Black: BotPlayer{ID: "alice", Name: "Alice", Rating: 1500},
				BotColor: "white", Variant: "standard", Speed: "blitz", Rated: true, InitialFEN: rules.StartFEN,
				Moves: []string{"g1f3"}, SAN: []string{"Nf3"}, Plies: 1, FinalFEN: "x", Status: "draw", Winner: "",
				Result: "1/2-1/2", Termination: TermThreefoldClaimed, Occurrences: []int{0, 4, 8},
				Claims: []BotClaim{{Ply: 8, How: "move_offering_draw", Move: "f3g1"}}, Engine: "builtin",
				StartedAt: at, EndedAt: at.Add(time.Minute), RulesUsed: map[string]int{"engine": 1}},
			want: `{"site":"lichess","game_id":"abcdefgh","url":"https://lichess.org/abcdefgh",` +
				`"white":{"id":"threefold-bot","name":"threefold-bot","title":"BOT"},"black":{"id":"alice","name":"Alice","rating":1500},` +
				`"bot_color":"white","variant":"standard","speed":"blitz","rated":true,` +
				`"initial_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":["g1f3"],"san":["Nf3"],"plies":1,` +
				`"final_fen":"x","status":"draw","result":"1/2-1/2","termination":"threefold_claimed","occurrences":[0,4,8],` +
				`"claims":[{"ply":8,"how":"move_offering_draw","move":"f3g1"}],"engine":"builtin",` +
				`"started_at":"2026-11-29T12:00:00Z","ended_at":"2026-11-29T12:01:00Z","rules_used":{"engine":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
