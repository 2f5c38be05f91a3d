package listener

import (
	"slices"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

func TestDGTGameUpdate(t *testing.T) {
	italian := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"}
	with := func(extra ...string) []string { return append(append([]string(nil), italian...), extra...) }
	steps := []struct {
		name    string
		raw     []string
		want    []string
		changed bool
		newGame bool
	}{
		{"start", italian[:2], italian[:2], true, false},
		{"the same list twice", italian[:2], italian[:2], false, false},
		{"several moves in one message", italian, italian, true, false},
		{"castling reported twice", with("O-O", "O-O"), with("O-O"), true, false},
		{"then the game goes on", with("O-O", "O-O", "Nf6"), with("O-O", "Nf6"), true, false},
		{"a takeback on the board", with("O-O"), with("O-O"), true, false},
		{"and another move instead", with("O-O", "d6"), with("O-O", "d6"), true, false},
		{"an impossible move is passed on", with("O-O", "d6", "Qxf9"), with("O-O", "d6", "Qxf9"), true, false},
		{"a new game", []string{}, nil, true, true},
		{"its first move", []string{"d4"}, []string{"d4"}, true, false},
	}
	g := &dgtGame{gen: 1, pos: rules.StartPosition()}
	for _, st := range steps {
		changed, newGame := g.update(st.raw)
		if changed != st.changed || newGame != st.newGame || !slices.Equal(g.moves, st.want) {
			t.Errorf("%s: changed %v new %v moves %v; want %v %v %v", st.name, changed, newGame, g.moves, st.changed, st.newGame, st.want)
		}
	}
	if g.gen != 2 {
		t.Errorf("gen = %d, want 2", g.gen)
	}
}
