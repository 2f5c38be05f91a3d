package pgn

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sync"
)

// Reading one PGN input on several goroutines, with the games exactly as Reader gives them:
//
//   - a Splitter cuts the text into chunks of whole lines, each cut made before a line that looks like
//     the first tag pair of a game (a tag pair after a blank line) — cheap, it looks at a few bytes around
//     the cut;
//   - ReadChunk reads the games of one chunk as if the chunk started the input, on any goroutine: a guess,
//     right when the text before the cut left the reader between two games, as it does in real files;
//   - a Stitcher takes the chunks read, in input order, and checks each guess against how the previous
//     chunk ended. When the guess is wrong (a comment, a variation or a tag section open across the cut, a
//     game over a limit), it reads the chunk again on from where the previous one stopped, with the
//     reader that read it, as one Reader of the whole input would have.

// errChunkEnd is what a Reader of chunks returns when it has read every line of a chunk that is not the
// input's last.
var errChunkEnd = errors.New("pgn: end of chunk")

// A Chunk is a run of whole lines of a PGN input.
type Chunk struct {
	data []byte
	str  string  // data as a string, once asked for (text)
	buf  *[]byte // data's buffer, from chunkBuffers
	line int     // lines of the input before the chunk
	// nextLen is the length of the first line of the next chunk, which looks like a tag pair; -1 when the
	// next chunk does not start with such a line (a chunk cut where none was found).
	nextLen int
	last    bool  // the input's last chunk
	err     error // last: the read error that ended the input early, or nil
}

// text returns the chunk's lines as a string: the moves of its games are cut from it.
func (c *Chunk) text() string {
	if c.str == "" {
		c.str = string(c.data)
	}
	return c.str
}

// Release gives the chunk's memory back for later chunks; the chunk must not be used after it.
func (c *Chunk) Release() {
	if c.buf != nil {
		*c.buf = c.data[:0]
		chunkBuffers.Put(c.buf)
		c.buf, c.data = nil, nil
	}
}

var chunkBuffers sync.Pool

// chunkBuffer returns an empty buffer for a chunk's data, from chunkBuffers when it has one.
func chunkBuffer() *[]byte {
	buf, _ := chunkBuffers.Get().(*[]byte)
	if buf == nil {
		return new([]byte)
	}
	*buf = (*buf)[:0]
	return buf
}

// DefaultChunkBytes is the size a Splitter aims at for its chunks: about twenty games.
const DefaultChunkBytes = 16 << 10

// A Splitter cuts a PGN input (decompressed) into Chunks. It is not safe for concurrent use.
type Splitter struct {
	r    io.Reader
	lim  Limits
	size int // the chunk size aimed at
	// rest holds what was read after the last cut, at the start of the buffer of the next chunk (nil
	// before the first).
	rest *[]byte
	line int // lines before rest
	// skipping: the line being read at the end of rest went over MaxLineBytes+2 bytes and the bytes after
	// those are dropped up to the line's end (a Reader reads no more of such a line).
	skipping bool
	err      error // the error that ended the input (io.EOF at its end)
	empty    int   // reads in a row that returned nothing
	done     bool
}

// NewSplitter returns a Splitter of the text of r into chunks of about size bytes (0: DefaultChunkBytes),
// for Readers within the limits lim.
func NewSplitter(r io.Reader, lim Limits, size int) *Splitter {
	if size <= 0 {
		size = DefaultChunkBytes
	}
	return &Splitter{r: r, lim: lim.WithDefaults(), size: size}
}

// Next returns the next chunk, or io.EOF after the last one. The last chunk holds the read error that cut
// the input short, if any (ReadChunk and Stitcher report it where a Reader would).
func (s *Splitter) Next() (*Chunk, error) {
	if s.done {
		return nil, io.EOF
	}
	buf := s.rest
	if buf == nil {
		buf = chunkBuffer()
	}
	data := *buf
	s.rest = nil
	// Where the line at the end of data starts, or a line before it (see capLine): rest starts a line.
	lineStart := 0
	from, from2 := s.size, s.size // where to look for a cut, of each kind
	for {
		if len(data) >= s.size {
			// Before the first tag pair of a game after a blank line; failing that, after a line that is
			// not a tag pair; failing that, anywhere (the Stitcher reads on over such a cut).
			cut, atTag, resume := s.cut(data, from, true)
			from = resume
			if !atTag && len(data) >= 2*s.size {
				cut, atTag, from2 = s.cut(data, from2, false)
			}
			if atTag {
				return s.emit(buf, data, cut, true), nil
			}
			if len(data) >= 4*s.size {
				if i := bytes.IndexByte(data[s.size:], '\n'); i >= 0 {
					return s.emit(buf, data, s.size+i+1, false), nil
				}
			}
		}
		if s.err != nil {
			s.done = true
			c := &Chunk{data: data, buf: buf, line: s.line, nextLen: -1, last: true}
			if s.err != io.EOF {
				c.err = s.err
			}
			return c, nil
		}
		data = slices.Grow(data, s.size)
		n, err := s.r.Read(data[len(data):cap(data)])
		if err != nil {
			s.err = err
		} else if n == 0 {
			if s.empty++; s.empty >= 100 { // as bufio.Reader gives up on a reader that returns nothing
				s.err = io.ErrNoProgress
			}
		} else {
			s.empty = 0
		}
		data, lineStart = s.capLine(data, len(data)+n, lineStart)
	}
}

