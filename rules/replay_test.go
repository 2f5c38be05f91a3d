package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseStart(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		want    string
		variant Variant
		wantErr bool
	}{
		{name: "empty is the standard start", fen: "", want: StartFEN},
		{name: "spaces are the standard start", fen: "  ", want: StartFEN},
		{name: "a FEN", fen: "8/8/8/4k3/8/8/8/4K2R w K - 3 40", want: "8/8/8/4k3/8/8/8/4K2R w K - 3 40"},
		{name: "X-FEN with the king off e1 is standard chess, rights void", fen: "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
			want: "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w - - 0 1"},
		{name: "Shredder-FEN is Chess960", fen: "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1",
			want: "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1", variant: Chess960},
		{name: "Shredder-FEN with rooks in the corners is Chess960", fen: "rkbbqnnr/pppppppp/8/8/8/8/PPPPPPPP/RKBBQNNR w HAha - 0 1",
			want: "rkbbqnnr/pppppppp/8/8/8/8/PPPPPPPP/RKBBQNNR w KQkq - 0 1", variant: Chess960},
		{name: "a bad FEN", fen: "8/8/8 w - -", wantErr: true},
		{name: "startpos is not a FEN", fen: "startpos", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseStart(tt.fen)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && (p.FEN() != tt.want || p.Variant() != tt.variant) {
				t.Errorf("%s %q, want %s %q", p.Variant(), p.FEN(), tt.variant, tt.want)
			}
		})
	}
}

// TestWriteStart: every Chess960 start, and positions of standard chess,
// read back by ParseStart as the same position in the same variant.
func TestWriteStart(t *testing.T) {
	var starts []Position
	for n := 0; n < 960; n++ {
		p, err := Chess960Start(n)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, p)
	}
	for _, fen := range []string{StartFEN, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20", "8/8/8/4k3/8/8/8/4K3 w - - 0 1"} {
		p, _, err := ParseFENVariant(fen, Standard)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, p)
	}
	for _, p := range starts {
		s := WriteStart(p)
		back, err := ParseStart(s)
		if err != nil || back.Key() != p.Key() || back.Variant() != p.Variant() {
			t.Errorf("%s %s written %q reads back as %s %s, %v", p.Variant(), p.FEN(), s, back.Variant(), back.FEN(), err)
		}
	}
	if s := WriteStart(StartPosition()); s != "" {
		t.Errorf("the standard start is written %q, want \"\"", s)
	}
}

func TestNotationText(t *testing.T) {
	for _, n := range []Notation{SAN, UCI} {
		b, err := n.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Notation
		if err := back.UnmarshalText(b); err != nil || back != n {
			t.Errorf("%v: round trip %q gives %v, %v", n, b, back, err)
		}
	}
	var n Notation = UCI
	if err := n.UnmarshalText(nil); err != nil || n != SAN {
		t.Errorf(`"" reads as %v, %v; want san`, n, err)
	}
	if err := n.UnmarshalText([]byte("lan")); err == nil {
		t.Error("lan was read as a notation")
	}
	if _, err := Notation(7).MarshalText(); err == nil {
		t.Error("Notation(7) was written")
	}
}

// trace records the steps a Replay hands out: "0" for a (re)start, the
// token for a move.
type trace []string

func (tr *trace) step(s Step) {
	if s.Ply == 0 {
		*tr = append(*tr, "0")
		return
	}
	if s.Before.SAN(s.Move) == "" || s.Game.Ply() != s.Ply {
		panic("step without its position")
	}
	*tr = append(*tr, s.Token)
}

func TestReplaySync(t *testing.T) {
	const e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	type call struct {
		start  string
		n      Notation
		moves  string
		change Change
		steps  string // the tokens handed to each, "0" for a (re)start
		err    string // the error's text, "" for none
		ply    int    // the plies played afterwards
	}
	tests := []struct {
		name  string
		calls []call
	}{
		{name: "extension plays only new moves", calls: []call{
			{moves: "e4 e5", change: Change{Restarted: true}, steps: "0 e4 e5", ply: 2},
			{moves: "e4 e5 Nf3", change: Change{Had: 2, Kept: 2}, steps: "Nf3", ply: 3},
			{moves: "e4 e5 Nf3", change: Change{Had: 3, Kept: 3}, steps: "", ply: 3},
		}},
		{name: "a correction replays the common part", calls: []call{
			{moves: "e4 e5 Nf3 Nc6", change: Change{Restarted: true}, steps: "0 e4 e5 Nf3 Nc6", ply: 4},
			{moves: "e4 e5 Nc3", change: Change{Restarted: true, Rebuilt: true, Had: 4, Kept: 2}, steps: "0 e4 e5 Nc3", ply: 3},
		}},
		{name: "a takeback replays what is left", calls: []call{
			{moves: "e4 e5 Nf3", steps: "0 e4 e5 Nf3", change: Change{Restarted: true}, ply: 3},
			{moves: "e4 e5", change: Change{Restarted: true, Rebuilt: true, Had: 3, Kept: 2}, steps: "0 e4 e5", ply: 2},
		}},
		{name: "another start or notation starts over", calls: []call{
			{moves: "e4 e5", change: Change{Restarted: true}, steps: "0 e4 e5", ply: 2},
			{start: e4, moves: "e5", change: Change{Restarted: true, Rebuilt: true, NewStart: true, Had: 2}, steps: "0 e5", ply: 1},
			{n: UCI, moves: "e2e4", change: Change{Restarted: true, Rebuilt: true, NewStart: true, Had: 1}, steps: "0 e2e4", ply: 1},
		}},
		{name: "a bad start is reported once read", calls: []call{
			{start: "8/8 w", moves: "e4", change: Change{Restarted: true}, err: `start position "8/8 w"`, steps: "", ply: 0},
			{start: "8/8 w", moves: "e4 e5", err: `start position "8/8 w"`, steps: "", ply: 0},
			{start: "", moves: "e4", change: Change{Restarted: true}, steps: "0 e4", ply: 1},
		}},
		{name: "a bad move keeps the plies before it", calls: []call{
			{moves: "e4 e5 Ke3 Nf6", change: Change{Restarted: true}, steps: "0 e4 e5", err: "ply 3 (Ke3): illegal move", ply: 2},
			{moves: "e4 e5 Ke3 Nf6 Nf3", change: Change{Had: 2, Kept: 2}, steps: "", err: "ply 3 (Ke3): illegal move", ply: 2},
			{moves: "e4 e5 Ke2 Nf6", change: Change{Had: 2, Kept: 2}, steps: "Ke2 Nf6", ply: 4},
		}},
		{name: "an unreadable move", calls: []call{
			{n: UCI, moves: "e2e4 e7", change: Change{Restarted: true}, steps: "0 e2e4", err: "ply 2 (e7): unreadable move", ply: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Replay
			for i, c := range tt.calls {
				var tr trace
				got, err := r.Sync(c.start, c.n, strings.Fields(c.moves), tr.step)
				if got != c.change {
					t.Errorf("call %d: change %+v, want %+v", i+1, got, c.change)
				}
				if s := strings.Join(tr, " "); s != c.steps {
					t.Errorf("call %d: steps %q, want %q", i+1, s, c.steps)
				}
				if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
					t.Errorf("call %d: err %v, want %q", i+1, err, c.err)
				}
				if r.Ply() != c.ply || (r.Game() != nil && r.Game().Ply() != c.ply) {
					t.Errorf("call %d: ply %d, want %d", i+1, r.Ply(), c.ply)
				}
			}
		})
	}
}

