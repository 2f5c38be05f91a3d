package listener

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/pgn"
	"github.com/threefold-chess/threefold/rules"
)

// pgnFeed turns PGN texts of games (a broadcast stream that resends each
// game's whole PGN on every change, a relay file re-read after it changed)
// into snapshots. A game is identified by its [GameURL] tag when it has
// one (or by idOf of it, when set), otherwise by fallbackID(index). The last PGN received for a game
// replaces the earlier one. A resent PGN that extends the previous one is
// appended to the move slice handed out before, so the watcher sees the
// extension without comparing; an identical resend emits nothing.
//
// A game whose text has a syntax problem (or goes over a pgn.Limits limit)
// is emitted with the moves before the problem and the problem in
// ReadError, so that the watcher reports it and marks the game.
//
// A broadcast resends a game's whole PGN on every move. When the resent
// text has the same tags and its movetext starts with the movetext seen
// last, only the new tail is parsed. The feed keeps a copy of that tag
// section and movetext (about the size of the game's text, grown in place
// as the game goes on) and compares the resent text with it byte for byte:
// a memory comparison, many bytes a cycle, where hashing or parsing the
// text took a few nanoseconds a byte, so that the cost of an update hardly
// grows with the game, while a change anywhere (a takeback, a corrected
// move in the middle, a changed tag) is still seen and parsed whole.
type pgnFeed struct {
	site     string
	source   string
	delay    time.Duration
	audience string
	clock    clock.Clock
	limits   pgn.Limits
	idOf     func(gameURL string) string // the id of a game with a [GameURL]; nil: the URL
	games    map[string]*feedGame
	// byURL, when idOf is set, holds every game of games by its URL, so
	// that a resent text finds its game without idOf (a URL parsed on
	// every update cost as much as the rest of it).
	byURL map[string]*feedGame
	// grace: a finished game not seen for this long is forgotten (prune),
	// so that a source followed for months (a chess.com player, a
	// broadcast tour) does not grow; default DefaultFinishedGrace.
	grace     time.Duration
	lastPrune time.Time
	// intern holds one copy of every SAN token seen: a parsed token is a
	// slice of its game's whole PGN text, and keeping it would keep that
	// text (resent on every move) alive.
	intern map[string]string
	// While hold is set (a file is being read), the game to emit is held
	// until the next one is emitted (with More) or the reading ends
	// (without): the last state of a file says that no more follow.
	hold bool
	held *feedGame
	// forgetSent: a game is forgotten once it was emitted (a file read
	// once names it no more), finished or not (a game without a result,
	// "*", has no state to follow either), so that watch --once of a file
	// of millions of games does not keep them all. Should a later game of
	// the reading name it again, it is taken as a new sighting, as the
	// watcher and the store recognise it.
	forgetSent bool
	// tailMoves is readSimpleTail's room for the moves of a new part.
	tailMoves []string
	// counters, for tests and benchmarks
	fullParses, tailParses int
	at                     time.Time // when not zero, the observation time of the next snapshots (else clock.Now())
}

type feedGame struct {
	id, url      string
	white, black string
	tags         []threefold.Tag // as in the PGN text; replaced, never changed in place
	event        string          // the [Event] tag, "" when absent or "?": GameState.Event
	moves        []string
	startFEN     string
	result       string
	siteResult   string // the [Termination] tag of a finished game: how the site says it ended
	readErr      string // the game's syntax problem, as GameState.ReadError
	unsupported  bool   // a variant threefold does not follow: no moves
	emitted      bool
	seenAt       time.Time // when a text of it was last fed
	// The text last seen, for the incremental path: its tag section, the
	// blank line after it and its movetext up to the result, one copy (a
	// resent text is not kept; one memory compared with the new text, not
	// two), the tag section its first headerLen bytes.
	cached    bool
	headerLen int
	kept      []byte
}

func newPGNFeed(site, source string, delay time.Duration, audience string, clk clock.Clock, lim pgn.Limits) *pgnFeed {
	return &pgnFeed{site: site, source: source, delay: delay, audience: audience, clock: clock.Or(clk), limits: lim,
		games: make(map[string]*feedGame), intern: make(map[string]string)}
}