// capLine takes data[:n] (data the bytes before what was just read) and keeps at most MaxLineBytes+2
// bytes of a line: a Reader cuts a line at MaxLineBytes and reads no more of it. lineStart is where a line
// at or before the line at the end of data starts, before and after: the line at the end is looked for
// only when the bytes from lineStart on are more than a line may keep. Looking for it after every read
// scanned a Lichess game's line of moves (kilobytes) back from its end, on the one reading goroutine.
func (s *Splitter) capLine(data []byte, n, lineStart int) ([]byte, int) {
	start := len(data)
	data = data[:n]
	if s.skipping {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return data[:start], lineStart
		}
		s.skipping = false
		data = append(data[:start], data[start+i:]...)
	}
	if keep := s.lim.MaxLineBytes + 2; len(data)-lineStart > keep {
		if i := bytes.LastIndexByte(data[lineStart:], '\n'); i >= 0 {
			lineStart += i + 1
		}
		if len(data)-lineStart > keep {
			s.skipping = true
			data = data[:lineStart+keep]
		}
	}
	return data, lineStart
}

// cut looks in data, from from on, for a line that looks like a tag pair, is complete in data and no
// longer than MaxLineBytes, and follows a blank line (afterBlank) or a line that does not start with "["
// (else). It returns the line's start, or, when there is none, where to look again once more is read.
func (s *Splitter) cut(data []byte, from int, afterBlank bool) (at int, ok bool, resume int) {
	for from < len(data) {
		i := bytes.Index(data[from:], []byte("\n["))
		if i < 0 {
			return 0, false, max(from, len(data)-1)
		}
		at = from + i + 1 // the line's start
		from = at
		prev := trimCR(data[:at-1])
		prev = prev[bytes.LastIndexByte(prev, '\n')+1:]
		if afterBlank && len(prev) > 0 || !afterBlank && len(prev) > 0 && prev[0] == '[' {
			continue
		}
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			return 0, false, at - 1 // the line is not complete yet
		}
		if line := trimCR(data[at : at+end]); len(line) <= s.lim.MaxLineBytes && looksLikeTag(line) {
			return at, true, 0
		}
	}
	return 0, false, from
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// emit returns data[:cut] as a chunk and keeps the rest for the next one; atTag says whether the next
// chunk starts with a line that looks like a tag pair.
func (s *Splitter) emit(buf *[]byte, data []byte, cut int, atTag bool) *Chunk {
	c := &Chunk{data: data[:cut], buf: buf, line: s.line, nextLen: -1}
	s.line += bytes.Count(c.data, []byte("\n"))
	// What follows the cut goes where the next chunk is made: copied once.
	rest := chunkBuffer()
	*rest = append(*rest, data[cut:]...)
	s.rest = rest
	if atTag {
		end := bytes.IndexByte(*rest, '\n')
		c.nextLen = len(trimCR((*rest)[:end]))
	}
	return c
}

// A Part is the games of one chunk, read by ReadChunk, and how the chunk ended.
type Part struct {
	Games []*Game // Index is not set: Stitcher numbers the games
	chunk *Chunk
	err   error // the input's read error at the end of the last chunk
	// How the reader was left at the end of the chunk: between games (clean), with carry bytes counted
	// towards the next game (the blank lines since the last one), or else (reader, to read on with).
	clean  bool
	carry  int
	reader *Reader
	// The resets of the game state in the chunk, and the game bytes counted before the first of them.
	resets          int
	firstResetBytes int
}

// A ChunkReader reads chunks, one after the other, each as if it started the input (ReadChunk). One per
// goroutine; the zero value is not ready: use NewChunkReader.
type ChunkReader struct {
	// KeepTags, when not nil, names the only tag pairs kept in the games' Tags: the others are read and
	// checked all the same (a malformed one is still the game's error), but not copied. A reader that
	// needs a few tags of every game spares the copies of the rest.
	KeepTags []string
	lim      Limits
	r        *Reader
}

// NewChunkReader returns a ChunkReader within the limits lim.
func NewChunkReader(lim Limits) *ChunkReader { return &ChunkReader{lim: lim.WithDefaults()} }

