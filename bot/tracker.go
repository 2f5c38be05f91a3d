package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// tracker is one game as the bot knows it: the rules tracker fed move by
// move from the stream's move lists, the SAN of every move, and how often
// each position occurred (for looking one move ahead).
type tracker struct {
	startFEN string // the start as rules.ParseStart reads it
	start    rules.Position
	replay   rules.Replay
	game     *rules.Game // replay.Game()
	list     string      // the move list of the last sync, trimmed
	san      []string
	uci      []string
	counts   map[rules.Key]int // occurrences of every position seen
	twice    [2]int            // positions seen at least twice, by side to move
}

// repEvent is a repetition that happened at one ply.
type repEvent struct {
	Ply         int
	Count       int
	Occurrences []int
	Move        string      // "23. Nf3" / "23... Nf6"
	Claimant    rules.Color // the side to move at Ply
}

// newTracker starts a game at initialFEN as Lichess gives it ("startpos",
// "" or a FEN) in the Lichess variant variantKey ("" is standard).
func newTracker(initialFEN, variantKey string) (*tracker, error) {
	start, err := lichess.StartFENVariant(initialFEN, variantKey)
	if err != nil {
		return nil, err
	}
	t := &tracker{startFEN: start}
	if _, err := t.replay.Sync(t.startFEN, rules.UCI, nil, t.restart); err != nil {
		var re *rules.ReplayError
		if errors.As(err, &re) {
			err = re.Err
		}
		return nil, fmt.Errorf("initial FEN: %w", err)
	}
	t.start = t.game.Start()
	return t, nil
}

// restart is the replay's ply 0: the game starts (over).
func (t *tracker) restart(s rules.Step) {
	t.game = s.Game
	t.san = t.san[:0]
	t.uci = t.uci[:0]
	t.counts = map[rules.Key]int{}
	t.twice = [2]int{}
	t.note()
}

// note records the current position in counts.
func (t *tracker) note() {
	pos := t.game.Position()
	c := t.game.Count()
	t.counts[pos.Key()] = c
	if c == 2 {
		t.twice[pos.Turn()]++
	}
}

// ply is the number of moves applied.
func (t *tracker) ply() int { return t.game.Ply() }

// turn is the side to move.
func (t *tracker) turn() rules.Color {
	p := t.game.Position()
	return p.Turn()
}

// sync brings the tracker to the move list of a game state. When the new
// list extends the old one only the new moves are played; otherwise (a
// takeback, a mismatch) the game is rebuilt from the start, and rebuilt is
// true. events holds the repetitions at the added plies; after a rebuild
// or on the first sync only the last ply is reported, so a resumed game
// does not repeat old notices. On an illegal move the tracker keeps the
// moves before it and returns the error.
func (t *tracker) sync(list string, first bool) (events []repEvent, rebuilt bool, err error) {
	list = strings.TrimSpace(list)
	if list == t.list {
		return nil, false, nil
	}
	moves := strings.Fields(list)
	onlyLast := first
	c, err := t.replay.Sync(t.startFEN, rules.UCI, moves, func(s rules.Step) {
		if s.Ply == 0 {
			t.restart(s)
			onlyLast = true
			return
		}
		if ev, ok := t.played(s, !onlyLast || s.Ply == len(moves)); ok {
			events = append(events, ev)
		}
	})
	var re *rules.ReplayError
	if errors.As(err, &re) {
		return events, c.Rebuilt, fmt.Errorf("move %d (%s): %w", re.Ply, re.Token, re.Err)
	}
	t.list = list
	return events, c.Rebuilt, err
}

// played records the move of step s and reports a repetition at its ply if
// wantEvent is set.
func (t *tracker) played(s rules.Step, wantEvent bool) (repEvent, bool) {
	san := s.Before.SAN(s.Move)
	t.san = append(t.san, san)
	t.uci = append(t.uci, s.Token)
	t.note()
	c := t.game.Count()
	if !wantEvent || c < 2 {
		return repEvent{}, false
	}
	num, mover := s.Before.FullmoveNumber(), s.Before.Turn()
	label := itoa(num) + ". " + san
	if mover == rules.Black {
		label = itoa(num) + "... " + san
	}
	return repEvent{Ply: s.Ply, Count: c, Occurrences: t.game.Occurrences(), Move: label, Claimant: mover.Other()}, true
}

// countAfter returns how many times the position after m (legal) will
// have occurred once m is played.
func (t *tracker) countAfter(m rules.Move) int {
	return len(t.game.OccurrencesOf(m)) + 1
}

// lastMoveLabel is "23. Nf3" for the last move, "" at ply 0.
func (t *tracker) lastMoveLabel() string {
	n := len(t.san)
	if n == 0 {
		return ""
	}
	// Replaying to find the number is cheap enough for a chat line.
	startTurn := t.start.Turn()
	plyIdx := n - 1 + int(startTurn) // plies counted from a white move
	num := t.start.FullmoveNumber() + plyIdx/2
	if plyIdx%2 == 1 {
		return itoa(num) + "... " + t.san[n-1]
	}
	return itoa(num) + ". " + t.san[n-1]
}
