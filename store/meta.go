package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/chessbook/chessbook/keys"
)

// FormatVersion is the version of the store's format: the key schema, the
// encoding of entries, the merge operator and the rules by which the
// builder counts games (what its numbers mean). A store written with another
// version is refused with an [*IncompatibleError] that asks for a rebuild.
//
// Version 3 changed the counting of [CountGame] stores: a game counts once
// per position, at its first visit, under the move it played then (version
// 2 counted it once per (position, move), so a game that came back to a
// position and played another move counted under both). The encoding is
// unchanged, but a version 2 store's numbers mean something else, and
// adding version 3 games to it would mix both rules.
//
// Version 4 keeps the positions that a single game reached once as single
// references ('q' records) instead of statistics records: readers that
// look only at 'p' records would miss them.
//
// Version 5 adds the histories ('h' records: a position's games by month,
// move, speed and rating band, for query-time filters); a version 4 store
// has none, so filtered queries on it would count nothing.
//
// Version 6 keeps single references under the position's keys.Hash (a
// Zobrist hash the builder computes without keying the position) instead
// of a hash of its key.
//
// Version 7 ranks top games by the mean rating of rated pairs only: a game
// with an unrated player ranks 0 (it ranked by the one known rating), so
// that games against unrated opponents no longer lead the top games.
//
// Version 8 lets game records use gamecode's Indexed coding (record
// version 3, the builder's default), which version 7 readers cannot
// decode. Nothing else changed: a version 7 store ([MinFormatVersion]) is
// read as it is, and becomes version 8 with the first commit that adds to
// it, so that older readers then refuse it instead of failing on its new
// records.
//
// Version 9 adds the game index ('x' records: see the package
// documentation and package gamedb), some of them MERGE records that the
// merge operator of version 8 cannot merge. A version 7 or 8 store is read
// as it is (it has no game index: [Meta].GameIndex is 0) and becomes
// version 9 with the first commit that adds to it; the builder indexes
// its stored games first (gamedb.Reindex).
const FormatVersion = 9

// MinFormatVersion is the oldest format version this package reads (and
// adds to, upgrading the store to [FormatVersion]).
const MinFormatVersion = 7

// CountMode says what one game adds to a position it reaches more than
// once (a repetition, or a transposition back into it).
type CountMode string

// The count modes.
const (
	// CountOccurrence counts every time a position is reached: a game that
	// repeats a position counts once per visit, under the move played at
	// each visit (as PolyGlot's make-book does).
	CountOccurrence CountMode = "occurrence"
	// CountGame counts a game once in a position, however often it reaches
	// it: at its first visit, under the move it played then; later visits
	// add nothing (as the lichess opening explorer does). A position's total
	// is the number of games that played on from it.
	CountGame CountMode = "game"
)

// Valid reports whether m is one of the count modes.
func (m CountMode) Valid() bool { return m == CountOccurrence || m == CountGame }