// Read reads the games of c as if c started the input. The result is right when the Stitcher says so.
func (cr *ChunkReader) Read(c *Chunk) *Part {
	r := &Reader{lim: cr.lim, inMemory: true, line: c.line, keepTags: cr.KeepTags}
	if old := cr.r; old != nil { // its memory is reused
		r.text, r.tagOff, r.moveOff = old.text[:0], old.tagOff[:0], old.moveOff[:0]
		r.rec, r.recEnds, r.replay, r.replayEnd = old.rec[:0], old.recEnds[:0], old.replay[:0], old.replayEnd[:0]
		r.games, r.spanSlab, r.tagSlab = old.games, old.spanSlab, old.tagSlab
		if old.tagNamesFor(r.keepTags) {
			r.tagNames, r.tagNamesKeep = old.tagNames, old.tagNamesKeep
		}
		*old = *r
		r = old
	}
	p := readChunk(r, c)
	cr.r = r
	if p.reader != nil {
		cr.r = nil // the Part has it now
	}
	return p
}

// readChunk reads the games of c with r, which holds the state at the chunk's start.
func readChunk(r *Reader, c *Chunk) *Part {
	r.setChunk(c)
	r.src, r.srcEnd = c.data, errChunkEnd
	if c.last {
		r.srcEnd = io.EOF
		if c.err != nil {
			r.srcEnd = c.err
		}
	}
	p := &Part{chunk: c}
	for {
		g, err := r.Next()
		if err != nil {
			if err != errChunkEnd && err != io.EOF {
				p.err = err
			}
			break
		}
		p.Games = append(p.Games, g)
	}
	r.src, r.chunk = nil, nil
	if !c.last {
		p.clean, p.carry = r.endsClean(c.nextLen)
		if p.clean && p.carry < 0 {
			// The next line ends the game (as the Reader of the whole input does when it reads that line).
			// That line's bytes count towards the game, as endsClean counted them: when the game is the
			// chunk's first, the Stitcher adds what the previous chunk left counted (firstResetBytes) and
			// reads the chunk again if that takes the game over its limit.
			if r.resets == 0 {
				r.gameBytes += c.nextLen + 1
			}
			if r.nonEmpty() {
				p.Games = append(p.Games, r.finish())
			} else {
				r.reset()
			}
			p.carry = 0
		}
		if !p.clean {
			p.reader = r
		}
	}
	p.resets, p.firstResetBytes = r.resets, r.firstResetBytes
	return p
}

// endsClean says whether the reader, having read every line of a chunk, reads the next chunk's first line
// (nextLen bytes long, looking like a tag pair; nextLen -1 when it may not) as the start of a new game,
// from a state as new but for the game bytes counted so far: carry >= 0, those bytes, when the line is
// read as part of the game being read (there is none yet: blank lines, % lines), carry -1 when the line
// ends the game being read.
func (r *Reader) endsClean(nextLen int) (clean bool, carry int) {
	if nextLen < 0 || r.recording || r.inBrace || r.depth > 0 || r.hasPending || r.replayAt < len(r.replayEnd) {
		return false, 0
	}
	if r.overSize {
		return r.state == stateMovetext || r.blankAfter, -1
	}
	if r.gameBytes+nextLen+1 > r.lim.MaxGameBytes {
		return false, 0
	}
	switch {
	case r.state == stateMovetext, r.state == stateTags && r.blankAfter:
		return true, -1
	case r.state == stateNone && !r.nonEmpty() && !r.broken:
		return true, r.gameBytes
	}
	return false, 0
}

// A Stitcher puts the Parts of one input back together, in input order (see Splitter). It is not safe
// for concurrent use.
type Stitcher struct {
	// KeepTags is ChunkReader.KeepTags for the chunks read again.
	KeepTags []string
	lim      Limits
	index    int     // games so far
	carry    int     // game bytes the previous chunk left counted (see Reader.endsClean)
	reader   *Reader // the reader to read on with, when the previous chunk did not end clean
}

// NewStitcher returns a Stitcher of one input read within the limits lim.
func NewStitcher(lim Limits) *Stitcher { return &Stitcher{lim: lim.WithDefaults()} }

// Stitch takes the next Part of the input and returns its games, numbered in the input: p's own, or, when
// reading p's chunk on its own gave other games than reading the input from its start would have, the
// games read again (reread: anything computed from p.Games is wrong). err is the input's read error, after
// the last chunk's games, as Reader.Next returns it. The chunk may be released after Stitch.
func (s *Stitcher) Stitch(p *Part) (games []*Game, reread bool, err error) {
	if s.reader != nil || s.carry > 0 && (p.resets == 0 || p.firstResetBytes+s.carry > s.lim.MaxGameBytes) {
		r := s.reader
		if r == nil {
			r = &Reader{lim: s.lim, inMemory: true, line: p.chunk.line, gameBytes: s.carry, keepTags: s.KeepTags}
		}
		p = readChunk(r, p.chunk)
		reread = true
	}
	s.reader, s.carry = p.reader, p.carry
	for _, g := range p.Games {
		g.Index = s.index
		s.index++
	}
	return p.Games, reread, p.err
}
