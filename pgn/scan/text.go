package scan

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
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
	// Lang is the language of the text lines and the totals ("" is
	// English); the JSON lines never change.
	Lang i18n.Lang

	line                                    []byte // the JSON line being written, its memory reused
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
		w.line = append(r.appendJSON(w.line[:0]), '\n')
		_, err := w.Out.Write(w.line)
		return err
	}
	p := i18n.For(w.Lang)
	line := textLineIn(p, r)
	if line == "" && !w.All {
		return nil
	}
	if line == "" {
		line = p.Sprintf(i18n.ScanNothing)
	}
	_, err := fmt.Fprintln(w.Out, safetext.Terminal(gameLabel(r)+": "+line)) // tags come from the file
	return err
}

// Failed is how many of the reports written had an error.
func (w *Writer) Failed() int { return w.failed }

// Totals writes the summary line to stderr, so that stdout stays a clean
// list of games (and valid JSON lines with --json); d is the time taken.
func (w *Writer) Totals(stderr io.Writer, d time.Duration) error {
	p := i18n.For(w.Lang)
	rate := ""
	if s := d.Seconds(); s > 0 {
		rate = p.Sprintf(i18n.ScanRate, decimal(p, s, 2), humanCount(p, float64(w.plies)/s))
	}
	_, err := fmt.Fprintln(stderr, p.Sprintf(i18n.ScanGames, w.games)+p.Sprintf(i18n.ListSep)+p.Sprintf(i18n.ScanPlies, w.plies)+rate+": "+
		p.Sprintf(i18n.ScanTotals, w.threefold, w.claimOnly, w.fivefold, w.fifty75, w.failed))
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

// textLine is the readable summary of one game in English, or "" when
// there is nothing to report.
func textLine(r *Report) string { return textLineIn(i18n.For(i18n.English), r) }

// textLineIn is textLine in the printer's language. Ply numbers stay as
// the JSON has them; counts are written as the language writes numbers.
func textLineIn(p *i18n.Printer, r *Report) string {
	var parts []string
	if t := r.FirstThreefold; t != nil {
		s := p.Sprintf(i18n.ScanThreefold, strconv.Itoa(t.Ply), r.moveLabel(p, t.Ply), joinInts(t.Occurrences), p.Side(t.Claimant))
		if n := len(r.ThreefoldPlies); n > 1 {
			s += p.Sprintf(i18n.ScanAgain, n-1)
		}
		parts = append(parts, s)
	}
	if c := r.FirstClaim; c != nil && c.Rule == "9.2.1" {
		moves := make([]string, len(c.Moves))
		for i, m := range c.Moves {
			moves[i] = r.numbered(c.Ply+1, m)
		}
		parts = append(parts, p.Sprintf(i18n.ScanClaimByMove, strconv.Itoa(c.Ply), p.Side(c.Claimant), strings.Join(moves, p.Sprintf(i18n.AlertOr))))
	}
	if r.FivefoldPly != nil {
		s := p.Sprintf(i18n.ScanFivefold, strconv.Itoa(*r.FivefoldPly), r.moveLabel(p, *r.FivefoldPly))
		if r.PliesAfterFivefold > 0 {
			s += p.Sprintf(i18n.ScanAfterFivefold, r.PliesAfterFivefold)
		}
		parts = append(parts, s)
	}
	if len(r.NearRepetitions) > 0 {
		parts = append(parts, nearLine(p, r))
	}
	if r.FiftyMovesPly != nil {
		parts = append(parts, p.Sprintf(i18n.ScanFifty, strconv.Itoa(*r.FiftyMovesPly)))
	}
	if r.SeventyFiveMovesPly != nil {
		parts = append(parts, p.Sprintf(i18n.ScanSeventyFive, strconv.Itoa(*r.SeventyFiveMovesPly)))
	}
	for _, n := range r.Notes {
		parts = append(parts, p.Sprintf(i18n.ScanNote, n))
	}
	if r.Error != "" {
		parts = append(parts, p.Sprintf(i18n.ScanError, p.GameError(r.Error)))
	}
	return strings.Join(parts, p.Sprintf(i18n.ScanPartSep))
}

// nearWords names each kind of difference of a near repetition.
var nearWords = map[string]i18n.Key{"castling": i18n.ScanNearCastling, "en_passant": i18n.ScanNearEnPassant}

// nearLine says the first near repetition of the game, and how many
// more plies have one.
func nearLine(p *i18n.Printer, r *Report) string {
	n := r.NearRepetitions[0]
	why := make([]string, len(n.Differences))
	for i, d := range n.Differences {
		why[i] = p.Sprintf(nearWords[d])
	}
	s := p.Sprintf(i18n.ScanNear, strconv.Itoa(n.Ply), r.moveLabel(p, n.Ply), len(n.SamePlacementAs), joinInts(n.SamePlacementAs),
		strings.Join(why, p.Sprintf(i18n.ScanAnd)))
	if more := len(r.NearRepetitions) - 1; more > 0 {
		s += p.Sprintf(i18n.ScanNearMore, more)
	}
	return s
}

// moveLabel names the move that led to ply p, as "26.Qf5" or "26...Qf5".
func (r *Report) moveLabel(pr *i18n.Printer, p int) string {
	if p == 0 {
		return pr.Sprintf(i18n.ScanTheStart)
	}
	if p > r.moves.Len() {
		return pr.Sprintf(i18n.AlertPly, strconv.Itoa(p))
	}
	return r.numbered(p, r.moves.At(p-1))
}

// numbered writes san, the move that makes ply p, with its move number.
func (r *Report) numbered(p int, san string) string {
	return pgn.MoveNumber(&r.start, p) + san
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func humanCount(p *i18n.Printer, x float64) string {
	switch {
	case x >= 1e6:
		return p.Sprintf(i18n.ScanMillions, decimal(p, x/1e6, 2))
	case x >= 1e3:
		return p.Sprintf(i18n.ScanThousands, decimal(p, x/1e3, 1))
	}
	return decimal(p, x, 0)
}

// decimal writes x rounded to places decimals: in English with all of them
// ("2.30"), in the other languages as they write numbers, without trailing
// zeros ("2,3", "۲٫۳").
func decimal(p *i18n.Printer, x float64, places int) string {
	t := strconv.FormatFloat(x, 'f', places, 64)
	if p.Lang() == i18n.English {
		return t
	}
	r, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return t
	}
	return p.Decimal(r)
}

// Progress counts games and plies, and shows them with the rate on a
// terminal, in the language Lang ("" is English).
type Progress struct {
	Lang         i18n.Lang
	games, plies atomic.Int64
	began        time.Time
}

// line is what the live count shows after elapsed: "12 games, 812 plies,
// 340.5k plies/s".
func (p *Progress) line(elapsed time.Duration) string {
	pr := i18n.For(p.Lang)
	plies := p.plies.Load()
	sep := pr.Sprintf(i18n.ListSep)
	out := pr.Sprintf(i18n.ScanGames, p.games.Load()) + sep + pr.Sprintf(i18n.ScanPlies, plies)
	if s := elapsed.Seconds(); s > 0 {
		out += sep + pr.Sprintf(i18n.ScanPerSecond, humanCount(pr, float64(plies)/s))
	}
	return out
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
				fmt.Fprint(stderr, "\r\033[K"+p.line(time.Since(p.began)))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
