// Package pgn reads multi-game PGN as real files and broadcasts write it.
//
// It reads multi-game PGN as real files and broadcasts contain it: plain, gzip or zstd, from a
// file or stdin, with tags (escaped quotes, odd spacing), comments of both kinds, `%` escape lines, NAGs,
// annotation glyphs, nested variations, null moves, a BOM, CRLF line ends and missing results. Reader is a
// hand-written byte scanner built for throughput (one string allocation per game for all of its text); it
// never panics on bad input: a syntax problem inside a game is reported in that game's Err and reading goes
// on with the next game. Limits bound what one game may take (line, game text, plies, tag value), so that
// no input can exhaust memory; a game over one is reported the same way. Game.Replay plays a game's main
// line on a rules.Game and names the ply, move number and token of the first move that cannot be played.
package pgn

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Tag is one tag pair, with escapes (\" and \\) resolved.
type Tag struct{ Name, Value string }

// Game is one game of a PGN input.
type Game struct {
	Index int   // 0-based position of the game in the input
	Line  int   // 1-based line of its first tag or movetext
	Tags  []Tag // in input order
	// Moves are the main-line SAN tokens exactly as written, without move numbers, NAGs and trailing
	// annotation glyphs (!, ?, !?, ?!, !!, ??); check and mate marks (+, #) are kept. Null moves (--, Z0)
	// are kept too; Replay reports them as unreadable. A game of a ChunkReader (or a Stitcher) has them
	// in its text instead and Moves nil: MoveList gives the moves of every game.
	Moves  []string
	Result string   // the termination marker (1-0, 0-1, 1/2-1/2, *), "" if the game has none
	Err    error    // the first syntax problem found in the game (a *SyntaxError), or nil
	inText MoveList // a game of a ChunkReader: its moves
}

// MoveList is the main line of a game: Game.Moves, or the moves of a game of a ChunkReader, each a piece
// of one text (the chunk's, or one of the game's own when it copied some of them), which spares a string
// header a move.
type MoveList struct {
	list  []string
	text  string
	spans []MoveSpan // where each move is in text, when list is nil
}

// A MoveSpan is where a move is in the text of its MoveList (see MoveList.Spans): text[Start:End].
type MoveSpan struct{ Start, End int32 }

// MoveList returns the main line's moves.
func (g *Game) MoveList() MoveList {
	if g.Moves != nil {
		return MoveList{list: g.Moves}
	}
	return g.inText
}

// Len returns the number of moves.
func (m *MoveList) Len() int {
	if m.spans == nil {
		return len(m.list)
	}
	return len(m.spans)
}

// At returns move i (0-based) as written.
func (m *MoveList) At(i int) string {
	if m.spans == nil {
		return m.list[i]
	}
	return m.text[m.spans[i].Start:m.spans[i].End]
}

// Spans returns the text the moves are in and where each is in it: move i is text[spans[i].Start:
// spans[i].End]. A loop over the spans reads the moves with fewer checks than At. The moves of a list
// of strings (Game.Moves) are copied into a new text for it.
func (m *MoveList) Spans() (text string, spans []MoveSpan) {
	if m.spans != nil || len(m.list) == 0 {
		return m.text, m.spans
	}
	var b strings.Builder
	spans = make([]MoveSpan, len(m.list))
	for i, s := range m.list {
		spans[i].Start = int32(b.Len())
		b.WriteString(s)
		spans[i].End = int32(b.Len())
	}
	return b.String(), spans
}

// Strings returns the moves as a slice of their own.
func (m *MoveList) Strings() []string {
	if m.spans == nil {
		return m.list
	}
	s := make([]string, m.Len())
	for i := range s {
		s[i] = m.At(i)
	}
	return s
}

// tagValue is a tag value as read, in UTF-8: a value that is not valid UTF-8 was written in the 8-bit
// character set the PGN standard names, ISO 8859-1, or in Windows-1252, its superset that Windows
// exporters write (0x80-0x9f: €, Š, š, Ž, ž, typographic quotes), and is decoded from that. Passed on as
// they were, the bytes of "M\xfcller" became "M\ufffdller" in the JSON and the store, and an escape in
// the text. The five bytes Windows-1252 leaves undefined become U+FFFD; a valid UTF-8 value is returned
// as it is, with no copy.
func tagValue(v string) string {
	if utf8.ValidString(v) {
		return v
	}
	d, err := charmap.Windows1252.NewDecoder().String(v)
	if err != nil {
		return v
	}
	return d
}

// Tag returns the value of the first tag pair with this name (names are case-sensitive).
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// StartFEN returns the [FEN] tag when present and not blank, with or without [SetUp "1"].
func (g *Game) StartFEN() (string, bool) {
	v, ok := g.Tag("FEN")
	v = strings.TrimSpace(v)
	if !ok || v == "" {
		return "", false
	}
	return v, true
}

// SyntaxError is a problem in the text of one game.
type SyntaxError struct {
	Line int    // 1-based input line where the problem was found
	Msg  string // what is wrong, e.g. `unexpected token "e4xyz"` or "unterminated comment opened at line 12"
	// Limit names the limit the game went over ("max_plies", see Limits), or is "" for a plain syntax
	// problem.
	Limit string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Limits bound what one game may take, so that no input can exhaust memory. A game that goes over one is
// reported in its Err (a *SyntaxError whose Limit names the limit, with the line where it was reached); its
// moves up to that point are kept and reading goes on with the next game. A zero field takes the default.
// The mapstructure tags are the keys of the pgn: section of the config file, which bounds scan and every
// source that reads PGN.
type Limits struct {
	MaxLineBytes int `mapstructure:"max_line_bytes" range:"1024,1073741824"` // bytes of one input line (a longer line is cut there)
	MaxGameBytes int `mapstructure:"max_game_bytes" range:"1024,1073741824"` // bytes of the text of one game: tags, movetext, comments and variations
	MaxPlies     int `mapstructure:"max_plies" range:"1,1073741824"`         // half-moves of the main line of one game
	MaxTagBytes  int `mapstructure:"max_tag_bytes" range:"1,1073741824"`     // bytes of one tag value in the file (read as Windows-1252, up to 3 times as many in UTF-8)
}

// The default limits: far above any real game. The longest game possible under the 75-move rule has
// fewer than 18,000 plies; real tag values are under a kilobyte.
const (
	DefaultMaxLineBytes = 4 << 20
	DefaultMaxGameBytes = 32 << 20
	DefaultMaxPlies     = 20000
	DefaultMaxTagBytes  = 64 << 10
	// MaxLimit is the largest value a limit may take: offsets into a game's text are 32-bit.
	MaxLimit = 1 << 30
)

// WithDefaults returns l with every zero field set to its default and every field capped at MaxLimit.
func (l Limits) WithDefaults() Limits {
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
		*v = min(*v, MaxLimit)
	}
	set(&l.MaxLineBytes, DefaultMaxLineBytes)
	set(&l.MaxGameBytes, DefaultMaxGameBytes)
	set(&l.MaxPlies, DefaultMaxPlies)
	set(&l.MaxTagBytes, DefaultMaxTagBytes)
	return l
}

// ErrNoGames is returned by ParseGames for a non-blank text that contains no game.
var ErrNoGames = errors.New("pgn: no game in text")

// ParseGames parses a whole PGN text that is complete in memory (a broadcast round, a chess.com game) into
// games, in input order, within the default Limits. Syntax problems are reported per game in Game.Err;
// the error is ErrNoGames when the text is not blank but holds no game at all.
func ParseGames(text string) ([]*Game, error) { return ParseGamesLimits(text, Limits{}) }

// ParseGamesLimits is ParseGames within the limits lim.
func ParseGamesLimits(text string, lim Limits) ([]*Game, error) {
	r := NewReaderLimits(strings.NewReader(text), lim)
	var games []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
	if len(games) == 0 && strings.TrimSpace(strings.TrimPrefix(text, bom)) != "" {
		return nil, ErrNoGames
	}
	return games, nil
}

const (
	bom          = "\uFEFF"
	maxTokenShow = 24 // bytes of a bad token quoted in an error
	// maxMoveToken is the longest token taken as a move: the longest SAN a PGN writes (a long form with
	// capture, promotion, check and glyph, "Qa1xb2=Q+!?") has 11 bytes.
	maxMoveToken = 32
)

type scanState uint8

const (
	stateNone     scanState = iota // between games
	stateTags                      // reading tag pairs
	stateMovetext                  // movetext (or a comment) has started
)

// Reader reads games one after the other from a PGN stream, within Limits. It is not safe for concurrent
// use.
type Reader struct {
	br    *bufio.Reader
	lim   Limits
	line  int   // lines read so far (the current line's number while scanning it)
	index int   // games returned so far
	err   error // sticky I/O error or io.EOF
	long  []byte

	// A line that looks like a tag pair inside an open brace comment is comment text (a comment ends only
	// at "}"), but should the comment never close, it was the next game's start. From that line on the
	// lines are recorded (at most the game's byte limit) until the comment closes; if it does not (end of
	// input, or the game over its byte limit), the game ends with an error and the recorded lines are
	// read again as the next games. Lines read again never start a recording: every line is scanned at
	// most twice.
	recording  bool
	rec        []byte  // recorded lines, one after the other
	recEnds    []int32 // end offset in rec of each recorded line
	recFirst   int     // line number of the first recorded line
	replay     []byte  // lines to read again before reading on
	replayEnd  []int32
	replayAt   int  // next line of replay to read
	replayNum  int  // its line number
	rescanning bool // the line being scanned is read again

	// pending is the unscanned rest of the current line after the previous game ended inside it.
	pending        []byte
	pendingAtStart bool
	hasPending     bool

	// The game being read. text holds the unescaped tag names and values and the move tokens copied;
	// tagOff (4 per tag) indexes into it. moveOff holds where each move is: the bitwise complements (^)
	// of its start and end in text (a move copied: copied is set), or, for a move taken from a chunk's
	// line as written, its start and end in the chunk (chunkText).
	text    []byte
	tagOff  []int32
	moveOff []MoveSpan
	copied  bool
	tags    int // tag pairs read, kept or not
	// keepTags, when not nil, names the only tag pairs kept (see ChunkReader.KeepTags); the others are
	// read and checked all the same.
	keepTags    []string
	dropMask    uint64 // once dropMaskSet: a bit clear for 1<<keepBit of each name in keepTags
	dropMaskSet bool
	// keepAt, once dropMaskSet, is for each keepBit the index in keepTags of the only name with it, or
	// keepSeveral.
	keepAt [64]uint8
	// tagNames are the tag names chunkTagLines has read, for a copy of keepTags, tagNamesKeep (a
	// ChunkReader passes them on from chunk to chunk while its KeepTags stay the same).
	tagNames     *[256]tagName
	tagNamesKeep []string
	state        scanState
	blankAfter   bool // a blank line followed the tag pairs
	startLine    int
	result       string
	gameErr      error
	broken       bool // a movetext problem was found: no more moves are taken
	inBrace      bool
	braceLine    int
	depth        int
	depthLine    int
	done         bool // the game ended in the line being scanned
	gameBytes    int  // bytes of text of the game so far
	overSize     bool // the game went over MaxGameBytes: its text is skipped up to the next tag pair

	// A Reader of chunks (see Splitter) reads its lines from memory: src holds the lines not read yet and
	// srcEnd is what readLine returns after them (errChunkEnd, io.EOF, or the read error that cut the
	// input). resets counts the times the game state was reset, and firstResetBytes is gameBytes at the
	// first of them (see Stitcher).
	inMemory        bool
	src             []byte
	srcEnd          error
	resets          int
	firstResetBytes int
	// The chunk being read, as read (chunk, whose capacity tells where a line of it starts) and as a
	// string the games' moves are cut from (chunkText); lineInChunk says the line being scanned is one
	// of its lines, pendingInChunk the same of pending.
	chunk          []byte
	chunkText      string
	chunkLines     int // the length of chunk's whole lines: up to its last line end
	lineInChunk    bool
	pendingInChunk bool
	// Games and their moves and tags of a Reader of chunks are cut from slabs: a few allocations a
	// chunk instead of four a game.
	games    []Game
	spanSlab []MoveSpan
	tagSlab  []Tag
}

// NewReader returns a Reader of the PGN text in r (uncompressed; see NewDecompressingReader), within the
// default Limits.
func NewReader(r io.Reader) *Reader { return NewReaderLimits(r, Limits{}) }

// NewReaderLimits returns a Reader of the PGN text in r within the limits lim.
func NewReaderLimits(r io.Reader, lim Limits) *Reader {
	// A text in memory gets a buffer of its size: a broadcast's update is
	// parsed from a few bytes of new moves, and a buffer of 4 KB for each
	// was most of what an update allocated.
	size := 1 << 20
	switch v := r.(type) {
	case *strings.Reader:
		size = min(int(v.Len())+1, size)
	case *bytes.Reader:
		size = min(int(v.Len())+1, size)
	}
	return &Reader{br: bufio.NewReaderSize(r, size), lim: lim.WithDefaults()}
}

// Next returns the next game, or io.EOF after the last one. A syntax problem inside a game (unterminated
// comment or variation, garbage token, malformed tag pair) is reported in that game's Err and reading
// resumes with the next game. Only an error of the underlying reader is returned as error; it names the
// line and is returned again by every later call.
func (r *Reader) Next() (*Game, error) {
	for {
		if r.hasPending {
			r.hasPending = false
			r.lineInChunk = r.pendingInChunk
			r.scanLine(r.pending, r.pendingAtStart)
		} else if r.replayAt < len(r.replayEnd) {
			start := int32(0)
			if r.replayAt > 0 {
				start = r.replayEnd[r.replayAt-1]
			}
			b := r.replay[start:r.replayEnd[r.replayAt]]
			r.line = r.replayNum
			r.replayAt++
			r.replayNum++
			r.rescanning, r.lineInChunk = true, false
			r.scanLine(b, true)
			r.rescanning = false
		} else {
			if r.err != nil {
				if r.err == io.EOF {
					if r.abandonComment() {
						return r.finish(), nil
					}
					r.closeOpen()
					if r.nonEmpty() {
						return r.finish(), nil
					}
					r.reset()
				}
				return nil, r.err
			}
			b, err := r.readLine()
			if err == errChunkEnd {
				return nil, err // the chunk is read; the reader goes on with the next one, or not
			}
			if err == io.EOF {
				r.err = io.EOF
				continue
			}
			if err != nil {
				r.err = fmt.Errorf("pgn: read line %d: %w", r.line+1, err)
				r.reset()
				continue
			}
			r.line++
			r.lineInChunk = r.chunk != nil
			r.scanLine(b, true)
		}
		if r.done {
			if r.nonEmpty() {
				return r.finish(), nil
			}
			r.reset() // a comment between games: nothing to report
		}
	}
}

// readLine returns the next line without its line end; the slice is valid until the next call. A line
// longer than MaxLineBytes is cut there (the rest is read and dropped) and its game gets an error.
func (r *Reader) readLine() ([]byte, error) {
	if r.inMemory {
		return r.memoryLine()
	}
	maxLine := r.lim.MaxLineBytes
	b, err := r.br.ReadSlice('\n')
	cut := false
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], b[:min(len(b), maxLine+2)]...)
		for err == bufio.ErrBufferFull {
			b, err = r.br.ReadSlice('\n')
			if room := maxLine + 2 - len(r.long); room > 0 {
				r.long = append(r.long, b[:min(len(b), room)]...)
			} else {
				cut = true
			}
		}
		b = r.long
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(b) == 0 && err == io.EOF && !cut {
		return nil, io.EOF
	}
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if cut || len(b) > maxLine {
		b = b[:maxLine]
		r.lineTooLong()
	}
	return b, nil
}

