package polyglot

import (
	"fmt"
	"strings"

	"github.com/chessbook/chessbook/board"
)

// Severity is how serious a Finding is.
type Severity uint8

// The severities, least serious first.
const (
	// Info is a fact worth knowing that does not affect readers.
	Info Severity = iota
	// Warning is something unusual that readers survive but that is likely
	// a mistake of the tool that wrote the book.
	Warning
	// Error is a violation of the format that makes readers miss entries or
	// return wrong moves.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", uint8(s))
}

// The codes of the findings: short, stable names for programs and tests.
const (
	CodeSize        = "size"         // the size is not a multiple of 16
	CodeNotBook     = "not-book"     // the data looks like HTML, text, an archive
	CodeEmpty       = "empty"        // no entries
	CodeSummary     = "summary"      // entry and position counts
	CodeHeader      = "header"       // key-0 header entries
	CodeUnsorted    = "unsorted"     // keys not in ascending order
	CodeWeightOrder = "weight-order" // a key's entries not heaviest first
	CodeDuplicate   = "duplicate"    // the same (key, move) more than once
	CodeWeightZero  = "weight-zero"  // deleted entries
	CodeBadMove     = "bad-move"     // a move no piece can make
	CodeCastling    = "castling"     // e1g1 ... where PolyGlot writes e1h1 ...
	CodeLearn       = "learn"        // non-zero learn fields
)

// Finding is one result of Check.
type Finding struct {
	Severity Severity
	Code     string // one of the Code constants
	// Index is the first entry concerned (0-based, in file order), or -1.
	Index int
	// Count is the number of entries (or for CodeUnsorted, of descents)
	// concerned; 0 when not applicable.
	Count   int
	Message string // a complete sentence for people
}

// String returns the finding as "severity: message".
func (f Finding) String() string { return f.Severity.String() + ": " + f.Message }

// maxExamples is how many examples a finding's message lists.
const maxExamples = 3

// CheckBytes checks the raw bytes of a book file: their size, then, when
// they do not look like some other kind of file, the entries they hold (see
// Check; trailing bytes past the last whole entry are ignored).
func CheckBytes(data []byte) []Finding {
	var fs []Finding
	if len(data)%EntrySize != 0 {
		fs = append(fs, Finding{Severity: Error, Code: CodeSize, Index: -1, Count: len(data) % EntrySize,
			Message: fmt.Sprintf("not a Polyglot book: size %d is not a multiple of %d (%d trailing bytes)",
				len(data), EntrySize, len(data)%EntrySize)})
	}
	if hint := sniff(data); hint != "" {
		return append(fs, Finding{Severity: Error, Code: CodeNotBook, Index: -1,
			Message: "not a Polyglot book: " + hint})
	}
	return append(fs, checkEntries(parseEntries(data[:len(data)/EntrySize*EntrySize]), false)...)
}

// Check validates a book and returns its findings, most serious first:
//
//   - error: keys out of order (where the first out-of-order entry is, how
//     many descents, how long the unsorted tail is; a warning when every
//     tail entry repeats one of the sorted part, so no reader misses a move);
//     moves that no piece can make (from == to, not on a line nor a knight
//     jump, promotion codes 5..15, promotions not from the 7th to the 8th
//     rank or the 2nd to the 1st); data that looks like HTML or text;
//   - warning: duplicate (key, move) entries; the king's two-square move
//     e1g1, e1c1, e8g8, e8c8, suspicious because PolyGlot writes castling as
//     the king taking its rook (e1h1 ...), when the book has no e1h1-style
//     castling at all (a rook or queen may make that move too, which a key
//     alone cannot tell; in a book that writes castling the PolyGlot way
//     they are rook or queen moves, noted as info);
//   - info: a key's entries not heaviest first (make-book writes them so;
//     readers do not depend on it); weight-0 (deleted) entries; non-zero
//     learn fields; header entries and their text; an empty book; and a
//     summary of entries and positions.
//
// Each kind of problem gives one finding with the first entry concerned, a
// count and a few examples, whatever the size of the book.
func Check(b *Book) []Finding {
	return checkEntries(b, true)
}

// checkEntries runs Check; sniffHead also looks at the bytes of the first
// entries for signs that the data is not a book.
func checkEntries(b *Book, sniffHead bool) []Finding {
	es := b.entries
	var c checker
	if sniffHead && len(es) > 0 {
		head := make([]byte, 0, sniffLen)
		for _, e := range es[:min(len(es), sniffLen/EntrySize)] {
			head = appendEntry(head, e)
		}
		if hint := sniff(head); hint != "" {
			c.add(Error, CodeNotBook, -1, 0, "not a Polyglot book: "+hint)
		}
	}
	if len(es) == 0 {
		c.add(Info, CodeEmpty, -1, 0, "the book is empty (0 entries)")
		return c.sorted()
	}
	c.checkOrder(b)
	c.checkEntries(b)
	return c.sorted()
}

// checker collects findings.
type checker struct {
	fs []Finding
}

