package board

import "fmt"

// Castling, per position. A Position knows, for each of its four castling
// rights, the square of the castling rook and the king's start square (its
// castling setup), and its castling mode:
//
//   - CastlingStandard: the kings start on e1 / e8 and the castling rooks
//     on a1, h1, a8, h8. A castling move is the king's two-square move
//     (e1g1), in a Move, in UCI and in the book formats.
//   - CastlingChess960: the kings and castling rooks start anywhere on the
//     back ranks, the king between its two rooks. After castling the king
//     stands on the g- or c-file and the rook on the f- or d-file, as in
//     standard chess; every square between the king and its destination and
//     between the rook and its destination must be empty but for the king
//     and the castling rook, and no square the king stands on, crosses or
//     reaches may be attacked (with the castling rook off the board: it
//     may shield none of them). A castling move is "king takes own rook"
//     (e1h1), in a Move and in UCI (UCI_Chess960); ParseUCI takes the
//     king's destination (e1g1) too.
//
// Standard positions (StartPosition, Clear, ParseFEN with the castling
// rooks and king on a / h and e) are in standard mode and behave exactly as
// standard chess does; a FEN whose castling rooks or king are elsewhere
// gives a Chess960 position. A right is lost when the king moves, or when the castling rook
// moves or is captured.

// CastlingMode is the castling rule of a position: standard chess or
// Chess960. The zero value is CastlingStandard.
type CastlingMode uint8

// The castling modes.
const (
	CastlingStandard CastlingMode = 0
	CastlingChess960 CastlingMode = 1
)

// String returns "standard" or "chess960".
func (m CastlingMode) String() string {
	switch m {
	case CastlingStandard:
		return "standard"
	case CastlingChess960:
		return "chess960"
	}
	return fmt.Sprintf("CastlingMode(%d)", uint8(m))
}

// castleSide is the geometry of one castling move: a king and a rook of one
// colour on their back rank, the rook on the king's side the move goes to.
type castleSide struct {
	king, kingTo Square
	rook, rookTo Square
	// empty must be empty: the squares the king and the rook go over or
	// to, but their own two squares.
	empty Bitboard
	// safe must not be attacked, the castling rook off the board: the
	// squares the king goes over or to, its destination even when it is
	// its own square (the castling rook may shield it there); not its own
	// square otherwise (the king must not be in check, which is checked
	// with the rook in place).
	safe Bitboard
}

// castleGeometry[c<<6 | kingFile<<3 | rookFile] is the castling geometry of
// colour c with its king and rook on those files of its back rank (king
// side when the rook's file is higher, queen side when lower; entries with
// king and rook on one file are unused). A table computed once at init from
// the rule above, never written afterwards: it is not the geometry of a
// variant but of every king and rook placement; each position says which
// entries are its own (Position.castleX).
var castleGeometry = func() (t [128]castleSide) {
	for c := 0; c < 2; c++ {
		for kf := 0; kf < 8; kf++ {
			for rf := 0; rf < 8; rf++ {
				if kf == rf {
					continue
				}
				rank := 7 * c
				king, rook := MakeSquare(kf, rank), MakeSquare(rf, rank)
				kingTo, rookTo := MakeSquare(6, rank), MakeSquare(5, rank)
				if rf < kf {
					kingTo, rookTo = MakeSquare(2, rank), MakeSquare(3, rank)
				}
				path := squaresFromTo(king, kingTo)
				t[c<<6|kf<<3|rf] = castleSide{
					king: king, kingTo: kingTo, rook: rook, rookTo: rookTo,
					empty: (path | squaresFromTo(rook, rookTo)) &^ (king.Bitboard() | rook.Bitboard()),
					safe:  path&^king.Bitboard() | kingTo.Bitboard(),
				}
			}
		}
	}
	return t
}()

// squaresFromTo returns the squares of one rank from a to b, both included.
func squaresFromTo(a, b Square) Bitboard {
	if a > b {
		a, b = b, a
	}
	var bb Bitboard
	for s := a; s <= b; s++ {
		bb |= s.Bitboard()
	}
	return bb
}

// castleIndex returns the castleGeometry index of colour c's king on file
// kf and rook on file rf.
func castleIndex(c Color, kf, rf int) uint8 { return uint8(c&1)<<6 | uint8(kf&7)<<3 | uint8(rf&7) }

// standardCastle is the castleGeometry index of each right (by bit: K, Q,
// k, q) in standard chess: kings on e1 / e8, rooks in the corners.
var standardCastle = [4]uint8{
	castleIndex(White, 4, 7), castleIndex(White, 4, 0),
	castleIndex(Black, 4, 7), castleIndex(Black, 4, 0),
}