// memoryLine is readLine for the lines of a chunk, in memory: the same lines, cut the same way.
func (r *Reader) memoryLine() ([]byte, error) {
	if len(r.src) == 0 {
		return nil, r.srcEnd
	}
	var b []byte
	if i := bytes.IndexByte(r.src, '\n'); i >= 0 {
		b, r.src = r.src[:i], r.src[i+1:]
	} else if r.srcEnd != io.EOF {
		// A line cut short by a read error is not read (as bufio.Reader.ReadSlice gives it).
		r.src = nil
		return nil, r.srcEnd
	} else {
		b, r.src = r.src, nil
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if maxLine := r.lim.MaxLineBytes; len(b) > maxLine {
		b = b[:maxLine]
		r.lineTooLong()
	}
	return b, nil
}

// lineTooLong records that the line being read, cut at MaxLineBytes, went over it. A game that has not
// started yet (the line is an escape line, or blank) starts there: its error is on that line.
func (r *Reader) lineTooLong() {
	r.broken = true
	r.setLimitErr(r.line+1, "max_line_bytes", fmt.Sprintf("line longer than %d bytes", r.lim.MaxLineBytes))
	if r.startLine == 0 {
		r.startLine = r.line + 1
	}
}

// movetextErr records a problem in the movetext: the moves after it are not taken.
func (r *Reader) movetextErr(msg string) {
	r.broken = true
	r.setErr(r.line, msg)
}

func (r *Reader) setErr(line int, msg string) {
	if r.gameErr == nil {
		r.gameErr = &SyntaxError{Line: line, Msg: msg}
	}
}

// setLimitErr records that the game went over the limit named limit.
func (r *Reader) setLimitErr(line int, limit, msg string) {
	if r.gameErr == nil {
		r.gameErr = &SyntaxError{Line: line, Msg: msg + " (limit pgn." + limit + ")", Limit: limit}
	}
}

// record keeps line b (number n), read inside an open brace comment after a line that looks like a tag
// pair, to be read again should the comment never close.
func (r *Reader) record(b []byte, n int) {
	if !r.recording {
		r.recording, r.recFirst = true, n
		r.rec, r.recEnds = r.rec[:0], r.recEnds[:0]
	}
	r.rec = append(r.rec, b...)
	r.recEnds = append(r.recEnds, int32(len(r.rec)))
}

// abandonComment ends the game when a brace comment that holds lines looking like tag pairs is still open
// (at the end of the input, or with the game over its byte limit): the comment was never closed, and the
// recorded lines are read again, from the first of them, as the next games. It reports whether it did.
func (r *Reader) abandonComment() bool {
	if !r.recording || !r.inBrace {
		return false
	}
	r.setErr(r.recFirst, fmt.Sprintf("unterminated comment opened at line %d", r.braceLine))
	r.inBrace, r.recording = false, false
	r.replay, r.rec = r.rec, r.replay[:0]
	r.replayEnd, r.recEnds = r.recEnds, r.replayEnd[:0]
	r.replayAt, r.replayNum = 0, r.recFirst
	r.done = true
	return true
}

// closeOpen reports a comment or variation still open where the game ends.
func (r *Reader) closeOpen() {
	if r.inBrace {
		r.setErr(r.line, fmt.Sprintf("unterminated comment opened at line %d", r.braceLine))
	} else if r.depth > 0 {
		r.setErr(r.line, fmt.Sprintf("unterminated variation opened at line %d", r.depthLine))
	}
}

func (r *Reader) nonEmpty() bool {
	return r.tags > 0 || len(r.moveOff) > 0 || r.result != "" || r.gameErr != nil
}

func (r *Reader) reset() {
	if r.resets == 0 {
		r.firstResetBytes = r.gameBytes
	}
	r.resets++
	r.text = r.text[:0]
	r.tagOff = r.tagOff[:0]
	r.tags = 0
	r.moveOff = r.moveOff[:0]
	r.copied = false
	r.state = stateNone
	r.blankAfter = false
	r.startLine = 0
	r.result = ""
	r.gameErr = nil
	r.broken = false
	r.inBrace = false
	r.depth = 0
	r.done = false
	r.gameBytes = 0
	r.overSize = false
	r.recording = false
}

// finish builds the game read so far and resets the state for the next one.
func (r *Reader) finish() *Game {
	g := r.newGame()
	*g = Game{Index: r.index, Line: r.startLine, Result: r.result, Err: r.gameErr}
	r.index++
	var s string
	if len(r.text) > 0 {
		s = string(r.text)
	}
	if n := len(r.tagOff) / 4; n > 0 {
		g.Tags = r.newTags(n)
		for i := range g.Tags {
			o := r.tagOff[4*i : 4*i+4]
			g.Tags[i] = Tag{Name: s[o[0]:o[1]], Value: tagValue(s[o[2]:o[3]])}
		}
	}
	if n := len(r.moveOff); n > 0 && r.inMemory {
		// A game of a chunk keeps its moves where they are: in the chunk, or, when it copied some, in
		// a text of its own.
		spans := fromSlab(&r.spanSlab, n, 2048)
		copy(spans, r.moveOff)
		text := r.chunkText
		if r.copied {
			text = r.ownMoves(spans, s)
		}
		g.inText = MoveList{text: text, spans: spans}
	} else if n > 0 {
		// Built in locals, which the compiler keeps in registers and checks the bounds of once. Every
		// move was copied into text.
		moves, off := make([]string, n), r.moveOff[:n]
		for i := range moves {
			moves[i] = s[^off[i].Start:^off[i].End]
		}
		g.Moves = moves
	}
	r.reset()
	return g
}

// ownMoves returns a text of the moves of the game being read, which copied some of them into own (the
// text of the game), and sets spans to where they are in it.
func (r *Reader) ownMoves(spans []MoveSpan, own string) string {
	var b []byte
	for i, sp := range spans {
		start := int32(len(b))
		if sp.Start >= 0 {
			b = append(b, r.chunkText[sp.Start:sp.End]...)
		} else {
			b = append(b, own[^sp.Start:^sp.End]...)
		}
		spans[i] = MoveSpan{start, int32(len(b))}
	}
	return string(b)
}

// newGame returns a new Game, from the slab of a Reader of chunks.
func (r *Reader) newGame() *Game {
	if !r.inMemory {
		return new(Game)
	}
	if len(r.games) == 0 {
		r.games = make([]Game, 32)
	}
	g := &r.games[0]
	r.games = r.games[1:]
	return g
}

// newTags returns room for n tag pairs, from the slab of a Reader of chunks.
func (r *Reader) newTags(n int) []Tag {
	if !r.inMemory {
		return make([]Tag, n)
	}
	return fromSlab(&r.tagSlab, n, 128)
}

// fromSlab cuts n elements (with no room to grow into the next) off the
// front of *slab, first making a new slab of max(n, size) when it holds
// fewer.
func fromSlab[T any](slab *[]T, n, size int) []T {
	if len(*slab) < n {
		*slab = make([]T, max(n, size))
	}
	s := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return s
}

// setChunk makes c the chunk read: the moves of the game being read that were taken from the previous
// chunk are copied into text first.
func (r *Reader) setChunk(c *Chunk) {
	for i, sp := range r.moveOff {
		if sp.Start >= 0 {
			t := int32(len(r.text))
			r.text = append(r.text, r.chunkText[sp.Start:sp.End]...)
			r.moveOff[i], r.copied = MoveSpan{^t, ^int32(len(r.text))}, true
		}
	}
	r.chunk, r.chunkText, r.chunkLines = nil, "", 0
	if len(c.data) <= math.MaxInt32 { // else its moves are copied: offsets are 32-bit
		r.chunk, r.chunkText = c.data, c.text()
		r.chunkLines = bytes.LastIndexByte(c.data, '\n') + 1
	}
}

// endGame marks the current game as complete; the unscanned rest of the line is kept for the next one.
func (r *Reader) endGame(rest []byte, atStart bool) {
	r.done = true
	if len(rest) > 0 {
		r.pending, r.pendingAtStart, r.hasPending, r.pendingInChunk = rest, atStart, true, r.lineInChunk
	}
}

func (r *Reader) begin(state scanState) {
	if r.startLine == 0 {
		r.startLine = r.line
	}
	if state > r.state {
		r.state = state
	}
}

// Byte classes of the movetext scanner.
const (
	cDelim uint8 = 1 << iota // ends a token
	cSpace                   // white space
	cSAN                     // may appear in a move as PGN writes it (or a null move)
	cFirst                   // may start a SAN move (a file, a piece letter, O of castling)
	cDigit                   // 0 to 9
)

var class = func() (t [256]uint8) {
	for _, c := range []byte(" \t\r\n\v\f{}();$[]\"") {
		t[c] |= cDelim
	}
	for _, c := range []byte(" \t\r\n\v\f") {
		t[c] |= cSpace
	}
	for _, c := range []byte("abcdefgh12345678KQRBNPOo0xX=+#-:Z@") {
		t[c] |= cSAN
	}
	for _, c := range []byte("abcdefghKQRBNO") {
		t[c] |= cFirst
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= cDigit
	}
	return t
}()

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'
}