// feedText parses text (one or more games) and emits a snapshot for every
// game whose moves or result changed. fallbackID names a game without a
// [GameURL] from its 0-based index in text.
func (f *pgnFeed) feedText(text string, fallbackID func(i int) string, emit Emit) error {
	if strings.TrimSpace(text) == "" {
		return nil // a keep-alive
	}
	defer f.prune()
	if done, err := f.feedIncremental(text, emit); done {
		return err
	}
	f.fullParses++
	games, err := pgn.ParseGamesLimits(text, f.limits)
	if err != nil {
		return fmt.Errorf("pgn: %w", err)
	}
	for i, g := range games {
		fg, err := f.feedParsed(i, g, fallbackID, emit)
		if err != nil {
			return err
		}
		if len(games) == 1 && fg.url != "" && g.Err == nil {
			f.remember(fg, text)
		} else if fg != nil {
			// This text is not a prefix the next one can extend: the next
			// text of this game must be parsed whole again.
			fg.cached = false
		}
	}
	return nil
}

// feedReader feeds every game of rd, one at a time (a file is never held
// whole in memory), and returns how many games it read. Only an error of
// the underlying reader, or one that stops the source, is returned.
//
// Every state it emits says More but the last one: a consumer may gather
// the writes of a whole file.
func (f *pgnFeed) feedReader(rd *pgn.Reader, fallbackID func(i int) string, emit Emit) (n int, err error) {
	f.hold = true
	defer func() {
		f.hold = false
		var stop stopError
		if held := f.held; held != nil && !errors.As(err, &stop) {
			f.held = nil
			if e := f.send(held, false, emit); e != nil {
				err = e
			}
		}
		f.held = nil
		f.prune()
	}()
	for i := 0; ; i++ {
		g, err := rd.Next()
		if err == io.EOF {
			return i, nil
		}
		if err != nil {
			return i, err
		}
		if _, err := f.feedParsed(i, g, fallbackID, emit); err != nil {
			return i, err
		}
	}
}

// feedParsed feeds the i-th game of a text, identified by its [GameURL]
// or else by fallbackID(i).
func (f *pgnFeed) feedParsed(i int, g *pgn.Game, fallbackID func(i int) string, emit Emit) (*feedGame, error) {
	url, _ := g.Tag("GameURL")
	url = strings.TrimSpace(url)
	id := f.gameID(url)
	if url == "" {
		id = fallbackID(i)
	}
	return f.feedGame(id, url, g, emit)
}

// gameOfURL is the game whose [GameURL] is url (nil: none).
func (f *pgnFeed) gameOfURL(url string) *feedGame {
	if f.idOf == nil {
		return f.games[url]
	}
	return f.byURL[url]
}

// addGame adds a game to games (and byURL).
func (f *pgnFeed) addGame(fg *feedGame) {
	f.games[fg.id] = fg
	if f.idOf != nil && fg.url != "" {
		if f.byURL == nil {
			f.byURL = make(map[string]*feedGame)
		}
		f.byURL[fg.url] = fg
	}
}

// forget takes a game out of games (and byURL).
func (f *pgnFeed) forget(fg *feedGame) {
	delete(f.games, fg.id)
	if f.byURL[fg.url] == fg {
		delete(f.byURL, fg.url)
	}
}

// gameID is the id of the game whose [GameURL] is url.
func (f *pgnFeed) gameID(url string) string {
	if f.idOf == nil || url == "" {
		return url
	}
	return f.idOf(url)
}

// splitPGNText cuts the text of one game into its tag section and its
// movetext. It does not look into the movetext: oneGame does.
func splitPGNText(text string) (header, movetext string, ok bool) {
	text = strings.TrimLeft(text, " \t\r\n\uFEFF")
	if !strings.HasPrefix(text, "[") {
		return "", "", false
	}
	i := strings.Index(text, "\n\n")
	if i < 0 {
		return "", "", false
	}
	header, movetext = text[:i], text[i+2:]
	if strings.ContainsRune(header, '\r') {
		return "", "", false // line ends this path does not handle
	}
	return header, movetext, true
}

// oneGame reports whether a movetext (or a part of one, from the start of
// a line or from a blank) is that of one game: no tag line begins in it.
func oneGame(movetext string) bool { return !strings.Contains(movetext, "\n[") }

// movetextPrefix is the movetext without its trailing result: what a
// longer version of the game starts with. It must end at a token boundary.
func movetextPrefix(movetext string) (string, bool) {
	t := strings.TrimRight(movetext, " \t\r\n")
	for _, r := range []string{"*", "1-0", "0-1", "1/2-1/2", "½-½"} {
		if strings.HasSuffix(t, r) {
			t = t[:len(t)-len(r)]
			break
		}
	}
	if t != "" && !strings.ContainsAny(t[len(t)-1:], " \t\r\n") {
		return "", false
	}
	return t, true
}

func tagValue(header, name string) string {
	i := strings.Index(header, "["+name+" \"")
	if i < 0 {
		return ""
	}
	rest := header[i+len(name)+3:]
	j := strings.Index(rest, "\"]")
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(rest[:j])
}

