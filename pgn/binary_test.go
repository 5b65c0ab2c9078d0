package pgn

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// TestSplitterBinaryRegions: random PGN with random binary data in it, at
// random places, of random sizes, sometimes several regions, is cut the
// same way whatever the chunk size and however the reads come (one byte
// at a time included: regions end on lines read in pieces), and every
// byte is in a chunk or a region (checkSplitEquivalence); every region
// is reported at the line where it begins, and the chunk after it begins
// at the line where it ends.
func TestSplitterBinaryRegions(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 4))
	n := 150
	if testing.Short() {
		n = 30
	}
	for i := range n {
		data := randomPGN(rng, 20, 50)
		for range 1 + rng.IntN(3) {
			junk := make([]byte, 1+rng.IntN(3000))
			for j := range junk {
				junk[j] = byte(rng.Uint32())
			}
			at := rng.IntN(len(data) + 1)
			data = append(data[:at:at], append(junk, data[at:]...)...)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkSplitEquivalence(t, data)
			checkRegionLines(t, data)
		})
	}
}

// checkRegionLines checks the lines of the chunks and regions a Splitter
// makes of data against data itself.
func checkRegionLines(t *testing.T, data []byte) {
	t.Helper()
	sp := NewSplitterSize(bytes.NewReader(data), 100)
	var buf []byte
	off := 0
	for {
		chunk, line, err := sp.Next(buf)
		if want := 1 + lineCount(data[:off]); line != want && (len(chunk) > 0 || err != nil && err != io.EOF) {
			t.Fatalf("at byte %d: line %d, want %d (%v)", off, line, want, err)
		}
		off += len(chunk)
		if e, ok := err.(*BinaryDataError); ok {
			region := data[off : off+int(e.Size)]
			end := e.Line + lineCount(region)
			if c := region[len(region)-1]; c == '\n' || c == '\r' {
				end-- // the region ends with its last line's end
			}
			if e.EndLine != end || e.FirstData < e.Line || e.FirstData > end {
				t.Errorf("region %+v: lines %d-%d, %q", e, e.Line, e.EndLine, region)
			}
			off += int(e.Size)
			buf = chunk[:0]
			continue
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		buf = chunk[:0]
	}
}
