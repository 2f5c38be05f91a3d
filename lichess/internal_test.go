package lichess

import (
	"strings"
	"testing"
)

func TestPGNSplitter(t *testing.T) {
	game1 := "[Event \"A\"]\n[Site \"https://lichess.org/broadcast/x/y/r/g1\"]\n\n1. e4 e5 *\n"
	game2 := "[Event \"A\"]\n[Site \"https://lichess.org/broadcast/x/y/r/g2\"]\n\n1. d4 d5\n2. c4 *\n"
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"two games as lila sends them", game1 + "\n\n" + game2 + "\n\n", []string{game1, game2}},
		{"keep-alive spaces between games", " " + game1 + "\n\n " + " " + game2 + "\n\n", []string{game1, game2}},
		{"keep-alive glued to the next game", game1 + "\n\n" + " " + strings.TrimPrefix(game2, "") + "\n", []string{game1, game2}},
		{"no blank line before the next game", strings.TrimSuffix(game1, "\n") + "\n" + game2, []string{game1, game2}},
		{"last game without a blank line", game1 + "\n" + game2, []string{game1, game2}},
		{"clock comment at the start of a line", strings.Replace(game1, "1. e4 e5 *", "1. e4\n[%clk 1:00:00] e5 *", 1) + "\n" + game2,
			[]string{strings.Replace(game1, "1. e4 e5 *", "1. e4\n[%clk 1:00:00] e5 *", 1), game2}},
		{"CRLF", strings.ReplaceAll(game1+"\n", "\n", "\r\n"), []string{game1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sp pgnSplitter
			var got []string
			for _, line := range strings.SplitAfter(tc.input, "\n") {
				if line == "" {
					continue
				}
				if g, ok := sp.add([]byte(strings.TrimRight(line, "\r\n"))); ok && g != "" {
					got = append(got, g)
				}
			}
			if g := sp.flush(); g != "" {
				got = append(got, g)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPGNKey(t *testing.T) {
	tests := []struct{ name, pgn, want string }{
		{"GameURL first", "[Site \"https://a/1\"]\n[GameURL \"https://b/2\"]\n", "https://b/2"},
		{"Site", "[Site \"https://a/1\"]\n", "https://a/1"},
		{"tags otherwise", "[Event \"E\"]\n[Site \"?\"]\n[Round \"1\"]\n[White \"W\"]\n[Black \"B\"]\n", "E\x001\x00W\x00B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := pgnKey(tc.pgn); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		name, body, msg string
		seconds         int64
	}{
		{"plain error", `{"error":"No such game"}`, "No such game", 0},
		{"ratelimit", `{"error":"Too many","ratelimit":{"key":"bot.vsBot.day","seconds":3600}}`, "Too many", 3600},
		{"form errors", `{"error":{"text":["error.maxLength"]}}`, `{"text":["error.maxLength"]}`, 0},
		{"text", "Please only run 8 request(s) at a time", "Please only run 8 request(s) at a time", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg, rl := parseErrorBody([]byte(tc.body))
			if msg != tc.msg || rl.Seconds != tc.seconds {
				t.Errorf("got %q %d", msg, rl.Seconds)
			}
		})
	}
}
