package keys

import (
	"bytes"
	"hash/maphash"
	"os"
	"path/filepath"
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
type canon struct {
	mu    sync.Mutex
	seed  maphash.Seed
	byKey map[string]zpair  // key -> Polyglot keys of its first position
	byZ   map[uint64]uint64 // legal-ep Polyglot key -> hash of the key
	// Positions whose standard Polyglot key differs from the legal-ep one:
	// the side to move has a pawn beside the double-stepped pawn but cannot
	// legally capture en passant.
	epRuleDiffs int
	// Keys shared by positions with different standard Polyglot keys.
	merges int
	errors int
}

// zpair is a position's Polyglot key with the en-passant file counted only
// for a legal capture (legal) and by the standard rule (std).
type zpair struct{ legal, std uint64 }

func newCanon() *canon {
	return &canon{seed: maphash.MakeSeed(), byKey: map[string]zpair{}, byZ: map[uint64]uint64{}}
}

type stats struct {
	games, skipped, positions, bytes, maxLen int
}

// checkGame round-trips every position of g and feeds the canonical-form
// check; it reports failures through t (safe from several goroutines).
func checkGame(t *testing.T, c *canon, file string, g corpus.Game, st *stats) {
	var buf [MaxLen]byte
	type rec struct {
		key      string
		zl, zs   uint64
		epDiffer bool
	}
	recs := make([]rec, 0, len(g.Positions))
	for i := range g.Positions {
		p := &g.Positions[i]
		k := Append(buf[:0], p)
		if len(k) == 0 {
			t.Errorf("%s game %d ply %d: %s: no key", file, g.Index, i, p.FEN())
			continue
		}
		q, err := Decode(k)
		norm := normalize(p)
		if err != nil {
			t.Errorf("%s game %d ply %d: %s: key %x: %v", file, g.Index, i, p.FEN(), k, err)
			continue
		}
		if q != norm {
			t.Errorf("%s game %d ply %d: %s: key %x decodes to %s", file, g.Index, i, norm.FEN(), k, q.FEN())
			continue
		}
		if i%16 == 0 {
			for _, s := range []string{Hex(k), Text(k)} {
				if back, err := ParseCode(s); err != nil || !bytes.Equal(back, k) {
					t.Errorf("%s game %d ply %d: ParseCode(%q) = %x, %v; want %x", file, g.Index, i, s, back, err, k)
				}
			}
		}
		zs := polyglot.Key(p)
		zl := polyglot.Key(&norm)
		recs = append(recs, rec{string(k), zl, zs, zs != zl})
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
				t.Errorf("%s game %d: key %x shared by positions with Polyglot keys %016x and %016x", file, g.Index, r.key, z.legal, r.zl)
			}
		case z.std != r.zs:
			// One of our keys for two standard Polyglot keys: only
			// through the en-passant rule.
			c.merges++
		}
		kh := maphash.String(c.seed, r.key)
		if h, ok := c.byZ[r.zl]; ok && h != kh {
			c.errors++
			if c.errors < 20 {
				t.Errorf("%s game %d: Polyglot key %016x (legal ep) has two keys, one %x", file, g.Index, r.zl, r.key)
			}
		} else if !ok {
			c.byZ[r.zl] = kh
		}
	}
}

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
	t.Logf("canonical form: %d distinct keys = %d distinct positions (Polyglot key, ep counted when legal); %d collisions",
		len(c.byKey), len(c.byZ), c.errors)
	t.Logf("ep rule: %d positions have a Polyglot ep file but no legal en-passant capture; %d keys stand for two standard Polyglot keys because of that",
		c.epRuleDiffs, c.merges)
	if len(c.byKey) != len(c.byZ) {
		t.Errorf("%d distinct keys but %d distinct positions", len(c.byKey), len(c.byZ))
	}
	if c.merges > c.epRuleDiffs {
		t.Errorf("%d standard-Polyglot merges but only %d positions with the ep rule difference", c.merges, c.epRuleDiffs)
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

// TestCorpusLarge does the same on shared/data large/ (412k games, ~33M
// positions; several minutes and several GB): skipped with -short, and
// run only when BOOK_LONG=1.
func TestCorpusLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	if os.Getenv("BOOK_LONG") != "1" {
		t.Skip("large corpus takes minutes: set BOOK_LONG=1 to run it")
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