// scanLine scans one line (or the rest of one, when atStart is false) of the current game.
func (r *Reader) scanLine(b []byte, atStart bool) {
	r.gameBytes += len(b) + 1
	if r.recording {
		r.record(b, r.line)
	}
	if r.gameBytes > r.lim.MaxGameBytes && !r.overSize {
		r.overSize, r.broken = true, true
		r.setLimitErr(r.line, "max_game_bytes", fmt.Sprintf("game text longer than %d bytes", r.lim.MaxGameBytes))
		if r.abandonComment() {
			return
		}
		r.inBrace, r.depth = false, 0
		return
	}
	if r.overSize {
		// Skip the rest of the game: it ends at the next tag pair after its movetext (or after a blank
		// line that ends its tag section).
		if atStart {
			i := 0
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			switch {
			case i == len(b):
				r.blankAfter = r.blankAfter || r.state == stateTags
			case b[i] == '[' && looksLikeTag(b[i:]):
				if r.state == stateMovetext || r.blankAfter {
					r.endGame(b, true)
				}
			default:
				r.state = stateMovetext
			}
		}
		return
	}
	if atStart {
		if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			b = b[3:]
		}
		if !r.inBrace && len(b) > 0 && b[0] == '%' {
			return // escape line
		}
		i := 0
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) { // blank line
			if r.state == stateTags && !r.inBrace {
				r.blankAfter = true
			}
			return
		}
		if b[i] == '[' {
			if r.inBrace {
				// Comment text: a comment ends only at "}". Should it never close, this was the next
				// game's start (see Reader.recording). Lines read again hold no "}" at all (the comment
				// would have closed): there, a tag pair does start the next game.
				if r.state == stateMovetext && looksLikeTag(b[i:]) {
					if r.rescanning {
						r.closeOpen()
						r.endGame(b, true)
						return
					}
					if !r.recording {
						r.record(b, r.line)
					}
				}
			} else if r.depth > 0 {
				// Inside a variation only a well-formed tag pair ends the game: the variation was never
				// closed.
				if r.state == stateMovetext && looksLikeTag(b[i:]) {
					r.closeOpen()
					r.endGame(b, true)
					return
				}
			} else if r.state == stateMovetext || (r.state == stateTags && r.blankAfter) {
				if looksLikeTag(b[i:]) {
					r.endGame(b, true)
					return
				}
			} else {
				r.scanTags(b, i)
				return
			}
		}
	}
	r.scanMovetext(b, 0)
}

