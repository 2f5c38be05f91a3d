package inflate

import (
	"bytes"
	stdflate "compress/flate"
	stdgzip "compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	kflate "github.com/klauspost/compress/flate"
	kgzip "github.com/klauspost/compress/gzip"
)

// member wraps a raw DEFLATE stream in a minimal gzip member whose trailer is that of plain.
func member(deflated, plain []byte) []byte {
	b := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}
	b = append(b, deflated...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(plain))
	return binary.LittleEndian.AppendUint32(b, uint32(len(plain)))
}

// compressor names a way of compressing a text into a gzip member.
type compressor struct {
	name string
	gz   func(plain []byte) []byte
}

func stdDeflate(level int) func([]byte) []byte {
	return func(plain []byte) []byte {
		var b bytes.Buffer
		w, err := stdflate.NewWriter(&b, level)
		if err != nil {
			panic(err)
		}
		w.Write(plain)
		w.Close()
		return member(b.Bytes(), plain)
	}
}

func klauspostDeflate(level int) func([]byte) []byte {
	return func(plain []byte) []byte {
		var b bytes.Buffer
		w, err := kflate.NewWriter(&b, level)
		if err != nil {
			panic(err)
		}
		w.Write(plain)
		w.Close()
		return member(b.Bytes(), plain)
	}
}

var compressors = []compressor{
	{"flate stored", stdDeflate(stdflate.NoCompression)},
	{"flate huffman only", stdDeflate(stdflate.HuffmanOnly)},
	{"flate 1", stdDeflate(1)},
	{"flate 6", stdDeflate(6)},
	{"flate 9", stdDeflate(9)},
	{"klauspost stored", klauspostDeflate(kflate.NoCompression)},
	{"klauspost huffman only", klauspostDeflate(kflate.HuffmanOnly)},
	{"klauspost 1", klauspostDeflate(1)},
	{"klauspost 5", klauspostDeflate(5)},
	{"klauspost 9", klauspostDeflate(9)},
	{"compress/gzip with a name and comment", func(plain []byte) []byte {
		var b bytes.Buffer
		w := stdgzip.NewWriter(&b)
		w.Name, w.Comment, w.Extra = "games.pgn", "a comment", []byte("extra field")
		w.Write(plain)
		w.Close()
		return b.Bytes()
	}},
	{"klauspost gzip", func(plain []byte) []byte {
		var b bytes.Buffer
		w := kgzip.NewWriter(&b)
		w.Write(plain)
		w.Close()
		return b.Bytes()
	}},
}

// texts are the inputs compressed by every compressor.
func texts() []struct {
	name string
	text []byte
} {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 200_000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	// The first 32 KB again after them: matches at distance 32768 (at most).
	far := append(append([]byte{}, random[:40_000]...), random[:8_000]...)
	var pgn strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&pgn, "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/%08x\"]\n[White \"p%d\"]\n[Black \"p%d\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 %d. Re1 b5 1-0\n\n", r.Uint32(), r.IntN(500), r.IntN(500), i%90+6)
	}
	return []struct {
		name string
		text []byte
	}{
		{"empty", nil},
		{"one byte", []byte("a")},
		{"short text", []byte("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6")},
		{"a run of one byte (distance 1, length 258)", bytes.Repeat([]byte{'-'}, 100_000)},
		{"a run of a 3-byte pattern (overlapping copy)", bytes.Repeat([]byte("ab "), 50_000)},
		{"random bytes (stored blocks)", random},
		{"random then its start again (distance up to 32768)", far},
		{"PGN games, 800 KB (several windows and output chunks)", []byte(pgn.String())},
	}
}

