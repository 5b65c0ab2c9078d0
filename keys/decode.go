package keys

import (
	"bytes"
	"fmt"
	"math/bits"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/huffman"
	"github.com/chessbook/chessbook/multitable"
)

// decodeError builds an error wrapping ErrInvalidKey that names the key and
// the problem.
func decodeError(key []byte, format string, args ...any) error {
	k := key
	if len(k) > 2*MaxLen {
		k = k[:2*MaxLen]
	}
	return fmt.Errorf("%w %x: %s", ErrInvalidKey, k, fmt.Sprintf(format, args...))
}

// Decode returns the position whose key is key, with the half-move clock 0
// and the full-move number 1, and the en-passant square set only when an
// en-passant capture is legal. Any byte string that is not exactly the key
// of a valid position is rejected with an error wrapping ErrInvalidKey:
// truncated or over-long input, non-zero padding bits, invalid code words,
// a position that fails board's Validate, and any non-canonical form (so
// every accepted key re-encodes to itself). Decode never panics; on error
// the returned position is empty.
func Decode(key []byte) (board.Position, error) {
	p, err := decode(key)
	if err != nil {
		p.Clear()
	}
	return p, err
}

var colorNames = [2]string{"white", "black"}

func decode(key []byte) (board.Position, error) {
	var p board.Position
	p.Clear()
	if len(key) < 2 || len(key) > MaxLen {
		return p, decodeError(key, "%d bytes, a key has 2..%d", len(key), MaxLen)
	}
	cat := key[0]
	if cat >= multitable.Count {
		return p, decodeError(key, "category byte %d out of range 0..%d", cat, multitable.Count-1)
	}
	im := multitable.Implies(cat)
	r := huffman.NewBitReader(key[1:])
	stm, err := r.ReadBit()
	if err != nil {
		return p, decodeError(key, "side to move: %v", err)
	}
	side := board.White
	if stm {
		side = board.Black
	}

	// Kings, then the rooks the category implies.
	var kings [2]board.Square
	for c := board.White; c <= board.Black; c++ {
		if im.KingImplied(c) {
			kings[c] = im.Kings[c]
			continue
		}
		pos := r.Pos()
		s, err := kingCode(int(c)).Decode(&r)
		if err != nil {
			return p, decodeError(key, "%s king at bit %d: %v", colorNames[c], pos, err)
		}
		kings[c] = board.Square(s)
		if im.Skip.Has(kings[c]) {
			return p, decodeError(key, "%s king on %v, which category %s fixes", colorNames[c], kings[c], multitable.Name(cat))
		}
	}
	if kings[board.White] == kings[board.Black] {
		return p, decodeError(key, "both kings on %v", kings[board.White])
	}
	p.Put(kings[board.White], board.WhiteKing)
	p.Put(kings[board.Black], board.BlackKing)
	for rooks := im.Rooks; rooks != 0; {
		s := rooks.PopLSB()
		p.Put(s, board.MakePiece(board.Color(s>>5&1), board.Rook)) // a1/h1 white, a8/h8 black
	}

	// The board scan.
	rest := ^uint64(im.Skip | kings[board.White].Bitboard() | kings[board.Black].Bitboard())
	for rest != 0 {
		start := bits.TrailingZeros64(rest)
		pos := r.Pos()
		sym, err := squareCode(start).Decode(&r)
		if err != nil {
			return p, decodeError(key, "scan at %v (bit %d): %v", board.Square(start), pos, err)
		}
		s := start
		if sym >= RunBase {
			g := sym - RunBase
			if g > bits.OnesCount64(rest) {
				return p, decodeError(key, "run of %d empty squares from %v passes the end of the board", g, board.Square(start))
			}
			for ; g > 0; g-- {
				rest &= rest - 1
			}
			if rest == 0 {
				break
			}
			s = bits.TrailingZeros64(rest)
			pos = r.Pos()
			if sym, err = landingCode(s).Decode(&r); err != nil {
				return p, decodeError(key, "piece on %v (bit %d): %v", board.Square(s), pos, err)
			}
		}
		pc := board.Piece(sym)
		if pc == board.NoPiece || !pc.Valid() || pc.Type() == board.King {
			return p, decodeError(key, "bad piece symbol %d on %v", sym, board.Square(s))
		}
		p.Put(board.Square(s), pc)
		rest &^= 1 << uint(s)
	}
	p.SetSideToMove(side)
	p.SetCastling(im.Castling)

	// En passant.
	if c := epCandidates(&p); c != 0 {
		legal, n := legalEP(&p, c)
		if n > 0 {
			width := uint(bits.Len(uint(n)))
			pos := r.Pos()
			v, err := r.ReadBits(width)
			if err != nil {
				return p, decodeError(key, "en-passant field at bit %d: %v", pos, err)
			}
			if v > uint64(n) {
				return p, decodeError(key, "en-passant field %d, only %d legal en-passant squares", v, n)
			}
			if v > 0 {
				p.SetEPSquare(legal[v-1])
			}
		}
	}
	if err := r.Finish(); err != nil {
		return p, decodeError(key, "after the last field (bit %d): %v", r.Pos(), err)
	}
	if err := p.Validate(); err != nil {
		return p, decodeError(key, "%v", err)
	}
	if got := multitable.Category(&p); got != cat {
		return p, decodeError(key, "position is in category %d (%s), not %d (%s)", got, multitable.Name(got), cat, multitable.Name(cat))
	}
	// Belt and braces: the key must be the position's one key.
	var buf [MaxLen]byte
	if again := Append(buf[:0], &p); !bytes.Equal(again, key) {
		return p, decodeError(key, "not canonical: the position's key is %s", Hex(again))
	}
	return p, nil
}