// looksLikeTag reports whether b starts with `[Name "` — the start of a tag pair.
func looksLikeTag(b []byte) bool {
	i := 1
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && isNameByte(b[j]) {
		j++
	}
	if j == i {
		return false
	}
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return j < len(b) && b[j] == '"'
}

func isNameByte(c byte) bool { return nameByte[c] }

// nameByte marks the bytes of a tag name.
var nameByte = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		t[c] = b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '+' || b == '#' || b == '=' || b == ':' || b == '-'
	}
	return t
}()

// scanTags reads the tag pairs of a line starting at b[i] == '['. Movetext after the last `]` goes on
// to the movetext scanner.
func (r *Reader) scanTags(b []byte, i int) {
	r.begin(stateTags)
	for {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i == len(b) {
			if r.lineInChunk {
				r.chunkTagLines()
			}
			return
		}
		if b[i] != '[' {
			r.scanMovetext(b, i)
			return
		}
		i++
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		nameStart := i
		for i < len(b) && isNameByte(b[i]) {
			i++
		}
		if i == nameStart {
			r.setErr(r.line, "malformed tag pair: no tag name")
			return
		}
		name := b[nameStart:i]
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i == len(b) || b[i] != '"' {
			r.setErr(r.line, fmt.Sprintf("malformed tag pair %s: no quoted value", quote(name)))
			return
		}
		i++
		keep := r.keepTag(name)
		n0 := int32(len(r.text))
		if keep {
			r.text = append(r.text, name...)
		}
		v0 := int32(len(r.text))
		end := closingQuote(b, i)
		if end < 0 {
			r.text = r.text[:n0]
			r.setErr(r.line, fmt.Sprintf("tag %s: unterminated value", quote(name)))
			return
		}
		if k := skipBlanks(b, end+1); k == len(b) || b[k] != ']' {
			// An unescaped quote inside the value, as some exporters write it: when the line ends with
			// `"]`, the value runs to that last quote.
			if last := lastTagQuote(b); last > end {
				end = last
			}
		}
		if end-i > r.lim.MaxTagBytes {
			r.text = r.text[:n0]
			r.setLimitErr(r.line, "max_tag_bytes", fmt.Sprintf("tag %s: value longer than %d bytes", quote(name), r.lim.MaxTagBytes))
		} else if r.tags++; keep {
			if bytes.IndexByte(b[i:end], '\\') < 0 {
				r.text = append(r.text, b[i:end]...) // the usual value: nothing escaped
			} else {
				for j := i; j < end; j++ {
					c := b[j]
					if c == '\\' && j+1 < end && (b[j+1] == '"' || b[j+1] == '\\') {
						j++
						c = b[j]
					}
					r.text = append(r.text, c)
				}
			}
			r.tagOff = append(r.tagOff, n0, v0, v0, int32(len(r.text)))
		}
		i = end + 1
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i == len(b) || b[i] != ']' {
			r.setErr(r.line, fmt.Sprintf("tag %s: missing ]", quote(name)))
			return
		}
		i++
	}
}

// chunkTagLines reads on, after a line of tag pairs of a chunk, the next lines of the chunk that hold one
// tag pair each in the usual form, `[Name "value"]` with nothing escaped and nothing around it, within the
// limits, in one loop: most lines of tag pairs are so. It stops before any other line, which Next reads
// as before, and reads nothing unless the game is in its tag section as scanLine would read those lines.
func (r *Reader) chunkTagLines() {
	if r.state != stateTags || r.blankAfter || r.inBrace || r.depth > 0 || r.recording || r.overSize || r.hasPending ||
		r.replayAt < len(r.replayEnd) {
		return
	}
	if r.tagNames == nil {
		r.tagNames, r.tagNamesKeep = new([256]tagName), slices.Clone(r.keepTags)
	}
	names := r.tagNames
	src := r.src
	for len(src) > 0 && src[0] == '[' {
		// The name up to the first byte below '!', when it is in the first 16 after "[", looked up among
		// the names read before: a name seen once is checked byte by byte and its keepTag asked once, not
		// on every line (Lichess writes 17 tag pairs a game, the same names in every game).
		var n int // the name is src[1:n]
		var keep bool
		var w0, w1, m0, m1 uint64
		if len(src) >= 17 {
			w0, w1 = binary.LittleEndian.Uint64(src[1:9]), binary.LittleEndian.Uint64(src[9:17])
			m0, m1 = (w0-0x2121212121212121)&^w0&0x8080808080808080, (w1-0x2121212121212121)&^w1&0x8080808080808080
		}
		if m0|m1 != 0 {
			e0, e1 := uint(bits.TrailingZeros64(m0)), 64+uint(bits.TrailingZeros64(m1))
			l := min(e0|e0>>6*0xff, e1) >> 3 // the name's length; e0 is 64 when the first 8 bytes have no end
			mask := &nameMasks[l&15]
			w0, w1 = w0&mask[0], w1&mask[1]
			t := &names[uint8(w0*0x9e3779b97f4a7c15>>56)^uint8(l)]
			if n = int(l) + 1; t.w0 != w0 || t.w1 != w1 || t.end != uint8(n) {
				k := 1
				for k < n && nameByte[src[k]] {
					k++
				}
				if k != n || n == 1 {
					break
				}
				*t = tagName{w0: w0, w1: w1, end: uint8(n), keep: r.keepTag(src[1:n])}
			}
			keep = t.keep
		} else {
			for n = 1; n < len(src) && nameByte[src[n]]; n++ {
			}
			if n == 1 {
				break
			}
			keep = r.keepTag(src[1:n])
		}
		if n+1 >= len(src) || src[n] != ' ' || src[n+1] != '"' {
			break
		}
		end := plainValueEnd(src, n+2)
		if end < 0 || end+2 >= len(src) || src[end+1] != ']' {
			break
		}
		// The line is the end+2 bytes up to "]", then "\n" or "\r\n".
		next := end + 2
		if src[next] == '\r' && next+1 < len(src) {
			next++
		}
		if src[next] != '\n' || end+2 > r.lim.MaxLineBytes || r.gameBytes+end+3 > r.lim.MaxGameBytes ||
			end-(n+2) > r.lim.MaxTagBytes {
			break
		}
		r.line++
		r.gameBytes += end + 3
		r.tags++
		if keep {
			n0 := int32(len(r.text))
			r.text = append(r.text, src[1:n]...)
			v0 := int32(len(r.text))
			r.text = append(r.text, src[n+2:end]...)
			r.tagOff = append(r.tagOff, n0, v0, v0, int32(len(r.text)))
		}
		src = src[next+1:]
	}
	r.src = src
}