// readAll reads r whole with reads of n bytes.
func readAll(r io.Reader, n int) ([]byte, error) {
	var out []byte
	buf := make([]byte, n)
	for {
		k, err := r.Read(buf)
		out = append(out, buf[:k]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func inflateAll(gz []byte, src func(io.Reader) io.Reader, readSize int) ([]byte, error) {
	d, err := NewReader(src(bytes.NewReader(gz)))
	if err != nil {
		return nil, err
	}
	return readAll(d, readSize)
}

func TestInflateMatchesEveryCompressor(t *testing.T) {
	for _, c := range compressors {
		for _, tx := range texts() {
			t.Run(c.name+"/"+tx.name, func(t *testing.T) {
				gz := c.gz(tx.text)
				got, err := inflateAll(gz, func(r io.Reader) io.Reader { return r }, 16<<10)
				if err != nil {
					t.Fatalf("error: %v", err)
				}
				if !bytes.Equal(got, tx.text) {
					t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(tx.text), firstDiff(got, tx.text))
				}
			})
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestInflateReadShapes(t *testing.T) {
	text := texts()[7].text
	gz := append(compressors[3].gz(text[:300_000]), compressors[9].gz(text[300_000:])...)
	for _, tc := range []struct {
		name     string
		src      func(io.Reader) io.Reader
		readSize int
	}{
		{"source one byte a read", iotest.OneByteReader, 4096},
		{"source half reads", iotest.HalfReader, 1000},
		{"reads of one byte", func(r io.Reader) io.Reader { return r }, 1},
		{"reads of 7 bytes", func(r io.Reader) io.Reader { return r }, 7},
		{"reads of 1 MB", func(r io.Reader) io.Reader { return r }, 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inflateAll(gz, tc.src, tc.readSize)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, text) {
				t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(text), firstDiff(got, text))
			}
		})
	}
}

func TestInflateMembers(t *testing.T) {
	a, b := []byte("[Event \"a\"]\n\n1. e4 *\n"), []byte("[Event \"b\"]\n\n1. d4 *\n")
	for _, tc := range []struct {
		name string
		gz   []byte
		want []byte
	}{
		{"two members", append(compressors[3].gz(a), compressors[8].gz(b)...), append(append([]byte{}, a...), b...)},
		{"an empty member between two", append(append(compressors[3].gz(a), compressors[3].gz(nil)...), compressors[0].gz(b)...), append(append([]byte{}, a...), b...)},
		{"empty members only", append(compressors[2].gz(nil), compressors[7].gz(nil)...), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inflateAll(tc.gz, func(r io.Reader) io.Reader { return r }, 100)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// bitWriter writes a DEFLATE stream by hand, least significant bit first.
type bitWriter struct {
	b    []byte
	bits uint64
	n    uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.bits |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.b = append(w.b, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
}

// reverse reverses the n low bits of code: DEFLATE sends a Huffman code's most significant bit first
// into a stream read from the least significant bit.
func reverse(code, n int) int {
	r := 0
	for range n {
		r = r<<1 | code&1
		code >>= 1
	}
	return r
}

// code writes a Huffman code (most significant bit first).
func (w *bitWriter) code(c uint64, n uint) { w.write(uint64(reverse(int(c), int(n))), n) }

func (w *bitWriter) bytes() []byte {
	if w.n > 0 {
		return append(w.b, byte(w.bits))
	}
	return w.b
}

// fixedLitCode writes literal/length symbol sym in the fixed code.
func (w *bitWriter) fixedLitCode(sym int) {
	switch {
	case sym < 144:
		w.code(uint64(0x30+sym), 8)
	case sym < 256:
		w.code(uint64(0x190+sym-144), 9)
	case sym < 280:
		w.code(uint64(sym-256), 7)
	default:
		w.code(uint64(0xc0+sym-280), 8)
	}
}

func TestInflateHandMadeStreams(t *testing.T) {
	// 32768 bytes of literals, then a match of 258 at distance 32768 (length symbol 285, distance
	// symbol 29 with 13 extra bits 8191), all in one fixed block.
	far := func() ([]byte, []byte) {
		var w bitWriter
		w.write(1, 1) // final
		w.write(1, 2) // fixed
		plain := make([]byte, 0, 32768+258)
		for i := range 32768 {
			c := byte('a' + i%23)
			plain = append(plain, c)
			w.fixedLitCode(int(c))
		}
		w.fixedLitCode(285)
		w.code(29, 5)
		w.write(8191, 13)
		plain = append(plain, plain[:258]...)
		w.fixedLitCode(256)
		return w.bytes(), plain
	}
	farDeflate, farPlain := far()
	tooFar := func() []byte {
		var w bitWriter
		w.write(1, 1)
		w.write(1, 2)
		w.fixedLitCode('a')
		w.fixedLitCode(257) // length 3
		w.code(1, 5)        // distance 2: one byte back only was written
		w.fixedLitCode(256)
		return w.bytes()
	}()
	symbol := func(lit int, dist int) []byte {
		var w bitWriter
		w.write(1, 1)
		w.write(1, 2)
		w.fixedLitCode('a')
		w.fixedLitCode(lit)
		if dist >= 0 {
			w.code(uint64(dist), 5)
		}
		w.fixedLitCode(256)
		return w.bytes()
	}
	type row struct {
		name    string
		gz      []byte
		want    []byte // when no error
		wantErr error  // errors.Is
	}
	rows := []row{
		{"fixed block, distance 32768, length 258", member(farDeflate, farPlain), farPlain, nil},
		{"distance before the member's start", member(tooFar, []byte("aaaa")), nil, ErrCorrupt},
		{"literal/length symbol 286", member(symbol(286, -1), []byte("a")), nil, ErrCorrupt},
		{"distance symbol 30", member(symbol(257, 30), []byte("aaaa")), nil, ErrCorrupt},
		{"block type 3", member([]byte{0x07}, nil), nil, ErrCorrupt},
		{"stored length and complement disagree", member([]byte{0x01, 5, 0, 0, 0}, nil), nil, ErrCorrupt},
		{"wrong CRC-32", func() []byte {
			gz := member(farDeflate, farPlain)
			gz[len(gz)-8] ^= 1
			return gz
		}(), nil, ErrChecksum},
		{"wrong length", func() []byte {
			gz := member(farDeflate, farPlain)
			gz[len(gz)-4]++
			return gz
		}(), nil, ErrChecksum},
		{"not gzip after a member", append(member(farDeflate, farPlain), "[Event \"not gzip\"]"...), nil, ErrCorrupt},
		{"compression method 7", []byte{0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 255, 3, 0}, nil, ErrCorrupt},
		{"a file name of 600 bytes", append([]byte{0x1f, 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 255}, bytes.Repeat([]byte{'n'}, 600)...), nil, ErrCorrupt},
		{"header CRC wrong", append([]byte{0x1f, 0x8b, 8, 0x02, 0, 0, 0, 0, 0, 255, 0, 0}, member([]byte{3, 0}, nil)[10:]...), nil, ErrCorrupt},
		{"repeat code 16 first", func() []byte {
			var w bitWriter
			w.write(1, 1)
			w.write(2, 2)
			w.write(0, 5)  // 257 literal/length codes
			w.write(0, 5)  // 1 distance code
			w.write(15, 4) // 19 code-length codes
			for i := range 19 {
				// 16 gets 1 bit, 0 gets 1 bit: a complete code of {0, 16}.
				v := uint64(0)
				if i == 0 || i == 3 {
					v = 1
				}
				w.write(v, 3)
			}
			w.code(1, 1) // symbol 16 (codes: 0 → "0", 16 → "1")
			return member(w.bytes(), nil)
		}(), nil, ErrCorrupt},
	}
	// Truncated everywhere: every prefix of a member but the whole.
	whole := compressors[3].gz(texts()[7].text[:5000])
	for _, cut := range []int{0, 1, 9, 10, 11, 50, len(whole) / 2, len(whole) - 9, len(whole) - 8, len(whole) - 1} {
		want := io.ErrUnexpectedEOF
		if cut == 0 {
			want = io.EOF // no member at all, as compress/gzip says
		}
		rows = append(rows, row{fmt.Sprintf("truncated to %d of %d bytes", cut, len(whole)), whole[:cut], nil, want})
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inflateAll(tc.gz, func(r io.Reader) io.Reader { return r }, 4096)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, tc.want) {
					t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(tc.want), firstDiff(got, tc.want))
				}
				return
			}
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want one that is %v", err, tc.wantErr)
			}
			// compress/gzip agrees that the input is bad.
			if _, stdErr := stdRead(tc.gz); stdErr == nil {
				t.Errorf("compress/gzip reads it without an error")
			}
		})
	}
}