// remember keeps a copy of a game's tag section and of its movetext up to
// the result, for the incremental path.
func (f *pgnFeed) remember(fg *feedGame, text string) {
	fg.cached = false
	header, movetext, ok := splitPGNText(text)
	if !ok || !oneGame(movetext) {
		return
	}
	prefix, ok := movetextPrefix(movetext)
	if !ok {
		return
	}
	fg.cached = true
	// Room for the moves to come, so that the next few are appended in
	// place.
	kept := slices.Grow(fg.kept[:0], len(header)+2+len(prefix)+prefixRoom)
	fg.kept, fg.headerLen = append(append(append(kept, header...), "\n\n"...), prefix...), len(header)
}

// prefixRoom is the room left after the copy of a movetext for the
// moves that follow (about 50 plies with clock comments).
const prefixRoom = 1 << 10

// feedIncremental handles a resent PGN that extends the one seen before by
// parsing only its new tail. It reports false when the text must be parsed
// in full.
func (f *pgnFeed) feedIncremental(text string, emit Emit) (bool, error) {
	header, movetext, ok := splitPGNText(text)
	if !ok || len(text) > f.limits.WithDefaults().MaxGameBytes {
		return false, nil
	}
	url := tagValue(header, "GameURL")
	fg := f.gameOfURL(url)
	if url == "" || fg == nil || !fg.cached || !fg.emitted || fg.unsupported {
		return false, nil
	}
	fg.seenAt = f.clock.Now()
	known := len(fg.kept) - fg.headerLen - 2 // of the movetext
	// The part of the text seen before (its tag section, the blank line,
	// the movetext up to the result) is compared with its copy; only what
	// follows it is looked into (from the blank it ends with, where a tag
	// line of a second game could begin). The tag section, the blank line
	// and the movetext are one after the other in text.
	body := text[len(text)-len(movetext)-2-len(header):]
	if len(movetext) < known || len(header) != fg.headerLen || body[:len(fg.kept)] != string(fg.kept) ||
		!oneGame(movetext[max(known-1, 0):]) {
		return false, nil
	}
	f.tailParses++
	// The new part is most often a move or two and the result, read here
	// without a pgn.Reader (its allocation and set-up were a tenth of an
	// update); anything else is read by package pgn.
	newMoves, result, simple := readSimpleTail(movetext[known:], f.tailMoves[:0], f.limits.WithDefaults().MaxLineBytes)
	if simple {
		f.tailMoves = newMoves[:0]
	} else {
		tail, err := pgn.ParseGamesLimits(movetext[known:], f.limits)
		if err != nil || len(tail) != 1 || tail[0].Err != nil || len(tail[0].Tags) > 0 {
			return false, nil
		}
		newMoves, result = tail[0].Moves, tail[0].Result
	}
	if len(fg.moves)+len(newMoves) > f.limits.WithDefaults().MaxPlies {
		return false, nil
	}
	prefix, ok := movetextPrefix(movetext)
	if !ok {
		return false, nil
	}
	// Both are prefixes of movetext: the copy grows (or shrinks) in place.
	if len(prefix) >= known {
		fg.kept = append(fg.kept, prefix[known:]...)
	} else {
		fg.kept = fg.kept[:fg.headerLen+2+len(prefix)]
	}
	if result == "" {
		result = tagValue(header, "Result")
	}
	if len(newMoves) == 0 && result == fg.result {
		return true, nil // the same state again
	}
	for _, tok := range newMoves {
		fg.moves = append(fg.moves, f.internTok(tok))
	}
	if result != fg.result {
		fg.result = strings.Clone(result)
	}
	return true, f.emitGame(fg, emit)
}

