package listener

import (
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// When several moves may be declared, the claim_by_move alert names the
// first in Move and the others in OtherMovesSAN.
func TestClaimByMoveNamesEveryMove(t *testing.T) {
	moves := strings.Fields("a1a3 e8f8 a3b3 f8g8 b3b1 g8f8 b1b2 f8g8 b2b1 g8f8 b1b3 f8g8 b3a3 g8h8 a3b3 h8g8 b3a3 g8h8 a3a1 h8g8")
	var got []threefold.Alert
	w := NewWatcher(WatcherOptions{Alert: func(a threefold.Alert) { got = append(got, a) }})
	w.Apply(threefold.GameState{Game: threefold.GameRef{Site: "test", ID: "two-claims"}, StartFEN: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
		Notation: rules.UCI, Moves: moves})
	for _, a := range got {
		if a.Kind != threefold.KindClaimByMove || a.Ply != 20 {
			continue
		}
		all := append([]string{a.MoveSAN}, a.OtherMovesSAN...)
		slices.Sort(all)
		if !slices.Equal(all, []string{"Ra3", "Rb1"}) {
			t.Fatalf("declarable moves %v, want Ra3 and Rb1", all)
		}
		return
	}
	t.Fatalf("no claim_by_move alert at ply 20; alerts: %+v", got)
}
