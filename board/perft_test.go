package board

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// perftCase is one position of the chessprogramming.org perft suite with
// its published node counts (nodes[i] is perft(i+1)).
type perftCase struct {
	name  string
	fen   string
	nodes []uint64
	short int // deepest depth run by default (every depth with -tags oracle)
}

// The FENs are the published ones (chessprogramming.org "Perft Results").
// Garbled variants circulate that are not even legal positions and do not
// give the published counts (ParseFEN rejects them, see badFENs):
//   - Kiwipete with "3pP3" instead of "3PN3" on the fifth rank (9 black pawns);
//   - position 4 as ".../1r3nbN/Nn5p/bbPPP3/8/P2P1PPP/..." (9 white pawns);
//     the real one is the colour-flipped mirror of "position 4 mirrored";
//   - position 6 with ".../2B1P3/P1NP1N1P/..." (a white pawn on h3 instead
//     of the black bishop on g4: 9 white pawns).
var perftSuite = []perftCase{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324, 3195901860}, 5},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}, 4},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624, 11030083, 178633661}, 5},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}, 4},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}, 4},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}, 3},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}, 4},
}

// TestPerft checks the published counts to a depth of 3 to 5 by default
// (about 10 million nodes) and to the deepest published one (6 or 7:
// billions of nodes) in the oracle tests (-tags oracle).
func TestPerft(t *testing.T) {
	for _, tc := range perftSuite {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.nodes {
				depth := d + 1
				if depth > tc.short && (!withOracles || testing.Short()) {
					break
				}
				if got := p.Perft(depth); got != want {
					t.Errorf("perft(%d) = %d, want %d\n%s", depth, got, want, divide(&p, depth))
					break
				}
			}
		})
	}
}

// divide returns the per-move perft breakdown, for debugging failures.
func divide(p *Position, depth int) string {
	var lines []string
	for _, m := range p.LegalMoves(nil) {
		q := *p
		q.Play(m)
		lines = append(lines, fmt.Sprintf("%v: %d", m, q.Perft(depth-1)))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestPerftNoAllocs checks that move generation and Play do not allocate.
func TestPerftNoAllocs(t *testing.T) {
	p, _ := ParseFEN(perftSuite[1].fen)
	if n := testing.AllocsPerRun(5, func() { p.Perft(3) }); n != 0 {
		t.Errorf("Perft allocates %v times per run", n)
	}
	buf := make([]Move, 0, MaxMoves)
	if n := testing.AllocsPerRun(100, func() { buf = p.LegalMoves(buf[:0]) }); n != 0 {
		t.Errorf("LegalMoves allocates %v times per run", n)
	}
}

// TestMagicsReproducible checks that the deterministic magic search
// reproduces the shipped constants, and that the magic lookups agree with
// the slow ray walk on random occupancies.
func TestMagicsReproducible(t *testing.T) {
	var rm, bm [64]magic
	rt := make([]Bitboard, len(rookTable))
	bt := make([]Bitboard, len(bishopTable))
	initMagics(&rm, rt, &rookDirs, nil)
	initMagics(&bm, bt, &bishopDirs, nil)
	for s := 0; s < 64; s++ {
		if rm[s].magic != rookMagicNumbers[s] || bm[s].magic != bishopMagicNumbers[s] {
			t.Fatalf("square %d: search gives %#x/%#x, shipped %#x/%#x", s,
				rm[s].magic, bm[s].magic, rookMagicNumbers[s], bishopMagicNumbers[s])
		}
	}
	if rm != rookMagics || bm != bishopMagics || [len(rookTable)]Bitboard(rt) != rookTable || [len(bishopTable)]Bitboard(bt) != bishopTable {
		t.Fatal("tables built by the search differ from the init tables")
	}
	x := xorshift64star(12345)
	for i := 0; i < 20000; i++ {
		occ := Bitboard(x.next() & x.next())
		s := Square(x.next() & 63)
		if got, want := RookAttacks(s, occ), slidingAttack(&rookDirs, s, occ); got != want {
			t.Fatalf("RookAttacks(%v, %#x) = %#x, want %#x", s, occ, got, want)
		}
		if got, want := BishopAttacks(s, occ), slidingAttack(&bishopDirs, s, occ); got != want {
			t.Fatalf("BishopAttacks(%v, %#x) = %#x, want %#x", s, occ, got, want)
		}
	}
}
