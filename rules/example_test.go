package rules_test

import (
	"fmt"

	"github.com/threefold-chess/threefold/rules"
)

// A knight dance: the start position occurs for the third time after
// eight plies, and White, to move, may claim.
func ExampleGame() {
	g := rules.NewGame(rules.StartPosition())
	for _, mv := range []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"} {
		if _, err := g.PlayUCI(mv); err != nil {
			panic(err)
		}
	}
	fmt.Println(g.Count(), g.Occurrences(), g.CanClaimThreefold())
	// Output: 3 [0 4 8] true
}

// Claim by declared move (FIDE 9.2.1): the position after 1.Nf3 has
// occurred twice; White, to move after 4...Ng8, may claim by declaring
// Nf3 before playing it.
func ExampleGame_ClaimMoves() {
	g := rules.NewGame(rules.StartPosition())
	for _, mv := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"} {
		g.PlaySAN(mv)
	}
	p := g.Position()
	for _, m := range g.ClaimMoves(nil) {
		fmt.Println(p.SAN(m), g.OccurrencesOf(m))
	}
	// Output: Nf3 [1 5]
}

// The en passant square counts only when the capture is legal: after
// 1.e4 no black pawn can take, so the position is the same as one reached
// later by a knight shuffle, and its Key says so.
func ExamplePosition_Key() {
	a := rules.StartPosition()
	a.Play(mustUCI(&a, "e2e4"))
	b, _ := rules.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	fmt.Println(a.Key() == b.Key(), a.FEN())
	// Output: true rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
}

// Castling rights a FEN claims but the position cannot have are void.
func ExampleParseFENNotes() {
	p, notes, err := rules.ParseFENNotes("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1")
	fmt.Println(p.FEN(), err)
	fmt.Println(notes)
	// Output:
	// 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 <nil>
	// [castling right K is void: the white king is not on e1 or no white rook is on h1]
}

// Lichess sends castling as the king moving onto its rook.
func ExamplePosition_ParseUCI() {
	p, _ := rules.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	m, _ := p.ParseUCI("e1h1")
	fmt.Println(m.UCI(), p.SAN(m))
	// Output: e1g1 O-O
}

// ParseSAN reads what real PGN files contain.
func ExamplePosition_ParseSAN() {
	p, _ := rules.ParseFEN("4k3/P7/8/8/8/8/8/4K2R w K - 0 1")
	for _, s := range []string{"a8=Q+", "a8Q", "0-0", "Rh1-h8+!?"} {
		m, err := p.ParseSAN(s)
		fmt.Println(s, m.UCI(), err)
	}
	// Output:
	// a8=Q+ a7a8q <nil>
	// a8Q a7a8q <nil>
	// 0-0 e1g1 <nil>
	// Rh1-h8+!? h1h8 <nil>
}

func mustUCI(p *rules.Position, s string) rules.Move {
	m, err := p.ParseUCI(s)
	if err != nil {
		panic(err)
	}
	return m
}

// Chess960 castling: the king on g1 castles short by moving the rook
// alone; UCI writes it as the king taking its rook, SAN as O-O.
func ExampleParseFENVariant() {
	p, _, _ := rules.ParseFENVariant("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", rules.Chess960)
	m, _ := p.ParseSAN("O-O")
	fmt.Println(m.UCIChess960(), p.SAN(m))
	p.Play(m)
	fmt.Println(p.FEN())
	fmt.Println(p.ShredderFEN())
	// Output:
	// g1h1 O-O
	// 1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1
	// 1r4kr/8/8/8/8/8/8/1R3RK1 b hb - 1 1
}

// Chess960 start positions by their standard number; 518 is standard.
func ExampleChess960Start() {
	for _, n := range []int{0, 518, 959} {
		p, _ := rules.Chess960Start(n)
		fmt.Println(n, p.FEN())
	}
	// Output:
	// 0 bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1
	// 518 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
	// 959 rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1
}

