package gamedb

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Writing the index. A writer (the builder, or Reindex) turns each game it
// stores into an entry (AppendEntry), while it has the game parsed, and
// once the game has its number, adds the entry to a Batch with the
// number. A Batch gives its records in key order (Batch.Records), for a
// sorted run or an sstable; records of several batches with equal keys
// are the dictionaries' tallies, which merge with store.MergeTally (two
// records of another kind with one key are a writer's bug: their values
// are not tallies, and the merge fails unless both are empty), and Put
// writes a record to a store.SSTWriter. All in the same ingestion as the games.

// Facts are what the writer knows of a game already, parsed from its tags
// for its statistics.
type Facts struct {
	WhiteElo, BlackElo int        // 0: unknown
	Date               stats.Date // 0: unknown
	Cell               stats.Cell // speed and rating band
	// Moves, when the writer has them, are the numbers of the game's
	// first moves among the legal moves of their positions, which coding
	// the game record gives (gamecode.AppendGameCodedNumbered): the
	// entry uses them when they cover its first SummaryPlies plies.
	Moves []gamecode.MoveNumber
}

// names of an entry, in this order.
const (
	nameWhite = iota
	nameBlack
	nameEvent
	nameSite
	numNames
)

// AppendEntry appends the index entry of game g to dst: its summary, and
// the normalized and raw spellings of its players, event and site. ix is
// scratch space.
//
// An entry is a uvarint length and the encoded Summary, then for White,
// Black, Event and Site a uvarint length and the normalized name, a
// uvarint length and the raw spelling (empty names are not indexed).
func AppendEntry(dst []byte, g *pgn.Game, f Facts, ix *gamecode.MoveIndexer) []byte {
	s := Summary{Result: g.Result, FromFEN: g.FromFEN, Cell: f.Cell, Date: f.Date,
		WhiteElo: f.WhiteElo, BlackElo: f.BlackElo, Plies: len(g.Moves), ECO: ParseECO(g.Tag("ECO"))}
	event := trimRaw(g.Tag("Event"))
	s.Casual = len(event) >= 6 && strings.EqualFold(string(event[:6]), "casual")
	raws := [numNames][]byte{trimRaw(g.Tag("White")), trimRaw(g.Tag("Black")), event, siteName(g.Tag("Site"))}
	var codes [maxCodeBytes]byte
	s.codes = codes[:0]
	switch coded := min(len(g.Moves), SummaryPlies); {
	case g.FromFEN:
	case len(f.Moves) >= coded:
		for _, n := range f.Moves[:coded] {
			s.addNumber(int(n.I), int(n.N))
		}
	default:
		pos := g.Start
		for _, m := range g.Moves[:coded] {
			if !s.addMove(ix, &pos, m) {
				break
			}
			pos.Play(m)
		}
	}
	var nb [numNames * (maxNameBytes + 8)]byte
	norms := nb[:0]
	var ends [numNames + 1]int
	for i, raw := range raws {
		norms = appendNormal(norms, raw)
		ends[i+1] = len(norms)
		if ends[i+1] > ends[i] {
			s.Posted |= 1 << i
		}
	}
	var sb [64]byte
	sum := s.Append(sb[:0])
	dst = binary.AppendUvarint(dst, uint64(len(sum)))
	dst = append(dst, sum...)
	for i, raw := range raws {
		norm := norms[ends[i]:ends[i+1]]
		dst = binary.AppendUvarint(dst, uint64(len(norm)))
		dst = append(dst, norm...)
		if len(norm) == 0 {
			raw = nil
		}
		dst = binary.AppendUvarint(dst, uint64(len(raw)))
		dst = append(dst, raw...)
	}
	return dst
}

// entry is a decoded entry.
type entry struct {
	summary []byte
	norm    [numNames][]byte
	raw     [numNames][]byte
}

var errBadEntry = errors.New("gamedb: bad index entry")

// decodeEntry decodes entry b.
func decodeEntry(e *entry, b []byte) error {
	field := func() ([]byte, error) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errBadEntry
		}
		f := b[k : k+int(n)]
		b = b[k+int(n):]
		return f, nil
	}
	var err error
	if e.summary, err = field(); err != nil {
		return err
	}
	for i := range numNames {
		if e.norm[i], err = field(); err != nil {
			return err
		}
		if e.raw[i], err = field(); err != nil {
			return err
		}
	}
	if len(b) != 0 {
		return errBadEntry
	}
	return nil
}

// Batch gathers the index records of a set of games (see AppendEntry),
// merging the dictionaries' tallies of its games, to give them in key
// order. The zero Batch is ready to use.
type Batch struct {
	sums    []numbered // summaries, by number
	sumBuf  []byte
	players map[string][]Posting // normalized name + 0 + color -> postings
	events  map[string][]uint64  // normalized event -> game numbers
	sites   map[string][]uint64
	dict    map[string][]uint64 // dictionary key -> tally values
	key     []byte
	e       entry
	s       Summary
}

// numbered is a game's summary in a Batch's buffer.
type numbered struct {
	num      uint64
	off, end int
}