// A tagName is a tag name of up to 15 bytes chunkTagLines has read and checked, and whether its tag pairs are kept
// (keepTag): its bytes, up to 15, as two little-endian words with 0 past its end, and where it ends in its
// line (its length + 1); end is 0 for none.
type tagName struct {
	w0, w1 uint64
	end    uint8
	keep   bool
}

// nameMasks keeps the bytes of a name of each length up to 15 in the two words of a tagName.
var nameMasks = func() (m [16][2]uint64) {
	for l := range m {
		m[l][0] = 1<<(8*min(l, 8)) - 1
		m[l][1] = 1<<(8*max(l-8, 0)) - 1
	}
	return m
}()

// tagNamesFor says whether the tag names chunkTagLines remembers, if any, were read for these kept tag
// names.
func (r *Reader) tagNamesFor(keepTags []string) bool {
	return r.tagNames != nil && (keepTags == nil) == (r.tagNamesKeep == nil) && slices.Equal(keepTags, r.tagNamesKeep)
}

// plainValueEnd returns the index of the quote that ends a tag value starting at b[i] when the value has
// no backslash and no line end before it, or -1.
func plainValueEnd(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if m := zeroBytes(w^0x2222222222222222) | zeroBytes(w^0x5c5c5c5c5c5c5c5c) | zeroBytes(w^0x0a0a0a0a0a0a0a0a); m != 0 {
			if i += bits.TrailingZeros64(m) / 8; b[i] == '"' {
				return i
			}
			return -1
		}
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i
		case '\\', '\n':
			return -1
		}
	}
	return -1
}

// keepTag says whether the tag pair named name (not empty) is kept in the game. Most names differ from
// every kept one in length or first letter (keepBit), which dropMask tells without looking at keepTags.
func (r *Reader) keepTag(name []byte) bool {
	return r.dropMask&(1<<keepBit(name)) == 0 && r.keptName(name)
}

// keptName says whether name is one of keepTags (any name when keepTags is nil). The first call sets
// dropMask and keepAt.
func (r *Reader) keptName(name []byte) bool {
	if r.keepTags == nil {
		return true
	}
	if !r.dropMaskSet {
		r.setKeepAt()
	}
	bit := keepBit(name)
	if r.dropMask&(1<<bit) != 0 {
		return false
	}
	if k := int(r.keepAt[bit]); k < len(r.keepTags) {
		// The one kept name of this length and first letter (almost always): one comparison.
		return string(name) == r.keepTags[k]
	}
	for _, k := range r.keepTags {
		if string(name) == k {
			return true
		}
	}
	return false
}

// keepSeveral in Reader.keepAt: several kept names share the keepBit.
const keepSeveral = 0xff

// setKeepAt sets dropMask and keepAt from keepTags.
func (r *Reader) setKeepAt() {
	var keep uint64
	for i, k := range r.keepTags {
		if k == "" {
			continue
		}
		bit := keepBit(k)
		if keep&(1<<bit) != 0 || i >= keepSeveral {
			r.keepAt[bit] = keepSeveral
		} else {
			r.keepAt[bit] = uint8(i)
		}
		keep |= 1 << bit
	}
	r.dropMask, r.dropMaskSet = ^keep, true
}

// keepBit places a tag name by its length and first letter, 3 bits each (name is not empty).
func keepBit[S ~string | ~[]byte](name S) int { return len(name)&7<<3 | int(name[0]&7) }

// closingQuote returns the index of the quote that ends a tag value starting at b[i], or -1.
func closingQuote(b []byte, i int) int {
	// The usual value: no escape before the first quote, which is looked for 8 bytes at a time.
	j := i
	for ; j+8 <= len(b); j += 8 {
		w := binary.LittleEndian.Uint64(b[j:])
		if m := zeroBytes(w^0x2222222222222222) | zeroBytes(w^0x5c5c5c5c5c5c5c5c); m != 0 {
			if j += bits.TrailingZeros64(m) / 8; b[j] == '"' {
				return j
			}
			j = len(b) // a backslash first: read below
			break
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; c == '"' {
			return j
		} else if c == '\\' {
			break
		}
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if i+1 < len(b) && (b[i+1] == '"' || b[i+1] == '\\') {
				i++
			}
		case '"':
			return i
		}
	}
	return -1
}

// zeroBytes has the high bit of its lowest zero byte set (and maybe bits above it), or is 0 when x has no
// zero byte.
func zeroBytes(x uint64) uint64 { return (x - 0x0101010101010101) & ^x & 0x8080808080808080 }

