package store

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/chessbook/chessbook/internal/sortedruns"
	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2"
)

// MergerName is the name of the store's merge operator. Pebble records it in
// the store and refuses to open the store with a merger of another name.
const MergerName = "chessbook.entry.v4"

// newMerger returns the store's merge operator: each key's operands merge
// by its kind's Operator (the registry, kinds.go): encoded stats.Entry
// values with stats.MergeEncoded, position histories with
// stats.MergeHistory, buckets of single references by their union, and
// the game index's tallies with MergeTally; a kind without an operator
// (a SET kind, or no kind) is an error. The returned Merger pools its value mergers; it holds no
// other state. (Its name stays that of format version 4: stores of
// versions 7 and 8, which never hold 'x' records, open with it.)
func newMerger() *pebble.Merger {
	pool := &sync.Pool{New: func() any { return new(entryMerger) }}
	spool := &sync.Pool{New: func() any { return new(singlesMerger) }}
	hpool := &sync.Pool{New: func() any { return &entryMerger{merge2: stats.MergeHistory} }}
	tpool := &sync.Pool{New: func() any { return &entryMerger{merge2: MergeTally} }}
	return &pebble.Merger{
		Name: MergerName,
		Merge: func(key, value []byte) (pebble.ValueMerger, error) {
			// The kind's operator, from the registry (kinds.go).
			var op Operator
			if k := kindOfKey(key); k != nil {
				op = k.Operator
			}
			var p *sync.Pool
			switch op {
			case SinglesOperator:
				if err := validateSingles(value); err != nil {
					return nil, fmt.Errorf("chessbook merge operator: key %x: %w", key, err)
				}
				m := spool.Get().(*singlesMerger)
				m.pool = spool
				m.key = append(m.key[:0], key...)
				m.buf = append(m.buf[:0], value...)
				m.ends, m.packs = m.ends[:0], m.packs[:0]
				return m, nil
			case TallyOperator:
				if err := validateTally(value); err != nil {
					return nil, fmt.Errorf("chessbook merge operator: key %x: %w", key, err)
				}
				p = tpool
			case HistoryOperator:
				if _, err := stats.MergeHistory(nil, value, []byte{stats.HistoryVersion}); err != nil {
					return nil, fmt.Errorf("chessbook merge operator: key %x: %w", key, err)
				}
				p = hpool
			case EntryOperator:
				if err := stats.ValidateEncoded(value); err != nil {
					return nil, fmt.Errorf("chessbook merge operator: key %x: %w", key, err)
				}
				p = pool
			default:
				return nil, fmt.Errorf("chessbook merge operator: key %x: no merge operator for its kind (%s)", key, kindName(key))
			}
			m := p.Get().(*entryMerger)
			m.pool = p
			m.key = append(m.key[:0], key...)
			m.buf = append(m.buf[:0], value...)
			return m, nil
		},
	}
}

// entryMerger merges the operands of one key: encoded stats.Entry
// values, or with merge2 set, encoded histories or tallies. Merging is commutative,
// so newer and older operands are handled alike.
type entryMerger struct {
	pooled
	merge2  func(dst, a, b []byte) ([]byte, error) // nil: stats.MergeEncoded
	key     []byte                                 // for error messages
	buf     []byte                                 // the operands merged so far, encoded
	scratch []byte                                 // the other buffer the merge writes into
}

// MergeNewer merges an operand newer than the ones seen so far.
func (m *entryMerger) MergeNewer(value []byte) error { return m.merge(value) }

// MergeOlder merges an operand older than the ones seen so far.
func (m *entryMerger) MergeOlder(value []byte) error { return m.merge(value) }

func (m *entryMerger) merge(value []byte) error {
	merge := stats.MergeEncoded
	if m.merge2 != nil {
		merge = m.merge2
	}
	out, err := merge(m.scratch[:0], m.buf, value)
	if err != nil {
		return fmt.Errorf("chessbook merge operator: key %x: %w", m.key, err)
	}
	m.buf, m.scratch = out, m.buf
	return nil
}

// Finish returns the merged value. It is the same whether or not the base
// operand was included: partial merges are exact for sums, minima and
// maxima. The returned Closer gives the merger back to the pool; the value
// is valid until then.
func (m *entryMerger) Finish(includesBase bool) ([]byte, io.Closer, error) {
	return m.buf, m, nil
}

// Close returns the merger to its pool.
func (m *entryMerger) Close() error {
	m.release(m)
	return nil
}

// singlesMerger merges the operands of one bucket of single references:
// their union, which is associative and commutative. It gathers the
// operands and merges them once, in Finish: a compaction may hand it
// dozens. Operands are validated there, as they are decoded.
type singlesMerger struct {
	pooled
	key     []byte // for error messages
	buf     []byte // the operands, encoded, one after the other...
	ends    []int  // ...and where each ends in buf (empty: buf is the only one)
	packs   []uint64
	runs    []int // where each operand's references end in packs
	scratch []uint64
	out     []byte
}

// MergeNewer merges an operand newer than the ones seen so far.
func (m *singlesMerger) MergeNewer(value []byte) error { return m.merge(value) }

// MergeOlder merges an operand older than the ones seen so far.
func (m *singlesMerger) MergeOlder(value []byte) error { return m.merge(value) }

func (m *singlesMerger) merge(value []byte) error {
	if len(m.ends) == 0 {
		m.ends = append(m.ends, len(m.buf))
	}
	m.buf = append(m.buf, value...)
	m.ends = append(m.ends, len(m.buf))
	return nil
}

// Finish returns the merged value: the same whether or not the base
// operand was included. The returned Closer gives the merger back to the
// pool; the value is valid until then.
func (m *singlesMerger) Finish(includesBase bool) ([]byte, io.Closer, error) {
	if len(m.ends) == 0 {
		if err := validateSingles(m.buf); err != nil {
			return nil, nil, fmt.Errorf("chessbook merge operator: key %x: %w", m.key, err)
		}
		return m.buf, m, nil
	}
	start := 0
	var err error
	m.runs = m.runs[:0]
	for _, end := range m.ends {
		if m.packs, err = appendPacked(m.packs, m.buf[start:end]); err != nil {
			return nil, nil, fmt.Errorf("chessbook merge operator: key %x: %w", m.key, err)
		}
		m.runs = append(m.runs, len(m.packs))
		start = end
	}
	// Each operand decodes in increasing order (the reader checks it):
	// merging the runs costs a pass per doubling, where sorting them
	// took most of a big compaction's merge time.
	m.packs, m.scratch = sortedruns.Merge(m.packs, m.runs, m.scratch, func(a, b *uint64) int { return cmp.Compare(*a, *b) })
	m.packs = slices.Compact(m.packs)
	m.out = appendPackedSingles(m.out[:0], m.packs)
	return m.out, m, nil
}

// Close returns the merger to its pool.
func (m *singlesMerger) Close() error {
	m.release(m)
	return nil
}

// pooled is a value merger's way back to its pool.
type pooled struct{ pool *sync.Pool }

// release puts m, the merger embedding p, back in its pool, once.
func (p *pooled) release(m any) {
	if q := p.pool; q != nil {
		p.pool = nil
		q.Put(m)
	}
}
