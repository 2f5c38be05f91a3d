package lichess_test

import (
	"testing"

	"github.com/threefold-chess/threefold/lichess"
)

// A game's result from Lichess's status and winner: a decisive end whose
// winner is not named is unknown ("*"), never a draw.
func TestResult(t *testing.T) {
	for _, row := range []struct {
		status, winner, want string
	}{
		{lichess.StatusStarted, "", "*"},
		{lichess.StatusMate, "white", "1-0"},
		{lichess.StatusResign, "black", "0-1"},
		{lichess.StatusMate, "", "*"},
		{lichess.StatusResign, "", "*"},
		{lichess.StatusCheat, "", "*"},
		{lichess.StatusVariantEnd, "", "*"},
		{lichess.StatusNoStart, "", "*"},
		{lichess.StatusUnknownFinish, "", "*"},
		{lichess.StatusAborted, "", "*"},
		{lichess.StatusDraw, "", "1/2-1/2"},
		{lichess.StatusStalemate, "", "1/2-1/2"},
		{lichess.StatusInsufficientMaterialClaim, "", "1/2-1/2"},
		{lichess.StatusOutOfTime, "", "1/2-1/2"}, // the flag fell against a side that could not mate
		{lichess.StatusOutOfTime, "white", "1-0"},
		{lichess.StatusTimeout, "", "1/2-1/2"}, // a draw claimed when the opponent left
		{lichess.StatusTimeout, "black", "0-1"},
	} {
		if got := lichess.Result(row.status, row.winner); got != row.want {
			t.Errorf("Result(%q, %q) = %q, want %q", row.status, row.winner, got, row.want)
		}
	}
}
