package ingest

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compression is a compression format Open recognises.
type Compression uint8

// The formats Open detects by their magic bytes.
const (
	Plain Compression = iota // not compressed
	Gzip                     // gzip (RFC 1952), possibly several members
	Bzip2                    // bzip2
	Zstd                     // Zstandard
)

// String names the format.
func (c Compression) String() string {
	switch c {
	case Plain:
		return "plain"
	case Gzip:
		return "gzip"
	case Bzip2:
		return "bzip2"
	case Zstd:
		return "zstd"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// CountingReader counts the bytes read through it. Count may be called
// from any goroutine while another one reads, e.g. to draw a progress bar.
type CountingReader struct {
	r io.Reader
	n atomic.Int64
}

// NewCountingReader returns a CountingReader reading from r.
func NewCountingReader(r io.Reader) *CountingReader { return &CountingReader{r: r} }

// Read reads from the underlying reader and counts the bytes.
func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Count returns the number of bytes read so far.
func (c *CountingReader) Count() int64 { return c.n.Load() }

// Open opens a PGN input for reading: a file, or standard input when path
// is "-". Compressed input (zstd, gzip, bzip2) is detected by its magic
// bytes, not by its name, and decompressed on the fly. Close releases the
// decompressor and closes the file (standard input is left open).
func Open(path string) (io.ReadCloser, error) {
	rc, _, _, err := OpenCounted(path)
	return rc, err
}

// OpenCounted is Open that also returns a counter of the bytes read from
// the file itself (compressed bytes for compressed input) and the file's
// size (-1 when unknown, as for standard input or a pipe), for showing
// progress.
func OpenCounted(path string) (rc io.ReadCloser, raw *CountingReader, size int64, err error) {
	f := os.Stdin
	size = -1
	if path != "-" {
		if f, err = os.Open(path); err != nil {
			return nil, nil, 0, fmt.Errorf("ingest: %w", err)
		}
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	raw = NewCountingReader(f)
	d, _, err := Decompress(raw)
	if err != nil {
		if f != os.Stdin {
			f.Close()
		}
		return nil, nil, 0, fmt.Errorf("ingest: %s: %w", path, err)
	}
	return &input{path: path, f: f, d: d}, raw, size, nil
}

// openCounted is the pipeline's way into OpenCounted.
func openCounted(path string) (io.ReadCloser, *CountingReader, int64, error) {
	return OpenCounted(path)
}

// input is what Open returns.
type input struct {
	path string
	f    *os.File
	d    io.ReadCloser
}

func (in *input) Read(p []byte) (int, error) {
	n, err := in.d.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("ingest: %s: %w", in.path, err)
	}
	return n, err
}

func (in *input) Close() error {
	err := in.d.Close()
	if in.f != os.Stdin {
		err = errors.Join(err, in.f.Close())
	}
	if err != nil {
		return fmt.Errorf("ingest: closing %s: %w", in.path, err)
	}
	return nil
}

// Decompress returns a reader of r's content, decompressed if r starts
// with the magic bytes of zstd, gzip or bzip2, and which format that was.
// Closing the result releases the decompressor but does not close r.
func Decompress(r io.Reader) (io.ReadCloser, Compression, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(6)
	if err != nil && err != io.EOF && len(magic) == 0 {
		return nil, Plain, fmt.Errorf("reading: %w", err)
	}
	switch {
	case len(magic) >= 4 && (bytes.Equal(magic[:4], []byte{0x28, 0xB5, 0x2F, 0xFD}) ||
		magic[0]&0xF0 == 0x50 && bytes.Equal(magic[1:4], []byte{0x2A, 0x4D, 0x18})): // frame or skippable frame
		d, err := zstd.NewReader(br, zstd.WithDecoderLowmem(true), zstd.WithDecoderConcurrency(2))
		if err != nil {
			return nil, Zstd, fmt.Errorf("zstd: %w", err)
		}
		return zstdCloser{d}, Zstd, nil
	case len(magic) >= 2 && magic[0] == 0x1F && magic[1] == 0x8B:
		d, err := gzip.NewReader(br)
		if err != nil {
			return nil, Gzip, fmt.Errorf("gzip: %w", err)
		}
		return d, Gzip, nil
	case len(magic) >= 4 && magic[0] == 'B' && magic[1] == 'Z' && magic[2] == 'h' && magic[3] >= '1' && magic[3] <= '9':
		return io.NopCloser(bzip2.NewReader(br)), Bzip2, nil
	case len(magic) >= 6 && bytes.Equal(magic, []byte{0xFD, '7', 'z', 'X', 'Z', 0}):
		return nil, Plain, errors.New("xz compression is not supported (use zstd, gzip or bzip2)")
	case len(magic) >= 4 && bytes.Equal(magic[:4], []byte{0x04, 0x22, 0x4D, 0x18}):
		return nil, Plain, errors.New("lz4 compression is not supported (use zstd, gzip or bzip2)")
	}
	return io.NopCloser(br), Plain, nil
}

// zstdCloser adapts a zstd.Decoder, whose Close returns nothing.
type zstdCloser struct{ d *zstd.Decoder }

func (z zstdCloser) Read(p []byte) (int, error) { return z.d.Read(p) }
func (z zstdCloser) Close() error               { z.d.Close(); return nil }
