// Package pgnexport writes a stored game as PGN annotated with the proof of every repetition.
//
// It writes a stored game as PGN annotated with the proof of
// every repetition: each occurrence of a position that repeats is commented
// with its number and the plies of all its occurrences so far, the third and
// later with who may claim (FIDE 9.2.2), the fifth with the draw (9.6.1), the
// positions where a claim by declaring a move is possible with that move
// (9.2.1), and the plies where the 50- and 75-move rules start to apply (9.3,
// 9.6.2). Moves played after the game was drawn (9.6) are marked once and
// not annotated: nothing can be claimed in a game that is over. The annotations come from replaying the game with package rules,
// not from stored alerts, so they are right for any stored game. Any PGN
// viewer shows them as comments. Select finds the games a user names (an
// id, site/id or URL) or a filter selects, and WriteAll writes them one
// after the other.
package pgnexport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/rules"
	"github.com/threefold-chess/threefold/store"
)

// MoveError says that a stored game's move could not be played. The PGN is
// still written, up to the move before, with a comment that says so.
type MoveError struct {
	Site, ID string
	Ply      int    // the ply the move would have made (1 is the first move)
	Token    string // the move as stored
	Err      error
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("pgnexport: game %s/%s: move %d (%q): %v", e.Site, e.ID, e.Ply, e.Token, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// ply is what the replay found at one ply.
type ply struct {
	san      string // the move that made it ("" at ply 0)
	moveNo   int    // the full-move number of that move
	white    bool   // the move was White's
	comments []string
}

// Write writes g as one annotated PGN game, followed by a blank line.
// It returns a *MoveError (after writing what could be replayed) when a
// move cannot be played, and the writer's error if writing fails.
func Write(w io.Writer, g store.Game) error {
	fen := strings.TrimSpace(g.StartFEN)
	if fen == "startpos" { // as Lichess writes the standard start
		fen = ""
	}
	start, err := rules.ParseStart(fen)
	if err != nil {
		return fmt.Errorf("pgnexport: game %s/%s: start FEN: %w", g.Game.Site, g.Game.ID, err)
	}
	plies, replayErr := replay(g, fen)

	bw := bufio.NewWriter(w)
	result := g.Result
	switch result {
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		result = "*"
	}
	if replayErr != nil {
		result = "*"
	}
	writeTags(bw, g, result, start)
	bw.WriteString("\n")

	var words []string
	needNumber := true
	for i, p := range plies {
		if i > 0 {
			switch {
			case p.white:
				words = append(words, strconv.Itoa(p.moveNo)+".")
			case needNumber:
				words = append(words, strconv.Itoa(p.moveNo)+"...")
			}
			words = append(words, p.san)
			needNumber = false
		}
		for _, c := range p.comments {
			words = append(words, comment(c)...)
			needNumber = true
		}
	}
	if replayErr != nil {
		words = append(words, comment(fmt.Sprintf("threefold: move %d (%s) cannot be played: %v; the rest of the game is left out",
			replayErr.Ply, replayErr.Token, replayErr.Err))...)
	} else if g.Termination != "" {
		words = append(words, comment("Termination: "+string(g.Termination))...)
	}
	words = append(words, result)
	wrap(bw, words, 79)
	bw.WriteString("\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("pgnexport: game %s/%s: %w", g.Game.Site, g.Game.ID, err)
	}
	if replayErr != nil {
		return replayErr
	}
	return nil
}

// replay plays the game from start (read already) and annotates every ply.
func replay(g store.Game, start string) ([]ply, *MoveError) {
	plies := make([]ply, 0, len(g.Moves)+1)
	verdicts := make([]rules.Verdict, 0, len(g.Moves)+1)
	var positions []rules.Position
	var r rules.Replay
	_, err := r.Sync(start, g.Notation, g.Moves, func(s rules.Step) {
		p := ply{}
		if s.Ply > 0 {
			p = ply{san: s.Before.SAN(s.Move), moveNo: s.Before.FullmoveNumber(), white: s.Before.Turn() == rules.White}
		}
		plies = append(plies, p)
		verdicts = append(verdicts, s.Game.Verdict())
		positions = append(positions, s.Game.Position())
	})
	var bad *MoveError
	if re := (*rules.ReplayError)(nil); errors.As(err, &re) {
		bad = &MoveError{Site: g.Game.Site, ID: g.Game.ID, Ply: re.Ply, Token: re.Token, Err: re.Err}
	}

	// The game is drawn at a fifth occurrence (9.6.1) or after 75 moves of
	// each side without pawn move or capture (9.6.2): moves played after
	// that are not part of the game, so nothing after it is claimed.
	drawnAt := len(verdicts)
	for i, v := range verdicts {
		if v.Fivefold || v.SeventyFiveMoves {
			drawnAt = i
			break
		}
	}
	// The first occurrence of a position that occurs three times or more
	// is marked too, with the plies where it comes back.
	repeatsAt := map[int][]int{}
	for _, v := range verdicts[:min(drawnAt+1, len(verdicts))] {
		if v.Count >= 3 {
			repeatsAt[v.Occurrences[0]] = v.Occurrences[1:]
		}
	}
	for i, v := range verdicts {
		var cs []string
		if i > drawnAt {
			if i == drawnAt+1 {
				plies[i].comments = []string{fmt.Sprintf("played after the game was drawn at ply %d: not annotated", drawnAt)}
			}
			continue
		}
		claimant := "White"
		if v.Turn == rules.Black {
			claimant = "Black"
		}
		switch {
		case v.Count >= 5:
			cs = append(cs, fmt.Sprintf("%s occurrence: plies %s; drawn (9.6.1)", i18n.EnglishOrdinal(v.Count), joinInts(v.Occurrences)))
		case v.Count >= 3:
			cs = append(cs, fmt.Sprintf("%s occurrence: plies %s; %s may claim (9.2.2)", i18n.EnglishOrdinal(v.Count), joinInts(v.Occurrences), claimant))
		case v.Count == 2:
			cs = append(cs, fmt.Sprintf("2nd occurrence: plies %s", joinInts(v.Occurrences)))
		case len(repeatsAt[i]) > 0:
			cs = append(cs, fmt.Sprintf("1st occurrence: repeated at plies %s", joinInts(repeatsAt[i])))
		}
		if v.Count < 3 && len(v.ClaimMoves) > 0 {
			var decl []string
			for _, m := range v.ClaimMoves {
				decl = append(decl, moveText(&positions[i], m))
			}
			cs = append(cs, fmt.Sprintf("%s may claim by declaring %s (9.2.1)", claimant, strings.Join(decl, " or ")))
		}
		if v.SeventyFiveMoves && (i == 0 || !verdicts[i-1].SeventyFiveMoves) {
			cs = append(cs, "75 moves of each side without pawn move or capture: drawn (9.6.2)")
		} else if v.FiftyMoves && (i == 0 || !verdicts[i-1].FiftyMoves) {
			cs = append(cs, fmt.Sprintf("50-move rule: %s may claim (9.3)", claimant))
		}
		plies[i].comments = cs
	}
	return plies, bad
}

// moveText is a move with its number: "24...Qf5" or "25.Nf3".
func moveText(p *rules.Position, m rules.Move) string {
	sep := "."
	if p.Turn() == rules.Black {
		sep = "..."
	}
	return strconv.Itoa(p.FullmoveNumber()) + sep + p.SAN(m)
}

// comment is text as the words of a PGN comment; braces in the text
// (from stored data) become parentheses so the comment cannot end early.
func comment(text string) []string {
	text = strings.NewReplacer("{", "(", "}", ")").Replace(text)
	return strings.Fields("{" + text + "}")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func firstOf(xs ...string) string {
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// writeTags writes the tag pairs of g: the Seven Tag Roster, SetUp and FEN
// for another start, Variant for a Chess960 game that lacks it (its FEN
// in X-FEN), and [Annotator "threefold"]. A game read from PGN
// keeps its own tags, in their order, with threefold's added after them;
// only Result (the one of the movetext), SetUp and FEN (the start replayed)
// are threefold's, and a roster tag it lacks is written first.
func writeTags(bw *bufio.Writer, g store.Game, result string, start rules.Position) {
	date := "????.??.??"
	if !g.StartedAt.IsZero() {
		date = g.StartedAt.UTC().Format("2006.01.02")
	}
	roster := [][2]string{
		{"Event", firstOf(g.Event, g.Source, "?")},
		{"Site", firstOf(g.Game.URL, g.Game.Site, "?")},
		{"Date", date},
		{"Round", "?"},
		{"White", firstOf(g.Game.White, "?")},
		{"Black", firstOf(g.Game.Black, "?")},
		{"Result", result},
	}
	startFEN := start.FEN()
	chess960 := start.Variant() == rules.Chess960
	setUp := startFEN != rules.StartFEN || chess960
	has := map[string]bool{}
	for _, t := range g.Tags {
		has[t.Name] = true
	}
	for _, r := range roster {
		if !has[r[0]] {
			tag(bw, r[0], r[1])
		}
	}
	annotator := "threefold"
	for _, t := range g.Tags {
		switch t.Name {
		case "Result":
			tag(bw, "Result", result)
		case "SetUp", "FEN":
			if setUp {
				tag(bw, "SetUp", "1")
				tag(bw, "FEN", startFEN)
				setUp = false
			}
		case "Annotator":
			annotator = t.Value + "; threefold"
		default:
			tag(bw, t.Name, t.Value)
		}
	}
	if chess960 && !has["Variant"] {
		tag(bw, "Variant", "Chess960")
	}
	if setUp {
		tag(bw, "SetUp", "1")
		tag(bw, "FEN", startFEN)
	}
	tag(bw, "Annotator", annotator)
}

// tag writes one PGN tag pair, escaping the value as PGN requires.
func tag(w *bufio.Writer, name, value string) {
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(value)
	fmt.Fprintf(w, "[%s \"%s\"]\n", name, value)
}

// wrap writes words separated by spaces in lines of at most width
// characters (a longer word gets a line of its own).
func wrap(w *bufio.Writer, words []string, width int) {
	n := 0
	for _, word := range words {
		if n > 0 && n+1+len(word) > width {
			w.WriteString("\n")
			n = 0
		}
		if n > 0 {
			w.WriteString(" ")
			n++
		}
		w.WriteString(word)
		n += len(word)
	}
	w.WriteString("\n")
}