func (c *checker) add(s Severity, code string, index, count int, msg string) {
	c.fs = append(c.fs, Finding{Severity: s, Code: code, Index: index, Count: count, Message: msg})
}

// sorted returns the findings, most serious first, in the order found within
// a severity.
func (c *checker) sorted() []Finding {
	var out []Finding
	for s := Error; ; s-- {
		for _, f := range c.fs {
			if f.Severity == s {
				out = append(out, f)
			}
		}
		if s == Info {
			break
		}
	}
	return out
}

// checkOrder reports keys out of order and keys whose entries are not
// heaviest first.
func (c *checker) checkOrder(b *Book) {
	es := b.entries
	if b.tail != nil {
		first := b.sorted
		descents := 0
		for i := first; i < len(es); i++ {
			if es[i].Key < es[i-1].Key {
				descents++
			}
		}
		// How many tail entries a binary-search reader cannot find: those
		// that do not repeat an entry of the sorted part.
		inSorted := make(map[keyMove]bool, len(es)-first)
		for _, e := range es[first:] {
			inSorted[keyMove{e.Key, e.Move}] = false
		}
		for _, e := range es[:first] {
			if _, ok := inSorted[keyMove{e.Key, e.Move}]; ok {
				inSorted[keyMove{e.Key, e.Move}] = true
			}
		}
		lost := 0
		for _, e := range es[first:] {
			if !inSorted[keyMove{e.Key, e.Move}] {
				lost++
			}
		}
		tail := len(es) - first
		msg := fmt.Sprintf("keys not sorted: entry %d (key %016x) comes after entry %d (key %016x); %s, "+
			"the %s from entry %d to the end (%.2f%% of the book) form an unsorted tail",
			first, es[first].Key, first-1, es[first-1].Key, plural(descents, "descent", "descents"), entries(tail), first, 100*float64(tail)/float64(len(es)))
		if lost == 0 {
			c.add(Warning, CodeUnsorted, first, descents,
				msg+"; every tail entry repeats an entry of the sorted part, so binary-search readers miss nothing")
		} else {
			c.add(Error, CodeUnsorted, first, descents,
				msg+fmt.Sprintf("; %d of them are not in the sorted part, and readers that binary-search the file may miss them", lost))
		}
	}

	// Weight order within each run of equal keys.
	heavier := func(i int) bool {
		return es[i].Key == es[i-1].Key && es[i].Weight > es[i-1].Weight && !es[i].IsHeader()
	}
	first, count := -1, 0
	var ex []string
	for i := 1; i < len(es); i++ {
		if !heavier(i) {
			continue
		}
		if first < 0 {
			first = i
		}
		count++
		if len(ex) < maxExamples {
			ex = append(ex, fmt.Sprintf("entry %d %s", i, es[i]))
		}
	}
	if count > 0 {
		c.add(Info, CodeWeightOrder, first, count, fmt.Sprintf(
			"%s (in %s) %s heavier than the entry before of the same key; "+
				"make-book writes the heaviest first, readers do not depend on it (e.g. %s)",
			entries(count), plural(countKeys(es, heavier), "position", "positions"), verb(count, "is", "are"), strings.Join(ex, "; ")))
	}
}

// countKeys returns the number of distinct runs of equal keys that hold an
// index i >= 1 for which bad(i) is true.
func countKeys(es []Entry, bad func(i int) bool) int {
	n := 0
	lastKeyStart := -1
	start := 0
	for i := 1; i < len(es); i++ {
		if es[i].Key != es[i-1].Key {
			start = i
		}
		if bad(i) && start != lastKeyStart {
			n++
			lastKeyStart = start
		}
	}
	return n
}

// keyMove identifies the entries of one move of one position.
type keyMove struct {
	key  uint64
	move uint16
}

