package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Damage is one problem Check found: damaged data, or data the store lost.
type Damage struct {
	// File is the file the problem is in (an sstable: a damaged block, an
	// unreadable or missing table, a table holding data the store lost);
	// empty for a record or the store as a whole.
	File string
	// Key is the store key of a record that does not decode (nil
	// otherwise).
	Key []byte
	// Err says what is wrong.
	Err error
}

// String describes the damage on one line.
func (d Damage) String() string {
	switch {
	case d.File != "":
		return fmt.Sprintf("%s: %s", d.File, ErrorLine(d.Err))
	case d.Key != nil:
		return fmt.Sprintf("record %q: %s", d.Key, ErrorLine(d.Err))
	}
	return ErrorLine(d.Err)
}

// IsDamage reports whether err comes from damaged data: a block that does
// not match its checksum (Pebble's corruption errors).
func IsDamage(err error) bool { return pebble.IsCorruptionError(err) }

// DamagedFile returns the path of the file whose damage err reports (as
// the store was opened: its directory, then the file's name), or "" when
// err names none.
func DamagedFile(err error) string {
	if info := pebble.ExtractDataCorruptionInfo(err); info != nil && !info.IsRemote {
		return info.Path
	}
	return ""
}

// ErrorLine returns err's message on one line: Pebble's corruption errors
// carry their details on lines of their own.
func ErrorLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasSuffix(l, "carrier>") {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// CheckOptions configure [CheckDir] and [Store.Check].
type CheckOptions struct {
	// Game, if not nil, decodes a game record (package gamecode): Check
	// reports the records it fails on.
	Game func(rec []byte) error
	// Index, if not nil, decodes a game index record (package gamedb;
	// key without the 'x' prefix) and names its kind; Check counts the
	// records by kind and reports those it fails on. Without it, index
	// records are counted as "index" records, and the MERGE ones are
	// only known to be tallies.
	Index func(key, value []byte) (kind string, err error)
	// Report, if not nil, is called with each problem as Check finds it.
	Report func(Damage)
	// FS is the file system CheckDir looks in; nil means the operating
	// system's.
	FS vfs.FS
}

// CheckReport is what Check found.
type CheckReport struct {
	// Dir is the store directory.
	Dir string `json:"store"`
	// OpenError is set when Pebble could not open the store (its error);
	// Files then lists what the directory holds, and the sstables among
	// them are checked block by block, as far as they can be without the
	// store (Tables).
	OpenError string       `json:"open_error,omitempty"`
	Files     []FileReport `json:"files,omitempty"`
	// Meta is the store's metadata record; nil when it cannot be read.
	Meta *Meta `json:"meta,omitempty"`
	// Tables are the store's sstables, as its manifest (or, for a store
	// written before the manifest named every table, a write-ahead log)
	// lists them, by file name.
	Tables []TableReport `json:"tables"`
	// Records counts the records read, by kind ("position", "game", ...).
	Records map[string]int `json:"records"`
	// Leftovers are files that are not part of the store, left by a run
	// that a crash or kill interrupted: safe to delete once no build runs
	// on the store (the next build removes them). Empty while a writer
	// holds the store's lock (Writer): its files are InProgress.
	Leftovers []FileReport `json:"leftovers"`
	// Writer is the writer (a build, merge, reindex or compaction) that
	// held the store's lock while Check ran; nil when none did (or when
	// the system cannot tell: see [WriterOf]).
	Writer *Writer `json:"writer,omitempty"`
	// InProgress are the files of Writer's work that are not part of the
	// store yet (the tables and scratch files of what it has not
	// committed): not leftovers, not to be deleted.
	InProgress []FileReport `json:"in_progress,omitempty"`
	// Notes say what is worth knowing and is not damage.
	Notes []string `json:"notes,omitempty"`
	// Damaged counts the problems found: damaged blocks, unreadable or
	// missing tables, records that do not decode, tables holding data the
	// store lost, a Meta that does not count the games the store holds, a
	// store that does not open.
	Damaged int `json:"damaged"`
}

// TableReport is Check's account of one sstable of the store.
type TableReport struct {
	File string `json:"file"`
	// Level is the table's level in the store (0 to 6); -1 for a table
	// named only by a write-ahead log (see [CheckReport].Notes), or when
	// the store does not open.
	Level int `json:"level"`
	// Bytes is the table's size on disk (as du counts it).
	Bytes int64 `json:"bytes"`
	// Blocks is the number of its blocks read, Damaged the number of
	// those that do not match their checksum.
	Blocks  int `json:"blocks"`
	Damaged int `json:"damaged_blocks"`
	// Missing: the store names the table, its file is gone. Unreadable:
	// it cannot be read at all (its footer, properties or index are
	// damaged, or it is cut short).
	Missing    bool `json:"missing,omitempty"`
	Unreadable bool `json:"unreadable,omitempty"`
}

// FileReport names a file that is not part of the store, with its size on
// disk and why it is there.
type FileReport struct {
	File  string `json:"file"`
	Bytes int64  `json:"bytes"`
	Why   string `json:"why"`
}

// CheckDir verifies the store in dir, read-only, beside a running build if
// need be. It checks the store's own tables (those its manifest names:
// every block against its checksum), then every record (see
// [Store.Check]); it finds the tables the manifest names whose files are
// gone, and tells the files in the directory that are not part of the
// store: leftovers of an interrupted run (safe to delete), or tables holding
// records the store lacks (data it lost with a write-ahead log or
// manifest). When Pebble cannot open the store at all, the report says
// why, which files the directory holds, and whether its sstables are
// sound.
//
// It returns an error wrapping [ErrNotExist], [ErrNotStore] or
// [ErrIncompatible] when dir holds no store, not a chessbook store or one
// of another format version, and an error when it cannot go on (ctx is
// done, the directory cannot be listed); problems found are in the report
// (Damaged) and passed to o.Report.
func CheckDir(ctx context.Context, dir string, o CheckOptions) (*CheckReport, error) {
	fsys := o.FS
	if fsys == nil {
		fsys = vfs.Default
	}
	c := &checker{o: o, fs: fsys, dir: dir, rep: newReport(dir)}
	c.lookForWriter()
	s, metaErr, err := openForCheck(dir, fsys)
	switch {
	case errors.Is(err, ErrNotExist), errors.Is(err, ErrNotStore), errors.Is(err, ErrIncompatible):
		return nil, fmt.Errorf("check store %q: %w", dir, err)
	case err != nil:
		if err := c.unopened(ctx, err); err != nil {
			return c.rep, fmt.Errorf("check store %q: %w", dir, err)
		}
		return c.rep, nil
	}
	defer s.Close()
	c.s = s
	if err := c.run(ctx, metaErr); err != nil {
		return c.rep, fmt.Errorf("check store %q: %w", dir, err)
	}
	return c.rep, nil
}

// Check verifies the open store s as [CheckDir] does (o.FS is not used):
// every block of every table of the store against its checksum, then
// every record, whose key must have its kind's form and whose value must
// decode (statistics, histories, single references, game numbers, the
// game order, the Meta; game records are handed to o.Game); the number of
// game records must be the number of games the Meta counts. Damaged
// blocks are each reported, and the record pass goes on after them.
func (s *Store) Check(ctx context.Context, o CheckOptions) (*CheckReport, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	c := &checker{o: o, fs: s.fs, dir: s.dir, rep: newReport(s.dir), s: s}
	if err := c.run(ctx, nil); err != nil {
		return c.rep, fmt.Errorf("check store %q: %w", s.dir, err)
	}
	return c.rep, nil
}

func newReport(dir string) *CheckReport {
	return &CheckReport{Dir: dir, Tables: []TableReport{}, Records: map[string]int{}, Leftovers: []FileReport{}}
}

// checker is one run of Check.
type checker struct {
	o   CheckOptions
	fs  vfs.FS
	dir string
	s   *Store // nil when the store does not open
	rep *CheckReport
	// unreadable are the ends (last keys, or keys past them) of the key
	// ranges the record pass cannot read: damaged data blocks, missing
	// or unreadable tables.
	unreadable [][]byte
}

// lookForWriter sets the report's Writer when a writer holds the store's
// lock (only on the operating system's file system: another one has no
// lock a process can hold).
func (c *checker) lookForWriter() {
	if c.rep.Writer != nil || c.fs != vfs.Default {
		return
	}
	if w, err := WriterOf(c.dir); err == nil && w != nil {
		c.rep.Writer = w
	}
}

// problem counts and reports d.
func (c *checker) problem(d Damage) {
	c.rep.Damaged++
	if c.o.Report != nil {
		c.o.Report(d)
	}
}

// run checks the open store c.s; metaErr is why its Meta record could not
// be read.
func (c *checker) run(ctx context.Context, metaErr error) error {
	s := c.s
	mark, _ := manifestMark(c.fs, c.dir)
	if metaErr != nil {
		c.problem(Damage{Err: fmt.Errorf("the store's metadata record cannot be read: %w", metaErr)})
	} else {
		m := s.Meta()
		c.rep.Meta = &m
	}
	tables, err := c.storeTables(s.db)
	if err != nil {
		return err
	}
	logTables, err := walTables(c.fs, c.dir)
	if err != nil {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("the write-ahead logs could not be read: %v", ErrorLine(err)))
	}
	named := map[string]bool{}
	for _, t := range tables {
		named[t.name] = true
	}
	var onlyLogged []string
	for _, name := range slices.Sorted(maps.Keys(logTables)) {
		if named[name] {
			continue
		}
		if _, err := c.fs.Stat(c.fs.PathJoin(c.dir, name)); err != nil {
			continue // flushed and compacted away since: the log is obsolete
		}
		named[name] = true
		onlyLogged = append(onlyLogged, name)
		tables = append(tables, storeTable{name: name, level: -1})
	}
	if len(onlyLogged) > 0 {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf(
			"%d tables (%s) are named only by a write-ahead log, as stores written before the manifest named every table keep them: "+
				"keep the .log files; the next bookbuild on the store (or any writable open) writes them into the manifest",
			len(onlyLogged), strings.Join(onlyLogged, ", ")))
	}

	for _, t := range tables {
		if err := ctx.Err(); err != nil {
			return err
		}
		c.checkStoreTable(ctx, t, mark)
	}
	if err := c.records(ctx); err != nil {
		return err
	}
	if m := c.rep.Meta; m != nil {
		if got := uint64(c.rep.Records["game"]); got != m.Games {
			why := ""
			if len(c.unreadable) > 0 {
				why = " (some may be in the damaged or missing tables)"
			}
			c.problem(Damage{Err: fmt.Errorf("the store's metadata counts %d games, the store holds %d game records%s: "+
				"the store lost games, or its metadata", m.Games, got, why)})
		}
	}
	return c.unreferenced(ctx, named, mark)
}

