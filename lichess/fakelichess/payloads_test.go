package fakelichess

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The fake's own payloads have the fields, and the kinds of values, of
// the examples of the official API description (testdata/recorded of
// package lichess): the fake answers in Lichess's shapes without building
// those examples into the program.
func TestPayloadsHaveLichessShapes(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		file    string
		line    int
	}{
		{"gameStart event", payloadGameStart, "event-stream.ndjson", 0},
		{"gameFinish event", payloadGameFinish, "event-stream.ndjson", 1},
		{"challenge event", payloadChallenge, "event-stream.ndjson", 2},
		{"account", payloadAccount, "account.json", 0},
		{"spectator description", payloadSpectatorDesc, "spectator-stream.ndjson", 0},
		{"games-by-users summary", payloadGameSummary, "games-by-users.ndjson", 0},
		{"TV featured", payloadTVFeatured, "tv-feed.ndjson", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "recorded", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if tc.line >= len(lines) {
				t.Fatalf("%s has %d lines", tc.file, len(lines))
			}
			want, got := shape(t, lines[tc.line]), shape(t, tc.payload)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fields of the fake's payload:\n%v\nof Lichess's example:\n%v", got, want)
			}
		})
	}
}

// shape is the kind of value at each path of a JSON document ("game.status.id":
// "number"); the elements of an array share the path "[]".
func shape(t *testing.T, doc string) map[string]string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			out[path] = "object"
			for k, e := range x {
				walk(path+"."+k, e)
			}
		case []any:
			out[path] = "array"
			for _, e := range x {
				walk(path+"[]", e)
			}
		default:
			out[path] = fmt.Sprintf("%T", x)
		}
	}
	walk("", v)
	return out
}