// The same placement with the other side to move is another position
// (FIDE 9.2.3): the kings walk Kb1 Kg8 Kb2 Kh8 Ka1 back to where they
// stood, but now Black has the move. Clocks and move numbers differ too,
// which is never a reason.
func ExampleCompare() {
	g := rules.NewGame(mustFEN("7k/8/8/4p3/4P3/8/8/K7 w - - 0 1"))
	for _, mv := range []string{"Kb1", "Kg8", "Kb2", "Kh8", "Ka1"} {
		g.PlaySAN(mv)
	}
	a, b := g.Start(), g.Position()
	c := rules.Compare(&a, &b)
	fmt.Println(c.Same(), c.Diff, c.Squares, c.ClocksDiffer)
	// Output: false side_to_move [] true
}

// A right that does not return: the rook goes to h2 and back, the black
// knight to a6 and back. The placement is the same, the castling right is
// not, and the game says where it was lost.
func ExampleCompareInGame() {
	start := mustFEN("1n2k3/4p3/8/8/8/8/4P3/4K2R w K - 0 1")
	g := rules.NewGame(start)
	for _, mv := range []string{"Rh2", "Na6", "Rh1", "Nb8"} {
		g.PlaySAN(mv)
	}
	c, _ := rules.CompareInGame(start, g.Moves(), 0, 4)
	fmt.Println(c.Same(), c.Diff)
	for _, r := range c.Castling {
		fmt.Println(r.Color, r.Rook, r.Short, "held at ply", []int{0, 4}[r.HeldIn], "lost at ply", r.LostPly, "by", r.LostMove)
	}
	// Output:
	// false castling
	// white h1 true held at ply 0 lost at ply 1 by h1h2
}

// An en passant capture possible once and not later: after 1...d5 White
// could take exd6; after the knights went out and back, no more.
func ExampleComparison_enPassant() {
	start := mustFEN("1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1")
	g := rules.NewGame(start)
	for _, mv := range []string{"d5", "Nc3", "Nc6", "Nb1", "Nb8"} {
		g.PlaySAN(mv)
	}
	c, _ := rules.CompareInGame(start, g.Moves(), 1, 5)
	fmt.Println(c.Diff)
	for _, e := range c.EnPassant {
		fmt.Println("possible at ply", []int{1, 5}[e.In], e.Move)
	}
	// Output:
	// en_passant
	// possible at ply 1 e5d6
}

func mustFEN(s string) rules.Position {
	p, err := rules.ParseFEN(s)
	if err != nil {
		panic(err)
	}
	return p
}

// A right held counts, not whether castling is possible now: the knight on
// g1 blocks O-O, the right is held all the same.
func ExamplePosition_CastlingRights() {
	p := mustFEN("4k1nr/8/8/8/8/8/8/4K1NR w Kk - 0 1")
	for _, r := range p.CastlingRights() {
		fmt.Println(r.Color, r.Rook, r.Short)
	}
	// Output:
	// white h1 true
	// black h8 true
}

// A double push makes an en passant capture possible only if a pawn can
// legally take: after 1...d5 the pawn on e5 can; the one on c5 is pinned to
// the king on f2 by the bishop on a7 and cannot leave the diagonal.
func ExamplePosition_EnPassantCaptures() {
	g := rules.NewGame(mustFEN("4k3/b2p4/8/2P1P3/8/8/5K2/8 b - - 0 1"))
	g.PlaySAN("d5")
	p := g.Position()
	for _, m := range p.EnPassantCaptures() {
		fmt.Println(p.SAN(m))
	}
	// Output:
	// exd6
}

// Key.Diff names the components in which two positions differ, in the
// terms of FIDE 9.2.3 (the kind values of threefold's JSON).
func ExampleKey_Diff() {
	a := mustFEN("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
	b := mustFEN("4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
	d := a.Key().Diff(b.Key())
	fmt.Println(d, d.Has(rules.DiffCastling), d.Names())
	// Output: side_to_move,castling true [side_to_move castling]
}

// A caller that looks at every ply asks Notable first: on most plies it is
// false and nothing else needs asking. After the knights went out and
// back, the start position occurred twice.
func ExampleGame_Notable() {
	g := rules.NewGame(rules.StartPosition())
	for _, san := range []string{"Nf3", "Nf6", "Ng1", "Ng8"} {
		g.PlaySAN(san)
		if g.Notable() {
			fmt.Println(san, g.Count(), g.CanClaimRepetition(), g.HalfmoveClock())
		}
	}
	// Output: Ng8 2 false 4
}
