package listener

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/refgames"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// onReferenceSets runs f on the repository's reference games and on every
// game of the shared data that repeats (skipped without $THREEFOLD_CORPUS
// outside CI).
func onReferenceSets(t *testing.T, f func(t *testing.T, set refgames.Set)) {
	refgames.Run(t, refgames.All[:2], f)
}

// parseSet reads the games of a reference set.
func parseSet(t *testing.T, set refgames.Set) []*pgn.Game {
	t.Helper()
	games, err := pgn.ParseGames(set.Text(t))
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// alertLog collects alerts by game id.
type alertLog struct {
	mu    sync.Mutex
	byID  map[string][]threefold.Alert
	seen  map[string]bool
	dupes []string
}

func newAlertLog() *alertLog {
	return &alertLog{byID: map[string][]threefold.Alert{}, seen: map[string]bool{}}
}

func (l *alertLog) add(a threefold.Alert) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[a.ID] {
		l.dupes = append(l.dupes, a.ID)
	}
	l.seen[a.ID] = true
	l.byID[a.Game.ID] = append(l.byID[a.Game.ID], a)
}

func (l *alertLog) all() []threefold.Alert {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []threefold.Alert
	for _, as := range l.byID {
		out = append(out, as...)
	}
	return out
}

// compareWithOracle checks every alert of one game against its reference:
// threefold alerts exactly at threefold_plies, claim alerts (threefold or
// claim_by_move) exactly at claimable_plies, claim_by_move exactly at the
// claimable plies that are not threefold plies, the first fivefold alert
// at fivefold_ply. The reference describes the record as written, but the
// game ends at a fifth occurrence (9.6.1) or under the 75-move rule
// (9.6.2): the watcher raises no claim at that ply and nothing after it, so
// the reference's claims are cut before it.
func compareWithOracle(o refgames.Annotation, alerts []threefold.Alert) error {
	end := -1
	if o.FivefoldPly != nil {
		end = *o.FivefoldPly
	}
	for _, a := range alerts {
		if a.Kind == threefold.KindSeventyFiveMoves && (end < 0 || a.Ply < end) {
			end = a.Ply
		}
	}
	if end >= 0 {
		o.ThreefoldPlies = upTo(o.ThreefoldPlies, end-1)
		o.ClaimablePlies = upTo(o.ClaimablePlies, end-1)
	}
	var three, claim, byMove, five []int
	for _, a := range alerts {
		if end >= 0 && a.Ply > end {
			return fmt.Errorf("%s alert at ply %d, after the game was drawn by rule at ply %d", a.Kind, a.Ply, end)
		}
		if len(a.OccurrenceSAN) != len(a.Occurrences) || (a.Ply > 0 && a.SAN == "") {
			return fmt.Errorf("%s alert at ply %d: san %q, occurrence SANs %q for %v", a.Kind, a.Ply, a.SAN, a.OccurrenceSAN, a.Occurrences)
		}
		for i, p := range a.Occurrences {
			if (p > 0) != (a.OccurrenceSAN[i] != "") {
				return fmt.Errorf("%s alert at ply %d: occurrence SANs %q for %v", a.Kind, a.Ply, a.OccurrenceSAN, a.Occurrences)
			}
		}
		switch a.Kind {
		case threefold.KindThreefold:
			three = append(three, a.Ply)
			claim = append(claim, a.Ply)
			if a.Count < 3 || len(a.Occurrences) != a.Count || a.Occurrences[len(a.Occurrences)-1] != a.Ply {
				return fmt.Errorf("threefold alert at ply %d: count %d, occurrences %v", a.Ply, a.Count, a.Occurrences)
			}
		case threefold.KindClaimByMove:
			byMove = append(byMove, a.Ply)
			claim = append(claim, a.Ply)
			if a.Move == "" || len(a.Occurrences) < 2 || a.Count != len(a.Occurrences)+1 {
				return fmt.Errorf("claim_by_move alert at ply %d: move %q, occurrences %v, count %d", a.Ply, a.Move, a.Occurrences, a.Count)
			}
		case threefold.KindFivefold:
			five = append(five, a.Ply)
		}
	}
	slices.Sort(three)
	slices.Sort(claim)
	slices.Sort(byMove)
	var wantByMove []int
	for _, p := range o.ClaimablePlies {
		if !slices.Contains(o.ThreefoldPlies, p) {
			wantByMove = append(wantByMove, p)
		}
	}
	if !slices.Equal(three, nz(o.ThreefoldPlies)) {
		return fmt.Errorf("threefold alerts at %v, reference %v", three, o.ThreefoldPlies)
	}
	if !slices.Equal(claim, nz(o.ClaimablePlies)) {
		return fmt.Errorf("claim alerts at %v, reference claimable %v", claim, o.ClaimablePlies)
	}
	if !slices.Equal(byMove, wantByMove) {
		return fmt.Errorf("claim_by_move alerts at %v, want %v", byMove, wantByMove)
	}
	switch {
	case o.FivefoldPly == nil && len(five) > 0:
		return fmt.Errorf("fivefold alerts at %v, reference none", five)
	case o.FivefoldPly != nil && (len(five) == 0 || slices.Min(five) != *o.FivefoldPly):
		return fmt.Errorf("fivefold alerts at %v, reference first at %d", five, *o.FivefoldPly)
	}
	return nil
}

