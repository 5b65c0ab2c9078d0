package board

// Attack tables. Everything here is computed once by init and never
// written afterwards, so the tables are safe for concurrent use.
//
// Sliding pieces use "fancy" magic bitboards (about 840 KB of tables). The
// magic multipliers are the output of a deterministic search (a fixed-seed
// xorshift generator per rank, as in Stockfish), shipped as constants in
// magics.go so that start-up only fills the tables (about 2 ms instead of
// about 30 ms for the search); the search is kept as the fallback and to
// reproduce the constants in a test.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard // pawnAttacks[c][s]: squares a pawn of colour c on s attacks

	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [0x19000]Bitboard // 102400 entries
	bishopTable  [0x1480]Bitboard  // 5248 entries

	rookPseudo   [64]Bitboard // rook attacks on an empty board
	bishopPseudo [64]Bitboard // bishop attacks on an empty board

	// betweenBB[a][b]: squares strictly between a and b if they share a
	// rank, file or diagonal, else 0.
	betweenBB [64][64]Bitboard
	// lineBB[a][b]: the whole line (edge to edge) through a and b if they
	// share a rank, file or diagonal, else 0.
	lineBB [64][64]Bitboard

	// castleKeep[s]: the castling rights that survive a move from or to s
	// in a standard position (castleKeep960 is the rule for any setup).
	castleKeep [64]CastlingRights
)

// magic holds the parameters of one square's magic lookup.
type magic struct {
	mask   Bitboard
	magic  Bitboard
	offset uint32
	shift  uint8
}

func (m *magic) index(occ Bitboard) uint32 {
	return m.offset + uint32(((occ&m.mask)*m.magic)>>m.shift)
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s&63] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s&63] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c&1][s&63] }

// BishopAttacks returns the squares a bishop on s attacks given the
// occupied squares occ (the first blocker in each direction is included).
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s&63]
	return bishopTable[m.index(occ)]
}

// RookAttacks returns the squares a rook on s attacks given the occupied
// squares occ (the first blocker in each direction is included).
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s&63]
	return rookTable[m.index(occ)]
}

// QueenAttacks returns the squares a queen on s attacks given occ.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return BishopAttacks(s, occ) | RookAttacks(s, occ)
}

// Line returns the full line (edge to edge) through a and b when they
// share a rank, file or diagonal, else the empty set.
func Line(a, b Square) Bitboard { return lineBB[a&63][b&63] }

// bishopAtt and rookAtt are the unchecked internal forms used on hot paths.
func bishopAtt(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return bishopTable[m.offset+uint32(((occ&m.mask)*m.magic)>>m.shift)]
}

func rookAtt(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return rookTable[m.offset+uint32(((occ&m.mask)*m.magic)>>m.shift)]
}

