package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/rules"
)

// TestScanChess960MatchesReferenceAnnotations runs `threefold scan --json`
// on testdata/chess960.pgn — generated Chess960 games with repetitions,
// castling rights lost and kept, castling as the move that changes the
// position, under every name of the [Variant] tag, plus games in other
// variants — and compares every game, field by field, with the reference
// annotations in testdata/chess960.oracle.jsonl, computed with chessops
// 0.15.1, the rules library behind Lichess (testdata/chess960-annotate.mjs).
// Zero differences allowed.
func TestScanChess960MatchesReferenceAnnotations(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"scan", "--json", "testdata/chess960.pgn"}, nil, &stdout, &stderr); code != 3 {
		// 3: the games in unsupported variants are errors.
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got := readJSONLinesFrom(t, &stdout)
	f, err := os.Open("testdata/chess960.oracle.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := readJSONLinesFrom(t, f)
	if len(got) != len(want) {
		t.Fatalf("%d games scanned, %d annotated", len(got), len(want))
	}
	fields := append([]string{"variant"}, oracleFields...)
	var chess960, repeated, unsupported int
	for i := range want {
		if want[i]["variant"] == "chess960" {
			chess960++
			if n, _ := want[i]["max_occurrences"].(float64); n >= 3 {
				repeated++
			}
		}
		if msg, ok := want[i]["error"].(string); ok {
			unsupported++
			if e, _ := got[i]["error"].(string); !strings.Contains(e, msg) || got[i]["plies"] != float64(0) {
				t.Errorf("game %d: error %q after %v plies, want %q and 0 plies", i, e, got[i]["plies"], msg)
			}
			if got[i]["variant"] != want[i]["variant"] {
				t.Errorf("game %d: variant %v, want %v", i, got[i]["variant"], want[i]["variant"])
			}
			continue
		}
		for _, f := range fields {
			if !reflect.DeepEqual(got[i][f], want[i][f]) {
				t.Errorf("game %d: %s = %v, want %v", i, f, got[i][f], want[i][f])
			}
		}
	}
	if chess960 < 300 || repeated < 100 || unsupported < 5 {
		t.Errorf("the set is too thin: %d Chess960 games, %d with a threefold, %d unsupported", chess960, repeated, unsupported)
	}
}

// TestGenerateChess960Games writes testdata/chess960.pgn again (run it
// with THREEFOLD_GEN_960=1, then testdata/chess960-annotate.mjs for the
// reference annotations). The games are random but steered: knights,
// bishops, queens and kings shuffle back and forth so that positions
// repeat three and five times, rooks with a castling right leave and come
// back (the placement repeats, the position does not), kings step out and
// back, and castling is played whenever a phase asks for it.
func TestGenerateChess960Games(t *testing.T) {
	if os.Getenv("THREEFOLD_GEN_960") == "" {
		t.Skip("set THREEFOLD_GEN_960=1 to write testdata/chess960.pgn")
	}
	rng := rand.New(rand.NewPCG(960, 14))
	var out bytes.Buffer
	names := []string{"Chess960", "Chess960", "Chess960", "Chess960", "Chess 960", "Fischerandom", "Freestyle", "chess960"}
	n := 0
	write := func(tags [][2]string, sans []string) {
		n++
		fmt.Fprintf(&out, "[Event \"threefold Chess960 test\"]\n[Site \"generated\"]\n[Round \"%d\"]\n[White \"White\"]\n[Black \"Black\"]\n[Result \"*\"]\n", n)
		for _, tag := range tags {
			fmt.Fprintf(&out, "[%s %q]\n", tag[0], tag[1])
		}
		out.WriteString("\n")
		writeMovetext(&out, sans)
	}
	for i := 0; i < 320; i++ {
		g := &gameGen{rng: rng}
		sp := rng.IntN(960)
		if i%25 == 0 || i%40 == 7 {
			sp = 518 // i%40 == 7: without a [FEN] tag
		}
		start, _ := rules.Chess960Start(sp)
		g.p = start
		tags := [][2]string{{"Variant", names[rng.IntN(len(names))]}}
		if i%5 == 1 {
			// Start from a position a few moves in.
			g.random(4 + rng.IntN(16))
			g.sans = nil
		}
		if i%40 != 7 || g.p != start {
			fen := g.p.FEN()
			if rng.IntN(2) == 0 {
				fen = g.p.ShredderFEN()
			}
			tags = append(tags, [2]string{"SetUp", "1"}, [2]string{"FEN", fen})
		}
		g.plan(50+rng.IntN(70), i%4)
		write(tags, g.sans)
	}
	// Standard chess read through the [Variant] rules: Shredder letters of
	// the corner rooks, an inner file in an untagged game (Chess960), the
	// same under a Standard tag (void).
	for _, c := range []struct{ variant, fen string }{
		{"Standard", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1"},
		{"", "1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w FBfb - 0 1"},
		{"", "1rkr4/pppppppp/8/8/8/8/PPPPPPPP/1RKR4 w DBdb - 0 1"},
		{"Standard", "1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w FBfb - 0 1"},
		{"From Position", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"},
	} {
		for k := 0; k < 3; k++ {
			v := rules.Standard
			if c.variant == "" && strings.ContainsAny(strings.Fields(c.fen)[2], "BCDEFGbcdefg") {
				v = rules.Chess960
			}
			p, _, err := rules.ParseFENVariant(c.fen, v)
			if err != nil {
				t.Fatal(err)
			}
			g := &gameGen{rng: rng, p: p}
			g.plan(40+rng.IntN(60), 2)
			tags := [][2]string{{"SetUp", "1"}, {"FEN", c.fen}}
			if c.variant != "" {
				tags = append([][2]string{{"Variant", c.variant}}, tags...)
			}
			write(tags, g.sans)
		}
	}
	// Variants with other rules: an error each, nothing replayed.
	for _, v := range []string{"Crazyhouse", "Atomic", "Three-check", "King of the Hill", "Horde", "Racing Kings", "Antichess", "Duck Chess"} {
		write([][2]string{{"Variant", v}}, []string{"e4", "e5", "Nf3"})
	}
	if err := os.WriteFile(filepath.Join("testdata", "chess960.pgn"), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games", n)
}

func writeMovetext(out *bytes.Buffer, sans []string) {
	line := 0
	for i, s := range sans {
		tok := s
		if i%2 == 0 {
			tok = fmt.Sprintf("%d. %s", i/2+1, s)
		}
		if line+len(tok) > 78 {
			out.WriteString("\n")
			line = 0
		} else if line > 0 {
			out.WriteString(" ")
			line++
		}
		out.WriteString(tok)
		line += len(tok)
	}
	if line > 0 {
		out.WriteString(" ")
	}
	out.WriteString("*\n\n")
}

// gameGen plays one generated game.
type gameGen struct {
	rng  *rand.Rand
	p    rules.Position
	sans []string
}

func (g *gameGen) play(m rules.Move) {
	g.sans = append(g.sans, g.p.SAN(m))
	g.p.Play(m)
}

// reversible reports whether m can be undone by the same piece: no pawn
// move, no capture, no castling.
func (g *gameGen) reversible(m rules.Move) bool {
	return !m.IsCastling() && !g.p.IsCapture(m) && g.p.PieceAt(m.From()).Type() != rules.Pawn
}

// random plays n moves: castling when there is one (half the time), else
// a quiet move more often than a capture, so that games keep material.
func (g *gameGen) random(n int) {
	for ; n > 0; n-- {
		moves := g.p.LegalMoves(nil)
		if len(moves) == 0 {
			return
		}
		m := moves[g.rng.IntN(len(moves))]
		for _, c := range moves {
			if c.IsCastling() && g.rng.IntN(2) == 0 {
				m = c
			}
		}
		if g.p.IsCapture(m) && g.rng.IntN(3) > 0 {
			m = moves[g.rng.IntN(len(moves))]
		}
		g.play(m)
	}
}

// plan plays phases until the game has about plies half-moves. style
// decides how far positions repeat: 0 random play and castling only, 1
// back-and-forth stopped one ply short of a repetition (claims by declared
// move, 9.2.1, without a third occurrence), 2 up to a third or fourth
// occurrence, 3 up to a fifth.
func (g *gameGen) plan(plies, style int) {
	shuffles := [][2]int{{0, 0}, {5, 7}, {8, 13}, {16, 19}}[style]
	for len(g.sans) < plies && len(g.p.LegalMoves(nil)) > 0 {
		n := shuffles[0] + g.rng.IntN(shuffles[1]-shuffles[0]+1)
		switch g.rng.IntN(8) {
		case 0, 1, 2:
			g.random(1 + g.rng.IntN(8))
		case 3, 4:
			g.shuffle(n, nil)
			if style == 1 {
				shuffles = [2]int{} // one shuffle: a second could complete a third occurrence
			}
		case 5:
			// A rook with a castling right leaves and comes back: the
			// placement repeats, the position does not.
			g.shuffle(n, func(m rules.Move) bool {
				return g.p.PieceAt(m.From()).Type() == rules.Rook && m.From().Rank() == m.To().Rank()
			})
		case 6:
			g.shuffle(n, func(m rules.Move) bool { return g.p.PieceAt(m.From()).Type() == rules.King })
		case 7:
			g.castle()
		}
	}
}

// castle plays a castling move of the side to move if it has one, else a
// random move.
func (g *gameGen) castle() {
	for _, m := range g.p.LegalMoves(nil) {
		if m.IsCastling() {
			g.play(m)
			return
		}
	}
	g.random(1)
}

// shuffle has both sides make a reversible move (the first side's chosen
// by want when not nil) and take it back, for plies half-moves in all:
// a, b, a back, b back, a, ... Every four plies the position before it
// occurs once more, unless a move lost a castling right, which makes every
// position after it new.
func (g *gameGen) shuffle(plies int, want func(rules.Move) bool) {
	if plies == 0 {
		g.random(1)
		return
	}
	var cands []rules.Move
	for _, m := range g.p.LegalMoves(nil) {
		if g.reversible(m) && (want == nil || want(m)) {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		g.random(1)
		return
	}
	cycle := []rules.Move{cands[g.rng.IntN(len(cands))]}
	for i := 0; i < plies; i++ {
		if i == 1 {
			var replies []rules.Move
			for _, m := range g.p.LegalMoves(nil) {
				if g.reversible(m) {
					replies = append(replies, m)
				}
			}
			if len(replies) == 0 {
				return
			}
			b := replies[g.rng.IntN(len(replies))]
			cycle = []rules.Move{cycle[0], b, rules.NewMove(cycle[0].To(), cycle[0].From(), rules.NoPieceType), rules.NewMove(b.To(), b.From(), rules.NoPieceType)}
		}
		m := cycle[i%len(cycle)]
		if !g.p.IsLegal(m) {
			return
		}
		g.play(m)
	}
}
