package lichess_test

import (
	"embed"
	"strings"
)

// The examples of the official Lichess API description (event, game,
// spectator, TV and broadcast streams, an account), as Lichess sends them:
// test fixtures only (GNU AGPL-3.0, as that description), never built into
// the program. The fake Lichess answers with payloads of its own written
// in the same shape (its tests compare them with these).
//
//go:embed testdata/recorded
var recordedFiles embed.FS

// recorded returns the non-empty lines of a file of testdata/recorded/
// (e.g. "event-stream.ndjson").
func recorded(name string) []string {
	var out []string
	for _, l := range strings.Split(recordedText(name), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// recordedText returns a file of testdata/recorded/ as it is.
func recordedText(name string) string {
	b, err := recordedFiles.ReadFile("testdata/recorded/" + name)
	if err != nil {
		panic("no recorded file " + name)
	}
	return string(b)
}
