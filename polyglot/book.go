package polyglot

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// EntrySize is the size in bytes of one book entry in a .bin file.
const EntrySize = 16

// Entry is one book entry: a move of the position with the given key and its
// weight. In the file it is 16 bytes, all big-endian:
// key u64 | move u16 | weight u16 | learn u32.
type Entry struct {
	Key    uint64 // the position's Polyglot key (see Key); 0 marks a header entry
	Move   uint16 // the move, to | from<<6 | promo<<12 (see DecodeMove)
	Weight uint16 // the move's weight; 0 means deleted
	Learn  uint32 // learning data; PolyGlot's make-book writes 0
}

// IsHeader reports whether e is a header entry (key 0): PolyGlot 1.4.68b
// and later can store a text header in such entries, 8 bytes of text in
// the move, weight and learn fields of each.
func (e Entry) IsHeader() bool { return e.Key == 0 }

// String returns the entry as "key move weight learn", for example
// "463b96181691fc9c e2e4 w=1524 l=0".
func (e Entry) String() string {
	return fmt.Sprintf("%016x %s w=%d l=%d", e.Key, MoveString(e.Move), e.Weight, e.Learn)
}

// appendEntry appends the 16-byte big-endian encoding of e to dst.
func appendEntry(dst []byte, e Entry) []byte {
	dst = binary.BigEndian.AppendUint64(dst, e.Key)
	dst = binary.BigEndian.AppendUint16(dst, e.Move)
	dst = binary.BigEndian.AppendUint16(dst, e.Weight)
	return binary.BigEndian.AppendUint32(dst, e.Learn)
}

// decodeEntry decodes the 16 bytes of b.
func decodeEntry(b []byte) Entry {
	_ = b[EntrySize-1]
	return Entry{
		Key:    binary.BigEndian.Uint64(b[0:]),
		Move:   binary.BigEndian.Uint16(b[8:]),
		Weight: binary.BigEndian.Uint16(b[10:]),
		Learn:  binary.BigEndian.Uint32(b[12:]),
	}
}

// ErrNotBook is wrapped by the errors that ParseBook, ReadBook and OpenBook
// return for data that cannot be a Polyglot book (a size that is not a
// multiple of 16).
var ErrNotBook = errors.New("not a Polyglot book")

// Book is a Polyglot opening book held in memory. Its methods do not modify
// it and may be called from several goroutines at once.
//
// Books are meant to be sorted by key, but some real ones are not entirely:
// a few end with out-of-order entries (rodent.bin, Titans.bin in the wild).
// Book keeps the entries in file order, finds the longest key-sorted prefix,
// and keeps a key-sorted copy of the rest (the "unsorted tail"), so that
// Lookup finds every entry of a key wherever it is in the file. PolyGlot
// itself, binary-searching the whole file, may miss entries of the tail.
type Book struct {
	entries []Entry // in file order, header entries included
	sorted  int     // entries[:sorted] has non-decreasing keys
	tail    []Entry // entries[sorted:] sorted by key (stable), nil when sorted == len(entries)
}

// NewBook returns a Book over entries, taken in the given order as if read
// from a file. The Book keeps the slice: the caller must not modify it
// afterwards.
func NewBook(entries []Entry) *Book {
	b := &Book{entries: entries}
	b.sorted = sortedPrefix(entries)
	if b.sorted < len(entries) {
		b.tail = slices.Clone(entries[b.sorted:])
		slices.SortStableFunc(b.tail, func(x, y Entry) int { return cmp.Compare(x.Key, y.Key) })
	}
	return b
}

// sortedPrefix returns the length of the longest prefix of es whose keys do
// not decrease.
func sortedPrefix(es []Entry) int {
	for i := 1; i < len(es); i++ {
		if es[i].Key < es[i-1].Key {
			return i
		}
	}
	return len(es)
}

// ParseBook decodes a whole book held in data. The error wraps ErrNotBook
// when len(data) is not a multiple of EntrySize, with a hint when the data
// looks like something else (an HTML page, text, a compressed file).
func ParseBook(data []byte) (*Book, error) {
	if len(data)%EntrySize != 0 {
		return nil, fmt.Errorf("polyglot: %w", sizeError(data))
	}
	return parseEntries(data), nil
}

