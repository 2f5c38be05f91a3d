package rules_test

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/threefold-chess/threefold/rules"
)

// TestDifferentialNotnil plays random legal games and checks package rules
// against notnil/chess, an independent implementation: the same legal
// moves, the same SAN for each, the same FEN after each move. Where the
// two libraries differ on purpose the test knows why: notnil keeps the en
// passant square after every double push (we keep it only when a capture
// is legal) and keeps a castling right after its rook was captured at
// home; such a game is followed only until that point.
func TestDifferentialNotnil(t *testing.T) {
	games, plies := 300, 160
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var (
		san      chess.AlgebraicNotation
		uci      chess.UCINotation
		compared int
		cutShort int
	)
	for gi := 0; gi < games; gi++ {
		pos := rules.StartPosition()
		ref := chess.StartingPosition()
	game:
		for ply := 0; ply < plies; ply++ {
			ours := pos.LegalMoves(nil)
			theirs := ref.ValidMoves()
			if len(ours) == 0 && len(theirs) == 0 {
				break
			}
			ourUCI := make([]string, len(ours))
			ourSAN := map[string]string{}
			for i, m := range ours {
				ourUCI[i] = m.UCI()
				ourSAN[m.UCI()] = pos.SAN(m)
			}
			refUCI := make([]string, len(theirs))
			refSAN := map[string]string{}
			for i, m := range theirs {
				refUCI[i] = uci.Encode(ref, m)
				refSAN[refUCI[i]] = san.Encode(ref, m)
			}
			sort.Strings(ourUCI)
			sort.Strings(refUCI)
			if strings.Join(ourUCI, " ") != strings.Join(refUCI, " ") {
				if castlingFieldsDiffer(&pos, ref) {
					cutShort++
					break game
				}
				t.Fatalf("game %d ply %d %s: legal moves differ:\n ours   %v\n notnil %v", gi, ply, pos.FEN(), ourUCI, refUCI)
			}
			for u, s := range ourSAN {
				if refSAN[u] != s {
					t.Fatalf("game %d ply %d %s: SAN of %s: ours %q, notnil %q", gi, ply, pos.FEN(), u, s, refSAN[u])
				}
			}
			m := ours[rng.IntN(len(ours))]
			pos.Play(m)
			ref = ref.Update(theirs[indexOf(theirs, ref, m.UCI())])
			compared++
			if msg := compareFEN(pos.FEN(), ref.String()); msg != "" {
				if castlingFieldsDiffer(&pos, ref) {
					cutShort++
					break game
				}
				t.Fatalf("game %d ply %d after %s: %s", gi, ply, m.UCI(), msg)
			}
		}
	}
	t.Logf("%d plies compared in %d games; %d games stopped at notnil's castling-right bug", compared, games, cutShort)
	if compared < games*20 {
		t.Fatalf("only %d plies compared", compared)
	}
}

func indexOf(theirs []*chess.Move, ref *chess.Position, u string) int {
	var uci chess.UCINotation
	for i, m := range theirs {
		if uci.Encode(ref, m) == u {
			return i
		}
	}
	return -1
}

func castlingFieldsDiffer(p *rules.Position, ref *chess.Position) bool {
	return strings.Fields(p.FEN())[2] != strings.Fields(ref.String())[2]
}

// compareFEN compares our FEN with notnil's: every field must be equal,
// except that notnil writes an e.p. square after every double push; ours
// must then be that square or "-".
func compareFEN(ours, theirs string) string {
	a, b := strings.Fields(ours), strings.Fields(theirs)
	if len(a) != 6 || len(b) != 6 {
		return "malformed FEN: ours " + ours + ", notnil " + theirs
	}
	for i := range a {
		if a[i] == b[i] || (i == 3 && a[i] == "-") {
			continue
		}
		return "FEN differs: ours " + ours + ", notnil " + theirs
	}
	return ""
}
