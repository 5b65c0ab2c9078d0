package savings

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/chessbook/chessbook/board"
	scratchdir "github.com/chessbook/chessbook/internal/scratch"
	"github.com/chessbook/chessbook/keys"
)

// The collisions of the lossy hashes among a store's positions, counted in
// bounded memory: every position's Polyglot key goes with the position's
// key into a record (Polyglot key, 8 bytes big-endian; key length, 1 byte;
// key). Records are held in memory up to a bound; past it, they are
// spilled to spillParts files by the Polyglot key's high bits, each of
// which is then read back, sorted and scanned alone. Two positions whose
// Polyglot keys collide sit in the same file, next to each other once
// sorted, and their keys give the positions back for the 128-bit hash
// and the examples: no second pass over the store.

// spillParts is the number of files the records are spilled to.
const spillParts = 256

// hashSpill collects the records of distinct positions; safe for
// concurrent use.
type hashSpill struct {
	limit int // the most bytes of records held in memory
	mu    sync.Mutex
	mem   []byte
	n     uint64   // records added
	dir   string   // the spill files' directory, once spilled
	lock  *os.File // the directory, open and locked while it is used (see internal/scratch)
	files [spillParts]*os.File
	bufs  [spillParts]*bufio.Writer
	err   error
}

// newHashSpill returns an empty collector that holds up to limit bytes of
// records in memory.
func newHashSpill(limit int) *hashSpill { return &hashSpill{limit: limit} }

// appendHashRecord appends the record of the position with Polyglot key z
// and key k to dst.
func appendHashRecord(dst []byte, z uint64, k []byte) []byte {
	dst = binary.BigEndian.AppendUint64(dst, z)
	dst = append(dst, byte(len(k)))
	return append(dst, k...)
}

// add takes a batch of records (appendHashRecord), holding n records.
func (h *hashSpill) add(batch []byte, n int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return h.err
	}
	h.n += uint64(n)
	if h.dir == "" && len(h.mem)+len(batch) <= h.limit {
		h.mem = append(h.mem, batch...)
		return nil
	}
	if h.dir == "" {
		if h.err = h.startSpill(); h.err != nil {
			return h.err
		}
	}
	h.err = h.spill(batch)
	return h.err
}

// startSpill creates the spill files and moves the records in memory to
// them.
func (h *hashSpill) startSpill() error {
	// What a killed run left is removed first (never a running one's:
	// each holds its directory's lock).
	scratchdir.RemoveStale(os.TempDir(), "savings-hashes-*")
	lock, err := scratchdir.CreateLocked(os.TempDir(), "savings-hashes-*", true)
	if err != nil {
		return fmt.Errorf("savings: spilling the positions' hashes: %w", err)
	}
	dir := lock.Name()
	h.dir, h.lock = dir, lock
	for i := range h.files {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%03d", i)))
		if err != nil {
			return fmt.Errorf("savings: spilling the positions' hashes: %w", err)
		}
		h.files[i], h.bufs[i] = f, bufio.NewWriterSize(f, 16<<10)
	}
	mem := h.mem
	h.mem = nil
	return h.spill(mem)
}

// spill writes the records of batch to their files.
func (h *hashSpill) spill(batch []byte) error {
	for len(batch) > 0 {
		n := 9 + int(batch[8])
		if _, err := h.bufs[batch[0]].Write(batch[:n]); err != nil {
			return fmt.Errorf("savings: spilling the positions' hashes: %w", err)
		}
		batch = batch[n:]
	}
	return nil
}

// close removes the spill files, if any.
func (h *hashSpill) close() {
	for _, f := range h.files {
		if f != nil {
			f.Close()
		}
	}
	if h.dir != "" {
		os.RemoveAll(h.dir)
	}
	if h.lock != nil {
		h.lock.Close()
	}
}

// report counts the collisions of the records collected (see hashRows).
// It reads back one spill file at a time.
func (h *hashSpill) report() ([]HashRow, error) {
	if h.err != nil {
		return nil, h.err
	}
	var c hashCollisions
	if h.dir == "" {
		if err := c.scan(h.mem); err != nil {
			return nil, err
		}
	} else {
		for i, b := range h.bufs {
			if err := b.Flush(); err != nil {
				return nil, fmt.Errorf("savings: spilling the positions' hashes: %w", err)
			}
			if err := h.files[i].Close(); err != nil {
				return nil, fmt.Errorf("savings: spilling the positions' hashes: %w", err)
			}
			h.files[i] = nil
		}
		for i := range h.files {
			part, err := os.ReadFile(filepath.Join(h.dir, fmt.Sprintf("%03d", i)))
			if err != nil {
				return nil, fmt.Errorf("savings: reading back the positions' hashes: %w", err)
			}
			if err := c.scan(part); err != nil {
				return nil, err
			}
		}
	}
	return hashRows(h.n, c.c64, c.c128, c.examples), nil
}

// hashCollisions counts collisions over the spill's parts.
type hashCollisions struct {
	c64, c128 uint64
	examples  [][2]string
}

// scan counts the collisions among the records of part (records of
// distinct positions; any two with the same Polyglot key are in the same
// part).
func (c *hashCollisions) scan(part []byte) error {
	type ref struct {
		z   uint64
		off int
	}
	var refs []ref
	for off := 0; off < len(part); {
		if off+9 > len(part) || off+9+int(part[off+8]) > len(part) {
			return fmt.Errorf("savings: the positions' hashes: a truncated record")
		}
		refs = append(refs, ref{binary.BigEndian.Uint64(part[off:]), off})
		off += 9 + int(part[off+8])
	}
	slices.SortFunc(refs, func(a, b ref) int {
		switch {
		case a.z < b.z:
			return -1
		case a.z > b.z:
			return 1
		}
		return a.off - b.off
	})
	position := func(r ref) (board.Position, error) {
		k := part[r.off+9 : r.off+9+int(part[r.off+8])]
		p, err := keys.Decode(k)
		if err != nil {
			return p, fmt.Errorf("savings: store key %x: %w", k, err)
		}
		return p, nil
	}
	for i := 0; i < len(refs); {
		j := i + 1
		for j < len(refs) && refs[j].z == refs[i].z {
			j++
		}
		if j-i > 1 {
			c.c64 += uint64(j - i - 1)
			seen := map[[2]uint64]bool{}
			var first board.Position
			for x, r := range refs[i:j] {
				p, err := position(r)
				if err != nil {
					return err
				}
				if hv := hash128(&p); seen[hv] {
					c.c128++
				} else {
					seen[hv] = true
				}
				if x == 0 {
					first = p
				} else if x == 1 && len(c.examples) < 5 {
					c.examples = append(c.examples, [2]string{first.FEN(), p.FEN()})
				}
			}
		}
		i = j
	}
	return nil
}