func TestReplayErrorNamesPlyAndMove(t *testing.T) {
	var r Replay
	_, err := r.Sync("", SAN, []string{"e4", "e5", "Ke3"}, nil)
	var re *ReplayError
	if !errors.As(err, &re) || re.Ply != 3 || re.Token != "Ke3" || !errors.Is(err, ErrIllegal) {
		t.Fatalf("err = %#v, want ply 3, Ke3, ErrIllegal", err)
	}
	r.Reset()
	if r.Game() != nil || r.Ply() != 0 {
		t.Fatal("Reset kept the game")
	}
	_, err = r.Sync("8/8 w", SAN, nil, nil)
	var fe *FENError
	if !errors.As(err, &re) || re.Ply != 0 || !errors.As(err, &fe) {
		t.Fatalf("err = %#v, want a ply-0 ReplayError wrapping a FENError", err)
	}
}

func TestReplaySameArrayExtended(t *testing.T) {
	moves := make([]string, 0, 8)
	moves = append(moves, "e4", "e5")
	var r Replay
	if _, err := r.Sync("", SAN, moves, nil); err != nil {
		t.Fatal(err)
	}
	moves = append(moves, "Nf3")
	c, err := r.Sync("", SAN, moves, nil)
	if err != nil || c.Rebuilt || c.Kept != 2 || r.Ply() != 3 {
		t.Fatalf("change %+v, err %v, ply %d", c, err, r.Ply())
	}
	if !slices.Equal(r.Moves(), []string{"e4", "e5", "Nf3"}) {
		t.Errorf("moves %v", r.Moves())
	}
}

func TestReplayRewindThenExtend(t *testing.T) {
	var r Replay
	first := strings.Fields("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
	if _, err := r.Sync("", SAN, first, nil); err != nil {
		t.Fatal(err)
	}
	if r.Game().Count() != 3 {
		t.Fatalf("count %d, want 3", r.Game().Count())
	}
	// A correction at ply 5: Rewind stops at the common plies, so that a
	// caller can look at the game there before the new moves are played.
	second := strings.Fields("Nf3 Nf6 Ng1 Ng8 Nc3")
	c, err := r.Rewind("", SAN, second, nil)
	if err != nil || !c.Rebuilt || c.Kept != 4 || r.Ply() != 4 || r.Game().Count() != 2 {
		t.Fatalf("rewind: change %+v, err %v, ply %d", c, err, r.Ply())
	}
	var tr trace
	if err := r.Extend(second, tr.step); err != nil || r.Ply() != 5 || !slices.Equal(tr, trace{"Nc3"}) {
		t.Fatalf("extend: err %v, ply %d, steps %v", err, r.Ply(), tr)
	}
}

// A Replay follows a game whose whole move list arrives again and again:
// only the new moves are played, and a correction replays the game.
func ExampleReplay() {
	var r Replay
	show := func(s Step) {
		if s.Ply > 0 {
			fmt.Printf(" %d.%s", s.Ply, s.Before.SAN(s.Move))
		}
	}
	for _, list := range []string{"e2e4 e7e5", "e2e4 e7e5 g1f3", "e2e4 e7e5 b1c3"} {
		c, err := r.Sync("", UCI, strings.Fields(list), show)
		fmt.Printf(" (rebuilt %v, kept %d, err %v)\n", c.Rebuilt, c.Kept, err)
	}
	// Output:
	//  1.e4 2.e5 (rebuilt false, kept 0, err <nil>)
	//  3.Nf3 (rebuilt false, kept 2, err <nil>)
	//  1.e4 2.e5 3.Nc3 (rebuilt true, kept 2, err <nil>)
}