// standardSides[c] is colour c's castling geometry in standard chess, king
// side then queen side, with the right of each: castleGeometry's entries
// of the standard setup, for the standard path of MoveSets.
var standardSides = func() (t [2][2]struct {
	right CastlingRights
	castleSide
}) {
	for i := 0; i < 4; i++ {
		t[i/2][i%2].right = 1 << i
		t[i/2][i%2].castleSide = castleGeometry[standardCastle[i]]
	}
	return t
}()

// castles960 returns the rook squares of the legal castlings of the side to
// move us (not in check, its king on ksq, occ the occupied squares) in a
// Chess960 position: MoveSets' Chess960 path.
//
//go:noinline
func (p *Position) castles960(us Color, ksq Square, occ Bitboard) Bitboard {
	var castles Bitboard
	for i := 2 * int(us); i < 2*int(us)+2; i++ {
		if ci := p.castle(i); p.castlePossible(1<<i, ci, ksq, occ) && p.castleSafe(ci, us^1, occ) {
			castles |= 1 << ci.rook
		}
	}
	return castles
}

// castle returns the geometry of right i (0 K, 1 Q, 2 k, 3 q) in p.
func (p *Position) castle(i int) *castleSide {
	return &castleGeometry[p.castleX[i&3]^standardCastle[i&3]]
}

// castlePossible reports whether the castling of ci meets every condition
// but the safety of the king's path: the right r, the king and the rook in
// place, the squares between them and their destinations empty.
func (p *Position) castlePossible(r CastlingRights, ci *castleSide, ksq Square, occ Bitboard) bool {
	return p.castling&r != 0 && ksq == ci.king && occ&ci.empty == 0 &&
		p.squares[ci.rook] == MakePiece(p.side&1, Rook)
}

// castleSafe reports whether no square of ci.safe is attacked by them,
// the castling rook taken off the board (in Chess960 it may shield a
// square the king reaches from a slider behind it; in standard chess it
// never does).
func (p *Position) castleSafe(ci *castleSide, them Color, occ Bitboard) bool {
	occ &^= ci.rook.Bitboard()
	for s := ci.safe; s != 0; {
		if p.attackedBy(s.PopLSB(), them, occ, ^Bitboard(0)) {
			return false
		}
	}
	return true
}

// castleMove returns the Move of the castling of ci in p's mode: the king's
// move to its destination in standard chess, king takes own rook in Chess960.
func (p *Position) castleMove(ci *castleSide) Move {
	if p.mode == CastlingChess960 {
		return NewMove(ci.king, ci.rook) | MoveCastling
	}
	return NewMove(ci.king, ci.kingTo) | MoveCastling
}

// castleOf returns the index (0 K, 1 Q, 2 k, 3 q) of the right the castling
// move m of the side to move uses: king side when it goes toward the h-file
// (to the g-file, or takes the rook on a higher file), else queen side.
func (p *Position) castleOf(m Move) int {
	i := int(p.side&1) * 2
	if m.To() < m.From() {
		i++
	}
	return i
}

// playCastling plays the castling move m (either mode's encoding): the
// king and the rook to their destinations, the mover's rights gone, the
// clocks and the side to move as Play does.
func (p *Position) playCastling(m Move) {
	us := p.side & 1
	ci := p.castle(p.castleOf(m))
	kingMove := ci.king.Bitboard() ^ ci.kingTo.Bitboard() // 0 when the king stays
	rookMove := ci.rook.Bitboard() ^ ci.rookTo.Bitboard()
	p.byType[King] ^= kingMove
	p.byType[Rook] ^= rookMove
	p.byColor[us] ^= kingMove ^ rookMove
	p.squares[ci.king] = NoPiece
	p.squares[ci.rook] = NoPiece
	p.squares[ci.kingTo] = MakePiece(us, King)
	p.squares[ci.rookTo] = MakePiece(us, Rook)
	p.castling &^= 3 << (2 * us)
	if p.halfmove < 65535 {
		p.halfmove++
	}
	p.ep = NoSquare
	if us == Black && p.fullmove < 65535 {
		p.fullmove++
	}
	p.side = us ^ 1
}

// castleKeep960 returns the castling rights that survive a move from one
// square to another in a Chess960 position: a king that moves loses both
// its rights, a castling rook that moves or is taken its own. (Not inlined:
// Play's standard path stays small.)
//
//go:noinline
func (p *Position) castleKeep960(from, to Square) CastlingRights {
	keep := CastlingRights(15)
	for i := 0; i < 4; i++ {
		if ci := p.castle(i); from == ci.king || from == ci.rook || to == ci.rook {
			keep &^= 1 << i
		}
	}
	return keep
}

