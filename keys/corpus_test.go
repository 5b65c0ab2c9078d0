package keys

import (
	"bytes"
	"hash/maphash"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys/internal/corpus"
	"github.com/chessbook/chessbook/polyglot"
)

// eachGame is the tests' one source of positions: it replays every game of
// the PGN files of dir/sub and calls fn for each, concurrently.
func eachGame(t testing.TB, dir, sub string, fn func(file string, g corpus.Game)) {
	t.Helper()
	files, err := corpus.Files(dir, sub)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		if err := corpus.Replay(f, 0, func(g corpus.Game) { fn(name, g) }); err != nil {
			t.Fatal(err)
		}
	}
}

// normalize returns p as Decode returns it: en-passant square only when the
// capture is legal, clocks 0 and 1.
func normalize(p *board.Position) board.Position {
	q := *p
	q.SetEPSquare(p.LegalEPSquare())
	q.SetClocks(0, 1)
	return q
}

// canon checks, over all positions it sees, that two positions get the same
// key exactly when they are the same position, using the Polyglot key with
// the en-passant file counted only for a legal capture as the independent
// notion of "same position".
//
// To hold the 21M distinct positions of large/ in about 1 GB it keeps a
// 128-bit hash of each key (two maphash seeds; a chance collision among 21M
// keys has probability about 1e-24) mapped to the legal-ep Polyglot key of
// its first position, not the key itself and a second map back. A key seen
// with two Polyglot keys fails at once; a Polyglot key with two keys shows
// up at the end as a repeated value of the map (finish).
type canon struct {
	mu    sync.Mutex
	seeds [2]maphash.Seed
	byKey map[keyHash]uint64 // key -> legal-ep Polyglot key
	// stds holds the standard Polyglot keys of the few keys that have a
	// position whose standard Polyglot key differs from the legal-ep one:
	// the side to move has a pawn beside the double-stepped pawn but cannot
	// legally capture en passant.
	stds        map[keyHash][]uint64
	epRuleDiffs int // positions where the two Polyglot keys differ
	errors      int
}

// keyHash is a 128-bit hash of a key.
type keyHash struct{ a, b uint64 }

func newCanon() *canon {
	return &canon{
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		byKey: map[keyHash]uint64{},
		stds:  map[keyHash][]uint64{},
	}
}

func (c *canon) hash(k []byte) keyHash {
	return keyHash{maphash.Bytes(c.seeds[0], k), maphash.Bytes(c.seeds[1], k)}
}

// noteStd records the standard Polyglot key zs of a position with key k
// and legal-ep Polyglot key zl; seen says whether k had positions before.
// Only keys with a position where zs != zl get a set of standard keys: for
// all others it is {zl}.
func (c *canon) noteStd(k keyHash, seen bool, zl, zs uint64) {
	set, tracked := c.stds[k]
	switch {
	case tracked:
	case zs == zl:
		return
	case seen:
		set = []uint64{zl} // the earlier positions all had zs == zl
	}
	if !slices.Contains(set, zs) {
		c.stds[k] = append(set, zs)
	}
}

// merges returns the number of keys that stand for several standard
// Polyglot keys: only possible through the en-passant rule.
func (c *canon) merges() int {
	n := 0
	for _, set := range c.stds {
		if len(set) > 1 {
			n++
		}
	}
	return n
}

// finish checks the other direction, one key per position: every legal-ep
// Polyglot key must be the value of a single key. It returns the number of
// distinct positions and the Polyglot keys that have several keys (at most
// 20 of them).
func (c *canon) finish() (positions int, dups []uint64) {
	zs := make([]uint64, 0, len(c.byKey))
	for _, z := range c.byKey {
		zs = append(zs, z)
	}
	slices.Sort(zs)
	for i := range zs {
		if i > 0 && zs[i] == zs[i-1] {
			if n := len(dups); n < 20 && (n == 0 || dups[n-1] != zs[i]) {
				dups = append(dups, zs[i])
			}
			continue
		}
		positions++
	}
	return positions, dups
}

type stats struct {
	games, skipped, positions, bytes, maxLen int
}