// checkEntries looks at each entry on its own, and for duplicates.
func (c *checker) checkEntries(b *Book) {
	es := b.entries
	type tally struct {
		first, count int
		ex           []string
	}
	var bad, castling, zero, learn, dup, header tally
	note := func(t *tally, i int, ex string) {
		if t.count == 0 {
			t.first = i
		}
		t.count++
		if len(t.ex) < maxExamples && ex != "" {
			t.ex = append(t.ex, ex)
		}
	}
	rookCastles := 0
	seen := make(map[keyMove]int, len(es))
	keys := make(map[uint64]struct{}, len(es)/2)
	for i, e := range es {
		if e.IsHeader() {
			note(&header, i, "")
			continue
		}
		keys[e.Key] = struct{}{}
		if j, ok := seen[keyMove{e.Key, e.Move}]; ok {
			note(&dup, i, fmt.Sprintf("entry %d repeats entry %d: %s", i, j, e))
		} else {
			seen[keyMove{e.Key, e.Move}] = i
		}
		if reason := impossibleMove(e.Move); reason != "" {
			note(&bad, i, fmt.Sprintf("entry %d %s: %s", i, e, reason))
		} else if isKingCastleMove(e.Move) {
			note(&castling, i, fmt.Sprintf("entry %d %s", i, e))
		} else if isRookCastleMove(e.Move) {
			rookCastles++
		}
		if e.Weight == 0 {
			note(&zero, i, fmt.Sprintf("entry %d %s", i, e))
		}
		if e.Learn != 0 {
			note(&learn, i, "")
		}
	}
	ex := func(t tally) string {
		s := strings.Join(t.ex, "; ")
		if t.count > len(t.ex) {
			s += "; ..."
		}
		return s
	}
	if bad.count > 0 {
		c.add(Error, CodeBadMove, bad.first, bad.count, fmt.Sprintf(
			"%s %s a move no piece can make: %s", entries(bad.count), verb(bad.count, "holds", "hold"), ex(bad)))
	}
	if dup.count > 0 {
		c.add(Warning, CodeDuplicate, dup.first, dup.count, fmt.Sprintf(
			"%s %s the key and move of an earlier entry: %s", entries(dup.count), verb(dup.count, "repeats", "repeat"), ex(dup)))
	}
	if castling.count > 0 {
		// A key alone cannot tell a king's castling written the wrong way
		// from a rook or queen going e1-g1. A book that writes castling the
		// PolyGlot way elsewhere (as make-book and bookquery export do)
		// shows rook or queen moves: nothing suspicious, only noted.
		what := entries(castling.count) + " " + verb(castling.count, "moves", "move") + " from e1/e8 to g1/c1/g8/c8"
		if rookCastles > 0 {
			c.add(Info, CodeCastling, castling.first, castling.count, fmt.Sprintf(
				"%s: rook or queen moves, not castling, as the book writes castling the PolyGlot way, king takes rook (e1h1, e1a1, e8h8, e8a8: %s): %s",
				what, entries(rookCastles), ex(castling)))
		} else {
			c.add(Warning, CodeCastling, castling.first, castling.count, fmt.Sprintf(
				"%s, suspicious: PolyGlot writes castling as king-takes-rook (e1h1, e1a1, e8h8, e8a8), "+
					"and the book has no king-takes-rook castling move, so it probably writes castling the wrong way: %s", what, ex(castling)))
		}
	}
	if zero.count > 0 {
		c.add(Info, CodeWeightZero, zero.first, zero.count, fmt.Sprintf(
			"%s %s weight 0 (deleted; readers skip them): %s", entries(zero.count), verb(zero.count, "has", "have"), ex(zero)))
	}
	if learn.count > 0 {
		c.add(Info, CodeLearn, learn.first, learn.count, fmt.Sprintf(
			"%s %s a non-zero learn field (make-book writes 0; some tools store learning data there)", entries(learn.count), verb(learn.count, "has", "have")))
	}
	if header.count > 0 {
		text := b.Header()
		if len(text) > 60 {
			text = text[:60] + "..."
		}
		c.add(Info, CodeHeader, header.first, header.count, fmt.Sprintf(
			"%s (key 0), skipped by readers; header text %q", plural(header.count, "header entry", "header entries"), text))
	}
	c.add(Info, CodeSummary, -1, len(es), fmt.Sprintf("%s (%d bytes), %s", entries(len(es)), len(es)*EntrySize, plural(len(keys), "position", "positions")))
}

// impossibleMove returns why no piece can make the book move m in any
// position, or "" when some piece might.
func impossibleMove(m uint16) string {
	from, to := MoveFrom(m), MoveTo(m)
	promo := m >> movePromoShift
	switch {
	case promo > maxPromoCode:
		return fmt.Sprintf("invalid promotion code %d", promo)
	case from == to:
		return "from and to are the same square"
	case promo != 0:
		fr, tr := from.Rank(), to.Rank()
		df := from.File() - to.File()
		if !(fr == 6 && tr == 7 || fr == 1 && tr == 0) || df < -1 || df > 1 {
			return "a promotion not from the 7th rank to the 8th (or the 2nd to the 1st) by a pawn step or capture"
		}
		return ""
	}
	if board.Line(from, to) == 0 && !board.KnightAttacks(from).Has(to) {
		return "not along a rank, file or diagonal nor a knight jump"
	}
	return ""
}

// isKingCastleMove reports whether m is e1g1, e1c1, e8g8 or e8c8: castling
// as the king's move, which PolyGlot never writes.
func isKingCastleMove(m uint16) bool {
	from, to := MoveFrom(m), MoveTo(m)
	for _, c := range castleRook {
		if from == c.king && to == c.kingTo && m>>movePromoShift == 0 {
			return true
		}
	}
	return false
}

// isRookCastleMove reports whether m is e1h1, e1a1, e8h8 or e8a8: castling
// as PolyGlot writes it (or, rarely, a king or queen move).
func isRookCastleMove(m uint16) bool {
	from, to := MoveFrom(m), MoveTo(m)
	for _, c := range castleRook {
		if from == c.king && to == c.rook && m>>movePromoShift == 0 {
			return true
		}
	}
	return false
}

// plural returns "1 entry", "2 entries" and the like.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func entries(n int) string { return plural(n, "entry", "entries") }

// verb returns one for n == 1, else many.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
