package inflate

import (
	"bytes"
	"io"
	"testing"
)

// FuzzValid compresses the fuzzed text with one of the compressors (stored, Huffman only, fixed and
// dynamic blocks from compress/flate and klauspost, gzip writers) and checks that it decodes to the
// text, read in chunks of the fuzzed size.
func FuzzValid(f *testing.F) {
	for i, tx := range texts()[:5] {
		f.Add(tx.text, uint8(i), uint16(16<<10))
	}
	f.Add([]byte("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5"), uint8(8), uint16(7))
	f.Fuzz(func(t *testing.T, text []byte, which uint8, readSize uint16) {
		c := compressors[int(which)%len(compressors)]
		gz := c.gz(text)
		got, err := inflateAll(gz, func(r io.Reader) io.Reader { return r }, int(readSize)%(64<<10)+1)
		if err != nil {
			t.Fatalf("%s: error %v", c.name, err)
		}
		if !bytes.Equal(got, text) {
			t.Fatalf("%s: decoded %d bytes, want %d (first difference at %d)", c.name, len(got), len(text), firstDiff(got, text))
		}
	})
}

// FuzzAgainstStdlib reads any input with the Reader and with compress/gzip: neither may panic or hang,
// both must fail or both succeed with the same bytes.
func FuzzAgainstStdlib(f *testing.F) {
	for i, tx := range texts()[:5] {
		for _, c := range compressors {
			gz := c.gz(tx.text)
			f.Add(gz)
			if len(gz) > 20 && i > 1 {
				f.Add(gz[:len(gz)/2])
				bad := append([]byte{}, gz...)
				bad[len(bad)/2] ^= 0x10
				f.Add(bad)
			}
		}
	}
	f.Fuzz(func(t *testing.T, gz []byte) {
		want, stdErr := stdRead(gz)
		got, err := inflateAll(gz, func(r io.Reader) io.Reader { return r }, 4096)
		if (err == nil) != (stdErr == nil) {
			t.Fatalf("error %v; compress/gzip's %v", err, stdErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("decoded %d bytes, compress/gzip %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
		}
	})
}
