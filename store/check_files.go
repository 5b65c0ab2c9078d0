package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/batchrepr"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
	"github.com/cockroachdb/pebble/v2/sstable/colblk"
	"github.com/cockroachdb/pebble/v2/sstable/rowblk"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/wal"
)

// What Check does with the files of a store directory: the blocks of an
// sstable, the tables the write-ahead logs name, the files the store does
// not reference, the directory of a store that does not open.

// blockResult is what checkBlocks found in one sstable.
type blockResult struct {
	blocks, damaged int
	// damagedEnds are the last keys (index separators) of the damaged
	// data blocks, when the index tells them.
	damagedEnds [][]byte
	// err is set when the table cannot be read at all.
	err error
}

// checkBlocks reads every block of the sstable at path and checks it
// against its checksum, calling report with each damaged one.
func checkBlocks(ctx context.Context, fsys vfs.FS, path string, popts *pebble.Options, report func(error)) (res blockResult) {
	f, err := fsys.Open(path)
	if err != nil {
		res.err = err
		return res
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		_ = f.Close()
		res.err = err
		return res
	}
	r, err := sstable.NewReader(ctx, readable, popts.MakeReaderOptions())
	if err != nil {
		_ = readable.Close()
		res.err = err
		return res
	}
	defer r.Close()
	l, err := r.Layout()
	if err != nil {
		res.err = fmt.Errorf("its index is damaged: %w", err)
		return res
	}
	type blk struct {
		h    block.Handle
		kind string
		data int // its number among the data blocks, or -1
	}
	var blocks []blk
	add := func(h block.Handle, kind string) {
		if h.Length > 0 {
			blocks = append(blocks, blk{h, kind, -1})
		}
	}
	for i, h := range l.Data {
		blocks = append(blocks, blk{h.Handle, "data", i})
	}
	for _, h := range l.Index {
		add(h, "index")
	}
	add(l.TopIndex, "top-level index")
	for _, h := range l.Filter {
		add(h.Handle, "filter")
	}
	add(l.RangeDel, "range-deletion")
	add(l.RangeKey, "range-key")
	for _, h := range l.ValueBlock {
		add(h, "value")
	}
	add(l.ValueIndex, "value index")
	add(l.Properties, "properties")
	add(l.MetaIndex, "meta-index")
	add(l.BlobReferenceIndex, "blob reference index")
	slices.SortFunc(blocks, func(a, b blk) int { return cmp.Compare(a.h.Offset, b.h.Offset) })

	ck := r.BlockReader().ChecksumType()
	var buf []byte
	var damagedData []int
	for i, b := range blocks {
		if i%256 == 0 && ctx.Err() != nil {
			res.err = ctx.Err()
			return res
		}
		res.blocks++
		if _, err := readBlock(f, b.h, ck, &buf); err != nil {
			res.damaged++
			what := b.kind + " block"
			if b.data >= 0 {
				what = fmt.Sprintf("data block %d of %d", b.data+1, len(l.Data))
				damagedData = append(damagedData, b.data)
			}
			report(fmt.Errorf("%s: %w", what, err))
		}
	}
	if len(damagedData) > 0 {
		if ends, err := dataBlockEnds(f, l, ck, popts.Comparer); err == nil {
			for _, i := range damagedData {
				res.damagedEnds = append(res.damagedEnds, ends[i])
			}
		}
	}
	return res
}

// readBlock reads the block h of the table f into *buf, with its trailer,
// checks it against its checksum and returns its (possibly compressed)
// contents.
func readBlock(f io.ReaderAt, h block.Handle, ck block.ChecksumType, buf *[]byte) ([]byte, error) {
	n := int(h.Length) + block.TrailerLen
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if m, err := f.ReadAt(b, int64(h.Offset)); m < n {
		if err == nil || errors.Is(err, io.EOF) {
			err = fmt.Errorf("the file ends %d bytes into the block", m)
		}
		return nil, err
	}
	if err := block.ValidateChecksum(ck, b, h); err != nil {
		return nil, err
	}
	return b[:h.Length], nil
}

