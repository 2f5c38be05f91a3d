package lichess

import (
	"fmt"

	"github.com/threefold-chess/threefold/internal/i18n"
)

// Terms says what a challenge offers, in p's language: its clock ("3+2"
// as Lichess shows it, or made from its limit and increment when Lichess
// shows none), so many days per move, or unlimited; rated or casual; and
// the colour the challenger asked for (random, white or black; another
// value as it is).
func (c *Challenge) Terms(p *i18n.Printer) (clock, mode, colour string) {
	switch tc := c.TimeControl; {
	case tc.Type == "clock" && tc.Show != "":
		clock = tc.Show
	case tc.Type == "clock":
		clock = fmt.Sprintf("%g+%d", float64(tc.Limit)/60, tc.Increment)
	case tc.DaysPerTurn > 0:
		clock = p.Sprintf(i18n.ChallengeDays, tc.DaysPerTurn)
	default:
		clock = p.Sprintf(i18n.ChallengeUnlimited)
	}
	mode = p.Sprintf(i18n.ChallengeCasual)
	if c.Rated {
		mode = p.Sprintf(i18n.ChallengeRated)
	}
	switch c.Color {
	case "random":
		colour = p.Sprintf(i18n.ChallengeRandom)
	case "white":
		colour = p.Sprintf(i18n.ChallengeWhite)
	case "black":
		colour = p.Sprintf(i18n.ChallengeBlack)
	default:
		colour = c.Color
	}
	return clock, mode, colour
}