// Add adds the entry of game number num (not 0, each number once).
func (b *Batch) Add(num uint64, ent []byte) error {
	if num == 0 {
		return errors.New("gamedb: game number 0")
	}
	e := &b.e
	if err := decodeEntry(e, ent); err != nil {
		return fmt.Errorf("game %d: %w", num, err)
	}
	s := &b.s
	if err := DecodeSummary(s, e.summary); err != nil {
		return fmt.Errorf("game %d: %w", num, err)
	}
	if b.players == nil {
		b.players = map[string][]Posting{}
		b.events = map[string][]uint64{}
		b.sites = map[string][]uint64{}
		b.dict = map[string][]uint64{}
	}
	off := len(b.sumBuf)
	b.sumBuf = append(b.sumBuf, e.summary...)
	b.sums = append(b.sums, numbered{num: num, off: off, end: len(b.sumBuf)})
	date := uint64(s.Date)
	for c, elo := range [2]int{s.WhiteElo, s.BlackElo} {
		norm := e.norm[c]
		if len(norm) == 0 {
			continue
		}
		b.key = append(append(b.key[:0], norm...), 0, byte(c))
		b.players[string(b.key)] = append(b.players[string(b.key)], Posting{Num: num, Date: s.Date})
		t := b.tally(dictKey(b.key[:0], kindPlayerDict, norm, e.raw[c]), len(playerOps))
		t[ptWhite+c]++
		mergeMin(&t[ptMinRating], uint64(elo))
		t[ptMaxRating] = max(t[ptMaxRating], uint64(elo))
		mergeMin(&t[ptFirst], date)
		t[ptLast] = max(t[ptLast], date)
	}
	for _, x := range [...]struct {
		name  int
		kind  byte
		posts map[string][]uint64
	}{{nameEvent, kindEventDict, b.events}, {nameSite, kindSiteDict, b.sites}} {
		norm := e.norm[x.name]
		if len(norm) == 0 {
			continue
		}
		x.posts[string(norm)] = append(x.posts[string(norm)], num)
		t := b.tally(dictKey(b.key[:0], x.kind, norm, e.raw[x.name]), len(termOps))
		t[ttGames]++
		mergeMin(&t[ttFirst], date)
		t[ttLast] = max(t[ttLast], date)
	}
	return nil
}

// tally returns the tally values of dictionary key k, with n fields.
func (b *Batch) tally(k []byte, n int) []uint64 {
	t := b.dict[string(k)]
	if t == nil {
		t = make([]uint64, n)
		b.dict[string(k)] = t
	}
	return t
}

// mergeMin sets *x to v when v is known (not 0) and less than *x or *x is
// unknown.
func mergeMin(x *uint64, v uint64) {
	if v != 0 && (*x == 0 || v < *x) {
		*x = v
	}
}

// Records calls fn with each record of the batch, key (without the
// store's 'x') and value, in increasing key order, until fn fails. The
// slices are valid during the call only.
func (b *Batch) Records(fn func(k, v []byte) error) error {
	var k, v []byte
	emitTerms := func(kind byte, posts map[string][]uint64) error {
		for _, norm := range sortedKeys(posts) {
			nums := posts[norm]
			slices.Sort(nums)
			k = binary.BigEndian.AppendUint64(termPrefix(k[:0], kind, []byte(norm)), nums[0])
			v = appendTermList(v[:0], nums)
			if err := fn(k, v); err != nil {
				return err
			}
		}
		return nil
	}
	dict := sortedKeys(b.dict)
	emitDict := func(kind byte) error {
		for _, dk := range dict {
			if dk[0] != kind {
				continue
			}
			t := b.dict[dk]
			ops := termOps
			if kind == kindPlayerDict {
				ops = playerOps
			}
			v = store.AppendTally(v[:0], ops, t)
			if err := fn([]byte(dk), v); err != nil {
				return err
			}
		}
		return nil
	}
	if err := emitTerms(kindEventPost, b.events); err != nil {
		return err
	}
	if err := emitTerms(kindSitePost, b.sites); err != nil {
		return err
	}
	if err := emitDict(kindEventDict); err != nil {
		return err
	}
	slices.SortFunc(b.sums, func(x, y numbered) int { return cmp.Compare(x.num, y.num) })
	for _, s := range b.sums {
		k = summaryKey(k[:0], s.num)
		if err := fn(k, b.sumBuf[s.off:s.end]); err != nil {
			return err
		}
	}
	if err := emitDict(kindPlayerDict); err != nil {
		return err
	}
	for _, pk := range sortedKeys(b.players) {
		ps := b.players[pk]
		slices.SortFunc(ps, func(x, y Posting) int { return cmp.Compare(x.Num, y.Num) })
		k = append(append(k[:0], kindPlayerPost), pk...)
		k = binary.BigEndian.AppendUint64(k, ps[0].Num)
		v = appendPlayerList(v[:0], ps)
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return emitDict(kindSiteDict)
}

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	b.sums, b.sumBuf = b.sums[:0], b.sumBuf[:0]
	clear(b.players)
	clear(b.events)
	clear(b.sites)
	clear(b.dict)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// isTally reports whether index key k is a dictionary record's: a MERGE
// record whose value is a tally.
func isTally(k []byte) bool {
	return len(k) > 0 && (k[0] == kindPlayerDict || k[0] == kindEventDict || k[0] == kindSiteDict)
}

// Put writes index record k -> v (from Batch.Records, or merged) to w:
// a MERGE record for the dictionaries' tallies, a SET for the others.
func Put(w *store.SSTWriter, k, v []byte) error {
	if isTally(k) {
		return w.MergeIndex(k, v)
	}
	return w.SetIndex(k, v)
}