// lastTagQuote returns the index of the quote in a line ending with `"]` (blanks allowed), or -1.
func lastTagQuote(b []byte) int {
	j := len(b) - 1
	for j >= 0 && isSpace(b[j]) {
		j--
	}
	if j < 0 || b[j] != ']' {
		return -1
	}
	j--
	for j >= 0 && (b[j] == ' ' || b[j] == '\t') {
		j--
	}
	if j < 0 || b[j] != '"' {
		return -1
	}
	return j
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// scanMovetext scans movetext from b[i] on, stopping early when the game ends.
func (r *Reader) scanMovetext(b []byte, i int) {
	for i < len(b) {
		if r.inBrace {
			k := bytes.IndexByte(b[i:], '}')
			if k < 0 {
				return
			}
			i += k + 1
			r.inBrace, r.recording = false, false
			continue
		}
		if r.depth == 0 && r.state == stateMovetext && !r.broken {
			// The common case first: the main line's plain moves (Nf3, exd8=Q+) and move numbers
			// ("12.", "12..."), read by mainLine, on the lines after this one too. What it leaves is
			// read below, in the line it stopped in.
			if b, i = r.mainLine(b, i); i == len(b) {
				return
			}
		}
		c := b[i]
		if class[c]&cSpace != 0 {
			i++
			continue
		}
		switch c {
		case '{':
			r.begin(stateMovetext)
			r.inBrace, r.braceLine = true, r.line
			i++
		case ';':
			r.begin(stateMovetext)
			return
		case '(':
			r.begin(stateMovetext)
			if r.depth == 0 {
				r.depthLine = r.line
			}
			r.depth++
			i++
		case ')':
			r.begin(stateMovetext)
			if r.depth == 0 {
				r.movetextErr("unexpected ) outside a variation")
			} else {
				r.depth--
			}
			i++
		case '$':
			r.begin(stateMovetext)
			i++
			j := i
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			if j == i {
				r.movetextErr("NAG $ without a number")
			}
			i = j
		case '[':
			if r.state == stateMovetext && r.depth == 0 && looksLikeTag(b[i:]) {
				r.endGame(b[i:], true)
				return
			}
			if r.state != stateMovetext && looksLikeTag(b[i:]) {
				r.scanTags(b, i)
				return
			}
			r.begin(stateMovetext)
			r.movetextErr("unexpected [ in movetext")
			i++
		case '}', ']', '"':
			r.begin(stateMovetext)
			r.movetextErr(fmt.Sprintf("unexpected %c in movetext", c))
			i++
		default:
			if c >= '0' && c <= '9' && r.state == stateMovetext {
				// A move number ("12." or "12..."), the most common token after the moves: skipped
				// here when it stands alone; a result or a number joined to its move goes to token.
				j := i + 1
				for j < len(b) && b[j] >= '0' && b[j] <= '9' {
					j++
				}
				if j < len(b) && b[j] == '.' {
					for j < len(b) && b[j] == '.' {
						j++
					}
					if j == len(b) || class[b[j]]&cSpace != 0 {
						i = j
						continue
					}
				}
			}
			j := i + 1
			for j < len(b) && class[b[j]]&cDelim == 0 {
				j++
			}
			if r.token(b[i:j]) {
				r.endGame(b[j:], false)
				return
			}
			i = j
		}
	}
}

// mainLine reads, from b[i] on, the main line's plain moves (SAN bytes up to a delimiter, no glyph, at most
// maxMoveToken bytes, MaxPlies in all), the move numbers that stand alone ("12." or "12...") and the white
// space between them, in one loop on locals: most of the reading is this. It returns where it stopped: the
// end of b, or a byte that starts anything else (a comment, a result, a glyph, a move over a limit), which
// scanMovetext reads. The reader is in the main line: depth 0, movetext begun, not broken, no comment open.
// A line of a chunk is read by chunkMainLine, which goes on with the next lines; it returns the line it
// stopped in.
func (r *Reader) mainLine(b []byte, i int) ([]byte, int) {
	if r.lineInChunk {
		return r.chunkMainLine(b, i)
	}
	text, off := r.text, r.moveOff
	for i < len(b) {
		k := class[b[i]]
		if k&cFirst != 0 {
			j, ok := moveEnd(b, i)
			if !ok || len(off) >= r.lim.MaxPlies {
				break // a glyph or a byte no move has, a token too long, one ply too many: token says which
			}
			o := len(text)
			if j-i <= 8 && i+8 <= len(b) && cap(text)-o >= 8 {
				// The usual move, a few bytes: copied as one word of 8 (those past it are beyond len),
				// without a call to memmove.
				*(*[8]byte)(text[o : o+8]) = [8]byte(b[i : i+8])
				text = text[:o+j-i]
			} else {
				text = append(text, b[i:j]...)
			}
			off = append(off, MoveSpan{^int32(o), ^int32(len(text))})
			r.copied = true
			i = j
		} else if k&cSpace != 0 {
			i++
		} else if j, ok := numberEnd(b, i); ok {
			i = j
		} else {
			break
		}
	}
	r.text, r.moveOff = text, off
	return b, i
}

// chunkMainLine is mainLine for b, a line of the chunk: the moves are taken where they are in the chunk,
// by their offsets in it (chunkMoves), and at the end of the line it goes on with the next lines that
// start with a move or a number (nextMoveLine).
func (r *Reader) chunkMainLine(b []byte, i int) ([]byte, int) {
	chunk := r.chunk
	if start := cap(chunk) - cap(b); r.chunkLines > start+len(b) && lineEndAt(chunk, start+len(b)) && !r.hasPending && !r.recording &&
		r.replayAt >= len(r.replayEnd) && r.chunkLines-start <= r.lim.MaxLineBytes && r.gameBytes+r.chunkLines-(start+len(b)) <= r.lim.MaxGameBytes {
		// b runs to its line's end (it was not cut at the line limit), no line after it can be over
		// that limit, nor can they take the game over its byte limit: the lines are read on by
		// chunkMovesLines, without looking for each line's end first.
		return r.chunkMovesLines(b, start, i)
	}
	for {
		start := cap(chunk) - cap(b) // where b starts in the chunk
		// Room for every move the line can hold: one in two bytes at most.
		// Its capacity is at most MaxPlies: chunkMoves stops at either.
		off := slices.Grow(r.moveOff, (len(b)-i)/2+1)
		off = off[:len(off):max(len(off), min(cap(off), r.lim.MaxPlies))]
		var j int
		j, r.moveOff = chunkMoves(chunk[:start+len(b)], start+i, off)
		if j -= start; j < len(b) {
			return b, j
		}
		nb, ok := r.nextMoveLine()
		if !ok {
			return b, j
		}
		b, i = nb, 0
	}
}

// lineEndAt says whether a line ends at b[i]: "\n" or "\r\n" there.
func lineEndAt(b []byte, i int) bool {
	return b[i] == '\n' || b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n'
}

// chunkMovesLines is chunkMainLine for b, a line of the chunk starting at chunk[start], from b[i] on, when
// the limits cannot be reached in the rest of the chunk's whole lines: chunkMoves over those lines at once,
// going on at a line end when the next line starts with a byte that may start a move or a number (as
// nextMoveLine takes it). It returns the line it stopped in and where, with the reader as nextMoveLine
// would have left it: the lines taken counted and their bytes added to the game's, src after them.
func (r *Reader) chunkMovesLines(b []byte, start, i int) ([]byte, int) {
	lines := r.chunk[:r.chunkLines]
	off := slices.Grow(r.moveOff, (len(lines)-start-i)/2+1)
	off = off[:len(off):max(len(off), min(cap(off), r.lim.MaxPlies))]
	var stop int
	stop, r.moveOff = chunkMoves(lines, start+i, off)
	// chunkMoves stops before the "\n" of the last whole line, so each line stopped in has its end. b
	// runs to its line's end (chunkMainLine checked it): b's "\n" is found without looking for it, and
	// the line stopped in is looked for only when it is a later one. Looking from b's start on every
	// call made a game on one long line with a comment after every move (as Lichess writes its
	// database) cost the square of its length.
	firstEnd := start + len(b)
	if lines[firstEnd] == '\r' {
		firstEnd++ // "\r\n"
	}
	if stop <= firstEnd {
		return b, min(stop-start, len(b)) // in b, or at its end
	}
	end := stop + bytes.IndexByte(lines[stop:], '\n')
	// The lines after b's taken, up to the end of the one stopped in: counted, and their bytes added as
	// readLine counts them (a "\r" before the "\n" is not).
	lineStart, crs := firstEnd+1, 0
	for p := firstEnd + 1; p <= end; {
		nl := p + bytes.IndexByte(lines[p:end+1], '\n')
		r.line++
		if lines[nl-1] == '\r' {
			crs++
		}
		if nl < end {
			lineStart = nl + 1
		}
		p = nl + 1
	}
	r.gameBytes += end + 1 - (firstEnd + 1) - crs
	r.src = r.chunk[end+1:]
	lineEnd := end
	if lineEnd > lineStart && lines[lineEnd-1] == '\r' {
		lineEnd--
	}
	return lines[lineStart:lineEnd], min(stop, lineEnd) - lineStart // its capacity tells where it starts
}

// chunkMoves is the loop of mainLine over line, a piece of a chunk, from line[i] on: it appends the
// moves' offsets in the chunk to off, up to its capacity, skips the comments that end on their line, and
// returns where it stopped. It calls nothing,
// so that the compiler keeps its locals in registers.
func chunkMoves(line []byte, i int, off []MoveSpan) (int, []MoveSpan) {
	for i < len(line) {
		// The usual tokens, a move or a move number and the move after it, read from 8 bytes at once,
		// without a loop over their bytes: a branch whose way depends on the text is mispredicted now and
		// then (a loop's end, for a move of any length, about one time in two) and blurs the history
		// that predicts the others. Anything else is left to the loop's general case, below.
		for i <= len(line)-8 && len(off) < cap(off) {
			p := (*[8]byte)(line[i:])
			n, sep := tokenEnd(p)
			k := class[p[0]]
			if k&cDigit != 0 {
				// A move number of one or two digits, "7." or "12.", or "7..." or "12..." (a black move after
				// a comment): numberEnd's end, at white space.
				if class[sep]&cSpace == 0 || !(n == 2 && p[1] == '.' || n == 3 && p[2] == '.' && class[p[1]]&cDigit != 0 ||
					n == 4 && binary.LittleEndian.Uint32(p[0:4])>>8 == dots3 ||
					n == 5 && binary.LittleEndian.Uint32(p[1:5])>>8 == dots3 && class[p[1]]&cDigit != 0) {
					break
				}
				if i += int(n) + spaceLen(sep); i > len(line)-8 {
					break
				}
				p = (*[8]byte)(line[i:])
				n, sep = tokenEnd(p)
				k = class[p[0]]
			}
			// A move of at most 5 bytes (98% of them): when bytes 1 to n-1 are SAN bytes (san's trailing
			// ones), it ends at sep, and when sep is a delimiter, the move is moveEnd's.
			san := sanPair[binary.LittleEndian.Uint16(p[1:3])] | sanPair[binary.LittleEndian.Uint16(p[3:5])]<<2
			if k&cFirst == 0 || uint(bits.TrailingZeros8(^san))+1 < n || class[sep]&cDelim == 0 {
				break // the general case below
			}
			off = off[:len(off)+1]
			off[len(off)-1] = MoveSpan{int32(i), int32(i + int(n))}
			i += int(n) + spaceLen(sep)
		}
		if i >= len(line) {
			break
		}
		// The general case: one token, byte by byte.
		k := class[line[i]]
		if k&cFirst != 0 {
			// moveEnd, with the usual space after the move taken with it. No SAN byte is a delimiter.
			j := i + 1
			for j < len(line) && class[line[j]]&cSAN != 0 {
				j++
			}
			next := j
			if j < len(line) {
				if c := line[j]; c == ' ' {
					next++
				} else if class[c]&cDelim == 0 {
					break
				}
			}
			if j-i > maxMoveToken || len(off) == cap(off) {
				break
			}
			off = off[:len(off)+1]
			off[len(off)-1] = MoveSpan{int32(i), int32(j)}
			i = next
		} else if k&cSpace != 0 {
			if line[i] == '\n' && (i+1 == len(line) || class[line[i+1]]&(cFirst|cDigit) == 0) {
				break // the end of a line (chunkMovesLines) before one that Next reads
			}
			i++
		} else if line[i] == '{' {
			// A comment that ends on its line, as the clock comment Lichess writes after every move, is
			// skipped here; one that goes on to the next line is left to scanMovetext, which counts it.
			if i <= len(line)-24 && clockComment((*[24]byte)(line[i:])) {
				// A clock comment as Lichess writes one after every move, and the plies after it written
				// the same way.
				i += clockCommentLen + spaceLen(line[i+clockCommentLen])
				i, off = clockPlies(line, i, off)
				continue
			}
			j := i + 1
			for ; j+8 <= len(line); j += 8 { // a word at a time: the first "}" or "\n"
				w := binary.LittleEndian.Uint64(line[j:])
				if m := zeroBytes(w^0x7d7d7d7d7d7d7d7d) | zeroBytes(w^0x0a0a0a0a0a0a0a0a); m != 0 {
					j += bits.TrailingZeros64(m) / 8
					break
				}
			}
			for j < len(line) && line[j] != '}' && line[j] != '\n' {
				j++
			}
			if j == len(line) || line[j] != '}' {
				break
			}
			if i = j + 1; i < len(line) && line[i] == ' ' {
				// The usual space after it, and the plies after it if Lichess wrote them (an evaluation
				// before the clock).
				i, off = clockPlies(line, i+1, off)
			}
		} else if k&cDigit != 0 && i+4 <= len(line) && usualNumber(binary.LittleEndian.Uint32(line[i:])) {
			// The usual move number, "7. " (moves 1 to 9) or "12. ".
			if line[i+1] == '.' {
				i += 3
			} else {
				i += 4
			}
		} else if j, ok := numberEnd(line, i); ok {
			if i = j; j < len(line) && line[j] == ' ' {
				i++
			}
		} else {
			break
		}
	}
	return i, off
}

// clockPlies reads, from line[i] on, after a comment and its space, the plies written as Lichess writes
// them: a move number of one or two digits and "." or "...", a move of at most 5 bytes and a comment of at
// most 32 bytes on the line (the clock, `{ [%clk 0:01:23] }`, told at once by clockCommentSpace; an
// evaluation before it, looked for a word at a time), each followed by a space, "12... Nf6 { [%clk
// 0:01:23] } ", with hardly a branch whose way depends on the text. It appends the moves' offsets to off,
// up to its capacity, and returns where it stopped: at a token the loop of chunkMoves reads. It calls
// nothing and reads a ply from 64 bytes at once.
func clockPlies(line []byte, i int, off []MoveSpan) (int, []MoveSpan) {
	for i <= len(line)-64 && len(off) < cap(off) {
		w := (*[64]byte)(line[i:])
		// The move number and its space: the form numberForm gives for its length, with its digits' low
		// halves below 10.
		num := binary.LittleEndian.Uint64(w[0:8])
		n, _ := tokenEnd((*[8]byte)(w[0:8]))
		if f := &numberForms[n&7]; num&f.mask != f.want || (num&f.digits+0x0606060606060606)&0x1010101010101010 != 0 {
			break
		}
		// The move, as the word loop of chunkMoves reads one, and its space.
		j := n + 1
		q := (*[8]byte)(w[j : j+8])
		m, sep := tokenEnd(q)
		san := sanPair[binary.LittleEndian.Uint16(q[1:3])] | sanPair[binary.LittleEndian.Uint16(q[3:5])]<<2
		if class[q[0]]&cFirst == 0 || uint(bits.TrailingZeros8(^san))+1 < m || sep != ' ' {
			break
		}
		off = off[:len(off)+1]
		off[len(off)-1] = MoveSpan{int32(i + int(j)), int32(i + int(j+m))}
		// The comment after it and its space, or else the next token.
		k := j + m + 1
		if clockCommentSpace((*[24]byte)(w[k : k+24])) {
			i += int(k) + clockCommentLen + 1
			continue
		}
		if w[k] != '{' {
			return i + int(k), off
		}
		// Any other comment whose "}" is in the 32 bytes after its "{", with no line end before it.
		c := (*[32]byte)(w[k+1 : k+33])
		e := min(braceOrLineEnd(binary.LittleEndian.Uint64(c[0:8])), 64+braceOrLineEnd(binary.LittleEndian.Uint64(c[8:16])),
			128+braceOrLineEnd(binary.LittleEndian.Uint64(c[16:24])), 192+braceOrLineEnd(binary.LittleEndian.Uint64(c[24:32]))) >> 3
		if e >= 32 || c[e&31] != '}' || w[(k+e+2)&63] != ' ' {
			return i + int(k), off
		}
		i += int(k + e + 3)
	}
	return i, off
}

// braceOrLineEnd returns where the first "}" or "\n" is in w, 8 bytes little-endian, in bits (7 for the
// first byte, 15 for the second...), or 1023 when it has none.
func braceOrLineEnd(w uint64) uint {
	z := uint(bits.TrailingZeros64(zeroBytes(w^0x7d7d7d7d7d7d7d7d) | zeroBytes(w^0x0a0a0a0a0a0a0a0a)))
	return z | z>>6*1023 // 64, none, is 1023
}

// A numberForm is the form of a move number of a length (tokenEnd's) that clockPlies reads, with the space
// after it: the bytes under mask are want, and the low halves of its digits' bytes are digits' (0x30 to
// 0x39 then; the mask keeps the high half of a digit).
type numberForm struct{ mask, want, digits uint64 }

// numberForms are the move numbers clockPlies reads by their length: "7. ", "12. ", "7... " and "12... ".
// Their mask is 0 for any other length, where want is not 0: no number is read.
var numberForms = [8]numberForm{
	0: {want: 1}, 1: {want: 1}, 6: {want: 1}, 7: {want: 1},
	2: {mask: 0xf0 | 0xff<<8 | 0xff<<16, want: '0' | '.'<<8 | ' '<<16, digits: 0x0f},
	3: {mask: 0xf0 | 0xf0<<8 | 0xff<<16 | 0xff<<24, want: '0' | '0'<<8 | '.'<<16 | ' '<<24, digits: 0x0f0f},
	4: {mask: 0xf0 | 0xffffffff<<8, want: '0' | '.'<<8 | '.'<<16 | '.'<<24 | ' '<<32, digits: 0x0f},
	5: {mask: 0xf0 | 0xf0<<8 | 0xffffffff<<16, want: '0' | '0'<<8 | '.'<<16 | '.'<<24 | '.'<<32 | ' '<<40, digits: 0x0f0f},
}

// clockCommentLen is the length of a clock comment as Lichess writes it, `{ [%clk 0:01:23] }`.
const clockCommentLen = 18

// The clock comment's bytes as 64-bit little-endian words: the 8 bytes "{ [%clk ", the time "0:01:23]" with
// the high half of each digit's byte (clockTimeMask, clockTime), and the last two, " }".
const (
	clockOpen     = '{' | ' '<<8 | '['<<16 | '%'<<24 | 'c'<<32 | 'l'<<40 | 'k'<<48 | ' '<<56
	clockTimeMask = 0xf0 | 0xff<<8 | 0xf0<<16 | 0xf0<<24 | 0xff<<32 | 0xf0<<40 | 0xf0<<48 | 0xff<<56
	clockTime     = '0' | ':'<<8 | '0'<<16 | '0'<<24 | ':'<<32 | '0'<<40 | '0'<<48 | ']'<<56
	clockClose    = ' ' | '}'<<8
)

// clockComment says whether q starts with a clock comment as Lichess writes it after every move, `{ [%clk
// 0:01:23] }`: a comment whose first "}" is its last byte, q[clockCommentLen-1], with no line end before
// it. Each byte of the time is a digit (any byte 0x30 to 0x3f, none a "}" or a line end) or the ':' or
// ']' in its place.
func clockComment(q *[24]byte) bool {
	open := binary.LittleEndian.Uint64(q[0:8]) ^ clockOpen
	hms := binary.LittleEndian.Uint64(q[8:16])&clockTimeMask ^ clockTime
	end := uint64(binary.LittleEndian.Uint16(q[16:18])) ^ clockClose
	return open|hms|end == 0
}

// clockCommentSpace is clockComment with a space after the comment.
func clockCommentSpace(q *[24]byte) bool {
	open := binary.LittleEndian.Uint64(q[0:8]) ^ clockOpen
	hms := binary.LittleEndian.Uint64(q[8:16])&clockTimeMask ^ clockTime
	end := binary.LittleEndian.Uint32(q[16:20])&0xffffff ^ (clockClose | ' '<<16)
	return open|hms|uint64(end) == 0
}

// tokenEnd returns where the first byte up to ' ' is in p[:7] (white space ends a token), 7 when there is
// none, and p[n]: the token ends there when it is white space.
func tokenEnd(p *[8]byte) (n uint, sep byte) {
	w := binary.LittleEndian.Uint64(p[:])
	// The lowest byte of w below 0x21 has its high bit set in the mask (those above it may have it too);
	// bit 63 makes n 7 at most.
	n = uint(bits.TrailingZeros64((w-0x2121212121212121)&^w&0x8080808080808080|1<<63)) >> 3
	return n, p[n&7]
}

// spaceLen is 1 when sep, the byte after a token, is a space, taken with the token, and 0 otherwise.
func spaceLen(sep byte) int {
	if sep == ' ' {
		return 1
	}
	return 0
}

// dots3 is "..." as the last three bytes of a 32-bit little-endian word.
const dots3 = '.' | '.'<<8 | '.'<<16

// sanPair tells for two bytes, the first in the low half of the index, which are SAN bytes (class cSAN):
// bit 0 the first, bit 1 the second.
var sanPair [1 << 16]uint8

func init() {
	var bit [256]uint8
	for c := range bit {
		bit[c] = class[c] & cSAN / cSAN
	}
	for hi := range 256 {
		row := (*[256]uint8)(sanPair[hi<<8:])
		for lo := range row {
			row[lo] = bit[lo] | bit[hi]<<1
		}
	}
}

// usualNumber says whether w, four bytes of movetext from a digit on (the first byte, little-endian),
// starts with a move number of one or two digits followed by ". ".
func usualNumber(w uint32) bool {
	return w>>8&0xffff == '.'|' '<<8 || w>>16 == '.'|' '<<8 && class[uint8(w>>8)]&cDigit != 0
}

// moveEnd returns the end of the plain move that starts at b[i] (a byte that may start one): the first
// byte that is not a SAN byte, or len(b). ok is false when the move has no such end (it goes on with a
// glyph or a byte no move has) or is too long to be one: token reads it then.
func moveEnd(b []byte, i int) (end int, ok bool) {
	j := i + 1
	for j < len(b) && class[b[j]]&(cSAN|cDelim) == cSAN {
		j++
	}
	return j, (j == len(b) || class[b[j]]&cDelim != 0) && j-i <= maxMoveToken
}

// numberEnd returns the end of the move number that stands alone at b[i] ("12." or "12...", followed by
// white space or the end of b), and whether there is one.
func numberEnd(b []byte, i int) (end int, ok bool) {
	j := i
	for j < len(b) && class[b[j]]&cDigit != 0 {
		j++
	}
	if j == i || j == len(b) || b[j] != '.' {
		return 0, false
	}
	for j < len(b) && b[j] == '.' {
		j++
	}
	return j, j == len(b) || class[b[j]]&cSpace != 0
}

// nextMoveLine takes the next line of the chunk, as Next and scanLine would read it, when it starts with a
// byte that may start a move or a number and nothing but scanMovetext would look at it: the next line is
// whole (it ends with a line end) and within the line and game limits, and no line waits to be read first.
func (r *Reader) nextMoveLine() ([]byte, bool) {
	if r.hasPending || r.recording || r.replayAt < len(r.replayEnd) {
		return nil, false
	}
	k := bytes.IndexByte(r.src, '\n')
	if k < 0 {
		return nil, false
	}
	b := r.src[:k]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(b) == 0 || class[b[0]]&(cFirst|cDigit) == 0 || len(b) > r.lim.MaxLineBytes ||
		r.gameBytes+len(b)+1 > r.lim.MaxGameBytes {
		return nil, false
	}
	r.src = r.src[k+1:]
	r.line++
	r.gameBytes += len(b) + 1
	return b, true
}

// token handles one movetext token and reports whether it ended the game (a result at top level).
func (r *Reader) token(t []byte) bool {
	r.begin(stateMovetext)
	if r.depth > 0 {
		return false // variations are skipped whole
	}
	switch string(t) { // no allocation: the compiler compares in place
	case "1-0", "0-1", "1/2-1/2", "*":
		r.result = resultString(t)
		return true
	case "½-½": // as some exporters write a draw
		r.result = "1/2-1/2"
		return true
	}
	if t[0] == '.' { // "..." written apart from its move number
		for len(t) > 0 && t[0] == '.' {
			t = t[1:]
		}
		if len(t) == 0 {
			return false
		}
	}
	if t[0] >= '0' && t[0] <= '9' {
		k := 1
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		switch {
		case k == len(t):
			return false // a move number without dots
		case t[k] == '.':
			for k < len(t) && t[k] == '.' {
				k++
			}
			t = t[k:]
			if len(t) == 0 {
				return false
			}
		}
	}
	for len(t) > 0 && (t[len(t)-1] == '!' || t[len(t)-1] == '?') {
		t = t[:len(t)-1]
	}
	if len(t) == 0 {
		return false // a glyph on its own
	}
	if string(t) == "e.p." {
		return false // en passant remark written apart from its move
	}
	t = bytes.TrimSuffix(t, []byte("e.p."))
	switch string(t) {
	case "=", "+-", "-+", "+/-", "-/+", "+=", "=+", "+/=", "=/+", "~", "=/~":
		return false // evaluation symbols
	}
	if len(t) > maxMoveToken || !sanShaped(t) {
		r.movetextErr(fmt.Sprintf("unexpected token %s", quote(t)))
		return false
	}
	if r.broken {
		return false // the main line is broken: keep only the moves before the problem
	}
	r.addMove(t)
	return false
}

// addMove takes the main-line move t, unless the game already has MaxPlies of them.
func (r *Reader) addMove(t []byte) {
	if len(r.moveOff) >= r.lim.MaxPlies {
		r.broken = true
		r.setLimitErr(r.line, "max_plies", fmt.Sprintf("more than %d plies", r.lim.MaxPlies))
		return
	}
	o := int32(len(r.text))
	r.text = append(r.text, t...)
	r.moveOff, r.copied = append(r.moveOff, MoveSpan{^o, ^int32(len(r.text))}), true
}

func resultString(t []byte) string {
	switch t[0] {
	case '1':
		if len(t) == 3 {
			return "1-0"
		}
		return "1/2-1/2"
	case '0':
		return "0-1"
	}
	return "*"
}

// sanByte marks the bytes a SAN move (or a null move) may contain.
var sanByte = func() (t [256]bool) {
	for _, c := range []byte("abcdefgh12345678KQRBNPOo0xX=+#-:Z@") {
		t[c] = true
	}
	return t
}()

// sanShaped reports whether t can be a move as PGN writes it; whether it is a legal one is Replay's job.
// A promotion letter may be lower case (a8=q, a8q), as the SAN reader accepts it.
func sanShaped(t []byte) bool {
	switch c := t[0]; {
	case c >= 'a' && c <= 'h', c == 'K', c == 'Q', c == 'R', c == 'B', c == 'N', c == 'P', c == 'O', c == '0', c == '-', c == 'Z':
	default:
		return false
	}
	for i, c := range t {
		if !sanByte[c] && !(i > 0 && (c == 'q' || c == 'r' || c == 'n') && (t[i-1] == '=' || t[i-1] >= '1' && t[i-1] <= '8')) {
			return false
		}
	}
	return true
}

// quote renders a piece of input for an error message, cut short and with binary bytes escaped.
func quote(b []byte) string {
	if len(b) > maxTokenShow {
		return fmt.Sprintf("%q...", b[:maxTokenShow])
	}
	return fmt.Sprintf("%q", b)
}
