package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
)

// This file is the registry of the store's record kinds: every kind once,
// with its prefix, its key layout, how it is written and merged, how
// check verifies it, and how a merge of stores copies it. The merge
// operator, check, the SSTWriter's tables, the package documentation's
// key schema (a test) and the merge of stores (package book's, which
// fails on a kind it does not know) all walk it: a new kind is added
// here, and every one of them learns of it or fails.

// Prefix is the first byte of a store key: it names the record's kind
// (see [Kinds]). No other package spells a prefix as a byte: they use
// these constants (a test in this package reads every other Go file of
// the repository for prefix literals).
type Prefix byte

// The record kinds' prefixes.
const (
	KindEnPassant  Prefix = 'e' // en-passant side records (Polyglot export)
	KindGame       Prefix = 'g' // game records
	KindHistory    Prefix = 'h' // position histories
	KindMeta       Prefix = 'm' // the Meta record
	KindGameNumber Prefix = 'n' // game numbers
	KindGameOrder  Prefix = 'o' // the game order index
	KindPosition   Prefix = 'p' // statistics records
	KindSingles    Prefix = 'q' // buckets of single references
	KindIndex      Prefix = 'x' // the game index (package gamedb)
)

// Reserved are the prefixes kept for kinds to come, with what for: no
// record has them, and no kind may take them without saying so here.
var reserved = map[Prefix]string{
	's': "sources (the inputs a store was built from)",
}

// Write says how a kind's records are written.
type Write uint8

const (
	// Set records are written once, as they are (a SET); never merged.
	Set Write = iota + 1
	// Merge records are MERGE records: the operands of a key add up
	// through the kind's Operator, whatever their order.
	Merge
	// SetAndMerge kinds hold both: SETs and MERGE records under other keys
	// (the game index: posting lists and summaries are SETs, the name
	// dictionaries' tallies MERGE records).
	SetAndMerge
)

// Operator is the merge operator of a kind's MERGE records (the branch of
// the store's one Pebble merge operator its keys take).
type Operator uint8

const (
	// NoOperator: the kind has no MERGE records.
	NoOperator Operator = iota
	// EntryOperator merges encoded stats.Entry values
	// (stats.MergeEncoded): sums add up, first dates and stamps take the
	// minimum, last dates the maximum.
	EntryOperator
	// HistoryOperator merges encoded stats.History values
	// (stats.MergeHistory), adding up the rows of each (period, move,
	// cell).
	HistoryOperator
	// SinglesOperator merges buckets of single references by their union.
	SinglesOperator
	// TallyOperator merges tallies field by field ([MergeTally]).
	TallyOperator
)

// Holds says what in a kind's keys or values names games or depends on
// where a store's games were read: what a merge of stores must renumber or
// shift, and what two stores of the same games may hold differently.
type Holds uint8

const (
	// HoldsGameNumbers: game numbers (given out by each store from 1:
	// a merge moves a store's past the earlier stores').
	HoldsGameNumbers Holds = 1 << iota
	// HoldsStamps: first-seen stamps (-count occurrence stores: a merge
	// moves a store's past the earlier stores' inputs, unless
	// KeepStamps).
	HoldsStamps
	// HoldsGameIDs: game ids (the same in every store of the game).
	HoldsGameIDs
)

// Copy says how a merge of stores writes a kind's records.
type Copy uint8

const (
	// CopyAdd: the sources' records of a key are merged through the
	// kind's operator (numbers and stamps moved first, see Holds).
	CopyAdd Copy = iota + 1
	// CopyUnion: the sources' records are united; a key in two sources
	// is one record (the game order index), or an error (a game, a game
	// number: stores that share games are rebuilt first).
	CopyUnion
	// CopyRebuilt: the merge writes the record anew (the Meta, counting
	// the merged store's games).
	CopyRebuilt
)

// Table is the sstable of an SSTWriter a kind's records go to: the tables
// of one ingestion must not overlap, so each holds a range of kinds, in
// prefix order.
type Table uint8

const (
	// DataTable holds the game numbers, the game order, the statistics
	// records, the single references and the game index.
	DataTable Table = iota + 1
	// GamesTable holds the en-passant side records, the games and the
	// histories.
	GamesTable
	// MetaTable holds the Meta record alone (written at ingestion).
	MetaTable
)

