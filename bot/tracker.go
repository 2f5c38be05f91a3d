package bot

import (
	"fmt"
	"strings"

	"github.com/threefold-chess/threefold/rules"
)

// tracker is one game as the bot knows it: the rules tracker fed move by
// move from the stream's move lists, the SAN of every move, and how often
// each position occurred (for looking one move ahead).
type tracker struct {
	initialFEN string // as Lichess gave it: "startpos", "" or a FEN
	start      rules.Position
	game       *rules.Game
	list       string // the move list applied, exactly as received
	san        []string
	uci        []string
	counts     map[rules.Key]int // occurrences of every position seen
	twice      [2]int            // positions seen at least twice, by side to move
}

// repEvent is a repetition that happened at one ply.
type repEvent struct {
	Ply         int
	Count       int
	Occurrences []int
	Move        string      // "23. Nf3" / "23... Nf6"
	Claimant    rules.Color // the side to move at Ply
}

func newTracker(initialFEN string) (*tracker, error) {
	start := rules.StartPosition()
	if initialFEN != "" && initialFEN != "startpos" {
		p, err := rules.ParseFEN(initialFEN)
		if err != nil {
			return nil, fmt.Errorf("initial FEN: %w", err)
		}
		start = p
	}
	t := &tracker{initialFEN: initialFEN, start: start}
	t.reset()
	return t, nil
}

func (t *tracker) reset() {
	t.game = rules.NewGame(t.start)
	t.list = ""
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
	var rest string
	switch {
	case t.list == "":
		rest = list
	case strings.HasPrefix(list, t.list) && list[len(t.list)] == ' ':
		rest = list[len(t.list)+1:]
	default:
		t.reset()
		rest, rebuilt = list, true
	}
	onlyLast := first || rebuilt
	applied := t.list
	for len(rest) > 0 {
		mv := rest
		next := ""
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			mv, next = rest[:i], strings.TrimLeft(rest[i+1:], " ")
		}
		ev, ok, perr := t.play(mv, !onlyLast || next == "")
		if perr != nil {
			return events, rebuilt, fmt.Errorf("move %d (%s): %w", t.ply()+1, mv, perr)
		}
		if applied == "" {
			applied = mv
		} else {
			applied += " " + mv
		}
		t.list = applied
		if ok {
			events = append(events, ev)
		}
		rest = next
	}
	return events, rebuilt, nil
}

// play applies one UCI move and reports a repetition at the new ply if
// wantEvent is set.
func (t *tracker) play(uciMove string, wantEvent bool) (repEvent, bool, error) {
	pos := t.game.Position()
	m, err := pos.ParseUCI(uciMove)
	if err != nil {
		return repEvent{}, false, err
	}
	num := pos.FullmoveNumber()
	mover := pos.Turn()
	san := pos.SAN(m)
	if err := t.game.Play(m); err != nil {
		return repEvent{}, false, err
	}
	t.san = append(t.san, san)
	t.uci = append(t.uci, uciMove)
	t.note()
	c := t.game.Count()
	if !wantEvent || c < 2 {
		return repEvent{}, false, nil
	}
	label := itoa(num) + ". " + san
	if mover == rules.Black {
		label = itoa(num) + "... " + san
	}
	return repEvent{Ply: t.ply(), Count: c, Occurrences: t.game.Occurrences(), Move: label, Claimant: mover.Other()}, true, nil
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