// stdRead reads gz whole with compress/gzip.
func stdRead(gz []byte) ([]byte, error) {
	r, err := stdgzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func TestErrorNamesTheOffset(t *testing.T) {
	// The error names the input byte that holds the next bit to decode: the first of a code found
	// invalid, the one after a match that reaches too far. write writes a fixed block's bad end, after
	// `literals` literals, and returns that bit's place in the block.
	pos := func(w *bitWriter) int { return len(w.b)*8 + int(w.n) }
	for _, tc := range []struct {
		name     string
		literals int
		write    func(w *bitWriter) int
		what     string
	}{
		{"literal/length symbol 287, fast loop", 2000, func(w *bitWriter) int {
			at := pos(w)
			w.fixedLitCode(287)
			return at
		}, "invalid literal/length code"},
		{"literal/length symbol 287, at the input's end", 3, func(w *bitWriter) int {
			at := pos(w)
			w.fixedLitCode(287)
			return at
		}, "invalid literal/length code"},
		{"distance symbol 31, fast loop", 2000, func(w *bitWriter) int {
			w.fixedLitCode(257)
			at := pos(w)
			w.code(31, 5)
			return at
		}, "invalid distance code"},
		{"distance 2001 after 2000 bytes, fast loop", 2000, func(w *bitWriter) int {
			w.fixedMatch(3, 2001)
			return pos(w)
		}, "reaches before the member's start"},
		{"distance 20 after 3 bytes, input enough for the fast loop", 3, func(w *bitWriter) int {
			w.fixedMatch(3, 20)
			return pos(w)
		}, "reaches before the member's start"},
		{"distance 5 after 3 bytes", 3, func(w *bitWriter) int {
			w.fixedMatch(3, 5)
			return pos(w)
		}, "reaches before the member's start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w bitWriter
			w.write(1, 1)
			w.write(1, 2)
			for i := range tc.literals {
				w.fixedLitCode('a' + i%7)
			}
			at := 10 + tc.write(&w)/8 // after the member's header
			// 100 bytes more: the fast loop decodes up to the error when there are literals enough before.
			deflated := append(w.bytes(), make([]byte, 100)...)
			_, err := inflateAll(member(deflated, nil), func(r io.Reader) io.Reader { return r }, 4096)
			want := fmt.Sprintf("at input byte %d", at)
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), tc.what) {
				t.Fatalf("error %v, want one %q %s", err, tc.what, want)
			}
		})
	}
	gz := member([]byte{0x07}, nil)
	if _, err := inflateAll(gz, func(r io.Reader) io.Reader { return r }, 10); err == nil || !strings.Contains(err.Error(), "at input byte 10") {
		t.Fatalf("block type 3: error %v, want one at input byte 10", err)
	}
}