// storeTable is one table of the store's current version.
type storeTable struct {
	name    string
	level   int
	size    uint64 // bytes, as the manifest says; 0 when not known
	largest []byte // its last user key; nil when not known
}

// storeTables lists the tables of db's current version, by level.
func (c *checker) storeTables(db *pebble.DB) ([]storeTable, error) {
	levels, err := db.SSTables()
	if err != nil {
		return nil, fmt.Errorf("listing sstables: %w", err)
	}
	var ts []storeTable
	seen := map[string]bool{}
	for level, tables := range levels {
		for _, t := range tables {
			name := tableName(uint64(t.BackingSSTNum))
			if seen[name] {
				continue // a virtual table's backing, listed once
			}
			seen[name] = true
			ts = append(ts, storeTable{name: name, level: level, largest: slices.Clone(t.Largest.UserKey)})
			if !t.Virtual {
				ts[len(ts)-1].size = t.Size
			}
		}
	}
	return ts, nil
}

// tableName is the file name of sstable number n.
func tableName(n uint64) string { return fmt.Sprintf("%06d.sst", n) }

// checkStoreTable checks every block of the store's table t; mark is the
// store's manifestMark when the check started.
func (c *checker) checkStoreTable(ctx context.Context, t storeTable, mark string) {
	path := c.fs.PathJoin(c.dir, t.name)
	tr := TableReport{File: t.name, Level: t.level}
	whole := t.largest
	if whole == nil {
		whole = []byte{0xff} // a table named by a log: bounds unknown
	}
	fi, err := c.fs.Stat(path)
	if err != nil {
		if now, merr := manifestMark(c.fs, c.dir); merr == nil && now != mark {
			// A writer compacted it away meanwhile: not part of the
			// store any more.
			return
		}
		tr.Missing = true
		c.rep.Tables = append(c.rep.Tables, tr)
		c.unreadable = append(c.unreadable, whole)
		if !errors.Is(err, os.ErrNotExist) {
			c.problem(Damage{File: t.name, Err: err})
			return
		}
		c.problem(Damage{File: t.name, Err: errors.New("missing: the store's manifest names this table, its file is gone (the store lost its data)")})
		return
	}
	tr.Bytes = diskSize(fi)
	if t.size > 0 && uint64(fi.Size()) != t.size {
		c.problem(Damage{File: t.name, Err: fmt.Errorf("%d bytes, the store's manifest says %d: cut short or overwritten", fi.Size(), t.size)})
	}
	res := checkBlocks(ctx, c.fs, path, c.s.popts, func(err error) {
		c.problem(Damage{File: t.name, Err: err})
	})
	tr.Blocks, tr.Damaged, tr.Unreadable = res.blocks, res.damaged, res.err != nil
	if res.err != nil {
		c.problem(Damage{File: t.name, Err: fmt.Errorf("unreadable table: %w", res.err)})
		c.unreadable = append(c.unreadable, whole)
	}
	c.unreadable = append(c.unreadable, res.damagedEnds...)
	if res.damaged > 0 && res.damagedEnds == nil {
		// The damaged blocks' bounds are unknown: the whole table.
		c.unreadable = append(c.unreadable, whole)
	}
	c.rep.Tables = append(c.rep.Tables, tr)
}

