package notify

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestTextEscapesControlCharacters: player names and sources come from
// the network; an escape sequence in one reached the terminal raw.
func TestTextEscapesControlCharacters(t *testing.T) {
	var out bytes.Buffer
	a := sampleAlert()
	a.Game.White = "\x1b]0;pwned\x07Mallory\x1b[2J"
	a.Source = "file evil\r\n.pgn"
	if err := NewText(&out).Send(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.ContainsAny(s[:len(s)-1], "\x1b\x07\r\n") || !strings.HasSuffix(s, "\n") {
		t.Fatalf("raw control characters written: %q", s)
	}
	if !strings.Contains(s, `\x1b]0;pwned\aMallory\x1b[2J`) || !strings.Contains(s, `evil\r\n.pgn`) {
		t.Fatalf("escapes missing: %q", s)
	}
}
