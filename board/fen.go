package board

import (
	"errors"
	"fmt"
	"strconv"
)

// StartFEN is the FEN of the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// fenError builds a ParseFEN error naming the FEN and the problem.
func fenError(fen string, format string, args ...any) error {
	if len(fen) > 200 {
		fen = fen[:200] + "..."
	}
	return fmt.Errorf("board: fen %q: %s", fen, fmt.Sprintf(format, args...))
}

// pieceFromLetter returns the piece for a FEN letter, or NoPiece.
func pieceFromLetter(c byte) Piece {
	switch c {
	case 'P':
		return WhitePawn
	case 'N':
		return WhiteKnight
	case 'B':
		return WhiteBishop
	case 'R':
		return WhiteRook
	case 'Q':
		return WhiteQueen
	case 'K':
		return WhiteKing
	case 'p':
		return BlackPawn
	case 'n':
		return BlackKnight
	case 'b':
		return BlackBishop
	case 'r':
		return BlackRook
	case 'q':
		return BlackQueen
	case 'k':
		return BlackKing
	}
	return NoPiece
}

// ErrChess960Castling is the error of ParseStandardFEN for a FEN whose
// castling rights need Chess960's rules (a castling king off the e-file or
// a castling rook off the a- and h-files).
var ErrChess960Castling = errors.New("castling rights of a Chess960 setup in a standard chess position")

// ParseStandardFEN parses s as ParseFEN does and refuses a Chess960
// position (ErrChess960Castling): the reader of FENs for standard chess
// (a PGN's FEN tag, a query of a standard book).
func ParseStandardFEN(s string) (Position, error) {
	p, err := ParseFEN(s)
	if err == nil && p.mode != CastlingStandard {
		err = ErrChess960Castling
	}
	return p, err
}

// ParseFEN parses a position in Forsyth-Edwards Notation and checks that it
// is a legal standard-chess position (see Validate). The half-move clock and
// full-move number may be omitted (they default to 0 and 1). Fields must be
// separated by single spaces; leading and trailing white space is ignored.
// The castling field may be X-FEN (KQkq, a file letter for a rook that is
// not the outermost on its side) or Shredder-FEN (file letters, "HAha"); a
// position whose castling kings and rooks are on e and a / h is a standard
// position (CastlingStandard) whichever is used, any other a Chess960 one.
func ParseFEN(s string) (Position, error) {
	var p Position
	p.Clear()
	fen := trimSpace(s)

	// Split into at most 7 fields so that extra fields are detected.
	var fields [7]string
	n := 0
	for start := 0; start <= len(fen); {
		end := start
		for end < len(fen) && fen[end] != ' ' {
			end++
		}
		if n == len(fields) {
			n++
			break
		}
		fields[n] = fen[start:end]
		n++
		start = end + 1
	}
	if fen == "" {
		return Position{}, fenError(s, "empty")
	}
	for i := 0; i < n && i < len(fields); i++ {
		if fields[i] == "" {
			return Position{}, fenError(s, "fields must be separated by single spaces")
		}
	}
	if n < 4 || n > 6 {
		if n > 6 {
			return Position{}, fenError(s, "has more than 6 fields")
		}
		return Position{}, fenError(s, "has %d fields, want 4 to 6 (placement, side, castling, en passant[, half-move clock, full-move number])", n)
	}

	if err := p.parsePlacement(s, fields[0]); err != nil {
		return Position{}, err
	}

	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return Position{}, fenError(s, "bad side to move %q, want \"w\" or \"b\"", fields[1])
	}

	if err := p.parseCastling(s, fields[2]); err != nil {
		return Position{}, err
	}

	if ep := fields[3]; ep != "-" {
		if len(ep) != 2 || ep[0] < 'a' || ep[0] > 'h' || ep[1] < '1' || ep[1] > '8' {
			return Position{}, fenError(s, "bad en-passant field %q, want a square or \"-\"", ep)
		}
		p.ep = MakeSquare(int(ep[0]-'a'), int(ep[1]-'1'))
	}

	if n >= 5 {
		v, err := parseClock(fields[4])
		if err != nil {
			return Position{}, fenError(s, "bad half-move clock %q: %v", fields[4], err)
		}
		p.halfmove = uint16(v)
	}
	if n >= 6 {
		v, err := parseClock(fields[5])
		if err == nil && v == 0 {
			err = errors.New("must be at least 1")
		}
		if err != nil {
			return Position{}, fenError(s, "bad full-move number %q: %v", fields[5], err)
		}
		p.fullmove = uint16(v)
	}

	if err := p.validate(); err != nil {
		return Position{}, fenError(s, "%v", err)
	}
	return p, nil
}