// dataBlockEnds returns the index separator of every data block of the
// table f (a key at or after the block's last key, before the next
// block's first), in the order of l.Data.
func dataBlockEnds(f io.ReaderAt, l *sstable.Layout, ck block.ChecksumType, cmp *pebble.Comparer) ([][]byte, error) {
	var it block.IndexBlockIterator
	if l.Format.BlockColumnar() {
		it = &colblk.IndexIter{}
	} else {
		it = &rowblk.IndexIter{}
	}
	var ends [][]byte
	var buf []byte
	for _, h := range l.Index {
		data, err := readBlock(f, h, ck, &buf)
		if err != nil {
			return nil, err
		}
		if ci := block.CompressionIndicator(buf[h.Length]); ci != block.NoCompressionIndicator {
			n, err := block.DecompressedLen(ci, data)
			if err != nil {
				return nil, err
			}
			out := make([]byte, n)
			if err := block.DecompressInto(ci, data, out); err != nil {
				return nil, err
			}
			data = out
		} else {
			data = slices.Clone(data)
		}
		if err := it.Init(cmp, data, block.NoTransforms); err != nil {
			return nil, err
		}
		for ok := it.First(); ok; ok = it.Next() {
			ends = append(ends, slices.Clone(it.Separator()))
		}
		_ = it.Close()
	}
	if len(ends) != len(l.Data) {
		return nil, fmt.Errorf("the index lists %d data blocks, the layout %d", len(ends), len(l.Data))
	}
	return ends, nil
}

// walTables returns the sstables that the write-ahead logs in dir name
// (flushable ingestions: Pebble queued an ingestion that overlapped the
// memtable above it, and named its tables in a log until the next flush),
// by file name, with the name of the log.
func walTables(fsys vfs.FS, dir string) (map[string]string, error) {
	logs, err := wal.Scan(wal.Dir{FS: fsys, Dirname: dir})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, ll := range logs {
		lfs, path := ll.SegmentLocation(0)
		name := lfs.PathBase(path)
		r := ll.OpenForRead()
		for {
			rr, _, err := r.NextRecord()
			if err != nil {
				// io.EOF, or the end of what was written to a recycled
				// log (the rest is an older log's).
				break
			}
			repr, err := io.ReadAll(rr)
			if err != nil {
				break
			}
			br := batchrepr.Read(repr)
			for {
				kind, ukey, _, ok, err := br.Next()
				if !ok || err != nil || kind != pebble.InternalKeyKindIngestSST {
					break
				}
				if n, k := binary.Uvarint(ukey); k > 0 {
					out[tableName(n)] = name
				}
			}
		}
		_ = r.Close()
	}
	return out, nil
}

