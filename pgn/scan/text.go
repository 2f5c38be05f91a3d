package scan

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// Writer writes reports as JSON lines or as readable text, and counts
// them. Set Out, JSON and All before the first Write.
type Writer struct {
	Out  io.Writer
	JSON bool // JSON lines, else text
	All  bool // text: a line for every game, not only those with something to report

	enc                                     *json.Encoder
	games, plies, failed                    int
	threefold, claimOnly, fivefold, fifty75 int
}

// Write writes one report and counts it.
func (w *Writer) Write(r *Report) error {
	w.games++
	w.plies += r.Plies
	if r.Error != "" {
		w.failed++
	}
	if len(r.ThreefoldPlies) > 0 {
		w.threefold++
	} else if len(r.ClaimablePlies) > 0 {
		w.claimOnly++
	}
	if r.FivefoldPly != nil {
		w.fivefold++
	}
	if r.SeventyFiveMovesPly != nil {
		w.fifty75++
	}
	if w.JSON {
		if w.enc == nil {
			w.enc = json.NewEncoder(w.Out)
			w.enc.SetEscapeHTML(false)
		}
		return w.enc.Encode(r)
	}
	line := textLine(r)
	if line == "" && !w.All {
		return nil
	}
	_, err := fmt.Fprintln(w.Out, safetext.Terminal(gameLabel(r)+": "+orNothing(line))) // tags come from the file
	return err
}

func orNothing(s string) string {
	if s == "" {
		return "nothing to report"
	}
	return s
}

// Failed is how many of the reports written had an error.
func (w *Writer) Failed() int { return w.failed }

// Totals writes the summary line to stderr, so that stdout stays a clean
// list of games (and valid JSON lines with --json); d is the time taken.
func (w *Writer) Totals(stderr io.Writer, d time.Duration) error {
	rate := ""
	if s := d.Seconds(); s > 0 {
		rate = fmt.Sprintf(" in %.2fs (%s plies/s)", s, humanCount(float64(w.plies)/s))
	}
	_, err := fmt.Fprintf(stderr, "%d games, %d plies%s: %d with a threefold, %d more with a claim by declared move only, %d fivefold, %d past the 75-move rule, %d with errors\n",
		w.games, w.plies, rate, w.threefold, w.claimOnly, w.fivefold, w.fifty75, w.failed)
	return err
}