// readSimpleTail reads the new part of a resent movetext (from the start
// of a token on) when it is only moves, move numbers, comments within the
// line (Lichess writes a clock comment after every move) and a result,
// each followed by one space but the result, which only line ends or
// spaces follow: "12. Nf3 { [%clk 1:30:00] } Nc6 *\n\n". It appends the
// moves to moves (slices of tail) and returns them and the result, as
// pgn.ParseGamesLimits reads such a text, a game of no tags; ok is false
// for any other text (a comment across lines, a glyph, a NAG, a
// variation, a line end between moves, no result, a line over maxLine
// bytes), which is left to package pgn. FuzzReadSimpleTail holds it to
// pgn's reading.
func readSimpleTail(tail string, moves []string, maxLine int) (_ []string, result string, ok bool) {
	if len(tail) > maxLine {
		return moves, "", false
	}
	i := 0
	for i < len(tail) {
		if tail[i] == '{' {
			// A comment, skipped; it ends at the first "}".
			j := strings.IndexByte(tail[i:], '}')
			if j < 0 || strings.ContainsAny(tail[i:i+j], "\r\n") || i+j+1 == len(tail) || tail[i+j+1] != ' ' {
				return moves, "", false
			}
			i += j + 2
			continue
		}
		j := i
		for j < len(tail) && tail[j] != ' ' && tail[j] != '\n' && tail[j] != '\r' {
			j++
		}
		tok := tail[i:j]
		switch {
		case tok == "*" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2":
			if strings.Trim(tail[j:], " \r\n") != "" {
				return moves, "", false
			}
			return moves, tok, true
		case j == len(tail) || tail[j] != ' ':
			return moves, "", false // every token but the result is followed by a space
		case simpleMoveNumber(tok):
		case simpleMove(tok):
			moves = append(moves, tok)
		default:
			return moves, "", false
		}
		i = j + 1
	}
	return moves, "", false
}

// simpleMoveNumber: "12." or "12...".
func simpleMoveNumber(tok string) bool {
	d := 0
	for d < len(tok) && tok[d] >= '0' && tok[d] <= '9' {
		d++
	}
	return d > 0 && d <= 4 && (tok[d:] == "." || tok[d:] == "...")
}

// simpleMove: a token shaped like a SAN move of at most 8 bytes, from the
// bytes such a move has (what package pgn takes as a move token as it is
// written).
func simpleMove(tok string) bool {
	if len(tok) < 2 || len(tok) > 8 || simpleMoveFirst[tok[0]] == 0 {
		return false
	}
	for k := 1; k < len(tok); k++ {
		if simpleMoveByte[tok[k]] == 0 {
			return false
		}
	}
	return true
}

var simpleMoveFirst, simpleMoveByte = func() (first, rest [256]byte) {
	for _, c := range []byte("abcdefghKQRBNO") {
		first[c] = 1
	}
	for _, c := range []byte("abcdefgh12345678KQRBNOx=+#-") {
		rest[c] = 1
	}
	return first, rest
}()

func (f *pgnFeed) feedGame(id, url string, g *pgn.Game, emit Emit) (*feedGame, error) {
	start, variantErr := pgnStart(g)
	gameMoves := g.Moves
	if variantErr != nil {
		gameMoves = nil // its repetition rule differs: nothing is replayed
	}
	result := g.Result
	if r, ok := g.Tag("Result"); ok && (result == "" || result == "*") {
		result = strings.TrimSpace(r)
	}
	fg := f.games[id]
	if fg == nil {
		// Strings parsed from a PGN are slices of its whole text: copy the
		// ones kept, so that no resent text stays alive.
		id, url = strings.Clone(id), strings.Clone(url)
		fg = &feedGame{id: id, url: url}
		f.addGame(fg)
	}
	fg.seenAt = f.clock.Now()
	white, _ := g.Tag("White")
	black, _ := g.Tag("Black")
	if white != fg.white {
		fg.white = strings.Clone(white)
	}
	if black != fg.black {
		fg.black = strings.Clone(black)
	}
	if !sameTags(fg.tags, g.Tags) {
		fg.tags = make([]threefold.Tag, len(g.Tags))
		fg.event = ""
		for i, t := range g.Tags {
			fg.tags[i] = threefold.Tag{Name: strings.Clone(t.Name), Value: strings.Clone(t.Value)}
			if t.Name == "Event" && fg.event == "" {
				fg.event = eventName(fg.tags[i].Value)
			}
		}
	}
	readErr := ""
	if g.Err != nil {
		readErr = g.Err.Error()
	}
	if variantErr != nil {
		readErr = variantErr.Error()
	}
	fg.unsupported = variantErr != nil
	siteResult := ""
	if result != "" && result != "*" {
		siteResult, _ = g.Tag("Termination")
		siteResult = strings.TrimSpace(siteResult)
	}
	switch {
	case fg.emitted && fg.startFEN == start && extends(fg.moves, gameMoves):
		if len(gameMoves) == len(fg.moves) && fg.result == result && fg.readErr == readErr && fg.siteResult == siteResult {
			return fg, nil // the same state again
		}
		for _, tok := range gameMoves[len(fg.moves):] {
			fg.moves = append(fg.moves, f.internTok(tok))
		}
	default:
		// A new game or a correction: a fresh array, never a write into
		// one handed out.
		moves := make([]string, len(gameMoves), len(gameMoves)+16)
		for i, tok := range gameMoves {
			moves[i] = f.internTok(tok)
		}
		fg.moves = moves
	}
	if fg.startFEN != start {
		fg.startFEN = strings.Clone(start)
	}
	if fg.result != result {
		fg.result = strings.Clone(result)
	}
	if fg.readErr != readErr {
		fg.readErr = strings.Clone(readErr)
	}
	if fg.siteResult != siteResult {
		fg.siteResult = strings.Clone(siteResult)
	}
	return fg, f.emitGame(fg, emit)
}