// attacksOf returns the attacks of a non-pawn piece type from s.
func attacksOf(pt PieceType, s Square, occ Bitboard) Bitboard {
	switch pt {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return bishopAtt(s, occ)
	case Rook:
		return rookAtt(s, occ)
	case Queen:
		return bishopAtt(s, occ) | rookAtt(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slidingAttack computes attacks the slow way, by walking each direction.
func slidingAttack(dirs *[4][2]int, s Square, occ Bitboard) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := s.File(), s.Rank()
		for {
			f += d[0]
			r += d[1]
			if f < 0 || f > 7 || r < 0 || r > 7 {
				break
			}
			b := Bitboard(1) << (r*8 + f)
			att |= b
			if occ&b != 0 {
				break
			}
		}
	}
	return att
}

func stepAttacks(s Square, steps [][2]int) Bitboard {
	var att Bitboard
	for _, d := range steps {
		f, r := s.File()+d[0], s.Rank()+d[1]
		if f >= 0 && f < 8 && r >= 0 && r < 8 {
			att |= 1 << (r*8 + f)
		}
	}
	return att
}

// xorshift64star is the deterministic generator used by the magic search.
type xorshift64star uint64

func (x *xorshift64star) next() uint64 {
	s := uint64(*x)
	s ^= s >> 12
	s ^= s << 25
	s ^= s >> 27
	*x = xorshift64star(s)
	return s * 2685821657736338717
}

// sparse returns a random number with about 1/8 of its bits set.
func (x *xorshift64star) sparse() uint64 { return x.next() & x.next() & x.next() }

// initMagics fills magics and table for one slider kind. For each square
// it first tries the multiplier in known (see magics.go) and falls back to
// the deterministic search if that one does not work (never the case with
// the shipped constants; TestMagicsReproducible checks that the search
// reproduces them). Either way the result is the same on every run.
func initMagics(magics *[64]magic, table []Bitboard, dirs *[4][2]int, known *[64]Bitboard) {
	var occupancy, reference [4096]Bitboard
	offset := uint32(0)
	for s := Square(0); s < 64; s++ {
		edges := ((Rank1 | Rank8) &^ RankBB(s.Rank())) | ((FileA | FileH) &^ FileBB(s.File()))
		m := &magics[s]
		m.mask = slidingAttack(dirs, s, 0) &^ edges
		m.shift = uint8(64 - m.mask.Count())
		m.offset = offset
		// Enumerate all subsets of the mask (Carry-Rippler trick).
		size := 0
		for b := Bitboard(0); ; {
			occupancy[size] = b
			reference[size] = slidingAttack(dirs, s, b)
			size++
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		sub := table[offset : offset+uint32(size)]
		offset += uint32(size)
		if known != nil {
			// Attack sets are never empty, so 0 marks a free slot.
			m.magic = known[s]
			ok := true
			for i := 0; i < size; i++ {
				idx := ((occupancy[i] & m.mask) * m.magic) >> m.shift
				if sub[idx] == 0 {
					sub[idx] = reference[i]
				} else if sub[idx] != reference[i] {
					ok = false
					break
				}
			}
			if ok {
				continue
			}
			clear(sub)
		}
		m.magic = findMagic(s, m.mask, m.shift, occupancy[:size], reference[:size], sub)
	}
	if int(offset) != len(table) {
		panic("board: magic table size mismatch")
	}
}

// findMagic searches for a magic multiplier for square s the way
// Stockfish does (a sparse random candidate from a fixed-seed generator
// per rank, accepted when it maps every occupancy without destructive
// collision) and leaves the attack sets in sub.
func findMagic(s Square, mask Bitboard, shift uint8, occupancy, reference, sub []Bitboard) Bitboard {
	seeds := [8]uint64{728, 10316, 55013, 32803, 12281, 15100, 16645, 255}
	var epoch [4096]int
	cnt := 0
	rng := xorshift64star(seeds[s.Rank()])
	var mg Bitboard
	for i := 0; i < len(occupancy); {
		for mg = 0; ((mg * mask) >> 56).Count() < 6; {
			mg = Bitboard(rng.sparse())
		}
		cnt++
		for i = 0; i < len(occupancy); i++ {
			idx := ((occupancy[i] & mask) * mg) >> shift
			if epoch[idx] < cnt {
				epoch[idx] = cnt
				sub[idx] = reference[i]
			} else if sub[idx] != reference[i] {
				break
			}
		}
	}
	return mg
}

func init() {
	knightSteps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for s := Square(0); s < 64; s++ {
		knightAttacks[s] = stepAttacks(s, knightSteps)
		kingAttacks[s] = stepAttacks(s, kingSteps)
		pawnAttacks[White][s] = stepAttacks(s, [][2]int{{-1, 1}, {1, 1}})
		pawnAttacks[Black][s] = stepAttacks(s, [][2]int{{-1, -1}, {1, -1}})
		rookPseudo[s] = slidingAttack(&rookDirs, s, 0)
		bishopPseudo[s] = slidingAttack(&bishopDirs, s, 0)
	}
	initMagics(&rookMagics, rookTable[:], &rookDirs, &rookMagicNumbers)
	initMagics(&bishopMagics, bishopTable[:], &bishopDirs, &bishopMagicNumbers)

	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			bb := b.Bitboard()
			switch {
			case rookPseudo[a]&bb != 0:
				lineBB[a][b] = (rookPseudo[a] & rookPseudo[b]) | a.Bitboard() | bb
				betweenBB[a][b] = rookAtt(a, bb) & rookAtt(b, a.Bitboard())
			case bishopPseudo[a]&bb != 0:
				lineBB[a][b] = (bishopPseudo[a] & bishopPseudo[b]) | a.Bitboard() | bb
				betweenBB[a][b] = bishopAtt(a, bb) & bishopAtt(b, a.Bitboard())
			}
		}
	}

	for s := range castleKeep {
		castleKeep[s] = WhiteKingSide | WhiteQueenSide | BlackKingSide | BlackQueenSide
	}
	castleKeep[E1] &^= WhiteKingSide | WhiteQueenSide
	castleKeep[H1] &^= WhiteKingSide
	castleKeep[A1] &^= WhiteQueenSide
	castleKeep[E8] &^= BlackKingSide | BlackQueenSide
	castleKeep[H8] &^= BlackKingSide
	castleKeep[A8] &^= BlackQueenSide
}
