package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/chessbook/chessbook/pgn"
)

// gameCounter is a pgn.Visitor that counts games.
type gameCounter struct{ games int }

func (c *gameCounter) BeginGame(int)        { c.games++ }
func (*gameCounter) Tag(_, _ []byte)        {}
func (*gameCounter) BeginMovetext() bool    { return true }
func (*gameCounter) SAN([]byte, int) bool   { return true }
func (*gameCounter) Outcome(pgn.Result)     {}
func (*gameCounter) ParseError(int, string) {}
func (*gameCounter) EndGame()               {}

func mixedPGN(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "pgn", "mixed.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func gzipped(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, p := range parts { // several members, as `cat a.gz b.gz` makes
		w := gzip.NewWriter(&buf)
		w.Write(p)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func zstded(t *testing.T, p []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(p)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestOpenFormats opens the same games plain and compressed, under names
// that do not tell the format, and reads the same bytes back.
func TestOpenFormats(t *testing.T) {
	plain := mixedPGN(t)
	bz2, err := os.ReadFile(filepath.Join("..", "testdata", "pgn", "mixed.pgn.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	half := len(plain) / 2
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want Compression
	}{
		{"plain", plain, Plain},
		{"gzip", gzipped(t, plain[:half], plain[half:]), Gzip},
		{"zstd", zstded(t, plain), Zstd},
		{"zstd-skippable", append([]byte{0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}, zstded(t, plain)...), Zstd},
		{"bzip2", bz2, Bzip2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".txt")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			rc, raw, size, err := OpenCounted(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, plain) {
				t.Errorf("read %d bytes, want the %d of mixed.pgn", len(got), len(plain))
			}
			if size != int64(len(tc.data)) || raw.Count() != size {
				t.Errorf("size %d, counted %d, file has %d bytes", size, raw.Count(), len(tc.data))
			}
			if err := rc.Close(); err != nil {
				t.Error(err)
			}
			_, c, err := Decompress(bytes.NewReader(tc.data))
			if c != tc.want || err != nil {
				t.Errorf("Decompress detected %v (%v), want %v", c, err, tc.want)
			}
			// And through the parser.
			rc, err = Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			var v gameCounter
			if err := pgn.Read(rc, &v); err != nil || v.games != 8 {
				t.Errorf("Read: %d games, %v; want 8", v.games, err)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pgn")
	if _, err := Open(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}

	xz := filepath.Join(dir, "games.xz")
	os.WriteFile(xz, []byte{0xFD, '7', 'z', 'X', 'Z', 0, 0, 4}, 0o644)
	if _, err := Open(xz); err == nil || !strings.Contains(err.Error(), "xz") || !strings.Contains(err.Error(), xz) {
		t.Errorf("xz: %v", err)
	}

	badGzip := filepath.Join(dir, "bad.gz")
	os.WriteFile(badGzip, []byte{0x1F, 0x8B, 0xFF, 0xFF}, 0o644)
	if _, err := Open(badGzip); err == nil || !strings.Contains(err.Error(), badGzip) {
		t.Errorf("bad gzip header: %v", err)
	}

	// A truncated stream fails while reading, naming the file, after the
	// games before the cut have been read.
	var games bytes.Buffer
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 30000 {
		fmt.Fprintf(&games, "[Event \"%d\"]\n\n1. e4 {%x} e5 *\n\n", i, rng.Uint64())
	}
	for name, data := range map[string][]byte{
		"cut.gz":  gzipped(t, games.Bytes()),
		"cut.zst": zstded(t, games.Bytes()),
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data[:len(data)/2], 0o644)
		rc, err := Open(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var v gameCounter
		err = pgn.Read(rc, &v)
		rc.Close()
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Read returned %v, want an error naming the file", name, err)
		}
		if v.games == 0 {
			t.Errorf("%s: the games before the cut were not parsed", name)
		}
	}

	empty := filepath.Join(dir, "empty.pgn")
	os.WriteFile(empty, nil, 0o644)
	rc, err := Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := io.ReadAll(rc); len(data) != 0 || err != nil {
		t.Errorf("empty file: %q, %v", data, err)
	}
	rc.Close()
}

// TestOpenStdin reads "-" from a substituted os.Stdin, which Close must
// leave open.
func TestOpenStdin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.zst")
	os.WriteFile(path, zstded(t, mixedPGN(t)), 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	rc, _, size, err := OpenCounted("-")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(data, mixedPGN(t)) || size != -1 {
		t.Errorf("stdin: %d bytes, size %d, %v", len(data), size, err)
	}
	if err := rc.Close(); err != nil {
		t.Error(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Errorf("stdin was closed: %v", err)
	}
}

// TestCountingReaderConcurrent polls Count while another goroutine reads;
// run with -race.
func TestCountingReaderConcurrent(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 1<<20)
	cr := NewCountingReader(bytes.NewReader(data))
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		last := int64(0)
		for {
			select {
			case <-done:
				return
			default:
			}
			n := cr.Count()
			if n < last {
				t.Errorf("count went back from %d to %d", last, n)
			}
			last = n
		}
	}()
	buf := make([]byte, 1000)
	for {
		if _, err := cr.Read(buf); err != nil {
			break
		}
	}
	close(done)
	wg.Wait()
	if cr.Count() != int64(len(data)) {
		t.Errorf("Count = %d, want %d", cr.Count(), len(data))
	}
}

func TestCompressionString(t *testing.T) {
	for c, s := range map[Compression]string{Plain: "plain", Gzip: "gzip", Bzip2: "bzip2", Zstd: "zstd", 9: "Compression(9)"} {
		if c.String() != s {
			t.Errorf("%d: %q, want %q", c, c.String(), s)
		}
	}
}
