package gamedb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// SummaryPlies is the number of plies from the start of each game that its
// summary keeps (as move codes): a player tree or a position search at a
// position of the first SummaryPlies-1 plies reads summaries only.
const SummaryPlies = 24

// Which postings a game has (Summary.Posted): a name with no letter or
// digit is not indexed.
const (
	PostedWhite = 1 << iota
	PostedBlack
	PostedEvent
	PostedSite
)

// Summary is what the index keeps of each game (see the package
// documentation for its encoding): what searches filter and sort on, and
// the game's first moves.
type Summary struct {
	Result   pgn.Result
	Casual   bool // the Event says so (lichess: "Casual ..."); every other game counts as rated
	FromFEN  bool // the game starts from a FEN: Codes is empty, its moves are in the game record only
	Posted   uint8
	Cell     stats.Cell // speed and rating band (15: unknown), as the builder files the game
	Date     stats.Date
	WhiteElo int // 0: unknown
	BlackElo int
	Plies    int    // the game's plies
	ECO      uint16 // see ParseECO; 0: none
	// Coded is the number of the game's first plies the summary holds:
	// up to SummaryPlies, fewer when the game is shorter (none for a game
	// from a FEN). Moves after them are unknown from the summary when
	// Plies > Coded. Walk plays them.
	Coded int
	// codes are the coded plies, each its number i among the n legal
	// moves of its position (gamecode.MoveIndexer) in bits.Len(n-1) bits,
	// least significant bit first.
	codes []byte
	bits  int // bits used in codes (addNumber)
}

// addMove codes move m, played from pos, as the summary's next coded ply;
// it reports false (and codes nothing) when the summary holds
// SummaryPlies plies already or m is not legal in pos. ix is scratch.
func (s *Summary) addMove(ix *gamecode.MoveIndexer, pos *board.Position, m board.Move) bool {
	if s.Coded >= SummaryPlies {
		return false
	}
	i, n := ix.Number(pos, m)
	if i < 0 {
		return false
	}
	s.addNumber(i, n)
	return true
}

// maxCodeBytes is the most bytes a summary's codes take: SummaryPlies
// plies of at most 8 bits (a position has at most 218 legal moves).
const maxCodeBytes = SummaryPlies

// addNumber codes the move numbered i among n legal moves (n at most 256)
// as the next coded ply. s.codes must have the capacity of maxCodeBytes,
// zeros past its length (AppendEntry gives it so): the codes are written
// in place, so that a writer's summary allocates nothing.
func (s *Summary) addNumber(i, n int) {
	width := bits.Len(uint(n - 1))
	s.codes = s.codes[:(s.bits+width+7)/8]
	if width > 0 {
		w := uint16(i&(1<<width-1)) << (s.bits % 8)
		s.codes[s.bits/8] |= byte(w)
		if s.bits%8+width > 8 {
			s.codes[s.bits/8+1] |= byte(w >> 8)
		}
	}
	s.bits += width
	s.Coded++
}

// getBits reads width bits at bit offset at of b, least significant
// first; ok is false past b's end.
func getBits(b []byte, at, width int) (v uint64, ok bool) {
	if (at+width+7)/8 > len(b) {
		return 0, width == 0
	}
	for k := 0; k < width; k++ {
		v |= uint64(b[(at+k)/8]>>((at+k)%8)&1) << k
	}
	return v, true
}

// Flag bits of a summary's first byte.
const (
	sumResultMask = 7
	sumCasual     = 1 << 3
	sumFromFEN    = 1 << 4
)

// AppendSummary appends the encoding of s to dst.
func (s *Summary) Append(dst []byte) []byte {
	f := byte(s.Result) & sumResultMask
	if s.Casual {
		f |= sumCasual
	}
	if s.FromFEN {
		f |= sumFromFEN
	}
	dst = append(dst, f, s.Posted, byte(s.Cell))
	dst = binary.AppendUvarint(dst, uint64(s.Date))
	dst = binary.AppendUvarint(dst, uint64(max(s.WhiteElo, 0)))
	dst = binary.AppendUvarint(dst, uint64(max(s.BlackElo, 0)))
	dst = binary.AppendUvarint(dst, uint64(s.Plies))
	dst = binary.AppendUvarint(dst, uint64(s.ECO))
	if s.Coded == 0 {
		return dst
	}
	dst = append(dst, byte(s.Coded))
	return append(dst, s.codes...)
}