// pgnStart returns the start of a PGN game as rules.ParseStart reads it
// back: a Chess960 game's (by its [Variant] tag, or an untagged [FEN]
// naming an inner rook file) in Shredder-FEN; a standard game's [FEN] as
// written, or as standard chess reads it when its castling field names
// files (rights a standard position cannot have are dropped). A variant
// threefold does not follow is a *rules.VariantError; an unreadable [FEN]
// stays as written, for the watcher to report.
func pgnStart(g *pgn.Game) (string, error) {
	fen, _ := g.StartFEN()
	p, _, err := g.Start()
	var ve *rules.VariantError
	switch {
	case errors.As(err, &ve):
		return fen, err
	case err != nil:
		return fen, nil
	case p.Variant() == rules.Chess960:
		return rules.WriteStart(p), nil
	}
	if f := strings.Fields(fen); len(f) >= 3 && strings.ContainsAny(f[2], "ABCDEFGHabcdefgh") {
		return rules.WriteStart(p), nil
	}
	return fen, nil
}

func (f *pgnFeed) emitGame(fg *feedGame, emit Emit) error {
	fg.emitted = true
	if f.hold {
		held := f.held
		f.held = fg
		if held == nil || held == fg {
			return nil
		}
		return f.send(held, true, emit)
	}
	return f.send(fg, false, emit)
}

// send emits the state of fg.
func (f *pgnFeed) send(fg *feedGame, more bool, emit Emit) error {
	finished := fg.result != "" && fg.result != "*"
	err := emit(threefold.GameState{
		Game:       threefold.GameRef{Site: f.site, ID: fg.id, URL: fg.url, White: fg.white, Black: fg.black},
		Source:     f.source,
		Event:      fg.event,
		StartFEN:   fg.startFEN,
		Notation:   rules.SAN,
		Moves:      fg.moves,
		Result:     fg.result,
		SiteResult: fg.siteResult,
		Finished:   finished,
		ReadError:  fg.readErr,
		More:       more,
		Last:       f.forgetSent,
		ObservedAt: f.observed(),
		Delay:      f.delay,
		Audience:   f.audience,
		Tags:       fg.tags,
	})
	if err != nil {
		return stopError{err}
	}
	if f.forgetSent && f.games[fg.id] == fg {
		f.forget(fg)
	}
	return nil
}

// eventName is the event an [Event] tag names: "" for the PGN's unknown
// ("?") and for a blank value.
func eventName(tag string) string {
	if e := strings.TrimSpace(tag); e != "?" {
		return e
	}
	return ""
}

// sameTags reports whether the tags kept for a game are those of its text.
func sameTags(kept []threefold.Tag, tags []pgn.Tag) bool {
	if len(kept) != len(tags) {
		return false
	}
	for i, t := range tags {
		if kept[i].Name != t.Name || kept[i].Value != t.Value {
			return false
		}
	}
	return true
}

// extends reports whether b starts with every token of a.
func extends(a, b []string) bool {
	if len(b) < len(a) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// prune forgets the finished games that no text has named for the grace
// period, looking at most once per tenth of it. It runs after a whole
// delivery (a file's reading, a stream's text, a poll's games), so that a
// game the delivery named is never forgotten; one named again later is
// emitted again (the watcher and the store recognise it).
func (f *pgnFeed) prune() {
	grace := f.grace
	if grace <= 0 {
		grace = DefaultFinishedGrace
	}
	now := f.clock.Now()
	if now.Sub(f.lastPrune) < grace/10 {
		return
	}
	f.lastPrune = now
	for _, fg := range f.games {
		if fg != f.held && fg.result != "" && fg.result != "*" && now.Sub(fg.seenAt) >= grace {
			f.forget(fg)
		}
	}
}

func (f *pgnFeed) observed() time.Time {
	if !f.at.IsZero() {
		return f.at
	}
	return f.clock.Now()
}

func (f *pgnFeed) internTok(tok string) string {
	if v, ok := f.intern[tok]; ok {
		return v
	}
	if len(f.intern) >= 1<<16 {
		return strings.Clone(tok) // garbage input: do not grow without bound
	}
	v := strings.Clone(tok)
	f.intern[v] = v
	return v
}