func trimSpace(s string) string {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// parseClock parses a clock field: decimal digits only, at most 65535.
func parseClock(f string) (int, error) {
	if len(f) == 0 || len(f) > 5 {
		return 0, errors.New("want a number from 0 to 65535")
	}
	for i := 0; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' {
			return 0, errors.New("not a decimal number")
		}
	}
	v, err := strconv.Atoi(f)
	if err != nil || v > 65535 {
		return 0, errors.New("want a number from 0 to 65535")
	}
	return v, nil
}

// parsePlacement parses FEN's first field into p's board.
func (p *Position) parsePlacement(s, f string) error {
	rank, file := 7, 0
	prevDigit := false
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '/':
			if file != 8 {
				return fenError(s, "rank %d has %d squares, want 8", rank+1, file)
			}
			if rank == 0 {
				return fenError(s, "piece placement has more than 8 ranks")
			}
			rank--
			file = 0
			prevDigit = false
		case c >= '1' && c <= '8':
			if prevDigit {
				return fenError(s, "rank %d has two consecutive digits", rank+1)
			}
			file += int(c - '0')
			if file > 8 {
				return fenError(s, "rank %d has %d squares, want 8", rank+1, file)
			}
			prevDigit = true
		default:
			pc := pieceFromLetter(c)
			if pc == NoPiece {
				return fenError(s, "bad piece letter %q in rank %d", c, rank+1)
			}
			if file >= 8 {
				return fenError(s, "rank %d has %d squares, want 8", rank+1, file+1)
			}
			p.Put(MakeSquare(file, rank), pc)
			file++
			prevDigit = false
		}
	}
	if file != 8 {
		return fenError(s, "rank %d has %d squares, want 8", rank+1, file)
	}
	if rank != 0 {
		return fenError(s, "piece placement has %d ranks, want 8", 8-rank)
	}
	return nil
}

// Validate checks that p is a legal standard-chess position, doing every
// check ParseFEN does after the syntax:
//   - consistent internal state (only broken by misuse);
//   - exactly one king per side, at most 8 pawns and 16 men per side, and no
//     more promoted pieces than missing pawns;
//   - no pawn on the first or eighth rank;
//   - castling rights only with king and rook on their start squares (see
//     CastlingSquares);
//   - an en-passant square only on the sixth rank with white to move (third
//     rank with black to move), with the pawn that just double-stepped in
//     front of it, and the square itself and the one the pawn came from empty;
//   - the side not to move not in check, the side to move checked by at most
//     two pieces;
//   - a full-move number of at least 1.
//
// The error names the first problem found.
func (p *Position) Validate() error {
	if err := p.validate(); err != nil {
		return fmt.Errorf("board: invalid position: %w", err)
	}
	return nil
}