// unreferenced tells the files in the store directory that are not part
// of the store: sstables the store does not name (named: those it does),
// the ingestion directory's files, Pebble's temporary files. An sstable
// is a leftover (safe to delete) when it is cut short, when it was linked
// in by an ingestion that did not commit, or when the store holds all its
// records; one that holds records the store lacks is data the store lost.
func (c *checker) unreferenced(ctx context.Context, named map[string]bool, mark string) error {
	names, err := c.fs.List(c.dir)
	if err != nil {
		return fmt.Errorf("listing the store directory: %w", err)
	}
	slices.Sort(names)
	var tables []string
	for _, name := range names {
		if strings.HasSuffix(name, ".sst") && !named[name] {
			tables = append(tables, name)
		}
	}
	// A writer that holds the lock (now, or when check started): every
	// file that is not part of the store is its work in progress.
	if c.lookForWriter(); c.rep.Writer != nil {
		c.inProgress(names, tables)
		return nil
	}
	// A writer at work: it committed since check opened the store. (Its
	// open removed the tables no log or manifest named: the tables the
	// store does not reference are its work in progress.)
	writing := false
	if now, err := manifestMark(c.fs, c.dir); err == nil && now != mark {
		writing = true
		c.rep.Notes = append(c.rep.Notes, "the store changed while check ran (a build or compaction is at work): "+
			"what check read is the store as it was when check started")
		if latest, err := c.latestTables(); err == nil {
			tables = slices.DeleteFunc(tables, func(name string) bool { return latest[name] })
		}
	}
	ingestPath := c.fs.PathJoin(c.dir, ingestDir)
	ingestNames, _ := c.fs.List(ingestPath)
	slices.Sort(ingestNames)
	linked := map[fileID]bool{} // the files of the ingestion directory
	for _, name := range ingestNames {
		if fi, err := c.fs.Stat(c.fs.PathJoin(ingestPath, name)); err == nil {
			if _, id, ok := diskBlocks(fi); ok {
				linked[id] = true
			}
		}
	}
	lost := 0
	var inProgress []string
	for _, name := range tables {
		if err := ctx.Err(); err != nil {
			return err
		}
		fi, err := c.fs.Stat(c.fs.PathJoin(c.dir, name))
		if err != nil {
			continue // removed meanwhile
		}
		size := diskSize(fi)
		_, id, ok := diskBlocks(fi)
		if ok && linked[id] {
			c.leftover(name, size, "the table of an ingestion that a crash or kill interrupted before it committed "+
				"(its games are not counted: running the build again adds them)")
			continue
		}
		why, lacking, err := c.orphan(ctx, name)
		switch {
		case errors.Is(err, errCannotTell):
			c.problem(Damage{File: name, Err: errors.New("not part of the store, and its records fall where the store's own tables " +
				"are damaged or missing: check cannot tell whether the store lost them (the file may hold what those tables held: keep it)")})
		case err != nil:
			c.problem(Damage{File: name, Err: fmt.Errorf("not part of the store, and it cannot be read through (%v): "+
				"check cannot tell whether it holds data the store lost", ErrorLine(err))})
		case lacking != "" && writing:
			inProgress = append(inProgress, name)
		case lacking != "":
			lost++
			c.problem(Damage{File: name, Err: fmt.Errorf("not part of the store, yet it holds records the store lacks (%s)", lacking)})
		default:
			c.leftover(name, size, why)
		}
	}
	if len(inProgress) > 0 {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%d tables hold records the store did not hold when check read it: "+
			"the writer's work since (%s); run check again when no build runs", len(inProgress), strings.Join(inProgress, ", ")))
	}
	if lost > 0 {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%d tables hold records the store lacks: the write-ahead log or manifest "+
			"that named them is lost, and the store lost their data with it; keep the files, and rebuild the store "+
			"from its PGN files (the sure way back)", lost))
	}
	var ingestBytes int64
	for _, name := range ingestNames {
		ingestBytes += c.treeSize(c.fs.PathJoin(ingestPath, name))
	}
	if len(ingestNames) > 0 {
		c.leftover(ingestDir+"/", ingestBytes, fmt.Sprintf("%d tables and scratch files of a build that did not finish "+
			"(the next bookbuild removes them)", len(ingestNames)))
	}
	for _, name := range names {
		if strings.HasSuffix(name, ".dbtmp") {
			if fi, err := c.fs.Stat(c.fs.PathJoin(c.dir, name)); err == nil {
				c.leftover(name, diskSize(fi), "a temporary file of Pebble's that a crash left")
			}
		}
	}
	return nil
}

// inProgress lists the files of the writer at work that are not part of
// the store: the unreferenced tables, the ingestion directory, Pebble's
// temporary files (names: the directory's files).
func (c *checker) inProgress(names, tables []string) {
	add := func(name string, size int64, why string) {
		c.rep.InProgress = append(c.rep.InProgress, FileReport{File: name, Bytes: size, Why: why})
	}
	for _, name := range tables {
		if fi, err := c.fs.Stat(c.fs.PathJoin(c.dir, name)); err == nil {
			add(name, diskSize(fi), "a table of the writer's work that the store as check read it does not name (not committed yet, or committed since, or a compaction's output)")
		}
	}
	ingestPath := c.fs.PathJoin(c.dir, ingestDir)
	if ingestNames, err := c.fs.List(ingestPath); err == nil && len(ingestNames) > 0 {
		var bytes int64
		for _, name := range ingestNames {
			bytes += c.treeSize(c.fs.PathJoin(ingestPath, name))
		}
		add(ingestDir+"/", bytes, fmt.Sprintf("%d tables and scratch files of the build's games not committed yet", len(ingestNames)))
	}
	for _, name := range names {
		if strings.HasSuffix(name, ".dbtmp") {
			if fi, err := c.fs.Stat(c.fs.PathJoin(c.dir, name)); err == nil {
				add(name, diskSize(fi), "a temporary file of Pebble's")
			}
		}
	}
}