// fixedMatch writes a match of length n at distance dist in the fixed code (symbols and extra bits
// from the package's tables, which TestInflateMatchesEveryCompressor checks against real compressors).
func (w *bitWriter) fixedMatch(n, dist int) {
	i := len(lengthBase) - 1
	for int(lengthBase[i]) > n {
		i--
	}
	w.fixedLitCode(257 + i)
	w.write(uint64(n-int(lengthBase[i])), uint(lengthExtra[i]))
	j := len(distBase) - 1
	for int(distBase[j]) > dist {
		j--
	}
	w.code(uint64(j), 5)
	extra, _ := distEntry(j)
	w.write(uint64(dist-int(distBase[j])), uint(extra&0xff))
}

// TestInflateMatchShapes decodes matches of every length from 3 to 40 and a few longer, at every
// distance from 1 to 40 and a few farther, each after a literal: the match copies of the fast loop (a
// byte run, a pattern shorter than 8 bytes, 8-byte steps that overlap what they write, 16 bytes
// without a branch) and of the slow path at the input's end, against a copy made byte by byte.
func TestInflateMatchShapes(t *testing.T) {
	lengths := []int{}
	for n := 3; n <= 40; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 63, 64, 65, 100, 255, 256, 257, 258)
	dists := []int{}
	for d := 1; d <= 40; d++ {
		dists = append(dists, d)
	}
	dists = append(dists, 63, 64, 65, 300, 4097, 32768)
	r := rand.New(rand.NewPCG(3, 4))
	for _, dist := range dists {
		t.Run(fmt.Sprintf("distance %d", dist), func(t *testing.T) {
			var w bitWriter
			w.write(1, 1) // final
			w.write(1, 2) // fixed
			var plain []byte
			literal := func() {
				c := byte('a' + r.IntN(26))
				plain = append(plain, c)
				w.fixedLitCode(int(c))
			}
			for range dist {
				literal()
			}
			for _, n := range lengths {
				w.fixedMatch(n, dist)
				for range n {
					plain = append(plain, plain[len(plain)-dist]) // byte by byte
				}
				literal()
			}
			w.fixedLitCode(256)
			for _, readSize := range []int{1 << 16, 7} {
				got, err := inflateAll(member(w.bytes(), plain), func(r io.Reader) io.Reader { return r }, readSize)
				if err != nil {
					t.Fatalf("reads of %d: %v", readSize, err)
				}
				if !bytes.Equal(got, plain) {
					i := firstDiff(got, plain)
					t.Fatalf("reads of %d: decoded %d bytes, want %d; first difference at %d: %q, want %q", readSize, len(got), len(plain), i,
						got[i:min(i+20, len(got))], plain[i:min(i+20, len(plain))])
				}
			}
		})
	}
}

