package listener

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

func snap(id string, moves []string) threefold.GameState {
	return threefold.GameState{Game: threefold.GameRef{Site: "test", ID: id}, Source: "test", Notation: rules.SAN, Moves: moves}
}

func TestWatcherMoveByMoveAlerts(t *testing.T) {
	c := newCollector()
	for i := 0; i <= len(anandMoves); i++ {
		c.w.Apply(snap("g", anandMoves[:i]))
	}
	k := c.kinds("g")
	if !slices.Equal(k[threefold.KindClaimByMove], []int{51}) || !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Fatalf("alerts %v, want claim_by_move at 51 and threefold at 52", k)
	}
	for _, a := range c.alerts {
		if a.Kind == threefold.KindClaimByMove {
			// Black to move after 26. Bf3 may declare 26...Qf5, reaching the
			// position of plies 44 and 48 the third time.
			if a.Move != "h5f5" || a.MoveSAN != "Qf5" || a.Claimant != "black" || a.Count != 3 || a.SAN != "Bf3" ||
				!slices.Equal(a.Occurrences, []int{44, 48}) || !slices.Equal(a.OccurrenceSAN, []string{"Qf5", "Qf5"}) {
				t.Errorf("claim_by_move proof: %+v", a)
			}
		}
		if a.ID != threefold.AlertID(a.Game, a.Kind, a.Ply, a.Move) {
			t.Errorf("alert id %s is not AlertID of its fields", a.ID)
		}
	}
}

func TestWatcherIdempotentAndRebuild(t *testing.T) {
	var logs bytes.Buffer
	c := newCollector()
	c.w.log = slog.New(slog.NewTextHandler(&logs, nil))
	full := anandMoves
	c.w.Apply(snap("g", full))
	c.w.Apply(snap("g", full)) // the same snapshot again
	if n := c.alertCount(); n != 2 {
		t.Fatalf("%d alerts, want 2 (the same snapshot twice raises nothing twice)", n)
	}
	// A takeback to ply 40 withdraws both; the moves played again raise
	// them again, as new alerts.
	c.w.Apply(snap("g", full[:40]))
	c.w.Apply(snap("g", append([]string(nil), full...)))
	var kinds []threefold.AlertKind
	for _, a := range c.alerts[2:] {
		kinds = append(kinds, a.Kind)
	}
	want := []threefold.AlertKind{threefold.KindWithdrawn, threefold.KindWithdrawn, threefold.KindClaimByMove, threefold.KindThreefold}
	if !slices.Equal(kinds, want) {
		t.Errorf("after a takeback and the moves again: %v, want %v", kinds, want)
	}
	n := c.alertCount()
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicate ids %v", d)
	}
	st := c.w.Status()
	if len(st) != 1 || st[0].Rebuilds != 1 || st[0].Ply != len(full) {
		t.Errorf("status %+v, want 1 rebuild at ply %d", st, len(full))
	}
	if !strings.Contains(logs.String(), "rebuilding") {
		t.Errorf("no log line about the rebuild:\n%s", logs.String())
	}
	// A finished game lets its tracker go; sent again, it raises nothing.
	fin := snap("g", full)
	fin.Finished, fin.Result = true, "1/2-1/2"
	c.w.Apply(fin)
	c.w.Apply(fin)
	if c.alertCount() != n || c.w.games[gameKey{"test", "g"}].game != nil {
		t.Errorf("finished game: %d alerts (want %d), tracker kept: %v", c.alertCount(), n, c.w.games[gameKey{"test", "g"}].game != nil)
	}
	if st := c.w.Status(); !st[0].Finished || st[0].Ply != len(full) {
		t.Errorf("finished status %+v", st[0])
	}
}

func TestWatcherCorrectionChangesAlerts(t *testing.T) {
	c := newCollector()
	// A correction of ply 50 (…Qh5 replaced by …Qg6) changes the claim at
	// ply 51 (now by …Qg6-f5) and removes the third occurrence.
	c.w.Apply(snap("g", anandMoves[:50]))
	corrected := append(append([]string(nil), anandMoves[:49]...), "Qg6", "Bf3")
	c.w.Apply(snap("g", corrected))
	if k := c.kinds("g"); len(k[threefold.KindThreefold]) != 0 {
		t.Errorf("threefold alert after the correction: %v", k)
	}
	var moves []string
	for _, a := range c.alerts {
		moves = append(moves, a.Move)
	}
	if !slices.Equal(moves, []string{"g6f5"}) {
		t.Errorf("claims after the correction: %v, want g6f5 at ply 51", moves)
	}
	c.w.Apply(snap("g", anandMoves)) // corrected back: the repetition is there
	k := c.kinds("g")
	if !slices.Equal(k[threefold.KindThreefold], []int{52}) || !slices.Equal(k[threefold.KindClaimByMove], []int{51, 51}) {
		t.Errorf("alerts %v, want claim_by_move 51 (g6f5, then h5f5) and threefold 52", k)
	}
	if st := c.w.Status(); st[0].Rebuilds != 2 {
		t.Errorf("rebuilds = %d, want 2", st[0].Rebuilds)
	}
}