// treeSize returns the blocks on disk of the file at path, or of the
// directory at path and everything below it (a merge's scratch store),
// as du counts them; 0 for what cannot be read.
func (c *checker) treeSize(path string) int64 {
	fi, err := c.fs.Stat(path)
	if err != nil {
		return 0
	}
	n := diskSize(fi)
	if !fi.IsDir() {
		return n
	}
	names, err := c.fs.List(path)
	if err != nil {
		return n
	}
	for _, name := range names {
		n += c.treeSize(c.fs.PathJoin(path, name))
	}
	return n
}

// leftover lists a file as a leftover.
func (c *checker) leftover(name string, size int64, why string) {
	c.rep.Leftovers = append(c.rep.Leftovers, FileReport{File: name, Bytes: size, Why: why})
}

// orphan reads the sstable name, which the store does not reference, and
// looks each of its records up in the store. It returns why the table is
// a leftover when the store holds every record (or when the table is cut
// short), else what the store lacks, by kind of record ("3 game, 12
// position"); an error when the table cannot be read through.
func (c *checker) orphan(ctx context.Context, name string) (why, lacking string, err error) {
	f, err := c.fs.Open(c.fs.PathJoin(c.dir, name))
	if err != nil {
		return "", "", err
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		_ = f.Close()
		return "", "", err
	}
	r, err := sstable.NewReader(ctx, readable, c.s.popts.MakeReaderOptions())
	if err != nil {
		_ = readable.Close()
		return "an sstable cut short (a write a crash or kill interrupted: a compaction's or flush's output)", "", nil
	}
	defer r.Close()
	it, err := r.NewIter(sstable.NoTransforms, nil, nil, sstable.TableBlobContext{})
	if err != nil {
		return "", "", err
	}
	defer it.Close()
	sit, err := c.s.db.NewIter(nil)
	if err != nil {
		return "", "", err
	}
	defer func() { _ = sit.Close() }()
	missing := map[string]int{}
	unread := 0 // records where the store cannot be read
	n := 0
	var val, skipTo []byte
	var ferr error
	kv := it.First()
	for kv != nil && ferr == nil {
		func() {
			if n++; n%4096 == 0 && ctx.Err() != nil {
				ferr = ctx.Err()
				return
			}
			k := kv.K.UserKey
			if string(k) == metaKey {
				// The Meta of an earlier state (a compaction's input)
				// counts no more than the store's.
				v, _, err := kv.Value(val[:0])
				if err != nil {
					ferr = err
					return
				}
				m, err := unmarshalMeta(v)
				if err != nil || c.rep.Meta == nil || m.Games > c.rep.Meta.Games || m.NextGame > c.rep.Meta.NextGame {
					missing["meta"]++
				}
				return
			}
			if sit.SeekGE(k) {
				if !bytes.Equal(sit.Key(), k) {
					missing[recordKind(k)]++
				}
				return
			}
			if sit.Error() == nil {
				missing[recordKind(k)]++
				return
			}
			// The store's own table is damaged or missing here: skip to
			// the end of what it cannot read, with a new iterator (a seek
			// after an error may meet it again).
			unread++
			_ = sit.Close()
			if sit, ferr = c.s.db.NewIter(nil); ferr != nil {
				return
			}
			if end := c.unreadableEnd(k); end != nil {
				skipTo = append(slices.Clone(end), 0)
			}
		}()
		if skipTo != nil {
			kv, skipTo = it.SeekGE(skipTo, 0), nil
		} else {
			kv = it.Next()
		}
	}
	if ferr != nil {
		return "", "", ferr
	}
	if err := it.Error(); err != nil {
		return "", "", err
	}
	var parts []string
	for _, kind := range slices.Sorted(maps.Keys(missing)) {
		parts = append(parts, fmt.Sprintf("%d %s", missing[kind], kind))
	}
	switch {
	case len(missing) > 0:
		return "", strings.Join(parts, ", "), nil
	case unread > 0:
		return "", "", errCannotTell
	}
	return "all its records are in the store (the output or an input of a compaction or flush a crash or kill interrupted)", "", nil
}

// errCannotTell: an unreferenced table's records fall where the store's
// own tables cannot be read.
var errCannotTell = errors.New("cannot tell")

