package explain_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/pgn/scan"
	"github.com/threefold-chess/threefold/rules"
)

const knights = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"

// fiftyMoves is a start whose halfmove clock stands at 97: two more
// reversible half-moves complete the 50 moves.
const fiftyMoves = "4k3/8/8/8/8/8/4P3/4K1N1 w - - 97 80"

func TestClaim(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		moves    string
		ply      int    // -1: the last
		declared string // SAN, "" for none
		rule     string // "" when not correct
		occ      []int
		says     []string // in the reason or the notes
		near     []string // the kinds of the near repetitions' differences
	}{
		{name: "third occurrence (9.2.2)", moves: knights, ply: -1, rule: "9.2.2", occ: []int{0, 4, 8},
			says: []string{"White claims a draw at ply 8 (after 4...Ng8): the claim is correct (FIDE 9.2.2).", "has occurred 3 times, at plies 0 (the start position), 4 (2...Ng8), 8 (4...Ng8)"}},
		{name: "second occurrence only", moves: knights, ply: 4, occ: []int{0, 4},
			says: []string{"the claim is not correct", "has occurred twice, at plies 0 (the start position), 4 (2...Ng8)"}},
		{name: "by declaring the move (9.2.1)", moves: knights, ply: 7, declared: "Ng8", rule: "9.2.1", occ: []int{0, 4, 8},
			says: []string{"declaring 4...Ng8: the claim is correct (FIDE 9.2.1)", "makes, at ply 8, a position that has occurred 2 times before, at plies 0 (the start position), 4 (2...Ng8)"}},
		{name: "without the move it would make a third", moves: knights, ply: 7, occ: []int{3, 7},
			says: []string{"A claim declaring 4...Ng8 would be correct (9.2.1)."}},
		{name: "a declared move that makes a new position", moves: knights, ply: 7, declared: "Ng4", occ: []int{8},
			says: []string{"The declared move 4...Ng4 makes a position that has not occurred before.", "A claim declaring 4...Ng8 would be correct"}},
		{name: "a castling right lost in between", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			moves: "Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8", ply: -1, occ: []int{4, 8},
			says: []string{"At ply 0 (the start position) the pieces stood on the same squares with the same player to move, but it was not the same position:",
				"the king moved at ply 1 (1.Kf1), and a lost right never returns"},
			near: []string{"castling", "castling", "castling", "castling"}},
		{name: "en passant possible once", fen: "1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1",
			moves: "d5 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8", ply: -1, occ: []int{5, 9},
			says: []string{"White can capture en passant at ply 1: exd6, the pawn on e5 takes on d6; at ply 9 this capture is not possible."},
			near: []string{"en_passant"}},
		{name: "50 moves (9.3.2)", fen: fiftyMoves, moves: "Nf3 Kd8 Ng1", ply: -1, rule: "9.3.2", occ: []int{},
			says: []string{"in the last 50 moves of each player, since before the start position"}},
		{name: "50 moves by the declared move (9.3.1)", fen: fiftyMoves, moves: "Nf3 Kd8", ply: -1, declared: "Ng1", rule: "9.3.1", occ: []int{},
			says: []string{"The declared move 81.Ng1, neither a pawn move nor a capture, completes 50 moves"}},
		{name: "50 moves: a pawn move declared", fen: fiftyMoves, moves: "Nf3 Kd8", ply: -1, declared: "e4", occ: []int{3},
			says: []string{"for 99 half-moves", "A claim declaring a move that is neither a pawn move nor a capture would be correct (9.3.1)."}},
		{name: "after the fifth occurrence", moves: knights + " " + knights, ply: -1, rule: "9.2.2", occ: []int{0, 4, 8, 12, 16},
			says: []string{"The game was already drawn at ply 16 (after 8...Ng8)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := game(t, tt.fen, strings.Fields(tt.moves)...)
			ply := tt.ply
			if ply < 0 {
				ply = g.Plies()
			}
			declared := rules.NoMove
			if tt.declared != "" {
				p := g.Position(ply)
				var err error
				if declared, err = p.ParseSAN(tt.declared); err != nil {
					t.Fatal(err)
				}
			}
			r := explain.NewClaims(g, i18n.English).Check(ply, declared)
			rule := ""
			if r.Rule != nil {
				rule = *r.Rule
			}
			if r.Valid != (tt.rule != "") || rule != tt.rule || !slices.Equal(r.Occurrences, tt.occ) {
				t.Errorf("valid %v, rule %q, occurrences %v; want rule %q, occurrences %v", r.Valid, rule, r.Occurrences, tt.rule, tt.occ)
			}
			text := r.Text()
			for _, s := range tt.says {
				if !strings.Contains(text, s) {
					t.Errorf("it does not say %q:\n%s", s, text)
				}
			}
			var near []string
			for _, n := range r.NearRepetitions {
				for _, d := range n.Differences {
					near = append(near, d.Kind)
				}
			}
			if !slices.Equal(near, tt.near) {
				t.Errorf("near repetitions %v, want %v", near, tt.near)
			}
			at := g.Position(ply)
			if r.Claimant != at.Turn().String() || len(r.OccurrenceMoves) != len(r.Occurrences) || r.Reason == "" {
				t.Errorf("claimant %s, occurrence moves %v, reason %q", r.Claimant, r.OccurrenceMoves, r.Reason)
			}
		})
	}
}