func TestWatcherIllegalMoveNeedsAttention(t *testing.T) {
	var logs bytes.Buffer
	c := newCollector()
	c.w.log = slog.New(slog.NewTextHandler(&logs, nil))
	bad := append(append([]string(nil), anandMoves[:20]...), "Qxh7", "Rc8")
	c.w.Apply(snap("bad", bad))
	c.w.Apply(snap("other", anandMoves)) // another game goes on
	c.w.Apply(snap("bad", append(append([]string(nil), bad...), "a5")))
	var got *Attention
	for _, st := range c.w.Status() {
		if st.Game.ID == "bad" {
			got = st.Attention
			if st.Ply != 20 {
				t.Errorf("bad game followed to ply %d, want 20", st.Ply)
			}
		}
	}
	if got == nil || got.Ply != 21 || got.Token != "Qxh7" {
		t.Fatalf("attention = %+v, want ply 21 token Qxh7", got)
	}
	if n := strings.Count(logs.String(), "needs attention"); n != 1 {
		t.Errorf("%d needs-attention log lines, want 1:\n%s", n, logs.String())
	}
	if k := c.kinds("other"); !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Errorf("the other game: %v", k)
	}
	c.w.Apply(snap("bad", anandMoves)) // the record is corrected
	for _, st := range c.w.Status() {
		if st.Game.ID == "bad" && st.Attention != nil {
			t.Errorf("still needs attention after a clean snapshot: %+v", st.Attention)
		}
	}
	if k := c.kinds("bad"); !slices.Equal(k[threefold.KindThreefold], []int{52}) {
		t.Errorf("the corrected game: %v", k)
	}
}

func TestWatcherUCIAndMoveRules(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		notation rules.Notation
		moves    []string
		want     map[threefold.AlertKind][]int
	}{
		{name: "uci knight shuffle", notation: rules.UCI,
			moves: []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			want: map[threefold.AlertKind][]int{
				threefold.KindClaimByMove: {7},
				// The fifth occurrence ends the game: no claim alert at it.
				threefold.KindThreefold: {8, 9, 10, 11, 12, 13, 14, 15},
				threefold.KindFivefold:  {16},
			}},
		{name: "uci king-to-rook castling", notation: rules.UCI, fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			moves: []string{"e1h1", "e8a8"}, want: map[threefold.AlertKind][]int{}},
		{name: "fifty moves by declared move, then at 100", fen: "8/8/4k3/8/8/4K3/8/7R w - - 98 80", notation: rules.SAN,
			moves: []string{"Rh2", "Kd6", "Rh3"},
			want:  map[threefold.AlertKind][]int{threefold.KindFiftyMoves: {1}}},
		// The 75-move rule ends the game at the third occurrence: no claim
		// alert at that ply.
		{name: "seventy-five moves at a third occurrence", fen: "8/8/4k3/8/8/4K3/8/7R w - - 142 80", notation: rules.SAN,
			moves: []string{"Rh2", "Kd6", "Rh1", "Ke6", "Rh2", "Kd6", "Rh1", "Ke6"},
			want: map[threefold.AlertKind][]int{threefold.KindFiftyMoves: {0}, threefold.KindClaimByMove: {7},
				threefold.KindSeventyFiveMoves: {8}}},
		// At 99 a claim by declared move exists (ply 0); the clock then
		// reaches 100 with a mating move, where no claim exists.
		{name: "fifty moves reached by mate", fen: "7k/8/6K1/8/8/8/8/1Q6 w - - 99 80", notation: rules.SAN,
			moves: []string{"Qb8#"}, want: map[threefold.AlertKind][]int{threefold.KindFiftyMoves: {0}}},
		// A [FEN] whose clock is 100 already: the claim is there at ply 0.
		{name: "fifty moves at the start", fen: "7k/8/6K1/8/8/8/8/6Q1 w - - 100 80", notation: rules.SAN,
			moves: []string{"Kf6"}, want: map[threefold.AlertKind][]int{threefold.KindFiftyMoves: {0}}},
		{name: "seventy-five moves", fen: "8/8/4k3/8/8/4K3/8/7R w - - 149 80", notation: rules.SAN,
			moves: []string{"Rh2", "Kd6"},
			want:  map[threefold.AlertKind][]int{threefold.KindFiftyMoves: {0}, threefold.KindSeventyFiveMoves: {1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCollector()
			s := snap("g", nil)
			s.StartFEN, s.Notation = tc.fen, tc.notation
			for i := 0; i <= len(tc.moves); i++ {
				s.Moves = tc.moves[:i]
				c.w.Apply(s)
			}
			st := c.w.Status()[0]
			if st.Attention != nil || st.Ply != len(tc.moves) {
				t.Fatalf("status %+v", st)
			}
			got := c.kinds("g")
			for k, want := range tc.want {
				if !slices.Equal(got[k], want) {
					t.Errorf("%s alerts at %v, want %v", k, got[k], want)
				}
			}
			for k, plies := range got {
				if _, ok := tc.want[k]; !ok {
					t.Errorf("unexpected %s alerts at %v", k, plies)
				}
			}
		})
	}
}