// unreadableEnd returns the end of the first range the record pass could
// not read that ends at or after key k, or nil.
func (c *checker) unreadableEnd(k []byte) []byte {
	i, _ := slices.BinarySearchFunc(c.unreadable, k, bytes.Compare)
	if i == len(c.unreadable) {
		return nil
	}
	return c.unreadable[i]
}

// recordKind names the kind of the record with store key k (the
// registry's name, kinds.go).
func recordKind(k []byte) string {
	if kp := kindOfKey(k); kp != nil {
		return kp.Name
	}
	return "unknown"
}

// latestTables lists the tables of the store's state now (a writer may
// have committed since c.s was opened).
func (c *checker) latestTables() (map[string]bool, error) {
	tmp := &Store{dir: c.dir, fs: c.s.fs, opts: Options{ReadOnly: true}}
	lock, err := pebble.LockDirectory(c.dir, tmp.fs) // takes no lock (noLockFS)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	tmp.lock = lock
	popts := tmp.pebbleOptions(true)
	popts.DisableConsistencyCheck = true
	db, err := pebble.Open(c.dir, popts)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	levels, err := db.SSTables()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, tables := range levels {
		for _, t := range tables {
			out[tableName(uint64(t.BackingSSTNum))] = true
		}
	}
	return out, nil
}

// unopened reports a store Pebble cannot open (openErr): what the
// directory holds, what is missing, and the blocks of its sstables.
func (c *checker) unopened(ctx context.Context, openErr error) error {
	c.rep.OpenError = ErrorLine(openErr)
	c.problem(Damage{Err: fmt.Errorf("the store does not open: %w", openErr)})
	names, err := c.fs.List(c.dir)
	if err != nil {
		return fmt.Errorf("listing the store directory: %w", err)
	}
	slices.Sort(names)
	var manifests, options, logs, tables []string
	var marked, current string
	for _, name := range names {
		fi, err := c.fs.Stat(c.fs.PathJoin(c.dir, name))
		if err != nil {
			continue
		}
		why := "not a file of Pebble's"
		switch {
		case strings.HasSuffix(name, ".sst"):
			why = "an sstable"
			tables = append(tables, name)
		case strings.HasSuffix(name, ".log"):
			why = "a write-ahead log"
			logs = append(logs, name)
		case strings.HasPrefix(name, "MANIFEST-"):
			why = "a manifest (the list of the store's tables)"
			manifests = append(manifests, name)
		case strings.HasPrefix(name, "OPTIONS-"):
			why = "Pebble's options (the merge operator)"
			options = append(options, name)
		case strings.HasPrefix(name, "marker.manifest."):
			why = "the marker naming the current manifest"
			if i := strings.Index(name, "MANIFEST-"); i >= 0 {
				marked = name[i:]
			}
		case strings.HasPrefix(name, "marker."):
			why = "a marker of Pebble's (the format version)"
		case name == "CURRENT":
			why = "the file naming the current manifest (older Pebble)"
			current = name
		case name == "LOCK":
			why = "the writers' lock"
		case name == ingestDir:
			why = "the builds' ingestion directory"
		case strings.HasSuffix(name, ".dbtmp"):
			why = "a temporary file of Pebble's"
		}
		c.rep.Files = append(c.rep.Files, FileReport{File: name, Bytes: diskSize(fi), Why: why})
	}
	switch {
	case len(manifests) == 0:
		c.rep.Notes = append(c.rep.Notes, "there is no manifest (MANIFEST-*): the list of the store's tables is gone; "+
			"its sstables may hold the data, but nothing says which make up the store")
	case marked != "" && !slices.Contains(manifests, marked):
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("the manifest marker names %s, which is gone (there are %s)",
			marked, strings.Join(manifests, ", ")))
	case marked == "" && current == "":
		c.rep.Notes = append(c.rep.Notes, "nothing names the current manifest (no marker.manifest.* nor CURRENT file)")
	}
	if len(options) == 0 {
		c.rep.Notes = append(c.rep.Notes, "there is no OPTIONS file")
	}
	c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%d sstables, %d write-ahead logs", len(tables), len(logs)))
	popts := (&Store{dir: c.dir, fs: noLockFS{c.fs}, opts: Options{ReadOnly: true}}).pebbleOptions(true)
	for _, name := range tables {
		if err := ctx.Err(); err != nil {
			return err
		}
		tr := TableReport{File: name, Level: -1}
		if fi, err := c.fs.Stat(c.fs.PathJoin(c.dir, name)); err == nil {
			tr.Bytes = diskSize(fi)
		}
		res := checkBlocks(ctx, c.fs, c.fs.PathJoin(c.dir, name), popts, func(err error) {
			c.problem(Damage{File: name, Err: err})
		})
		tr.Blocks, tr.Damaged, tr.Unreadable = res.blocks, res.damaged, res.err != nil
		if res.err != nil {
			c.problem(Damage{File: name, Err: fmt.Errorf("unreadable table: %w", res.err)})
		}
		c.rep.Tables = append(c.rep.Tables, tr)
	}
	return nil
}

