package keys

import (
	"bytes"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys/internal/corpus"
)

// TestHashAgreesWithKeys checks, over every position of small/ (and
// medium/ without -short), that positions with equal keys have equal
// hashes and that no two keys share a hash (a 64-bit collision among a few
// million positions would be a 1e-7 chance: a hash that misses part of the
// position, say the castling rights, fails here), and that Equal agrees
// with comparing keys between each position and the previous two.
func TestHashAgreesWithKeys(t *testing.T) {
	dir, subs := corpusDir(t)
	if testing.Short() {
		subs = subs[:1]
	}
	var mu sync.Mutex
	byHash := map[uint64]string{}
	positions := 0
	for _, sub := range subs {
		eachGame(t, dir, sub, func(file string, g corpus.Game) {
			ks := make([][]byte, len(g.Positions))
			hs := make([]uint64, len(g.Positions))
			for i := range g.Positions {
				p := &g.Positions[i]
				ks[i], hs[i] = Encode(p), Hash(p)
				for j := max(i-2, 0); j < i; j++ {
					if eq := Equal(p, &g.Positions[j]); eq != bytes.Equal(ks[i], ks[j]) {
						t.Errorf("%s:%d plies %d and %d: Equal %v, keys %x and %x", file, g.Line, j, i, eq, ks[j], ks[i])
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for i, h := range hs {
				positions++
				if k, ok := byHash[h]; !ok {
					byHash[h] = string(ks[i])
				} else if k != string(ks[i]) {
					t.Errorf("%s:%d ply %d: hash %016x of key %x is also the hash of key %x", file, g.Line, i, h, ks[i], k)
				}
			}
		})
	}
	if positions < 100000 || len(byHash) < 50000 {
		t.Fatalf("only %d positions, %d distinct", positions, len(byHash))
	}
	t.Logf("%d positions, %d distinct hashes", positions, len(byHash))
}

// TestHashEnPassant checks that an en-passant square counts in the hash
// exactly when the key counts it: when a capture onto it is legal.
func TestHashEnPassant(t *testing.T) {
	for _, c := range []struct {
		with, without string
		same          bool
	}{
		{"4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1", "4k3/8/8/KPp4r/8/8/8/8 w - - 0 1", true}, // pinned: no legal capture
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", false},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", true}, // no pawn beside
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", false},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false},
	} {
		p, q := mustFEN(t, c.with), mustFEN(t, c.without)
		if got := Hash(&p) == Hash(&q); got != c.same {
			t.Errorf("%s and %s: equal hashes %v, want %v", c.with, c.without, got, c.same)
		}
		if got := Equal(&p, &q); got != c.same {
			t.Errorf("%s and %s: Equal %v, want %v", c.with, c.without, got, c.same)
		}
		if got := bytes.Equal(Encode(&p), Encode(&q)); got != c.same {
			t.Errorf("%s and %s: equal keys %v, want %v", c.with, c.without, got, c.same)
		}
	}
}

// TestHashGolden pins the hash function: single references are kept in
// stores under it.
func TestHashGolden(t *testing.T) {
	start := board.StartPosition()
	if got, want := Hash(&start), uint64(0x524cdc59270fd2c9); got != want {
		t.Errorf("Hash(start) = %#x, want %#x", got, want)
	}
}

// BenchmarkHash measures Hash on typical positions (compare
// BenchmarkAppend).
func BenchmarkHash(b *testing.B) {
	ps := benchPositions(b)
	var h uint64
	for i := 0; b.Loop(); i++ {
		h ^= Hash(&ps[i%len(ps)])
	}
	_ = h
}

// TestHasher checks the incremental Hasher against Hash after every legal
// move from every position of small/ (captures, promotions, en passant and
// castling on both sides included), and along each game.
func TestHasher(t *testing.T) {
	var mu sync.Mutex
	kinds := map[board.Move]int{}
	dir, subs := corpusDir(t)
	eachGame(t, dir, subs[0], func(file string, g corpus.Game) {
		var hs, along Hasher
		var moves []board.Move
		seen := map[board.Move]int{}
		for i := range g.Positions {
			p := &g.Positions[i]
			if i == 0 {
				along.Reset(p)
			}
			if got, want := along.Hash(p), Hash(p); got != want {
				t.Fatalf("%s:%d ply %d: Hasher along the game %016x, Hash %016x", file, g.Line, i, got, want)
			}
			moves = p.LegalMoves(moves[:0])
			var played board.Move
			for _, m := range moves {
				hs.Reset(p)
				hs.Play(p, m)
				q := *p
				q.Play(m)
				if got, want := hs.Hash(&q), Hash(&q); got != want {
					t.Fatalf("%s:%d ply %d: %s after %v: Hasher %016x, Hash %016x", file, g.Line, i, p.FEN(), m, got, want)
				}
				seen[m.Kind()]++
				if i+1 < len(g.Positions) && Equal(&q, &g.Positions[i+1]) {
					played = m
				}
			}
			if i+1 < len(g.Positions) {
				along.Play(p, played)
			}
		}
		mu.Lock()
		for k, n := range seen {
			kinds[k] += n
		}
		mu.Unlock()
	})
	for _, k := range []board.Move{board.MoveNormal, board.MovePromotion, board.MoveEnPassant, board.MoveCastling} {
		if kinds[k] < 100 {
			t.Errorf("only %d moves of kind %d checked", kinds[k], k>>14)
		}
	}
}
