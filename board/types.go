// Package board is the project's own chess position core: bitboards, FEN
// (X-FEN and Shredder-FEN castling fields too), legal move generation, make
// move, and SAN / UCI notation, for standard chess and for Chess960 castling
// (each position has its castling mode and setup: see CastlingMode).
//
// It is built for the replay hot path of the book builder: a Position is a
// small value type (copy it to undo), and parsing a SAN move, formatting one
// and playing one allocate nothing.
//
// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (rank*8 + file), the same
// numbering the Polyglot book format uses.
package board

// Color is the side a piece belongs to or the side to move.
type Color uint8

// The two colours.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "w" or "b", as in FEN.
func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// The piece types. NoPieceType is the zero value.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece: color<<3 | type. NoPiece (0) marks an empty square.
type Piece uint8

// The twelve pieces, and NoPiece for an empty square.
const (
	NoPiece     Piece = 0
	WhitePawn   Piece = Piece(White)<<3 | Piece(Pawn)
	WhiteKnight Piece = Piece(White)<<3 | Piece(Knight)
	WhiteBishop Piece = Piece(White)<<3 | Piece(Bishop)
	WhiteRook   Piece = Piece(White)<<3 | Piece(Rook)
	WhiteQueen  Piece = Piece(White)<<3 | Piece(Queen)
	WhiteKing   Piece = Piece(White)<<3 | Piece(King)
	BlackPawn   Piece = Piece(Black)<<3 | Piece(Pawn)
	BlackKnight Piece = Piece(Black)<<3 | Piece(Knight)
	BlackBishop Piece = Piece(Black)<<3 | Piece(Bishop)
	BlackRook   Piece = Piece(Black)<<3 | Piece(Rook)
	BlackQueen  Piece = Piece(Black)<<3 | Piece(Queen)
	BlackKing   Piece = Piece(Black)<<3 | Piece(King)
)

// MakePiece returns the piece of colour c and type t.
func MakePiece(c Color, t PieceType) Piece { return Piece(c)<<3 | Piece(t) }

// Color returns the piece's colour (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// Type returns the piece's type, NoPieceType for NoPiece.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Square is a board square, a1 = 0 ... h8 = 63. NoSquare (64) means none.
type Square uint8

// NoSquare marks the absence of a square (for example no en-passant square).
const NoSquare Square = 64

// Named squares used by castling and tests.
const (
	A1 Square = 0
	B1 Square = 1
	C1 Square = 2
	D1 Square = 3
	E1 Square = 4
	F1 Square = 5
	G1 Square = 6
	H1 Square = 7
	A8 Square = 56
	B8 Square = 57
	C8 Square = 58
	D8 Square = 59
	E8 Square = 60
	F8 Square = 61
	G8 Square = 62
	H8 Square = 63
)

// MakeSquare returns the square on file f (0 = a) and rank r (0 = 1).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file ... 7 for the h-file.
func (s Square) File() int { return int(s & 7) }

// Rank returns 0 for the first rank ... 7 for the eighth.
func (s Square) Rank() int { return int(s >> 3) }

// String returns the square's name such as "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// Bitboard is a set of squares, bit i standing for square i.
type Bitboard uint64

// CastlingRights is a set of the four castling rights.
type CastlingRights uint8

// The four castling rights.
const (
	WhiteKingSide  CastlingRights = 1 // K
	WhiteQueenSide CastlingRights = 2 // Q
	BlackKingSide  CastlingRights = 4 // k
	BlackQueenSide CastlingRights = 8 // q
)

// Move is a move in 16 bits: from (bits 0-5), to (bits 6-11), promotion
// piece type minus one in bits 12-13 (Knight..Queen), and the kind in bits
// 14-15. Castling (kind MoveCastling) is stored as the king's move (e1g1,
// e1c1, e8g8, e8c8) in standard positions, and as king takes own rook
// (e1h1) in Chess960 positions (see CastlingMode); either way To is on the
// king's side the castling goes to. The zero Move is NullMove, never a
// legal move.
type Move uint16

// The move kinds.
const (
	MoveNormal    Move = 0 << 14
	MovePromotion Move = 1 << 14
	MoveEnPassant Move = 2 << 14
	MoveCastling  Move = 3 << 14
)

// NullMove is the zero Move; it is never legal.
const NullMove Move = 0

// NewMove returns a normal (non-special) move from one square to another.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// NewPromotion returns a promotion move to the piece type pt (Knight..Queen).
func NewPromotion(from, to Square, pt PieceType) Move {
	return Move(from) | Move(to)<<6 | Move(pt-Knight)<<12 | MovePromotion
}

// From returns the square the move starts on.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the move ends on (for castling, the king's
// destination in standard positions, the castling rook's square in Chess960
// positions).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind returns MoveNormal, MovePromotion, MoveEnPassant or MoveCastling.
func (m Move) Kind() Move { return m & (3 << 14) }

// Promotion returns the piece type promoted to, or NoPieceType.
func (m Move) Promotion() PieceType {
	if m.Kind() != MovePromotion {
		return NoPieceType
	}
	return PieceType(m>>12&3) + Knight
}

// Position is a chess position. It is a plain value: copy it to keep a
// position before playing a move on the copy. The zero Position is empty and
// not valid; use StartPosition or ParseFEN.
type Position struct {
	byType   [7]Bitboard // indexed by PieceType; byType[0] is unused
	byColor  [2]Bitboard
	squares  [64]Piece
	side     Color
	castling CastlingRights
	mode     CastlingMode // standard or Chess960
	// castleX[i] is the castleGeometry index of right i (K, Q, k, q) XOR
	// its standard one: zero (the zero value) is standard chess's setup.
	castleX [4]uint8
	// ep is the square a pawn skipped over by a double step on the previous
	// move (FEN's en-passant field as PGN writes it: set after every double
	// step, whether or not a capture is possible), or NoSquare.
	ep       Square
	halfmove uint16 // half-move clock for the 50-move rule
	fullmove uint16 // full-move number, starting at 1
}

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.squares[s] }

// Pieces returns the squares holding pieces of colour c and type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byType[t] & p.byColor[c] }

// ByType returns the squares holding pieces of type t, of either colour.
func (p *Position) ByType(t PieceType) Bitboard { return p.byType[t] }

// ByColor returns the squares holding pieces of colour c.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byColor[White] | p.byColor[Black] }

// SideToMove returns the colour to move.
func (p *Position) SideToMove() Color { return p.side }

// Castling returns the castling rights.
func (p *Position) Castling() CastlingRights { return p.castling }

// EPSquare returns the en-passant target square as FEN/PGN records it (set
// after every double pawn step), or NoSquare. See LegalEPSquare.
func (p *Position) EPSquare() Square { return p.ep }

// HalfMoveClock returns the number of half-moves since the last capture or pawn move.
func (p *Position) HalfMoveClock() int { return int(p.halfmove) }

// FullMoveNumber returns the full-move number (1 in the start position).
func (p *Position) FullMoveNumber() int { return int(p.fullmove) }