// openForCheck opens the store in dir read-only for Check, as far as it
// can be opened: without Pebble's check that the tables its manifest
// names are there (Check finds the missing ones, and reads what remains);
// metaErr says why the Meta record cannot be read, if it cannot.
func openForCheck(dir string, fsys vfs.FS) (s *Store, metaErr, err error) {
	fsys = noLockFS{fsys}
	kind, err := inspectDir(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	switch kind {
	case dirMissing, dirEmpty:
		return nil, nil, ErrNotExist
	case dirForeign:
		return nil, nil, fmt.Errorf("%w: the directory holds files that are not a Pebble database", ErrNotStore)
	}
	if err := checkMergerName(fsys, dir); err != nil {
		return nil, nil, err
	}
	mfs := &missingTablesFS{FS: fsys, dir: dir}
	s = &Store{dir: dir, fs: mfs, opts: Options{ReadOnly: true}}
	if s.lock, err = pebble.LockDirectory(dir, mfs); err != nil { // takes no lock (noLockFS)
		return nil, nil, err
	}
	s.popts = s.pebbleOptions(true)
	if s.db, err = pebble.Open(dir, s.popts); err != nil {
		// Pebble's consistency check lists the tables the manifest names
		// that are missing (and those whose size is not the manifest's):
		// open again, with them listed, without the check.
		for _, m := range missingTable.FindAllStringSubmatch(err.Error(), -1) {
			if n, perr := strconv.ParseUint(m[1], 10, 64); perr == nil {
				mfs.fake = append(mfs.fake, tableName(n))
			}
		}
		s.popts = s.pebbleOptions(true)
		s.popts.DisableConsistencyCheck = true
		if s.db, err = pebble.Open(dir, s.popts); err != nil {
			_ = s.lock.Close()
			return nil, nil, err
		}
	}
	raw, closer, err := s.db.Get([]byte(metaKey))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		if empty, err := s.isEmpty(); err == nil && empty {
			_ = s.Close()
			return nil, nil, ErrNotExist // a creation that died before its Meta
		}
		metaErr = errors.New("the store has none")
	case err != nil:
		metaErr = err
	default:
		m, err := unmarshalMeta(raw)
		_ = closer.Close()
		if err != nil {
			metaErr = err
			break
		}
		if err := m.checkCompatible(dir, nil); err != nil {
			_ = s.Close()
			return nil, nil, err
		}
		s.meta = m
	}
	// Hold the tables open: a writer's compaction may remove their files
	// while check reads.
	_ = s.openTables()
	return s, metaErr, nil
}

// missingTable matches Pebble's error for a table the manifest names
// that is not in the directory.
var missingTable = regexp.MustCompile(`file (\d+) \(type sstable\) unknown to the objstorage provider`)

// missingTablesFS lists the tables in fake among the files of the store
// directory dir, which they are not: Pebble then opens a store whose
// manifest names missing tables, and fails only to read them (and Check
// finds them missing).
type missingTablesFS struct {
	vfs.FS
	dir  string
	fake []string
}

// List lists dir, with the fake tables in the store directory.
func (fs *missingTablesFS) List(dir string) ([]string, error) {
	names, err := fs.FS.List(dir)
	if err != nil || dir != fs.dir {
		return names, err
	}
	for _, name := range fs.fake {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// Unwrap returns the file system wrapped.
func (fs *missingTablesFS) Unwrap() vfs.FS { return fs.FS }