// upTo returns the plies of s up to and including end.
func upTo(s []int, end int) []int {
	var out []int
	for _, p := range s {
		if p <= end {
			out = append(out, p)
		}
	}
	return out
}

func nz(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func (l *alertLog) check(t *testing.T, oracle []refgames.Annotation, idOf func(i int) string) {
	t.Helper()
	if len(l.dupes) > 0 {
		t.Errorf("%d alert ids emitted twice, first %s", len(l.dupes), l.dupes[0])
	}
	bad := 0
	for _, o := range oracle {
		if o.Skipped != nil {
			continue
		}
		if err := compareWithOracle(o, l.byID[idOf(o.ID)]); err != nil {
			bad++
			if bad <= 10 {
				t.Errorf("game %d: %v", o.ID, err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d games disagree with the reference", bad, len(oracle))
	}
}

// TestOracleFileSource reads every reference game through the file source,
// one snapshot per game, and compares every alert with the reference. The
// file is read once: every game is followed, and forgotten once the next
// comes (its state was the last).
func TestOracleFileSource(t *testing.T) {
	onReferenceSets(t, func(t *testing.T, set refgames.Set) {
		oracle := set.Annotations(t)
		log := newAlertLog()
		w := NewWatcher(WatcherOptions{Alert: log.add})
		games := map[string]bool{}
		src := AfterTaken(&FileSource{Path: set.PGNPath, Once: true}, func(_ context.Context, _ string, s threefold.GameState) {
			games[s.Game.ID] = true
		}, func() {})
		if err := w.Run(context.Background(), src); err != nil {
			t.Fatal(err)
		}
		log.check(t, oracle, func(i int) string { return set.PGNPath + "#" + strconv.Itoa(i+1) })
		if len(games) != len(oracle) {
			t.Errorf("the watcher was given %d games, the set has %d", len(games), len(oracle))
		}
		if n := w.Games(); n > 1 {
			t.Errorf("the watcher holds %d games after the file, want at most the last", n)
		}
	})
}

// TestOracleMoveByMove feeds every game one ply at a time, each snapshot the
// whole game so far (as a broadcast resends it), interleaving the games,
// and compares every alert with the reference.
func TestOracleMoveByMove(t *testing.T) {
	onReferenceSets(t, func(t *testing.T, set refgames.Set) {
		oracle := set.Annotations(t)
		games := parseSet(t, set)
		log := newAlertLog()
		w := NewWatcher(WatcherOptions{Alert: log.add})
		for ply := 0; ; ply++ {
			more := false
			for i, g := range games {
				if ply > len(g.Moves) {
					continue
				}
				more = true
				start, _ := g.StartFEN()
				w.Apply(threefold.GameState{Game: threefold.GameRef{Site: "test", ID: strconv.Itoa(i)}, StartFEN: start,
					Notation: rules.SAN, Moves: g.Moves[:ply]})
			}
			if !more {
				break
			}
		}
		log.check(t, oracle, strconv.Itoa)
		// Game 0 of both sets is the same game (Anand – Martin del Campo, 1985).
		proof := false
		for _, a := range log.all() {
			if a.Kind == threefold.KindThreefold && a.Game.ID == "0" && a.Ply == 52 {
				proof = true
				if !slices.Equal(a.Occurrences, []int{44, 48, 52}) || !slices.Equal(a.OccurrenceSAN, []string{"Qf5", "Qf5", "Qf5"}) || a.SAN != "Qf5" || a.Claimant != "white" {
					t.Errorf("game 0 ply 52 proof: %+v", a)
				}
			}
		}
		if !proof {
			t.Error("no threefold alert for game 0 at ply 52")
		}
	})
}