// records reads every record of the store through its merged view,
// checking each (checkRecord), and counts them by kind. A damaged block
// stops an iterator where it meets it: the pass goes on after the block
// (the unreadable ranges the table pass found), or, for damage it did not
// find, after the kind of record it is in.
func (c *checker) records(ctx context.Context) error {
	slices.SortFunc(c.unreadable, bytes.Compare)
	it, err := c.s.db.NewIter(nil)
	if err != nil {
		return err
	}
	defer func() { _ = it.Close() }()
	// seek positions a new iterator at key: a seek after an error may
	// start from where the old one stopped (Pebble's seek-using-next),
	// and meet the same damage again.
	var seekErr error
	seek := func(key []byte) bool {
		_ = it.Close()
		if it, seekErr = c.s.db.NewIter(nil); seekErr != nil {
			return false
		}
		return it.SeekGE(key)
	}
	var last []byte // the last key read or skipped to, nil at the start
	n := 0
	lastPrefix, skipped, lastErr := byte(0), -1, ""
	for ok := it.First(); ; {
		if !ok {
			err := it.Error()
			if err == nil {
				return nil
			}
			// A damaged or missing block: skip past it.
			if end := c.nextUnreadable(last); end != nil {
				last = end
				if ok = seek(append(slices.Clone(end), 0)); seekErr != nil {
					return seekErr
				}
				continue
			}
			// Damage the table pass did not find: go on with the next
			// kind of record (once more, if the seek meets the same
			// damage).
			if err.Error() != lastErr {
				c.problem(Damage{Key: slices.Clone(last), Err: err})
				lastErr = err.Error()
			}
			next := int(lastPrefix) + 1
			if next > 0xff || next <= skipped {
				return nil
			}
			skipped = next
			last = []byte{byte(next)}
			if ok = seek(last); seekErr != nil {
				return seekErr
			}
			continue
		}
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		k := it.Key()
		last = append(last[:0], k...)
		if len(k) > 0 {
			lastPrefix = k[0]
		}
		v, err := it.ValueAndErr()
		kind := "unknown"
		if err == nil {
			kind, err = checkRecord(k, v, &c.o)
		}
		c.rep.Records[kind]++
		if err != nil {
			c.problem(Damage{Key: slices.Clone(k), Err: err})
		}
		ok = it.Next()
	}
}

// nextUnreadable returns the end of the first unreadable range that ends
// after key last (any, when last is nil), or nil.
func (c *checker) nextUnreadable(last []byte) []byte {
	i, _ := slices.BinarySearchFunc(c.unreadable, last, func(end, k []byte) int {
		if k != nil && bytes.Compare(end, k) <= 0 {
			return -1
		}
		return 1
	})
	if i == len(c.unreadable) {
		return nil
	}
	return c.unreadable[i]
}

// checkRecord decodes one record, as its kind's entry in the registry
// (kinds.go) checks it, and returns the kind it reports it as.
func checkRecord(key, v []byte, o *CheckOptions) (string, error) {
	if len(key) == 0 {
		return "unknown", errors.New("empty key")
	}
	k := kindOfKey(key)
	if k == nil {
		return "unknown", fmt.Errorf("unknown kind of record %q", key[0])
	}
	name, err := k.check(key, v, o)
	if name == "" {
		name = k.Name
	}
	return name, err
}