func (p *Position) validate() error {
	if p.side > Black {
		return errors.New("bad side to move")
	}
	if p.castling > 15 {
		return errors.New("bad castling rights")
	}
	if p.ep > NoSquare {
		return errors.New("bad en-passant square")
	}
	// Internal consistency between the mailbox and the bitboards (only
	// reachable by misuse, but cheap to check).
	var byType [7]Bitboard
	var byColor [2]Bitboard
	for s := Square(0); s < 64; s++ {
		pc := p.squares[s]
		if pc == NoPiece {
			continue
		}
		if !pc.Valid() {
			return fmt.Errorf("invalid piece value %d on %v", pc, s)
		}
		byType[pc.Type()] |= s.Bitboard()
		byColor[pc.Color()] |= s.Bitboard()
	}
	if byType != p.byType || byColor != p.byColor {
		return errors.New("inconsistent internal state")
	}

	for _, c := range [2]Color{White, Black} {
		name := colorName(c)
		switch n := p.Pieces(c, King).Count(); n {
		case 1:
		case 0:
			return fmt.Errorf("%s has no king", name)
		default:
			return fmt.Errorf("%s has %d kings, want 1", name, n)
		}
		pawns := p.Pieces(c, Pawn).Count()
		if pawns > 8 {
			return fmt.Errorf("%s has %d pawns, more than 8", name, pawns)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return fmt.Errorf("%s has %d men, more than 16", name, n)
		}
		// Pieces beyond the initial set must come from promotions.
		promoted := max(p.Pieces(c, Knight).Count()-2, 0) + max(p.Pieces(c, Bishop).Count()-2, 0) +
			max(p.Pieces(c, Rook).Count()-2, 0) + max(p.Pieces(c, Queen).Count()-1, 0)
		if pawns+promoted > 8 {
			return fmt.Errorf("%s has %d pawns and %d promoted pieces, more than 8 in all", name, pawns, promoted)
		}
	}
	if b := p.byType[Pawn] & (Rank1 | Rank8); b != 0 {
		return fmt.Errorf("pawn on %v (first or eighth rank)", b.LSB())
	}

	if err := p.validateCastling(); err != nil {
		return err
	}

	if ep := p.ep; ep != NoSquare {
		wantRank, dir, pawn := 5, -8, BlackPawn // white to move: black just played x7-x5
		if p.side == Black {
			wantRank, dir, pawn = 2, 8, WhitePawn
		}
		if ep.Rank() != wantRank {
			return fmt.Errorf("en-passant square %v not on rank %d with %s to move", ep, wantRank+1, colorName(p.side))
		}
		if p.squares[ep] != NoPiece {
			return fmt.Errorf("en-passant square %v is occupied", ep)
		}
		if front := Square(int(ep) + dir); p.squares[front] != pawn {
			return fmt.Errorf("en-passant square %v without a %s pawn on %v that just double-stepped", ep, colorName(p.side^1), front)
		}
		if behind := Square(int(ep) - dir); p.squares[behind] != NoPiece {
			return fmt.Errorf("en-passant square %v but %v (where the pawn came from) is occupied", ep, behind)
		}
	}

	them := p.side ^ 1
	if p.attackers(p.KingSquare(them), p.Occupied())&p.byColor[p.side] != 0 {
		return fmt.Errorf("%s (not to move) is in check", colorName(them))
	}
	if n := p.Checkers().Count(); n > 2 {
		return fmt.Errorf("%s is in check by %d pieces", colorName(p.side), n)
	}
	if p.fullmove == 0 {
		return errors.New("full-move number is 0, want at least 1")
	}
	return nil
}

func colorName(c Color) string {
	if c == White {
		return "white"
	}
	return "black"
}

// FEN returns the position in Forsyth-Edwards Notation. The en-passant
// field is written as stored: set after every double pawn step. The
// castling field is KQkq in standard positions and X-FEN in Chess960 ones
// (a rook's file letter only where K / Q would mean another rook).
func (p *Position) FEN() string {
	var buf [96]byte
	return string(p.AppendFEN(buf[:0]))
}

// AppendFEN appends the position's FEN to dst and returns the result.
func (p *Position) AppendFEN(dst []byte) []byte {
	for r := 7; r >= 0; r-- {
		empty := byte(0)
		for f := 0; f < 8; f++ {
			pc := p.squares[r*8+f]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				dst = append(dst, '0'+empty)
				empty = 0
			}
			if pc.Valid() {
				dst = append(dst, pieceLetters[pc])
			} else {
				dst = append(dst, '?')
			}
		}
		if empty > 0 {
			dst = append(dst, '0'+empty)
		}
		if r > 0 {
			dst = append(dst, '/')
		}
	}
	dst = append(dst, ' ')
	if p.side == White {
		dst = append(dst, 'w')
	} else {
		dst = append(dst, 'b')
	}
	dst = append(dst, ' ')
	dst = p.appendCastling(dst)
	dst = append(dst, ' ')
	if p.ep < NoSquare {
		dst = append(dst, 'a'+byte(p.ep.File()), '1'+byte(p.ep.Rank()))
	} else {
		dst = append(dst, '-')
	}
	dst = append(dst, ' ')
	dst = strconv.AppendUint(dst, uint64(p.halfmove), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendUint(dst, uint64(p.fullmove), 10)
	return dst
}