// canonical returns the canonical Huffman codes of the code lengths lens (RFC 1951, 3.2.2).
func canonical(lens []uint8) []uint64 {
	var count [maxLength + 1]int
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [maxLength + 1]uint64
	code := uint64(0)
	for l := 1; l <= maxLength; l++ {
		code = (code + uint64(count[l-1])) << 1
		next[l] = code
	}
	codes := make([]uint64, len(lens))
	for s, l := range lens {
		if l != 0 {
			codes[s] = next[l]
			next[l]++
		}
	}
	return codes
}

// dynamicHeader writes the header of a final dynamic block with the code lengths litLens (257–286 of
// them) and distLens (1–30), each sent as a 4-bit code of the code-length code.
func (w *bitWriter) dynamicHeader(litLens, distLens []uint8) {
	w.write(1, 1) // final
	w.write(2, 2) // dynamic
	w.write(uint64(len(litLens)-257), 5)
	w.write(uint64(len(distLens)-1), 5)
	w.write(19-4, 4)
	for _, sym := range clenOrder {
		if sym < 16 {
			w.write(4, 3)
		} else {
			w.write(0, 3)
		}
	}
	for _, l := range append(append([]uint8{}, litLens...), distLens...) {
		w.code(uint64(l), 4) // 16 codes of 4 bits: code-length symbol s has code s
	}
}