// checkGame round-trips every position of g and feeds the canonical-form
// check; it reports failures through t (safe from several goroutines).
func checkGame(t *testing.T, c *canon, file string, g corpus.Game, st *stats) {
	var buf [MaxLen]byte
	type rec struct {
		key    keyHash
		ply    int
		zl, zs uint64
	}
	recs := make([]rec, 0, len(g.Positions))
	for i := range g.Positions {
		p := &g.Positions[i]
		k := Append(buf[:0], p)
		if len(k) == 0 {
			t.Errorf("%s:%d ply %d: %s: no key", file, g.Line, i, p.FEN())
			continue
		}
		q, err := Decode(k)
		norm := normalize(p)
		if err != nil {
			t.Errorf("%s:%d ply %d: %s: key %x: %v", file, g.Line, i, p.FEN(), k, err)
			continue
		}
		if q != norm {
			t.Errorf("%s:%d ply %d: %s: key %x decodes to %s", file, g.Line, i, norm.FEN(), k, q.FEN())
			continue
		}
		if i%16 == 0 {
			for _, s := range []string{Hex(k), Text(k)} {
				if back, err := ParseCode(s); err != nil || !bytes.Equal(back, k) {
					t.Errorf("%s:%d ply %d: ParseCode(%q) = %x, %v; want %x", file, g.Line, i, s, back, err, k)
				}
			}
		}
		zs := polyglot.Key(p)
		zl := polyglot.Key(&norm)
		recs = append(recs, rec{c.hash(k), i, zl, zs})
		st.positions++
		st.bytes += len(k)
		st.maxLen = max(st.maxLen, len(k))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range recs {
		if r.zs != r.zl {
			c.epRuleDiffs++
		}
		zl, seen := c.byKey[r.key]
		switch {
		case !seen:
			c.byKey[r.key] = r.zl
		case zl != r.zl:
			c.errors++
			if c.errors < 20 {
				p := &g.Positions[r.ply]
				t.Errorf("%s:%d ply %d: %s: key %x shared with a position of Polyglot key %016x (this one: %016x)",
					file, g.Line, r.ply, p.FEN(), Encode(p), zl, r.zl)
			}
			continue
		}
		c.noteStd(r.key, seen, r.zl, r.zs)
	}
}

// runCorpus round-trips every position of the PGN files of dir's subs
// and checks the canonical form over all of them together.
func runCorpus(t *testing.T, dir string, subs ...string) {
	c := newCanon()
	for _, sub := range subs {
		var mu sync.Mutex
		var st stats
		eachGame(t, dir, sub, func(file string, g corpus.Game) {
			var gs stats
			if g.Err != nil {
				gs.skipped = 1
			} else {
				checkGame(t, c, file, g, &gs)
			}
			mu.Lock()
			st.games++
			st.skipped += gs.skipped
			st.positions += gs.positions
			st.bytes += gs.bytes
			st.maxLen = max(st.maxLen, gs.maxLen)
			mu.Unlock()
		})
		if st.positions == 0 {
			t.Errorf("%s: no positions", sub)
			continue
		}
		t.Logf("%s: %d games (%d not replayable, skipped), %d positions round-tripped, key mean %.2f max %d bytes",
			sub, st.games, st.skipped, st.positions, float64(st.bytes)/float64(st.positions), st.maxLen)
	}
	positions, dups := c.finish()
	t.Logf("canonical form: %d distinct keys = %d distinct positions (Polyglot key, ep counted when legal); %d collisions",
		len(c.byKey), positions, c.errors+len(c.byKey)-positions)
	t.Logf("ep rule: %d positions have a Polyglot ep file but no legal en-passant capture; %d keys stand for two standard Polyglot keys because of that",
		c.epRuleDiffs, c.merges())
	if len(dups) > 0 {
		t.Errorf("%d distinct keys but %d distinct positions", len(c.byKey), positions)
		showPositions(t, dir, subs, dups)
	}
	if m := c.merges(); m > c.epRuleDiffs {
		t.Errorf("%d standard-Polyglot merges but only %d positions with the ep rule difference", m, c.epRuleDiffs)
	}
}

// showPositions replays the corpus once more to name the positions whose
// legal-ep Polyglot key is one of zs (keys found to have several keys).
func showPositions(t *testing.T, dir string, subs []string, zs []uint64) {
	var mu sync.Mutex
	shown := 0
	for _, sub := range subs {
		eachGame(t, dir, sub, func(file string, g corpus.Game) {
			for i := range g.Positions {
				p := &g.Positions[i]
				norm := normalize(p)
				if !slices.Contains(zs, polyglot.Key(&norm)) {
					continue
				}
				mu.Lock()
				if shown++; shown <= 40 {
					t.Errorf("%s:%d ply %d: %s: Polyglot key (legal ep) %016x, key %x", file, g.Line, i, p.FEN(), polyglot.Key(&norm), Encode(p))
				}
				mu.Unlock()
			}
		})
	}
}

// TestCorpusRoundTrip checks decode(encode(p)) == p and the one-key-per-
// position property on every position of every game in the repository's
// testdata (champions500, lichess2k: about 220k positions), with -tags
// oracle in shared/data small/ and medium/ (about 4.3M positions; -short
// checks small/ only).
func TestCorpusRoundTrip(t *testing.T) {
	dir, subs := corpusDir(t)
	if testing.Short() {
		subs = subs[:1]
	}
	runCorpus(t, dir, subs...)
}

// TestCanon checks the bookkeeping of canon on positions chosen to trigger
// what the corpora do not: a key standing for two standard Polyglot keys,
// and a Polyglot key with two keys.
func TestCanon(t *testing.T) {
	pinned := mustFEN(t, "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1") // the c6 capture is illegal
	plain := mustFEN(t, "4k3/8/8/KPp4r/8/8/8/8 w - - 0 1")
	start := board.StartPosition()
	c := newCanon()
	var st stats
	checkGame(t, c, "test", corpus.Game{Line: 1, Positions: []board.Position{start, plain, pinned, plain}}, &st)
	checkGame(t, c, "test", corpus.Game{Line: 2, Positions: []board.Position{pinned, start}}, &st)
	if c.errors != 0 || c.epRuleDiffs != 2 || c.merges() != 1 || len(c.byKey) != 2 {
		t.Errorf("errors %d, ep rule differences %d, merges %d, keys %d; want 0, 2, 1, 2", c.errors, c.epRuleDiffs, c.merges(), len(c.byKey))
	}
	if n, dups := c.finish(); n != 2 || dups != nil {
		t.Errorf("finish = %d, %x; want 2 positions, no duplicates", n, dups)
	}
	// A second key for the start position's Polyglot key.
	c.byKey[keyHash{1, 2}] = polyglot.Key(&start)
	if n, dups := c.finish(); n != 2 || !slices.Equal(dups, []uint64{polyglot.Key(&start)}) {
		t.Errorf("finish = %d, %x; want 2 positions and %016x twice", n, dups, polyglot.Key(&start))
	}
}

// TestEvalFigures checks the size requirements on the world champions'
// games (the 500 of testdata; with -tags oracle all of shared/data's):
// mean <= 14 bytes over all plies (the goal; the requirement is 20), <= 17
// over plies <= 40, max <= 26.
func TestEvalFigures(t *testing.T) {
	evalFile := evalCorpus(t)
	var mu sync.Mutex
	var n, n40, sum, sum40, maxLen, max40 int
	err := corpus.Replay(evalFile, 0, func(g corpus.Game) {
		var buf [MaxLen]byte
		var a, a40, s, s40, m, m40 int
		for i := range g.Positions {
			l := len(Append(buf[:0], &g.Positions[i]))
			a, s, m = a+1, s+l, max(m, l)
			if i <= 40 {
				a40, s40, m40 = a40+1, s40+l, max(m40, l)
			}
		}
		mu.Lock()
		n, sum, maxLen = n+a, sum+s, max(maxLen, m)
		n40, sum40, max40 = n40+a40, sum40+s40, max(max40, m40)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	mean, mean40 := float64(sum)/float64(n), float64(sum40)/float64(n40)
	t.Logf("%s: %d positions: mean %.3f max %d bytes; plies <= 40: %d positions, mean %.3f max %d", evalFile, n, mean, maxLen, n40, mean40, max40)
	if mean > 14 || mean40 > 17 || maxLen > 26 {
		t.Errorf("sizes above the requirements (mean <= 14, <= 17 at plies <= 40, max <= 26)")
	}
}
