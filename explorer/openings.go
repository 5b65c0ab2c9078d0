package explorer

import (
	"slices"
	"sort"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
)

// Opening names: the positions named by the lichess opening list that
// github.com/notnil/chess/opening ships, precomputed into openingTable
// (openings_gen.go) by ./internal/openinggen. Building notnil's own index
// costs about 0.4 s, more than everything else a cold bookquery call does;
// the table is static data, so naming costs a few binary searches.
//
// Regenerate the table after updating github.com/notnil/chess, or after a
// change to the position keys (the tests fail until then):
//
//go:generate go run ./internal/openinggen -o openings_gen.go

// namedPosition is one entry of openingTable.
type namedPosition struct {
	key  string // the position's key (keys.Encode)
	eco  string // ECO code, "C60"
	name string // "Ruy Lopez"
}

// lookupOpening returns the opening that names the position with key k.
func lookupOpening(k []byte) (Opening, bool) {
	i := sort.Search(len(openingTable), func(i int) bool { return openingTable[i].key >= string(k) })
	if i < len(openingTable) && openingTable[i].key == string(k) {
		return Opening{ECO: openingTable[i].eco, Name: openingTable[i].name}, true
	}
	return Opening{}, false
}

// OpeningOf returns the opening of the last position of line that the
// lichess list names (so a transposition into a named position is named),
// nil if none is.
func OpeningOf(line []board.Position) *Opening {
	for i := len(line) - 1; i >= 0; i-- {
		if o := openingAt(&line[i]); o != nil {
			return o
		}
	}
	return nil
}

// openingAfter returns the opening that names the position move m leads to
// from p, nil if the lichess list names none.
func openingAfter(p board.Position, m board.Move) *Opening {
	p.Play(m)
	return openingAt(&p)
}

// openingAt returns the opening that names p, nil if the lichess list
// names none.
func openingAt(p *board.Position) *Opening {
	if _, ok := slices.BinarySearch(openingOccupied[:], uint64(p.Occupied())); !ok {
		return nil
	}
	var buf [keys.MaxLen]byte
	if o, ok := lookupOpening(keys.Append(buf[:0], p)); ok {
		return &o
	}
	return nil
}
