package lichess

import (
	"strings"

	"github.com/threefold-chess/threefold/rules"
)

// StartFEN returns the start of a game as the rest of threefold writes it
// (see rules.ParseStart) from Lichess's initialFen: "" for the standard
// start, which Lichess writes "startpos", as its FEN, or leaves out.
func StartFEN(initialFEN string) string {
	fen := strings.TrimSpace(initialFEN)
	if fen == "startpos" || fen == rules.StartFEN {
		return ""
	}
	return fen
}