func TestWatcherPlyAnchorAndAudience(t *testing.T) {
	c := newCollector()
	s := snap("g", anandMoves)
	s.Game.URL = "https://lichess.org/abcdefgh"
	s.PlyAnchor = true
	s.Audience = threefold.AudienceArbiters
	c.w.Apply(s)
	for _, a := range c.alerts {
		if !strings.HasSuffix(a.Game.URL, "#"+strconv.Itoa(a.Ply)) || a.Audience != threefold.AudienceArbiters {
			t.Errorf("alert link %q audience %q", a.Game.URL, a.Audience)
		}
	}
	if len(c.alerts) == 0 {
		t.Fatal("no alerts")
	}
}

// TestWatcherWithdraws: an alert raised on moves the source corrects is
// withdrawn, unless the corrected moves raise it again; a withdrawn event
// that holds again is raised again under a new id.
func TestWatcherWithdraws(t *testing.T) {
	ref := threefold.GameRef{Site: "test", ID: "g"}
	claim := threefold.AlertID(ref, threefold.KindClaimByMove, 51, "h5f5")
	three := threefold.AlertID(ref, threefold.KindThreefold, 52, "")
	with := func(prefix int, extra ...string) []string {
		return append(append([]string(nil), anandMoves[:prefix]...), extra...)
	}
	type want struct {
		withdraws string
		kind      threefold.AlertKind
		reason    string
	}
	tests := []struct {
		name   string
		steps  []threefold.GameState
		want   []want // the withdrawals after the first snapshot, in order
		raised int    // alerts other than withdrawals after the first snapshot
	}{
		{name: "the last move corrected: the third occurrence goes, the claim stays",
			steps: []threefold.GameState{snap("g", anandMoves), snap("g", with(51, "Qg6"))},
			want:  []want{{three, threefold.KindThreefold, "the source corrected the moves from ply 52"}}},
		{name: "a move before both corrected",
			steps: []threefold.GameState{snap("g", anandMoves), snap("g", with(49, "Qg6", "Bf3", "Qg5"))},
			want: []want{{claim, threefold.KindClaimByMove, "the source corrected the moves from ply 50"},
				{three, threefold.KindThreefold, "the source corrected the moves from ply 50"}},
			raised: 1}, // the claim by …Qg6-f5 at ply 51
		{name: "moves taken back",
			steps: []threefold.GameState{snap("g", anandMoves), snap("g", with(50))},
			want: []want{{claim, threefold.KindClaimByMove, "the source took back the moves from ply 51: the game now has 50"},
				{three, threefold.KindThreefold, "the source took back the moves from ply 51: the game now has 50"}}},
		{name: "the same moves again, and corrected to the same: nothing",
			steps: []threefold.GameState{snap("g", anandMoves), snap("g", with(52)), snap("g", with(51, "Qf5"))}},
		{name: "a start position that changed",
			steps: []threefold.GameState{snap("g", anandMoves), {Game: ref, Source: "test", Notation: rules.SAN,
				StartFEN: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", Moves: []string{"Kd1"}}},
			want: []want{{claim, threefold.KindClaimByMove, "the source changed the start position"},
				{three, threefold.KindThreefold, "the source changed the start position"}}},
		{name: "an illegal move before the alerts: nothing withdrawn until the moves replay",
			steps: []threefold.GameState{snap("g", anandMoves), snap("g", with(40, "Qxh7"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCollector()
			c.w.Apply(tt.steps[0])
			first := c.alertCount()
			if first != 2 {
				t.Fatalf("%d alerts from the whole game, want 2", first)
			}
			for _, s := range tt.steps[1:] {
				c.w.Apply(s)
			}
			var got []want
			raised := 0
			for _, a := range c.alerts[first:] {
				if a.Kind != threefold.KindWithdrawn {
					raised++
					continue
				}
				got = append(got, want{a.Withdraws, a.WithdrawnKind, a.Reason})
				if a.ID != threefold.AlertID(ref, threefold.KindWithdrawn, a.Ply, a.Withdraws) || a.Game != ref || a.Source != "test" {
					t.Errorf("withdrawal %+v: id or game", a)
				}
				for _, o := range c.alerts[:first] {
					if o.ID == a.Withdraws && (o.Ply != a.Ply || o.FEN != a.FEN || o.Claimant != a.Claimant || o.Move != a.Move) {
						t.Errorf("withdrawal %+v does not carry the ply, FEN, claimant and move of %+v", a, o)
					}
				}
			}
			if !slices.Equal(got, tt.want) || raised != tt.raised {
				t.Errorf("withdrawals %+v and %d raised, want %+v and %d", got, raised, tt.want, tt.raised)
			}
		})
	}
}

// TestWatcherRaisesAgainAfterWithdrawal: moves corrected back to what they
// were make the withdrawn events hold again: raised again under revised
// ids, and withdrawn again under ids of their own.
func TestWatcherRaisesAgainAfterWithdrawal(t *testing.T) {
	ref := threefold.GameRef{Site: "test", ID: "g"}
	c := newCollector()
	short := anandMoves[:51]
	c.w.Apply(snap("g", anandMoves))
	c.w.Apply(snap("g", short)) // withdraws the threefold
	c.w.Apply(snap("g", anandMoves))
	c.w.Apply(snap("g", short))
	c.w.Apply(snap("g", anandMoves))
	var ids []string
	for _, a := range c.alerts {
		if a.Ply == 52 {
			ids = append(ids, string(a.Kind)+":"+a.ID)
		}
	}
	r0 := threefold.AlertID(ref, threefold.KindThreefold, 52, "")
	r1 := threefold.RevisedAlertID(ref, threefold.KindThreefold, 52, "", 1)
	r2 := threefold.RevisedAlertID(ref, threefold.KindThreefold, 52, "", 2)
	w := func(id string) string {
		return "withdrawn:" + threefold.AlertID(ref, threefold.KindWithdrawn, 52, id)
	}
	want := []string{"threefold:" + r0, w(r0), "threefold:" + r1, w(r1), "threefold:" + r2}
	if !slices.Equal(ids, want) {
		t.Errorf("alerts at ply 52:\n%v\nwant\n%v", ids, want)
	}
	if d := c.duplicates(); len(d) > 0 {
		t.Errorf("duplicate ids %v", d)
	}
}

// TestWatcherNearRepetitions: an alert about a position says which earlier
// moments had its placement and side to move but were other positions:
// the third placement that does not count.
func TestWatcherNearRepetitions(t *testing.T) {
	kings := strings.Fields("Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8")
	knights := strings.Fields("d5 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8")
	tests := []struct {
		name  string
		fen   string
		moves []string
		want  []string // each alert: kind, ply, occurrences, near repetitions
	}{
		{name: "castling rights lost on the way", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", moves: kings,
			want: []string{"claim_by_move 9 [2 6] []", "threefold 10 [2 6 10] []", "threefold 11 [3 7 11] []",
				"threefold 12 [4 8 12] [{[0] [castling]}]"}},
		{name: "a claim by declared move into a position that lost its castling rights", fen: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
			moves: strings.Fields("Kf1 Kf8 Ke1 Ke8 Rb1 Kd8 Ra1 Ke8 Rb1 Kd8 Ra1 Ke8"),
			want:  []string{"claim_by_move 11 [4 8] [{[0] [castling]}]", "threefold 12 [4 8 12] [{[0] [castling]}]"}},
		{name: "an en passant capture possible once", fen: "1n2k3/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1", moves: knights,
			want: []string{"claim_by_move 9 [2 6] []", "threefold 10 [2 6 10] []", "threefold 11 [3 7 11] []",
				"threefold 12 [4 8 12] []", "threefold 13 [5 9 13] [{[1] [en_passant]}]"}},
		{name: "a plain repetition", moves: strings.Fields("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"),
			want: []string{"claim_by_move 7 [0 4] []", "threefold 8 [0 4 8] []"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCollector()
			s := snap("g", nil)
			s.StartFEN = tc.fen
			for i := 0; i <= len(tc.moves); i++ {
				s.Moves = tc.moves[:i]
				c.w.Apply(s)
			}
			var got []string
			for _, a := range c.alerts {
				got = append(got, fmt.Sprint(a.Kind, " ", a.Ply, " ", a.Occurrences, " ", cmpNear(a.NearRepetitions)))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("alerts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func cmpNear(ns []threefold.NearRepetition) string {
	var parts []string
	for _, n := range ns {
		if n.Ply != 0 {
			return "an alert's near repetition names a ply of its own: " + fmt.Sprint(n)
		}
		parts = append(parts, fmt.Sprint("{", n.SamePlacementAs, " ", n.Differences, "}"))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// A finished game whose state says it is the last (a file read once) is
// forgotten at its source's next state, not after the grace period: the
// recorder asks the watcher how it ended in between. A game whose state
// is not the last, or not finished, stays; another source's state does
// not forget it.
func TestWatcherForgetsGamesAfterTheirLastState(t *testing.T) {
	finished := func(id, source string, last bool) threefold.GameState {
		s := snap(id, anandMoves)
		s.Source, s.Result, s.Finished, s.Last = source, "1/2-1/2", true, last
		return s
	}
	playing := func(id, source string) threefold.GameState {
		s := snap(id, anandMoves[:10])
		s.Source = source
		return s
	}
	unfinishedLast := func(id, source string) threefold.GameState {
		s := playing(id, source)
		s.Result, s.Last = "*", true
		return s
	}
	steps := []struct {
		name  string
		state threefold.GameState
		held  []string // the games the watcher holds after it
	}{
		{"a's last state", finished("a", "f1", true), []string{"a"}},
		{"another source's game", playing("x", "f2"), []string{"a", "x"}},
		{"the next game of a's source", playing("b", "f1"), []string{"b", "x"}},
		{"b finished, not its last state", finished("b", "f1", false), []string{"b", "x"}},
		{"c's last state", finished("c", "f1", true), []string{"b", "c", "x"}},
		{"d's last state", finished("d", "f1", true), []string{"b", "d", "x"}},
		{"d again: a game named twice", finished("d", "f1", true), []string{"b", "d", "x"}},
		{"e, without a result: its last state", unfinishedLast("e", "f1"), []string{"b", "e", "x"}},
		{"the next game of e's source", playing("g", "f1"), []string{"b", "g", "x"}},
		{"y, without a result, from another source", playing("y", "f2"), []string{"b", "g", "x", "y"}},
		{"y's last state from f1", unfinishedLast("y", "f1"), []string{"b", "g", "x", "y"}},
		{"y goes on in f2", playing("y", "f2"), []string{"b", "g", "x", "y"}},
		{"the next game of f1: y is f2's", playing("h", "f1"), []string{"b", "g", "h", "x", "y"}},
	}
	c := newCollector()
	for _, st := range steps {
		c.w.Apply(st.state)
		if st.state.Finished {
			if _, plies, ok := c.w.Termination("test", st.state.Game.ID); !ok || plies != len(anandMoves) {
				t.Errorf("%s: the watcher does not say how %s ended (%d plies, %v)", st.name, st.state.Game.ID, plies, ok)
			}
		}
		var held []string
		for _, g := range c.w.Status() {
			held = append(held, g.Game.ID)
		}
		slices.Sort(held)
		if !slices.Equal(held, st.held) {
			t.Errorf("%s: the watcher holds %v, want %v", st.name, held, st.held)
		}
	}
	// Named twice, d was followed twice: its alerts came twice, with the
	// same ids (the store takes each once).
	ids := map[string]int{}
	for _, a := range c.alerts {
		if a.Game.ID == "d" {
			ids[a.ID]++
		}
	}
	for id, n := range ids {
		if n != 2 {
			t.Errorf("alert %s of d raised %d times, want twice under the same id", id, n)
		}
	}
	if len(ids) == 0 {
		t.Error("d raised no alert")
	}
}
