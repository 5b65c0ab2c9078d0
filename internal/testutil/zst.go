package testutil

import (
	"io"
	"os"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// ReadZst returns the decompressed content of the zstd file at path.
func ReadZst(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := zstd.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	defer zr.Close()
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return b
}