// Meta is the store's metadata record: its format, the build options that
// change what its numbers mean, and counters. It is stored as JSON under the
// meta key.
type Meta struct {
	// FormatVersion is the store's format version (see [FormatVersion]).
	FormatVersion int `json:"format_version"`

	// KeyFormat is the version of the position key format of the store's
	// keys (package keys: keys.FormatVersion). A store written before the
	// field existed reads as the current version; a store naming a newer
	// one is refused.
	KeyFormat int `json:"key_format,omitempty"`

	// Variant is the chess variant of the store's games and positions:
	// [VariantStandard]. A store written before the field existed reads as
	// standard; a store naming a variant this build does not know is
	// refused, and stores of two variants are not merged. In a Meta given
	// to Open, "" means standard.
	Variant string `json:"variant,omitempty"`

	// MaxPly is the number of plies from the start of each game that were
	// recorded; 0 means all of them.
	MaxPly int `json:"max_ply"`

	// CountMode is how positions reached twice in a game were counted.
	CountMode CountMode `json:"count_mode"`

	// KeepDuplicates is set when games with the same content were each
	// stored and counted (as PolyGlot does), rather than once.
	KeepDuplicates bool `json:"keep_duplicates,omitempty"`

	// Created is when the store was created, and Updated when data was last
	// written to it.
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`

	// Games is the number of games ingested, as reported by the writers
	// ([SSTWriter.AddGames]), committed atomically with
	// their data.
	Games uint64 `json:"games"`

	// NextGame is the lowest game number no ingestion has recorded (see
	// [SSTWriter.SetGameNumber]): a builder numbers its games from there.
	// 0: no game was numbered.
	NextGame uint64 `json:"next_game,omitempty"`

	// GameIndex is the version of the game index (package gamedb) that
	// the store's 'x' records hold for every stored game; 0: the store
	// has no complete game index (it was written before format version
	// 9, or by a writer that does not index its games), and queries by
	// player, event or tags refuse it until it is reindexed. It is set
	// when the store is created (from the Meta given to Open) and by the
	// ingestion that completes an index ([SSTWriter.SetGameIndex]).
	GameIndex int `json:"game_index,omitempty"`

	// Runs is the number of ingestions since the store was created or
	// last compacted ([Store.Compact]): each is a sorted run spanning the
	// whole key range that a lookup may have to look into, besides the
	// compacted one. The store never compacts on its own; builders compact
	// when Runs grows.
	Runs int `json:"runs,omitempty"`
}

// KeyFormat is the version of the position key format (package keys) this
// build writes and the newest it reads: [Meta].KeyFormat of a new store.
const KeyFormat = keys.FormatVersion

// VariantStandard is the Variant of a store of standard chess, the only
// variant this build reads and writes. (Chess960 will be the next: its
// positions' castling rights need a key format that codes the castling
// rooks, see keys/FORMAT.md.)
const VariantStandard = "standard"

// knownVariant reports whether this build reads and writes stores of
// variant v.
func knownVariant(v string) bool { return v == VariantStandard }

// withDefaults returns m with the fields a store written before they
// existed lacks set to what such a store holds: the current key format,
// standard chess.
func (m Meta) withDefaults() Meta {
	if m.KeyFormat == 0 {
		m.KeyFormat = keys.FormatVersion
	}
	if m.Variant == "" {
		m.Variant = VariantStandard
	}
	return m
}

// SameVariant returns an error naming both stores' values unless m and o
// (the Meta of the stores in directories dir and odir) hold the same chess
// variant in the same key format: a merge must not mix them.
func (m *Meta) SameVariant(dir string, o *Meta, odir string) error {
	a, b := m.withDefaults(), o.withDefaults()
	if a.Variant != b.Variant || a.KeyFormat != b.KeyFormat {
		return fmt.Errorf("%w: %s holds variant %q in key format %d, %s variant %q in key format %d",
			ErrIncompatible, dir, a.Variant, a.KeyFormat, odir, b.Variant, b.KeyFormat)
	}
	return nil
}

// checkBuildOptions validates the build options of a Meta given to Open.
func (m *Meta) checkBuildOptions() error {
	if m.Variant != "" && !knownVariant(m.Variant) {
		return fmt.Errorf("unknown variant %q (this build knows %q)", m.Variant, VariantStandard)
	}
	if m.MaxPly < 0 {
		return fmt.Errorf("invalid max-ply %d", m.MaxPly)
	}
	if !m.CountMode.Valid() {
		return fmt.Errorf("invalid count mode %q (want %q or %q)", m.CountMode, CountOccurrence, CountGame)
	}
	return nil
}

// checkCompatible returns an *IncompatibleError if the stored meta has
// another format version, or (when want is not nil) other build options.
func (m *Meta) checkCompatible(dir string, want *Meta) error {
	if m.FormatVersion < MinFormatVersion || m.FormatVersion > FormatVersion {
		return &IncompatibleError{Dir: dir, Field: "format version",
			Stored: strconv.Itoa(m.FormatVersion), Requested: strconv.Itoa(FormatVersion), Hint: rebuildHint}
	}
	if m.KeyFormat < 1 || m.KeyFormat > keys.FormatVersion {
		return &IncompatibleError{Dir: dir, Field: "key format",
			Stored: strconv.Itoa(m.KeyFormat), Requested: strconv.Itoa(keys.FormatVersion), Hint: newerHint}
	}
	if !knownVariant(m.Variant) {
		return &IncompatibleError{Dir: dir, Field: "variant",
			Stored: strconv.Quote(m.Variant), Requested: strconv.Quote(VariantStandard), Hint: newerHint}
	}
	if want == nil {
		return nil
	}
	if w := want.withDefaults(); m.Variant != w.Variant {
		return &IncompatibleError{Dir: dir, Field: "variant",
			Stored: strconv.Quote(m.Variant), Requested: strconv.Quote(w.Variant)}
	}
	if m.MaxPly != want.MaxPly {
		return &IncompatibleError{Dir: dir, Field: "max-ply",
			Stored: plyString(m.MaxPly), Requested: plyString(want.MaxPly)}
	}
	if m.CountMode != want.CountMode {
		return &IncompatibleError{Dir: dir, Field: "count mode",
			Stored: strconv.Quote(string(m.CountMode)), Requested: strconv.Quote(string(want.CountMode))}
	}
	if m.KeepDuplicates != want.KeepDuplicates {
		return &IncompatibleError{Dir: dir, Field: "keep-duplicates",
			Stored: strconv.FormatBool(m.KeepDuplicates), Requested: strconv.FormatBool(want.KeepDuplicates)}
	}
	return nil
}

// newerHint is what to do with a store whose key format or variant this
// build does not know.
const newerHint = "a newer chessbook wrote it: read it with that version"

// rebuildHint is what to do with a store another version of chessbook
// wrote.
const rebuildHint = "another version of chessbook wrote it: rebuild the store from its PGN files with this bookbuild, into a new directory"

func plyString(n int) string {
	if n == 0 {
		return "0 (all plies)"
	}
	return strconv.Itoa(n)
}

func (m *Meta) marshal() ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encoding store meta: %w", err)
	}
	return b, nil
}

// unmarshalMeta decodes a Meta record; the fields a store written before
// them lacks read as their defaults (see withDefaults).
func unmarshalMeta(b []byte) (Meta, error) {
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return Meta{}, err
	}
	return m.withDefaults(), nil
}

// timeNow returns the current time for Meta, in UTC, to the second.
func timeNow() time.Time { return time.Now().UTC().Truncate(time.Second) }