// TestInflateLongestCodes decodes a dynamic block whose symbols take the most input they can: runs of
// literals of 15 bits (the most input a byte can take), and iterations of the fast loop of two such
// literals, a length of 14 bits and 5 extra bits and a distance of 15 bits and 13 extra bits (77 bits),
// the literals and distances through subtables. Read from a source that gives one byte at a time,
// the fast loop runs on an input buffer that ends before the stream does: it must not read past what
// was fetched.
func TestInflateLongestCodes(t *testing.T) {
	litLens, distLens := make([]uint8, 286), make([]uint8, 30)
	// Complete codes of lengths 1, 2, ..., 14, 15, 15 (skewed(16)).
	for i, sym := range []int{285, 'c', 256, 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 284, 'a', 'b'} {
		litLens[sym] = skewed(16)[i]
	}
	for i, sym := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 28, 29} {
		distLens[sym] = skewed(16)[i]
	}
	litCodes, distCodes := canonical(litLens), canonical(distLens)
	var w bitWriter
	w.dynamicHeader(litLens, distLens)
	var plain []byte
	match := func(n, dist int) {
		for range n {
			plain = append(plain, plain[len(plain)-dist])
		}
	}
	// 33,025 bytes of 'c': a literal and 128 matches of 258 at distance 1.
	w.code(litCodes['c'], uint(litLens['c']))
	plain = append(plain, 'c')
	for range 128 {
		w.code(litCodes[285], uint(litLens[285]))
		w.code(distCodes[0], uint(distLens[0]))
		match(258, 1)
	}
	// 15 bits a byte: literals of 15 bits only.
	for i := range 3000 {
		c := "ab"[i%2]
		w.code(litCodes[c], uint(litLens[c]))
		plain = append(plain, c)
	}
	for i := range 2000 {
		for _, c := range []byte("ab") {
			w.code(litCodes[c], uint(litLens[c]))
			plain = append(plain, c)
		}
		w.code(litCodes[284], uint(litLens[284]))
		w.write(uint64(i%31), 5) // length 227 + i%31
		w.code(distCodes[29], uint(distLens[29]))
		w.write(8191, 13) // distance 24577 + 8191
		match(227+i%31, 32768)
	}
	w.code(litCodes[256], uint(litLens[256]))
	gz := member(w.bytes(), plain)
	for _, tc := range []struct {
		name string
		src  func(io.Reader) io.Reader
	}{
		{"source read whole", func(r io.Reader) io.Reader { return r }},
		{"source one byte a read", iotest.OneByteReader},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inflateAll(gz, tc.src, 1<<16)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, plain) {
				t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(plain), firstDiff(got, plain))
			}
		})
	}
}

// fixedBlock writes a block of the fixed code holding text's literals, then a match of 20 bytes at
// distance back (when back > 0); a block that is not final is followed by an empty stored block, so
// that the stream ends on a byte boundary. It returns the bytes the block decodes to, after out.
func (w *bitWriter) fixedBlock(final bool, text []byte, back int, out []byte) []byte {
	w.write(map[bool]uint64{true: 1}[final], 1)
	w.write(1, 2)
	for _, c := range text {
		w.fixedLitCode(int(c))
		out = append(out, c)
	}
	if back > 0 {
		w.fixedMatch(20, back)
		for range 20 {
			out = append(out, out[len(out)-back])
		}
	}
	w.fixedLitCode(256)
	if !final {
		w.write(0, 3) // a stored block, not final
		if w.n > 0 {
			w.write(0, 8-w.n)
		}
		w.write(0, 16)
		w.write(0xffff, 16)
	}
	return out
}

// flateBlocks compresses text with compress/flate at level 6 (dynamic blocks): the whole stream when
// final, else the blocks then the empty stored block of a Flush, on a byte boundary.
func flateBlocks(final bool, text []byte) []byte {
	var b bytes.Buffer
	fw, err := stdflate.NewWriter(&b, 6)
	if err != nil {
		panic(err)
	}
	fw.Write(text)
	if final {
		fw.Close()
	} else {
		fw.Flush()
	}
	return b.Bytes()
}

// TestInflateBlockSequences decodes members whose blocks switch between the fixed code and dynamic
// codes (a Reader holds the fixed code in its own tables while they are not overwritten), with matches
// that reach into the previous block.
func TestInflateBlockSequences(t *testing.T) {
	pgn := texts()[7].text
	a, b, c, d := pgn[:3000], pgn[3000:3100], pgn[3100:9000], pgn[9000:9200]
	fixed := func(final bool, text []byte, back int, out []byte) ([]byte, []byte) {
		var w bitWriter
		out = w.fixedBlock(final, text, back, out)
		return w.bytes(), out
	}
	for _, tc := range []struct {
		name string
		make func() (deflated, plain []byte)
	}{
		{"dynamic then fixed", func() ([]byte, []byte) {
			f, plain := fixed(true, b, 2000, append([]byte{}, a...))
			return append(flateBlocks(false, a), f...), plain
		}},
		{"fixed then dynamic", func() ([]byte, []byte) {
			f, plain := fixed(false, a, 1000, nil)
			return append(f, flateBlocks(true, c)...), append(plain, c...)
		}},
		{"fixed, fixed, dynamic, fixed", func() ([]byte, []byte) {
			f1, plain := fixed(false, a, 0, nil)
			f2, plain := fixed(false, b, 3000, plain)
			f3, plain := fixed(true, d, 5000, append(plain, c...))
			deflated := append(append(append(f1, f2...), flateBlocks(false, c)...), f3...)
			return deflated, plain
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deflated, plain := tc.make()
			got, err := inflateAll(member(deflated, plain), func(r io.Reader) io.Reader { return r }, 4096)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, plain) {
				t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(plain), firstDiff(got, plain))
			}
			if want, err := stdRead(member(deflated, plain)); err != nil || !bytes.Equal(want, plain) {
				t.Fatalf("compress/gzip reads the test's stream differently (error %v)", err)
			}
		})
	}
}