// TestClaimAgreesWithScan: on every ply of the reference games, a claim
// without a declared move is correct under 9.2.2 exactly at scan's
// threefold plies; with or without a declared move, a claim by repetition
// is correct exactly at scan's claimable plies; and the first ply with a
// correct claim under 9.3 is scan's fifty_moves_ply.
func TestClaimAgreesWithScan(t *testing.T) {
	sources := refgames.All[:1]
	if !testing.Short() && !raceEnabled {
		sources = refgames.All[:2]
	}
	refgames.Run(t, sources, func(t *testing.T, set refgames.Set) {
		games, err := pgn.ParseGames(set.Text(t))
		if err != nil {
			t.Fatal(err)
		}
		checked, nearNamed := 0, 0
		for i, pg := range games {
			if raceEnabled && i%5 != 0 {
				continue
			}
			rep := scan.Analyse(pg, "")
			tracker, _ := pg.Replay(nil)
			if tracker == nil {
				continue
			}
			g, err := explain.NewGame(tracker.Start(), tracker.Moves())
			if err != nil {
				t.Fatal(err)
			}
			claims := explain.NewClaims(g, i18n.English)
			fifty := -1
			p := g.Start
			for ply := 0; ply <= g.Plies(); ply++ {
				if ply > 0 {
					p.Play(g.Moves[ply-1])
				}
				r := claims.Check(ply, rules.NoMove)
				rule := ""
				if r.Rule != nil {
					rule = *r.Rule
				}
				repetition := rule == "9.2.2"
				byFifty := rule == "9.3.2"
				for _, m := range p.LegalMoves(nil) {
					if p.PieceAt(m.From()).Type() == rules.Pawn || p.IsCapture(m) {
						continue // a new position, and no move that completes 50 without one
					}
					rm := claims.Check(ply, m)
					switch {
					case rm.Rule == nil:
					case *rm.Rule == "9.2.1":
						repetition = true
					case *rm.Rule == "9.3.1":
						byFifty = true
					}
				}
				if got, want := rule == "9.2.2", slices.Contains(rep.ThreefoldPlies, ply); got != want {
					t.Fatalf("%s game %d ply %d: claim says %q, scan's threefold plies %v", set.Name, i, ply, rule, rep.ThreefoldPlies)
				}
				if want := slices.Contains(rep.ClaimablePlies, ply); repetition != want {
					t.Fatalf("%s game %d ply %d: a claim by repetition correct: %v; scan's claimable plies %v", set.Name, i, ply, repetition, rep.ClaimablePlies)
				}
				if byFifty && fifty < 0 {
					fifty = ply
				}
				// The reason names the right difference: the components in
				// which the keys of the two plies differ.
				for _, n := range r.NearRepetitions {
					earlier := g.Position(n.Plies[0])
					want := earlier.Key().Diff(p.Key())
					var kinds []string
					for _, d := range n.Differences {
						kinds = append(kinds, d.Kind)
						if !strings.Contains(r.Reason, d.Explanation) {
							t.Errorf("%s game %d ply %d: the reason does not say %q", set.Name, i, ply, d.Explanation)
						}
					}
					kinds = slices.Compact(kinds) // one difference per castling right
					if want&(rules.DiffSideToMove|rules.DiffPlacement) != 0 || !slices.Equal(kinds, want.Names()) {
						t.Fatalf("%s game %d ply %d: near repetition of ply %d explained as %v; the keys differ in %v", set.Name, i, ply, n.Plies[0], kinds, want)
					}
					nearNamed++
				}
				checked++
			}
			if want := rep.FiftyMovesPly; (want == nil) != (fifty < 0) || want != nil && *want != fifty {
				t.Fatalf("%s game %d: the first correct claim under 9.3 at ply %d, scan's fifty_moves_ply %v", set.Name, i, fifty, fmtPtr(want))
			}
		}
		t.Logf("%s: %d plies checked, %d near repetitions named in incorrect claims", set.Name, checked, nearNamed)
	})
}

func fmtPtr(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