// parseEntries decodes the whole entries of data.
func parseEntries(data []byte) *Book {
	es := make([]Entry, len(data)/EntrySize)
	for i := range es {
		es[i] = decodeEntry(data[i*EntrySize:])
	}
	return NewBook(es)
}

// sizeError describes data whose size is not a multiple of EntrySize:
// "not a Polyglot book: size 43126 is not a multiple of 16; hint".
func sizeError(data []byte) error {
	msg := fmt.Sprintf("size %d is not a multiple of %d", len(data), EntrySize)
	if hint := sniff(data); hint != "" {
		msg += "; " + hint
	}
	return fmt.Errorf("%w: %s", ErrNotBook, msg)
}

// ReadBook reads a whole book from r until EOF. Books are small (up to
// tens of MB) and are held in memory: 16 bytes of input cost about 16
// bytes of memory. See ParseBook for the errors.
func ReadBook(r io.Reader) (*Book, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("polyglot: reading book: %w", err)
	}
	return ParseBook(data)
}

// OpenBook reads the book file at path. Errors name the file, for example
// "polyglot: komodo.bin: not a Polyglot book: size 43126 is not a multiple
// of 16; it looks like an HTML page, probably a failed download".
func OpenBook(path string) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("polyglot: %w", err) // *PathError names the file
	}
	if len(data)%EntrySize != 0 {
		return nil, fmt.Errorf("polyglot: %s: %w", path, sizeError(data))
	}
	return parseEntries(data), nil
}

// Len returns the number of entries, header and weight-0 entries included.
func (b *Book) Len() int { return len(b.entries) }

// Entries returns all the entries in file order, header and weight-0 entries
// included. The slice is the book's own storage: do not modify it.
func (b *Book) Entries() []Entry { return b.entries[:len(b.entries):len(b.entries)] }

// Sorted reports whether the book's keys never decrease from one entry to
// the next, as the format requires. Check says more.
func (b *Book) Sorted() bool { return b.tail == nil }

// Header returns the text of the book's header entries (key 0): the 8
// bytes after the key of each, concatenated in file order up to the first
// NUL byte. It returns "" when the book has none, as for most books.
func (b *Book) Header() string {
	var text []byte
	for _, e := range b.entries {
		if !e.IsHeader() {
			if b.tail == nil {
				break // sorted: header entries come first
			}
			continue
		}
		var buf [EntrySize]byte
		text = append(text, appendEntry(buf[:0], e)[8:]...)
	}
	for i, c := range text {
		if c == 0 {
			return string(text[:i])
		}
	}
	return string(text)
}

// Lookup returns the entries of the position with the given key, in file
// order, weight-0 entries included (Probe skips them); nil for key 0, which
// marks header entries, and for a key that is not in the book.
//
// It binary-searches the sorted part of the book and, when the book has an
// unsorted tail, a sorted copy of the tail too, so an entry is found
// wherever it is: the tail's entries come after the sorted part's. The
// result is the book's storage when the key has no entries in the tail: do
// not modify it.
func (b *Book) Lookup(key uint64) []Entry {
	if key == 0 {
		return nil
	}
	head := keyRange(b.entries[:b.sorted], key)
	if b.tail == nil {
		return head
	}
	tail := keyRange(b.tail, key)
	switch {
	case len(tail) == 0:
		return head
	case len(head) == 0:
		return tail
	}
	return append(slices.Clip(slices.Clone(head)), tail...)
}

// keyRange returns the run of entries of es (sorted by key) with the key,
// capacity clipped so that appending to it cannot overwrite es.
func keyRange(es []Entry, key uint64) []Entry {
	lo, _ := slices.BinarySearchFunc(es, key, func(e Entry, k uint64) int { return cmp.Compare(e.Key, k) })
	hi := lo
	for hi < len(es) && es[hi].Key == key {
		hi++
	}
	if lo == hi {
		return nil
	}
	return es[lo:hi:hi]
}