// CastlingMode returns the position's castling mode.
func (p *Position) CastlingMode() CastlingMode { return p.mode }

// SetCastlingMode sets the castling mode. Setting CastlingStandard also
// resets the castling setup to standard chess's (kings on e1 / e8, rooks in
// the corners); setting CastlingChess960 keeps the setup (a standard setup
// in Chess960 mode is Chess960's position 518: castling moves become king
// takes own rook). Validate checks the rights against the setup.
func (p *Position) SetCastlingMode(m CastlingMode) {
	if m != CastlingChess960 {
		p.mode = CastlingStandard
		p.castleX = [4]uint8{}
		return
	}
	p.mode = CastlingChess960
}

// CastlingSquares returns the king's start square and the castling rook's
// square of the single right r (WhiteKingSide ... BlackQueenSide) in p's
// castling setup, whether p holds the right or not; NoSquare twice when r
// is not a single right.
func (p *Position) CastlingSquares(r CastlingRights) (king, rook Square) {
	i := rightIndex(r)
	if i < 0 {
		return NoSquare, NoSquare
	}
	ci := p.castle(i)
	return ci.king, ci.rook
}

// SetCastlingSquares sets the king's start square and the castling rook's
// square of the single right r (WhiteKingSide ... BlackQueenSide): both on
// the right's back rank, the rook on the right's side of the king. A setup
// other than standard chess's switches p to CastlingChess960. It does not
// grant the right (SetCastling does); Validate checks the pieces are there
// and that a colour's two rights share the king's square.
func (p *Position) SetCastlingSquares(r CastlingRights, king, rook Square) error {
	i := rightIndex(r)
	if i < 0 {
		return fmt.Errorf("board: SetCastlingSquares: %d is not a single castling right", r)
	}
	c := Color(i / 2)
	rank := 7 * int(c)
	if king >= NoSquare || rook >= NoSquare || king.Rank() != rank || rook.Rank() != rank {
		return fmt.Errorf("board: castling right %c: king %v and rook %v must be on rank %d", rightLetters[i], king, rook, rank+1)
	}
	if kingSide := i%2 == 0; kingSide != (rook.File() > king.File()) || king == rook {
		return fmt.Errorf("board: castling right %c: rook %v is not on the %s side of king %v", rightLetters[i], rook, sideName(i), king)
	}
	p.castleX[i] = castleIndex(c, king.File(), rook.File()) ^ standardCastle[i]
	if p.castleX[i] != 0 {
		p.mode = CastlingChess960
	}
	return nil
}

// rightLetters are the rights' FEN letters by index.
const rightLetters = "KQkq"

// rightIndex returns the index (0 K, 1 Q, 2 k, 3 q) of a single right, or -1.
func rightIndex(r CastlingRights) int {
	switch r {
	case WhiteKingSide:
		return 0
	case WhiteQueenSide:
		return 1
	case BlackKingSide:
		return 2
	case BlackQueenSide:
		return 3
	}
	return -1
}

func sideName(i int) string {
	if i%2 == 0 {
		return "king"
	}
	return "queen"
}

// validateCastling checks the castling rights against the setup: for every
// right, the king on its start square and the rook on its square; a
// colour's two rights with one king square.
func (p *Position) validateCastling() error {
	for i := 0; i < 4; i++ {
		if p.castling&(1<<i) == 0 {
			continue
		}
		ci := p.castle(i)
		c := Color(i / 2)
		if p.squares[ci.king] != MakePiece(c, King) {
			return fmt.Errorf("castling right %c but no %s king on %v", rightLetters[i], colorName(c), ci.king)
		}
		if p.squares[ci.rook] != MakePiece(c, Rook) {
			return fmt.Errorf("castling right %c but no %s rook on %v", rightLetters[i], colorName(c), ci.rook)
		}
	}
	for c := 0; c < 2; c++ {
		if p.castling>>(2*c)&3 == 3 && p.castle(2*c).king != p.castle(2*c+1).king {
			return fmt.Errorf("the %s castling rights have two king squares, %v and %v", colorName(Color(c)), p.castle(2*c).king, p.castle(2*c+1).king)
		}
	}
	if p.mode != CastlingStandard && p.mode != CastlingChess960 {
		return fmt.Errorf("bad castling mode %d", p.mode)
	}
	return nil
}

