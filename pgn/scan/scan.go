// Package scan is the analysis behind threefold scan: every repetition of every game of PGN files.
//
// Analyse replays one game and says what the rule says about it (Report,
// the JSON of scan --json); Run reads files in order, analyses their games
// on several goroutines and hands the reports back in input order; Writer
// writes them as JSON lines or readable text and counts them.
package scan

import (
	"errors"
	"slices"

	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// Report is what scan says about one game; its JSON form is one line of
// scan --json. The first block of fields is the contract shared with the
// reference annotations (README, "scan --json"); the rest is extra.
type Report struct {
	File           string  `json:"file"`
	ID             int     `json:"id"`
	Plies          int     `json:"plies"`
	MaxOccurrences int     `json:"max_occurrences"`
	ThreefoldPlies []int   `json:"threefold_plies"`
	FivefoldPly    *int    `json:"fivefold_ply"`
	ClaimablePlies []int   `json:"claimable_plies"`
	FinalFEN       string  `json:"final_fen"`
	StartFEN       *string `json:"start_fen"`
	Error          string  `json:"error,omitempty"`

	Variant             string      `json:"variant"` // standard, chess960, or the [Variant] tag of one threefold does not follow
	Line                int         `json:"line"`
	White               string      `json:"white,omitempty"`
	Black               string      `json:"black,omitempty"`
	Event               string      `json:"event,omitempty"`
	Date                string      `json:"date,omitempty"`
	Result              string      `json:"result,omitempty"`
	FirstThreefold      *Repetition `json:"first_threefold,omitempty"`
	FirstClaim          *Repetition `json:"first_claim,omitempty"`
	FiftyMovesPly       *int        `json:"fifty_moves_ply"`
	SeventyFiveMovesPly *int        `json:"seventy_five_moves_ply"`
	PliesAfterFivefold  int         `json:"plies_after_fivefold,omitempty"`
	FinalStatus         string      `json:"final_status,omitempty"`
	Notes               []string    `json:"notes,omitempty"`
	// NearRepetitions are the plies whose placement, with the same side
	// to move, occurred before as another position; absent when none.
	NearRepetitions []NearRepetition `json:"near_repetitions,omitempty"`
	start           rules.Position
	moves           pgn.MoveList
	// jsonTail, when not nil, is appendJSONTail of the report, rendered by
	// Run's worker (Options.JSON): the fields must not change after it.
	jsonTail []byte
}

// Repetition is the proof of one claim: where, by whom, under which rule.
type Repetition struct {
	Ply         int      `json:"ply"`
	Claimant    string   `json:"claimant"`
	Rule        string   `json:"rule"`                  // "9.2.2" (has occurred) or "9.2.1" (declared move)
	Occurrences []int    `json:"occurrences,omitempty"` // 9.2.2: the plies of the position
	Moves       []string `json:"moves,omitempty"`       // 9.2.1: SAN of the moves that may be declared
}

// NearRepetition is a ply whose placement and side to move occurred
// before, at the plies SamePlacementAs, as other positions: Differences
// names how (the kinds "castling", "en_passant" of threefold explain).
type NearRepetition struct {
	Ply             int      `json:"ply"`
	SamePlacementAs []int    `json:"same_placement_as"`
	Differences     []string `json:"differences"`
}

// nearRepetition says what near, t.NearRepetitions of the current ply
// when not empty, says about it.
func nearRepetition(ply int, near []rules.NearRepetition) *NearRepetition {
	n := &NearRepetition{Ply: ply}
	var diff rules.Diff
	for _, o := range near {
		n.SamePlacementAs = append(n.SamePlacementAs, o.Plies...)
		diff |= o.Diff
	}
	slices.Sort(n.SamePlacementAs)
	n.Differences = diff.Names()
	return n
}

// analysedTags are the only tag pairs Analyse reads (Game.Start reads FEN,
// Variant and SetUp): Run keeps no others (pgn.ChunkReader.KeepTags).
var analysedTags = []string{"Event", "Date", "White", "Black", "FEN", "Variant", "SetUp"}

// Analyse replays one game of file and records everything scan reports.
func Analyse(g *pgn.Game, file string) *Report {
	var a Analyser
	return a.Analyse(g, file)
}

// Analyser analyses game after game on one tracker, whose memory it
// reuses: one per goroutine (it is not safe for concurrent use). The zero
// Analyser is ready to use.
type Analyser struct {
	tracker rules.Game
}

// Analyse replays one game of file and records everything scan reports.
func (a *Analyser) Analyse(g *pgn.Game, file string) *Report {
	a.tracker.DropMoves() // the report keeps the moves as written
	r := &Report{
		File: file, ID: g.Index, Line: g.Line, ThreefoldPlies: []int{}, ClaimablePlies: []int{},
		MaxOccurrences: 1, moves: g.MoveList(),
	}
	r.White, _ = g.Tag("White")
	r.Black, _ = g.Tag("Black")
	r.Event, _ = g.Tag("Event")
	r.Date, _ = g.Tag("Date")
	r.Result = g.Result
	if fen, ok := g.StartFEN(); ok {
		r.StartFEN = strp(fen) // not &fen: fen would be allocated for every game
	}
	r.Variant = rules.Standard.String()
	start, notes, startErr := g.Start()
	if startErr == nil {
		r.Variant, r.Notes = start.Variant().String(), notes
	} else if ve := (*rules.VariantError)(nil); errors.As(startErr, &ve) {
		r.Variant = ve.Name
	}
	tracker := &a.tracker
	var err error
	if startErr == nil {
		err = a.play(r, r.moves, start)
	} else {
		err = g.ReplayOn(tracker, nil) // the error as ReplayOn words it
	}
	if err == nil || isMoveError(err) {
		// Ply 0 too: a [FEN] may start with the 50-move count already run
		// out. The start position occurred once and nothing can be claimed
		// by repetition there, so only such a start has something to check.
		if start := tracker.Start(); start.HalfmoveClock() >= 99 {
			r.check(0, rules.NewGame(start))
		}
		r.Plies = tracker.Ply()
		p := tracker.Position()
		r.start = tracker.Start()
		r.FinalFEN = p.FEN()
		if st := p.Status(); st != rules.Ongoing {
			r.FinalStatus = st.String()
		}
		if f := tracker.FivefoldPly(); f >= 0 {
			r.FivefoldPly = intp(f)
			r.PliesAfterFivefold = r.Plies - f
		}
	}
	if err != nil {
		r.Error = err.Error()
	} else if g.Err != nil {
		r.Error = g.Err.Error()
	}
	return r
}

// play replays moves from start on the Analyser's tracker, as
// pgn.Game.PlayFrom does, and checks the plies that may have something to
// report (rules.Game.Notable, one load): on most plies nothing happens.
func (a *Analyser) play(r *Report, moves pgn.MoveList, start rules.Position) error {
	t := &a.tracker
	t.Reset(start)
	text, spans := moves.Spans()
	for i, sp := range spans {
		san := text[sp.Start:sp.End]
		if _, err := t.PlaySAN(san); err != nil {
			return &pgn.MoveError{Ply: i + 1, Number: pgn.MoveNumber(&start, i+1), Token: san, Err: err}
		}
		if t.Notable() {
			r.check(i+1, t)
		}
	}
	return nil
}

// check records what ply, the tracker t's current one, has to report:
// a repetition, a claim, a near repetition, the 50- or 75-move rule. It
// records nothing on a ply that has none of them, so it may be called on
// any ply that t.Notable() does not rule out.
func (r *Report) check(ply int, t *rules.Game) {
	c := t.Count()
	if c > r.MaxOccurrences {
		r.MaxOccurrences = c
	}
	if c >= 3 {
		r.ThreefoldPlies = append(r.ThreefoldPlies, ply)
		if r.FirstThreefold == nil {
			r.FirstThreefold = &Repetition{Ply: ply, Claimant: t.Turn().String(), Rule: "9.2.2", Occurrences: t.Occurrences()}
		}
	}
	if c >= 3 || t.CanClaimRepetition() {
		r.ClaimablePlies = append(r.ClaimablePlies, ply)
		if r.FirstClaim == nil {
			p := t.Position()
			rep := &Repetition{Ply: ply, Claimant: p.Turn().String(), Rule: "9.2.2", Occurrences: t.Occurrences()}
			if c < 3 {
				rep.Rule, rep.Occurrences = "9.2.1", nil
				for _, m := range t.ClaimMoves(nil) {
					rep.Moves = append(rep.Moves, p.SAN(m))
				}
			}
			r.FirstClaim = rep
		}
	}
	if near := t.NearRepetitions(); len(near) != 0 { // rarely: no call for the others
		r.NearRepetitions = append(r.NearRepetitions, *nearRepetition(ply, near))
	}
	if hm := t.HalfmoveClock(); hm >= 99 {
		if (r.FiftyMovesPly == nil || ply < *r.FiftyMovesPly) && t.Verdict().FiftyMoves {
			r.FiftyMovesPly = intp(ply)
		}
		if p := t.Position(); hm >= 150 && (r.SeventyFiveMovesPly == nil || ply < *r.SeventyFiveMovesPly) && p.Status() != rules.Checkmate {
			r.SeventyFiveMovesPly = intp(ply)
		}
	}
}

func intp(i int) *int { return &i }

func strp(s string) *string { return &s }

// isMoveError says whether err is a *pgn.MoveError: a function of its own,
// so that the variable errors.As fills is allocated only when there is an
// error, not for every game.
func isMoveError(err error) bool {
	var moveErr *pgn.MoveError
	return errors.As(err, &moveErr)
}
