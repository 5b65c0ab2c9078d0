package merge

import (
	"encoding/binary"
	"fmt"

	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// First-seen stamps: moving a source's stamps past the earlier sources'
// inputs.

// stampInputShift is where a stamp's input index starts (see seenStamp).
const stampInputShift = 44

// shiftStamps sets, in a -count occurrence merge, the largest input index
// of each source's stamps (maxInput) and, unless keep (Options.KeepStamps),
// what is added to them (shift): the inputs of the sources before it, as
// if its inputs came after theirs in one build.
func shiftStamps(sources []*mergeSource, keep bool) error {
	if sources[0].meta.CountMode != store.CountOccurrence {
		return nil
	}
	var inputs uint64
	for i, s := range sources {
		max, err := lastStamp(s.st)
		if err != nil {
			return fmt.Errorf("merge: %s: %w", s.dir, err)
		}
		s.maxInput = max >> stampInputShift
		if !keep {
			if e := sameStore(sources[:i], s.dir); e != nil {
				// The same store given again: its inputs are the
				// earlier one's, which one build given the same
				// names again stamps by their first place.
				s.shift = e.shift
			} else {
				s.shift = inputs << stampInputShift
				inputs += s.maxInput
			}
		}
	}
	if inputs >= 1<<(64-stampInputShift) {
		return fmt.Errorf("merge: the stores' inputs (%d) do not fit in first-seen stamps", inputs)
	}
	return nil
}

// lastStamp returns the greatest first-seen stamp of st's game order
// index (0: none).
func lastStamp(st *store.Store) (uint64, error) {
	it, err := st.NewRecordIter(store.KindGameOrder)
	if err != nil {
		return 0, err
	}
	var s uint64
	if it.Last() {
		k := it.Key()
		if len(k) != 16 {
			_ = it.Close()
			return 0, fmt.Errorf("bad game order key %x", k)
		}
		s = binary.BigEndian.Uint64(k)
	}
	return s, it.Close()
}

// shiftEntry appends the encoded stats.Entry enc to dst with every
// first-seen stamp moved by shift, decoding it into e (scratch).
func shiftEntry(dst []byte, e *stats.Entry, enc []byte, shift uint64) ([]byte, error) {
	if err := stats.DecodeInto(e, enc); err != nil {
		return dst, err
	}
	for i := range e.Moves {
		if e.Moves[i].FirstSeen != 0 {
			e.Moves[i].FirstSeen += shift
		}
	}
	return e.AppendEncode(dst), nil
}

// entryMerger merges the encoded entries of one key from several
// sources, moving each source's stamps, into its own buffers.
type entryMerger struct {
	e        stats.Entry
	a, b, sh []byte
}

// merge returns the merge of vals, each source's stamps moved by
// shift(src); valid until the next call.
func (m *entryMerger) merge(vals []kwayVal, shift func(src int) uint64) ([]byte, error) {
	for i, kv := range vals {
		v := kv.v
		if s := shift(kv.src); s != 0 {
			var err error
			m.sh, err = shiftEntry(m.sh[:0], &m.e, v, s)
			if err != nil {
				return nil, err
			}
			v = m.sh
		}
		if i == 0 {
			m.a = append(m.a[:0], v...)
			continue
		}
		var err error
		m.b, err = stats.MergeEncoded(m.b[:0], m.a, v)
		if err != nil {
			return nil, err
		}
		m.a, m.b = m.b, m.a
	}
	return m.a, nil
}