var errBadSummary = errors.New("bad game summary")

// DecodeSummary decodes v into s; s.Codes points into v.
func DecodeSummary(s *Summary, v []byte) error {
	if len(v) < 3 {
		return errBadSummary
	}
	f := v[0]
	if f>>5 != 0 || pgn.Result(f&sumResultMask) > pgn.Unknown || v[1] > 15 {
		return errBadSummary
	}
	s.Result = pgn.Result(f & sumResultMask)
	s.Casual = f&sumCasual != 0
	s.FromFEN = f&sumFromFEN != 0
	s.Posted = v[1]
	s.Cell = stats.Cell(v[2])
	v = v[3:]
	var fields [5]uint64
	for i := range fields {
		x, n := binary.Uvarint(v)
		if n <= 0 {
			return errBadSummary
		}
		fields[i] = x
		v = v[n:]
	}
	if fields[0] > 99991231 || fields[1] > 1<<20 || fields[2] > 1<<20 || fields[3] > 1<<40 || fields[4] > 500 {
		return errBadSummary
	}
	s.Date = stats.Date(fields[0])
	s.WhiteElo, s.BlackElo = int(fields[1]), int(fields[2])
	s.Plies = int(fields[3])
	s.ECO = uint16(fields[4])
	s.Coded, s.codes, s.bits = 0, nil, 0
	if len(v) > 0 {
		s.Coded, s.codes = int(v[0]), v[1:]
		if s.Coded == 0 || s.Coded > SummaryPlies || s.Coded > s.Plies || s.FromFEN || len(s.codes) > SummaryPlies {
			return errBadSummary
		}
	}
	return nil
}

// ParseECO returns the code of an ECO tag value: 1 + 100*letter + number
// for "A00" to "E99" (A00 is 1, E99 is 500); 0 for anything else.
func ParseECO(v []byte) uint16 {
	v = trimRaw(v)
	if len(v) != 3 || v[0] < 'A' || v[0] > 'E' && (v[0] < 'a' || v[0] > 'e') || v[1] < '0' || v[1] > '9' || v[2] < '0' || v[2] > '9' {
		return 0
	}
	l := v[0]
	if l >= 'a' {
		l -= 'a' - 'A'
	}
	return 1 + uint16(l-'A')*100 + uint16(v[1]-'0')*10 + uint16(v[2]-'0')
}

// ECOString returns the ECO code's text ("B90"), "" for 0.
func ECOString(e uint16) string {
	if e == 0 || e > 500 {
		return ""
	}
	e--
	return fmt.Sprintf("%c%02d", 'A'+byte(e/100), e%100)
}

// Walk plays the summary's moves from the standard start, calling fn with
// each position reached, from the start (ply 0) to the one after the last
// code (ply len(Codes)), and the move played from it (0 after the last
// code), until fn returns false. It fails when a code is not a legal
// move's. ix is scratch space.
func (s *Summary) Walk(ix *gamecode.MoveIndexer, fn func(ply int, pos *board.Position, next board.Move) bool) error {
	pos := board.StartPosition()
	at := 0
	for ply := range s.Coded {
		n := ix.Set(&pos)
		width := bits.Len(uint(n - 1))
		c, ok := getBits(s.codes, at, width)
		if n == 0 || !ok || int(c) >= n {
			return fmt.Errorf("%w: ply %d: move code %d of %d", errBadSummary, ply+1, c, n)
		}
		at += width
		m := ix.Move(int(c))
		if !fn(ply, &pos, m) {
			return nil
		}
		pos.Play(m)
	}
	fn(s.Coded, &pos, 0)
	return nil
}
