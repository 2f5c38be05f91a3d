package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

func newScanCmd(env *environment) *cobra.Command {
	var opts scanOptions
	cmd := &cobra.Command{
		Use:   "scan FILE...",
		Short: "Report every repetition in the games of PGN files (plain, .gz or .zst; - for stdin)",
		Long: `scan replays every game of the PGN files (plain, gzip or zstd, detected from
the content; "-" reads stdin) and reports, for each game with something to
report, the plies at which a position occurred the third time and who may
claim, the first claim by declared move (FIDE 9.2.1), the fifth occurrence
(9.6.1), and the 50- and 75-move rules. Totals follow.

With --json it writes one JSON object per game, in input order, with the
fields of the reference annotations (id, plies, max_occurrences,
threefold_plies, fivefold_ply, claimable_plies, final_fen, start_fen, error)
and more; see README, "scan --json".

Exit status: 0 when every game was read, 3 when some game or file could not
be read (each is reported and the scan goes on), 2 for bad usage.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			cfg, err := env.loadConfig()
			if err != nil {
				return err
			}
			opts.limits = cfg.PGN.limits()
			failed, err := runScan(cmd.Context(), env, opts)
			if err != nil {
				return err
			}
			if failed {
				env.code = exitSomeGames
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "one JSON object per game, in input order")
	cmd.Flags().IntVar(&opts.workers, "workers", runtime.GOMAXPROCS(0), "games analysed in parallel")
	cmd.Flags().BoolVar(&opts.all, "all", false, "text output: a line for every game, not only those with something to report")
	return cmd
}

type scanOptions struct {
	files   []string
	json    bool
	all     bool
	workers int
	limits  pgn.Limits // the pgn.* keys of the config
}

// scanReport is what scan says about one game. The first block of fields
// is the contract shared with the reference annotations
// (shared/data/pgn/README.md); the rest is extra.
type scanReport struct {
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

	Line                int         `json:"line"`
	White               string      `json:"white,omitempty"`
	Black               string      `json:"black,omitempty"`
	Event               string      `json:"event,omitempty"`
	Date                string      `json:"date,omitempty"`
	Result              string      `json:"result,omitempty"`
	FirstThreefold      *repetition `json:"first_threefold,omitempty"`
	FirstClaim          *repetition `json:"first_claim,omitempty"`
	FiftyMovesPly       *int        `json:"fifty_moves_ply"`
	SeventyFiveMovesPly *int        `json:"seventy_five_moves_ply"`
	PliesAfterFivefold  int         `json:"plies_after_fivefold,omitempty"`
	FinalStatus         string      `json:"final_status,omitempty"`
	Notes               []string    `json:"notes,omitempty"`
	start               rules.Position
	moves               []string
}

// repetition is the proof of one claim: where, by whom, under which rule.
type repetition struct {
	Ply         int      `json:"ply"`
	Claimant    string   `json:"claimant"`
	Rule        string   `json:"rule"`                  // "9.2.2" (has occurred) or "9.2.1" (declared move)
	Occurrences []int    `json:"occurrences,omitempty"` // 9.2.2: the plies of the position
	Moves       []string `json:"moves,omitempty"`       // 9.2.1: SAN of the moves that may be declared
}

// analyseGame replays one game and records everything scan reports.
func analyseGame(g *pgn.Game, file string) *scanReport {
	r := &scanReport{
		File: file, ID: g.Index, Line: g.Line, ThreefoldPlies: []int{}, ClaimablePlies: []int{},
		MaxOccurrences: 1, moves: g.Moves,
	}
	r.White, _ = g.Tag("White")
	r.Black, _ = g.Tag("Black")
	r.Event, _ = g.Tag("Event")
	r.Date, _ = g.Tag("Date")
	r.Result = g.Result
	if fen, ok := g.StartFEN(); ok {
		r.StartFEN = &fen
		if _, notes, err := rules.ParseFENNotes(fen); err == nil {
			r.Notes = notes
		}
	}
	check := func(ply int, t *rules.Game) {
		c := t.Count()
		if c > r.MaxOccurrences {
			r.MaxOccurrences = c
		}
		if c >= 3 {
			r.ThreefoldPlies = append(r.ThreefoldPlies, ply)
			if r.FirstThreefold == nil {
				r.FirstThreefold = &repetition{Ply: ply, Claimant: t.Turn().String(), Rule: "9.2.2", Occurrences: t.Occurrences()}
			}
		}
		if c >= 3 || t.CanClaimRepetition() {
			r.ClaimablePlies = append(r.ClaimablePlies, ply)
			if r.FirstClaim == nil {
				p := t.Position()
				rep := &repetition{Ply: ply, Claimant: p.Turn().String(), Rule: "9.2.2", Occurrences: t.Occurrences()}
				if c < 3 {
					rep.Rule, rep.Occurrences = "9.2.1", nil
					for _, m := range t.ClaimMoves(nil) {
						rep.Moves = append(rep.Moves, p.SAN(m))
					}
				}
				r.FirstClaim = rep
			}
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
	tracker, err := g.Replay(func(ply int, _ string, t *rules.Game) { check(ply, t) })
	if tracker != nil {
		// Ply 0 too: a [FEN] may start with the 50-move count already run out.
		check(0, rules.NewGame(tracker.Start()))
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

func intp(i int) *int { return &i }

// runScan reads the files one after the other, analyses their games on
// opts.workers goroutines, and writes the reports in input order. It
// reports whether any game or file failed.
func runScan(ctx context.Context, env *environment, opts scanOptions) (failed bool, err error) {
	if opts.workers < 1 {
		return false, usagef("scan: --workers must be at least 1")
	}
	type job struct {
		seq  int
		game *pgn.Game
		file string
	}
	type result struct {
		seq    int
		report *scanReport
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job, 4*opts.workers)
	results := make(chan result, 4*opts.workers)
	var (
		wg        sync.WaitGroup
		readFails atomic.Int64
		progress  scanProgress
	)
	// The reader: one goroutine, files in order.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		seq := 0
		for _, name := range opts.files {
			if !readScanFile(ctx, env, name, opts.limits, func(g *pgn.Game) bool {
				select {
				case jobs <- job{seq, g, name}:
					seq++
					return true
				case <-ctx.Done():
					return false
				}
			}) {
				readFails.Add(1)
			}
		}
	}()
	// The workers.
	var workers sync.WaitGroup
	for i := 0; i < opts.workers; i++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for j := range jobs {
				r := analyseGame(j.game, j.file)
				if len(opts.files) == 1 {
					r.File = ""
				}
				select {
				case results <- result{j.seq, r}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		workers.Wait()
		close(results)
	}()

	stopProgress := progress.start(env.stderr)
	out := bufio.NewWriterSize(env.stdout, 1<<16)
	w := scanWriter{out: out, json: opts.json, all: opts.all}
	pending := map[int]*scanReport{}
	next := 0
	var writeErr error
	for res := range results {
		pending[res.seq] = res.report
		for r, ok := pending[next]; ok; r, ok = pending[next] {
			delete(pending, next)
			next++
			progress.add(r.Plies)
			if writeErr == nil {
				writeErr = w.write(r)
			}
			if writeErr != nil {
				cancel()
			}
		}
	}
	wg.Wait()
	stopProgress()
	if writeErr == nil {
		writeErr = w.totals(env.stderr, progress.elapsed())
	}
	if err := out.Flush(); writeErr == nil {
		writeErr = err
	}
	if writeErr != nil {
		return true, fmt.Errorf("scan: write: %w", writeErr)
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return true, err
	}
	return w.failed > 0 || readFails.Load() > 0, nil
}

// readScanFile feeds every game of one file to emit and reports whether
// the whole file could be read. A read error is reported on stderr with
// the file name; the games read before it have been emitted.
func readScanFile(ctx context.Context, env *environment, name string, lim pgn.Limits, emit func(*pgn.Game) bool) bool {
	f, err := pgn.Open(name, env.stdin)
	if err != nil {
		fmt.Fprintf(env.stderr, "threefold: scan: %v\n", err)
		return false
	}
	defer f.Close()
	rd := pgn.NewReaderLimits(f, lim)
	for ctx.Err() == nil {
		g, err := rd.Next()
		if err == io.EOF {
			return true
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "threefold: scan: %s: %v\n", displayName(name), err)
			return false
		}
		if !emit(g) {
			return false
		}
	}
	return false
}

func displayName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}

// scanWriter writes reports as JSON lines or as readable text, and counts.
type scanWriter struct {
	out                                     *bufio.Writer
	json, all                               bool
	enc                                     *json.Encoder
	games, plies, failed                    int
	threefold, claimOnly, fivefold, fifty75 int
}

func (w *scanWriter) write(r *scanReport) error {
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
	if w.json {
		if w.enc == nil {
			w.enc = json.NewEncoder(w.out)
			w.enc.SetEscapeHTML(false)
		}
		return w.enc.Encode(r)
	}
	line := textLine(r)
	if line == "" && !w.all {
		return nil
	}
	_, err := fmt.Fprintln(w.out, safetext.Terminal(gameLabel(r)+": "+orNothing(line))) // tags come from the file
	return err
}

func orNothing(s string) string {
	if s == "" {
		return "nothing to report"
	}
	return s
}

// totals writes the summary line to stderr, so that stdout stays a clean
// list of games (and valid JSON lines with --json).
func (w *scanWriter) totals(stderr io.Writer, d time.Duration) error {
	rate := ""
	if s := d.Seconds(); s > 0 {
		rate = fmt.Sprintf(" in %.2fs (%s plies/s)", s, humanCount(float64(w.plies)/s))
	}
	_, err := fmt.Fprintf(stderr, "%d games, %d plies%s: %d with a threefold, %d more with a claim by declared move only, %d fivefold, %d past the 75-move rule, %d with errors\n",
		w.games, w.plies, rate, w.threefold, w.claimOnly, w.fivefold, w.fifty75, w.failed)
	return err
}

func gameLabel(r *scanReport) string {
	var b strings.Builder
	if r.File != "" {
		b.WriteString(r.File + " ")
	}
	fmt.Fprintf(&b, "#%d", r.ID)
	if r.White != "" || r.Black != "" {
		fmt.Fprintf(&b, " %s - %s", orQ(r.White), orQ(r.Black))
	}
	var ctx []string
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
func textLine(r *scanReport) string {
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

// moveLabel names the move that led to ply p, as "26.Qf5" or "26...Qf5".
func (r *scanReport) moveLabel(p int) string {
	if p == 0 {
		return "the start"
	}
	if p > len(r.moves) {
		return "ply " + strconv.Itoa(p)
	}
	return r.numbered(p, r.moves[p-1])
}

// numbered writes san, the move that makes ply p, with its move number.
func (r *scanReport) numbered(p int, san string) string {
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

// scanProgress shows games, plies and the rate on stderr, but only when
// stderr is a terminal.
type scanProgress struct {
	games, plies atomic.Int64
	began        time.Time
}

func (p *scanProgress) add(plies int) {
	p.games.Add(1)
	p.plies.Add(int64(plies))
}

func (p *scanProgress) elapsed() time.Duration { return time.Since(p.began) }

func (p *scanProgress) start(stderr io.Writer) (stop func()) {
	p.began = time.Now()
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
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