// Kind is one kind of record of the store: its entry in the registry.
type Kind struct {
	Prefix Prefix
	// Name is what check reports the records as ("position", ...).
	Name string
	// Key is the key's layout after the prefix, Value the value's.
	Key, Value string
	Write      Write
	Operator   Operator
	Table      Table
	Holds      Holds
	// Copy is how a merge of stores writes the kind, and MergeNote says
	// how in words (what is moved, what is merged).
	Copy      Copy
	MergeNote string
	// Check is what check verifies of each record.
	Check string
	// NoDigest, when not empty, says why the stores' digest (package
	// internal/storetest) does not compare the kind between stores of the
	// same games; a kind with neither a digest nor a reason fails its
	// test.
	NoDigest string

	// check decodes one record (key with its prefix) and returns the
	// kind it reports it as (Name, unless the index callback names one).
	check func(key, v []byte, o *CheckOptions) (string, error)
}

// Has reports whether k holds h.
func (k Kind) Has(h Holds) bool { return k.Holds&h != 0 }

// kinds is the registry, in prefix order.
var kinds = []Kind{
	{
		Prefix: KindEnPassant, Name: "en-passant",
		Key:   "file (1 byte, 0..7) + position key",
		Value: "stats.Entry, encoded", Write: Merge, Operator: EntryOperator, Table: GamesTable,
		Holds: HoldsStamps | HoldsGameIDs, Copy: CopyAdd,
		MergeNote: "added up through the operator, first-seen stamps moved",
		Check:     "file 0..7, a position key that decodes, a valid encoded entry",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			if len(key) < 3 || key[1] > 7 {
				return "", errors.New("bad en-passant key")
			}
			if err := checkPositionKey(key[2:]); err != nil {
				return "", err
			}
			return "", stats.ValidateEncoded(v)
		},
	},
	{
		Prefix: KindGame, Name: "game",
		Key:   "id (8 bytes, big-endian)",
		Value: "a game record (package gamecode)", Write: Set, Table: GamesTable,
		Holds: HoldsGameIDs, Copy: CopyUnion,
		MergeNote: "united by id (a store sharing games with an earlier one is rebuilt first)",
		Check:     "an 8-byte id; the record decodes (CheckOptions.Game)",
		check: func(key, v []byte, o *CheckOptions) (string, error) {
			if len(key) != 9 {
				return "", errors.New("bad game key")
			}
			if o.Game != nil {
				return "", o.Game(v)
			}
			return "", nil
		},
	},
	{
		Prefix: KindHistory, Name: "history",
		Key:   "position key",
		Value: "stats.History, encoded", Write: Merge, Operator: HistoryOperator, Table: GamesTable,
		Copy:      CopyAdd,
		MergeNote: "added up through the operator",
		Check:     "a position key that decodes, a history that decodes",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			if err := checkPositionKey(key[1:]); err != nil {
				return "", err
			}
			_, err := stats.DecodeHistory(nil, v)
			return "", err
		},
	},
	{
		Prefix: KindMeta, Name: "meta",
		Key:   "(none: the key is the prefix)",
		Value: "Meta, JSON", Write: Set, Table: MetaTable,
		Holds: HoldsGameNumbers, Copy: CopyRebuilt,
		MergeNote: "written anew: the merged store's options and games (NextGame past the last number)",
		Check:     "the one key, JSON that decodes; its Games equal the game records",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			var m Meta
			if string(key) != metaKey {
				return "", errors.New("bad meta key")
			}
			return "", json.Unmarshal(v, &m)
		},
	},
	{
		Prefix: KindGameNumber, Name: "game number",
		Key:   "number (8 bytes, big-endian)",
		Value: "game id (8 bytes, big-endian) + first-seen stamp (uvarint, absent when 0)", Write: Set, Table: DataTable,
		Holds: HoldsGameNumbers | HoldsStamps | HoldsGameIDs, Copy: CopyUnion,
		MergeNote: "numbers moved past the earlier stores', stamps moved",
		Check:     "an 8-byte number, an 8-byte id, a uvarint stamp",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			if len(key) != 9 || len(v) < 8 {
				return "", errors.New("bad game number record")
			}
			if len(v) > 8 {
				if _, n := binary.Uvarint(v[8:]); n != len(v)-8 {
					return "", errors.New("bad first-seen stamp")
				}
			}
			return "", nil
		},
	},
	{
		Prefix: KindGameOrder, Name: "game order",
		Key:   "stamp (8 bytes, big-endian) + id (8 bytes, big-endian)",
		Value: "empty", Write: Set, Table: DataTable,
		Holds: HoldsStamps | HoldsGameIDs, Copy: CopyUnion,
		MergeNote: "united, stamps moved",
		Check:     "a 16-byte key, an empty value",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			if len(key) != 17 || len(v) != 0 {
				return "", errors.New("bad game order record")
			}
			return "", nil
		},
	},
	{
		Prefix: KindPosition, Name: "position",
		Key:   "position key",
		Value: "stats.Entry, encoded", Write: Merge, Operator: EntryOperator, Table: DataTable,
		Holds: HoldsStamps | HoldsGameIDs, Copy: CopyAdd,
		MergeNote: "added up through the operator, first-seen stamps moved",
		Check:     "a position key that decodes, a valid encoded entry",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			if err := checkPositionKey(key[1:]); err != nil {
				return "", err
			}
			return "", stats.ValidateEncoded(v)
		},
	},
	{
		Prefix: KindSingles, Name: "single references",
		Key:   "bucket (3 bytes, big-endian: the high 18 bits of a SingleHash)",
		Value: "single references, encoded", Write: Merge, Operator: SinglesOperator, Table: DataTable,
		Holds: HoldsGameNumbers, Copy: CopyAdd,
		MergeNote: "united through the operator, game numbers moved",
		Check:     "a 3-byte bucket, references that decode in order",
		check: func(key, v []byte, _ *CheckOptions) (string, error) {
			if len(key) != 4 {
				return "", errors.New("bad single references key")
			}
			return "", validateSingles(v)
		},
	},
	{
		Prefix: KindIndex, Name: "index",
		Key:   "index key (package gamedb)",
		Value: "summaries, posting lists (SETs), name dictionaries (MERGE: tallies)", Write: SetAndMerge,
		Operator: TallyOperator, Table: DataTable,
		Holds: HoldsGameNumbers, Copy: CopyAdd,
		MergeNote: "game numbers moved (gamedb.RenumberKey), tallies merged through the operator",
		Check:     "what CheckOptions.Index says (package gamedb), which names the record's kind",
		check: func(key, v []byte, o *CheckOptions) (string, error) {
			if o.Index != nil {
				return o.Index(key[1:], v)
			}
			return "", nil
		},
	},
}

