package listener

import (
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/rules"
)

// dgtGame is one game on a board: LiveChess's list as last taken, the list
// after removing duplicates, the clock after each of its plies, the
// position it reaches, and how it ended.
type dgtGame struct {
	id        string
	firstSeen time.Time
	start     string // "" is the standard start
	raw       []string
	moves     []string
	clocks    []*threefold.ClockReading // after each ply of moves; nil where unknown
	pos       rules.Position
	stuck     bool // a token could not be played: later tokens are passed on as they are
	finished  bool
	result    string // "1-0", "0-1", "1/2-1/2"; "" while unknown
	shown     bool   // emitted in this run
}

func newDGTGame(id string, firstSeen time.Time, start string) *dgtGame {
	g := &dgtGame{id: id, firstSeen: firstSeen, start: start, pos: rules.StartPosition()}
	if start != "" {
		if p, err := rules.ParseStart(start); err == nil {
			g.pos = p
		}
	}
	return g
}

// update takes a board's list (LiveChess's, with its duplicates) and the
// clock read with it, which is the clock after the list's last ply. It
// returns whether the list without duplicates changed.
func (g *dgtGame) update(raw []string, clock *threefold.ClockReading) bool {
	k := 0
	for k < len(g.raw) && k < len(raw) && g.raw[k] == raw[k] {
		k++
	}
	if k == len(g.raw) && len(raw) == len(g.raw) {
		return false // the same list again
	}
	if k < len(g.raw) {
		// Not an extension: a correction or a takeback; fresh arrays, never
		// a write into one handed out. The clocks of the plies that stay
		// are kept.
		oldMoves, oldClocks := g.moves, g.clocks
		g.raw, g.moves, g.clocks, g.stuck = nil, nil, nil, false
		g.pos = newDGTGame("", time.Time{}, g.start).pos
		g.add(raw, nil)
		same := 0
		for same < len(g.moves) && same < len(oldMoves) && g.moves[same] == oldMoves[same] {
			same++
		}
		copy(g.clocks, oldClocks[:min(same, len(oldClocks))])
		if len(g.moves) > same {
			g.clocks[len(g.clocks)-1] = clock
		}
		if len(g.moves) == len(oldMoves) && same == len(oldMoves) {
			return false
		}
		return true
	}
	before := len(g.moves)
	g.add(raw[len(g.raw):], clock)
	return len(g.moves) != before
}

// add plays toks; the last ply added gets clock.
func (g *dgtGame) add(toks []string, clock *threefold.ClockReading) {
	before := len(g.moves)
	for _, tok := range toks {
		g.raw = append(g.raw, tok)
		if g.stuck {
			g.moves = append(g.moves, tok)
			g.clocks = append(g.clocks, nil)
			continue
		}
		m, err := g.pos.ParseSAN(tok)
		if err != nil {
			if n := len(g.moves); n > 0 && g.moves[n-1] == tok {
				continue // LiveChess reported the same move twice
			}
			g.stuck = true // the watcher will flag it
			g.moves = append(g.moves, tok)
			g.clocks = append(g.clocks, nil)
			continue
		}
		g.pos.Play(m)
		g.moves = append(g.moves, tok)
		g.clocks = append(g.clocks, nil)
	}
	if len(g.moves) > before && clock != nil {
		g.clocks[len(g.clocks)-1] = clock
	}
}

// The centre squares, where arbiters put both kings to give LiveChess a
// game's result (DGT: both on light squares, d5 and e4, 1-0; both on dark
// squares, d4 and e5, 0-1; one of each, a draw). Both kings there is a
// position no game can reach: any two centre squares touch.
var centreLight = map[string]bool{"d5": true, "e4": true}

func isCentre(sq string) bool { return sq == "d4" || sq == "d5" || sq == "e4" || sq == "e5" }

// kingsResult reads the result the kings show on a board's pieces (the
// board field of a FEN), and false when they show none.
func kingsResult(placement string) (string, bool) {
	var white, black string
	rows := strings.Split(placement, "/")
	if len(rows) != 8 {
		return "", false
	}
	for r, row := range rows {
		f := 0
		for _, ch := range row {
			switch {
			case ch >= '1' && ch <= '8':
				f += int(ch - '0')
				continue
			case ch == 'K' && f < 8:
				white = string(rune('a'+f)) + string(rune('8'-r))
			case ch == 'k' && f < 8:
				black = string(rune('a'+f)) + string(rune('8'-r))
			}
			f++
		}
	}
	if !isCentre(white) || !isCentre(black) {
		return "", false
	}
	switch {
	case centreLight[white] && centreLight[black]:
		return "1-0", true
	case !centreLight[white] && !centreLight[black]:
		return "0-1", true
	}
	return "1/2-1/2", true
}

// withoutCentreKings drops from the end of a list the king moves onto a
// centre square: LiveChess reads the first king put in the centre to show
// the result as a move when it is a legal one.
func withoutCentreKings(san []string) []string {
	for len(san) > 0 {
		t := strings.TrimRight(san[len(san)-1], "+#!?")
		if len(t) < 3 || t[0] != 'K' || !isCentre(t[len(t)-2:]) {
			break
		}
		san = san[:len(san)-1]
	}
	return san
}
