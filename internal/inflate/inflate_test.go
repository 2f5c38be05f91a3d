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
	gz := member([]byte{0x07}, nil)
	_, err := inflateAll(gz, func(r io.Reader) io.Reader { return r }, 10)
	if err == nil || !strings.Contains(err.Error(), "at input byte 10") {
		t.Fatalf("error %v, want one at input byte 10", err)
	}
}
