package lichess

import (
	"fmt"
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

// StartFENVariant returns the start of a game in the Lichess variant
// variantKey ("standard", "fromPosition" or "chess960"; "" is standard)
// as rules.ParseStart reads it back, a Chess960 start in Shredder-FEN
// (Lichess writes X-FEN, KQkq, which ParseStart would read as standard
// chess). Another variant is a *rules.VariantError: its repetition rule
// differs and threefold does not follow it.
func StartFENVariant(initialFEN, variantKey string) (string, error) {
	v, err := rules.ParseVariant(variantKey)
	if err != nil {
		return "", err
	}
	fen := StartFEN(initialFEN)
	if v == rules.Standard {
		return fen, nil
	}
	p, _, err := rules.ParseStartVariant(fen, v)
	if err != nil {
		return "", fmt.Errorf("lichess %s start: %w", variantKey, err)
	}
	return rules.WriteStart(p), nil
}