// parseCastling parses FEN's castling field: "-", or letters from KQkq
// (X-FEN: the outermost rook on that side of the king) and file letters
// A-H / a-h (Shredder-FEN and X-FEN: the rook on that file). The placement
// must have been parsed. A field whose rights all have the king on the
// e-file and the rooks in the corners gives a standard position; any other
// a Chess960 one.
func (p *Position) parseCastling(s, f string) error {
	if f == "-" {
		return nil
	}
	var seen [4]bool
	for j := 0; j < len(f); j++ {
		c := f[j]
		var color Color
		var letter byte
		switch {
		case c == 'K' || c == 'Q' || (c >= 'A' && c <= 'H'):
			color, letter = White, c
		case c == 'k' || c == 'q' || (c >= 'a' && c <= 'h'):
			color, letter = Black, c-'a'+'A'
		default:
			return fenError(s, "bad castling field %q: unexpected %q, want \"-\" or letters from KQkq (X-FEN) or A-H / a-h (Shredder-FEN)", f, c)
		}
		rank := 7 * int(color)
		ksq := p.Pieces(color, King) & RankBB(rank)
		i := int(color) * 2
		var rook Square
		switch {
		case letter == 'K' || letter == 'Q':
			if letter == 'Q' {
				i++
			}
			if seen[i] {
				return fenError(s, "bad castling field %q: %q repeated", f, c)
			}
			seen[i] = true
			p.castling |= 1 << i
			if ksq == 0 || ksq.Several() {
				continue // standard squares; validate names what is missing
			}
			kf := ksq.LSB().File()
			rooks := p.Pieces(color, Rook) & RankBB(rank)
			rook = NoSquare
			for r := rooks; r != 0; {
				s := r.PopLSB()
				if letter == 'K' && s.File() > kf {
					rook = s // the highest file: the outermost
				}
				if letter == 'Q' && s.File() < kf && rook == NoSquare {
					rook = s // the lowest file: the outermost
				}
			}
			if rook == NoSquare {
				if kf == 4 {
					continue // standard squares; validate names the missing rook
				}
				return fenError(s, "bad castling field %q: %q but no %s rook on the %s side of the %s king on %v", f, c, colorName(color), sideName(i), colorName(color), ksq.LSB())
			}
		default:
			rf := int(letter - 'A')
			if ksq == 0 || ksq.Several() {
				return fenError(s, "bad castling field %q: %q but no single %s king on rank %d", f, c, colorName(color), rank+1)
			}
			kf := ksq.LSB().File()
			if rf == kf {
				return fenError(s, "bad castling field %q: %q names the file of the %s king", f, c, colorName(color))
			}
			if rf < kf {
				i++
			}
			if seen[i] {
				return fenError(s, "bad castling field %q: %q gives the %s %s-side right twice", f, c, colorName(color), sideName(i))
			}
			seen[i] = true
			p.castling |= 1 << i
			rook = MakeSquare(rf, rank)
			if p.squares[rook] != MakePiece(color, Rook) {
				return fenError(s, "bad castling field %q: %q but no %s rook on %v", f, c, colorName(color), rook)
			}
		}
		if err := p.SetCastlingSquares(1<<i, ksq.LSB(), rook); err != nil {
			return fenError(s, "bad castling field %q: %v", f, err)
		}
	}
	return nil
}

// appendCastling appends FEN's castling field: KQkq in standard mode; in
// Chess960 mode X-FEN: K / Q (k / q) for the outermost rook on its side,
// the rook's file letter (upper case for White) when another rook of the
// colour stands further out on the back rank.
func (p *Position) appendCastling(dst []byte) []byte {
	if p.castling&15 == 0 {
		return append(dst, '-')
	}
	for i := 0; i < 4; i++ {
		if p.castling&(1<<i) == 0 {
			continue
		}
		letter := rightLetters[i]
		if p.mode == CastlingChess960 {
			ci := p.castle(i)
			c := Color(i / 2)
			var outer Bitboard // the back-rank squares beyond the rook
			if i%2 == 0 {
				outer = squaresFromTo(ci.rook, MakeSquare(7, 7*int(c))) &^ ci.rook.Bitboard()
			} else {
				outer = squaresFromTo(MakeSquare(0, 7*int(c)), ci.rook) &^ ci.rook.Bitboard()
			}
			if outer&p.Pieces(c, Rook) != 0 {
				letter = 'A' + byte(ci.rook.File())
				if c == Black {
					letter += 'a' - 'A'
				}
			}
		}
		dst = append(dst, letter)
	}
	return dst
}