// byPrefix is the registry by prefix (nil: no such kind); built once,
// never changed.
var byPrefix = func() (t [256]*Kind) {
	for i := range kinds {
		t[kinds[i].Prefix] = &kinds[i]
	}
	return t
}()

// Kinds returns the registry of record kinds, in prefix order (a copy).
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	copy(out, kinds)
	return out
}

// Kind returns the registry's entry of p; ok is false when p names no kind.
func (p Prefix) Kind() (k Kind, ok bool) {
	if kp := byPrefix[p]; kp != nil {
		return *kp, true
	}
	return Kind{}, false
}

// String returns the kind's name, or the prefix quoted when it names none.
func (p Prefix) String() string {
	if kp := byPrefix[p]; kp != nil {
		return kp.Name
	}
	return fmt.Sprintf("unknown kind %q", byte(p))
}

// Reserved returns the prefixes reserved for kinds to come, with what for.
func Reserved() map[Prefix]string {
	out := make(map[Prefix]string, len(reserved))
	for p, why := range reserved {
		out[p] = why
	}
	return out
}

// kindOfKey returns the kind of the record with store key k, or nil.
func kindOfKey(k []byte) *Kind {
	if len(k) == 0 {
		return nil
	}
	return byPrefix[k[0]]
}

// checkPositionKey checks that pos is a position key that decodes.
func checkPositionKey(pos []byte) error {
	if _, err := keys.Decode(pos); err != nil {
		return fmt.Errorf("bad position key: %w", err)
	}
	return nil
}

// kindName names the kind of the record with store key k.
func kindName(k []byte) string {
	if len(k) == 0 {
		return "empty key"
	}
	return Prefix(k[0]).String()
}