// TestFastBudget holds fastBudget to the input that takes the most bits a byte, a block of literals of
// 15 bits: given the budget for the bytes left after d.ip, the fast loop reads no byte past them (its
// last refill's 8 bytes included), and leaves no more than inMargin and one refill's 8 bytes unread.
// So the budget is both safe and as large as it can be: at 14 bits a byte the loop would read past the
// input (and decode what follows it), at 16 it would stop some L/16 bytes short of the end and leave
// them to slowSymbol, whose output is the same (no other test can tell).
func TestFastBudget(t *testing.T) {
	litLens, distLens := make([]uint8, 286), make([]uint8, 30)
	// Complete codes of lengths 1, 2, ..., 14, 15, 15 (skewed(16)): 'a' and 'b' take 15 bits.
	for i, sym := range []int{285, 'c', 256, 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 284, 'a', 'b'} {
		litLens[sym] = skewed(16)[i]
	}
	distLens[0] = 1
	litCodes := canonical(litLens)
	var w bitWriter
	w.dynamicHeader(litLens, distLens)
	var plain []byte
	for i := range 40_000 {
		c := "ccccccccccccccccab"[min(i, 16+i%2)] // 16 'c's (2 bits), then 15 bits a byte
		w.code(litCodes[c], uint(litLens[c]))
		plain = append(plain, c)
	}
	gz := member(w.bytes(), plain)
	// The gzip header, then the block's header (1,338 bits) and the 16 'c's, and the 8 bytes
	// slowSymbol's refill reads ahead.
	start := 10 + (1338+16*2+7)/8 + 8
	for _, tc := range []struct {
		name   string
		inLeft int // bytes of input after d.ip when the fast loop starts
	}{
		{"a budget of 1 byte", inMargin + 2},
		{"100 bytes left", 100},
		{"1,000 bytes left", 1000},
		{"inRefetch bytes left", inRefetch},
		{"a full input buffer", inSize - start},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewReader(bytes.NewReader(gz[:start+tc.inLeft]))
			if err != nil {
				t.Fatal(err)
			}
			if err := d.blockHeader(); err != nil {
				t.Fatal(err)
			}
			for d.op < 16 {
				if _, err := d.slowSymbol(); err != nil {
					t.Fatal(err)
				}
			}
			if d.ip > start {
				t.Fatalf("the literals of 15 bits start at input byte %d, after %d", d.ip, start)
			}
			// The bytes from d.ip on: the fast loop's only input besides the bits held in d.bits.
			d.in = d.in[:d.ip+tc.inLeft]
			n := fastBudget(tc.inLeft)
			if n <= 0 {
				t.Fatalf("budget %d bytes for %d bytes left", n, tc.inLeft)
			}
			op := d.op
			if done, err := d.fast(n); done || err != nil {
				t.Fatalf("fast: %v, %v", done, err)
			}
			if d.op < op+n {
				t.Fatalf("decoded %d bytes, budget %d", d.op-op, n)
			}
			if !bytes.Equal(d.out[:d.op], plain[:d.op]) {
				t.Fatalf("decoded bytes differ at %d", firstDiff(d.out[:d.op], plain[:d.op]))
			}
			unread := len(d.in) - d.ip
			if unread < 8 {
				t.Errorf("the loop's last refill read past the input: %d bytes after the next read's start", unread)
			}
			if unread > inMargin+8 {
				t.Errorf("the loop left %d bytes of %d unread, more than inMargin+8 = %d", unread, tc.inLeft, inMargin+8)
			}
		})
	}
}