func gameLabel(r *Report) string {
	var b strings.Builder
	if r.File != "" {
		b.WriteString(r.File + " ")
	}
	fmt.Fprintf(&b, "#%d", r.ID+1) // counted from 1, as watch, history and export count; the JSON id is 0-based
	if r.White != "" || r.Black != "" {
		fmt.Fprintf(&b, " %s - %s", orQ(r.White), orQ(r.Black))
	}
	var ctx []string
	if r.Variant == rules.Chess960.String() {
		ctx = append(ctx, "Chess960")
	}
	if r.Event != "" && r.Event != "?" {
		ctx = append(ctx, r.Event)
	}
	if r.Date != "" && !strings.HasPrefix(r.Date, "?") {
		ctx = append(ctx, r.Date)
	}
	if len(ctx) > 0 {
		b.WriteString(" (" + strings.Join(ctx, ", ") + ")")
	}
	return b.String()
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// textLine is the readable summary of one game, or "" when there is
// nothing to report.
func textLine(r *Report) string {
	var parts []string
	if t := r.FirstThreefold; t != nil {
		s := fmt.Sprintf("threefold at ply %d after %s (plies %s), %s may claim", t.Ply, r.moveLabel(t.Ply), joinInts(t.Occurrences), capitalize(t.Claimant))
		if n := len(r.ThreefoldPlies); n > 1 {
			s += fmt.Sprintf("; again at %d more %s", n-1, plural(n-1, "ply", "plies"))
		}
		parts = append(parts, s)
	}
	if c := r.FirstClaim; c != nil && c.Rule == "9.2.1" {
		moves := make([]string, len(c.Moves))
		for i, m := range c.Moves {
			moves[i] = r.numbered(c.Ply+1, m)
		}
		parts = append(parts, fmt.Sprintf("claim by declared move from ply %d: %s may declare %s", c.Ply, capitalize(c.Claimant), strings.Join(moves, " or ")))
	}
	if r.FivefoldPly != nil {
		s := fmt.Sprintf("FIFTH occurrence at ply %d after %s: drawn there (9.6.1)", *r.FivefoldPly, r.moveLabel(*r.FivefoldPly))
		if r.PliesAfterFivefold > 0 {
			s += fmt.Sprintf(", yet %d more %s played", r.PliesAfterFivefold, plural(r.PliesAfterFivefold, "ply was", "plies were"))
		}
		parts = append(parts, s)
	}
	if len(r.NearRepetitions) > 0 {
		parts = append(parts, nearLine(r))
	}
	if r.FiftyMovesPly != nil {
		parts = append(parts, fmt.Sprintf("50-move claim from ply %d", *r.FiftyMovesPly))
	}
	if r.SeventyFiveMovesPly != nil {
		parts = append(parts, fmt.Sprintf("75-move rule at ply %d: drawn there (9.6.2)", *r.SeventyFiveMovesPly))
	}
	for _, n := range r.Notes {
		parts = append(parts, "note: "+n)
	}
	if r.Error != "" {
		parts = append(parts, "ERROR: "+r.Error)
	}
	return strings.Join(parts, "; ")
}

// nearWords says each kind of difference of a near repetition in words.
var nearWords = map[string]string{"castling": "castling rights", "en_passant": "en passant captures"}

// nearLine says the first near repetition of the game, and how many
// more plies have one.
func nearLine(r *Report) string {
	n := r.NearRepetitions[0]
	why := make([]string, len(n.Differences))
	for i, d := range n.Differences {
		why[i] = nearWords[d]
	}
	s := fmt.Sprintf("near repetition at ply %d after %s: the placement and side to move of %s %s, but another position: other %s",
		n.Ply, r.moveLabel(n.Ply), plural(len(n.SamePlacementAs), "ply", "plies"), joinInts(n.SamePlacementAs), strings.Join(why, " and "))
	if more := len(r.NearRepetitions) - 1; more > 0 {
		s += fmt.Sprintf("; %d more %s like it", more, plural(more, "ply", "plies"))
	}
	return s
}

// moveLabel names the move that led to ply p, as "26.Qf5" or "26...Qf5".
func (r *Report) moveLabel(p int) string {
	if p == 0 {
		return "the start"
	}
	if p > len(r.moves) {
		return "ply " + strconv.Itoa(p)
	}
	return r.numbered(p, r.moves[p-1])
}

// numbered writes san, the move that makes ply p, with its move number.
func (r *Report) numbered(p int, san string) string {
	return pgn.MoveNumber(&r.start, p) + san
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func humanCount(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// Progress counts games and plies, and shows them with the rate on a
// terminal.
type Progress struct {
	games, plies atomic.Int64
	began        time.Time
}

// Add counts one game of plies.
func (p *Progress) Add(plies int) {
	p.games.Add(1)
	p.plies.Add(int64(plies))
}

// Elapsed is the time since Start.
func (p *Progress) Elapsed() time.Duration { return time.Since(p.began) }

// Start starts the clock and, when live (stderr is a terminal), shows the
// counts on stderr four times a second until stop is called.
func (p *Progress) Start(stderr io.Writer, live bool) (stop func()) {
	p.began = time.Now()
	if !live {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(stderr, "\r\033[K")
				return
			case <-t.C:
				s := time.Since(p.began).Seconds()
				fmt.Fprintf(stderr, "\r\033[K%d games, %d plies, %s plies/s", p.games.Load(), p.plies.Load(), humanCount(float64(p.plies.Load())/s))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
