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

// dataDir returns shared/data or skips the test.
func dataDir(t testing.TB) string {
	d := corpus.FindData("../../shared/data")
	if d == "" {
		t.Skip("shared/data not found (looked in ../../shared/data and /work/shared/data)")
	}
	return d
}

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
// To hold the 21M distinct positions of large/ in little memory it keeps a
// 128-bit hash of each key (two maphash seeds; a chance collision among 21M
// keys has probability about 1e-24) mapped to the Polyglot keys of its first
// position: 32 bytes a key instead of the key string and a second map. A key
// seen with two Polyglot keys fails at once; a Polyglot key with two keys
// shows up at the end as a repeated value of the map (finish).
type canon struct {
	mu    sync.Mutex
	seeds [2]maphash.Seed
	byKey map[keyHash]zpair // key -> Polyglot keys of its first position
	// Positions whose standard Polyglot key differs from the legal-ep one:
	// the side to move has a pawn beside the double-stepped pawn but cannot
	// legally capture en passant.
	epRuleDiffs int
	// Keys shared by positions with different standard Polyglot keys.
	merges int
	errors int
}

// keyHash is a 128-bit hash of a key.
type keyHash struct{ a, b uint64 }

// zpair is a position's Polyglot key with the en-passant file counted only
// for a legal capture (legal) and by the standard rule (std).
type zpair struct{ legal, std uint64 }

func newCanon() *canon {
	return &canon{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, byKey: map[keyHash]zpair{}}
}

func (c *canon) hash(k []byte) keyHash {
	return keyHash{maphash.Bytes(c.seeds[0], k), maphash.Bytes(c.seeds[1], k)}
}

// finish checks the other direction, one key per position: every legal-ep
// Polyglot key must be the value of a single key. It returns the Polyglot
// keys that have several keys (at most 20 of them) and the number of
// distinct positions.
func (c *canon) finish() (dups []uint64, positions int) {
	zs := make([]uint64, 0, len(c.byKey))
	for _, z := range c.byKey {
		zs = append(zs, z.legal)
	}
	slices.Sort(zs)
	for i := range zs {
		if i > 0 && zs[i] == zs[i-1] {
			if n := len(dups); len(dups) < 20 && (n == 0 || dups[n-1] != zs[i]) {
				dups = append(dups, zs[i])
			}
			continue
		}
		positions++
	}
	return dups, positions
}

type stats struct {
	games, skipped, positions, bytes, maxLen int
}

// checkGame round-trips every position of g and feeds the canonical-form
// check; it reports failures through t (safe from several goroutines).
func checkGame(t *testing.T, c *canon, file string, g corpus.Game, st *stats) {
	var buf [MaxLen]byte
	type rec struct {
		key      keyHash
		ply      int
		zl, zs   uint64
		epDiffer bool
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
		recs = append(recs, rec{c.hash(k), i, zl, zs, zs != zl})
		st.positions++
		st.bytes += len(k)
		st.maxLen = max(st.maxLen, len(k))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range recs {
		if r.epDiffer {
			c.epRuleDiffs++
		}
		z, ok := c.byKey[r.key]
		switch {
		case !ok:
			c.byKey[r.key] = zpair{r.zl, r.zs}
		case z.legal != r.zl:
			c.errors++
			if c.errors < 20 {
				p := &g.Positions[r.ply]
				t.Errorf("%s:%d ply %d: %s: key %x shared with a position of Polyglot key %016x (this one: %016x)",
					file, g.Line, r.ply, p.FEN(), Encode(p), z.legal, r.zl)
			}
		case z.std != r.zs:
			// One of our keys for two standard Polyglot keys: only
			// through the en-passant rule.
			c.merges++
		}
	}
}

// runCorpus round-trips every position of the PGN files of shared/data's
// subs and checks the canonical form over all of them together.
func runCorpus(t *testing.T, subs ...string) {
	dir := dataDir(t)
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
	dups, positions := c.finish()
	t.Logf("canonical form: %d distinct keys = %d distinct positions (Polyglot key, ep counted when legal); %d collisions",
		len(c.byKey), positions, c.errors+len(c.byKey)-positions)
	t.Logf("ep rule: %d positions have a Polyglot ep file but no legal en-passant capture; %d keys stand for two standard Polyglot keys because of that",
		c.epRuleDiffs, c.merges)
	if len(dups) > 0 {
		t.Errorf("%d distinct keys but %d distinct positions", len(c.byKey), positions)
		showPositions(t, dir, subs, dups)
	}
	if c.merges > c.epRuleDiffs {
		t.Errorf("%d standard-Polyglot merges but only %d positions with the ep rule difference", c.merges, c.epRuleDiffs)
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
// position property on every position of every game in shared/data small/
// and medium/ (about 4.3M positions); -short checks small/ only.
func TestCorpusRoundTrip(t *testing.T) {
	if testing.Short() {
		runCorpus(t, "small")
		return
	}
	runCorpus(t, "small", "medium")
}

// TestCorpusLarge does the same on shared/data large/ (412k games, 34.4M
// positions, 21M distinct; about a minute on two cores and 1.5 GB of
// memory); skipped with -short.
func TestCorpusLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	runCorpus(t, "large")
}

// TestEvalFigures checks the size requirements on the world champions'
// games: mean <= 14 bytes over all plies (the goal; the requirement is 20),
// <= 17 over plies <= 40, max <= 26.
func TestEvalFigures(t *testing.T) {
	dir := dataDir(t)
	var mu sync.Mutex
	var n, n40, sum, sum40, maxLen, max40 int
	err := corpus.Replay(filepath.Join(dir, corpus.EvalFile), 0, func(g corpus.Game) {
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
	t.Logf("%s: %d positions: mean %.3f max %d bytes; plies <= 40: %d positions, mean %.3f max %d", corpus.EvalFile, n, mean, maxLen, n40, mean40, max40)
	if mean > 14 || mean40 > 17 || maxLen > 26 {
		t.Errorf("sizes above the requirements (mean <= 14, <= 17 at plies <= 40, max <= 26)")
	}
}
