// Package testzstd writes zstd streams for tests and benchmarks: one
// frame from a streaming encoder, which does not know the input's size
// when it starts, so the frame header does not say it (as zstd writes
// from a pipe, and unlike a frame made by EncodeAll).
package testzstd

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// Stream returns p compressed by a streaming encoder made with opts; it
// fails t if the encoder does.
func Stream(t testing.TB, p []byte, opts ...zstd.EOption) []byte {
	t.Helper()
	var out bytes.Buffer
	enc, err := zstd.NewWriter(&out, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.Write(p); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
