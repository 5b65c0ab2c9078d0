package gamecode

import "github.com/chessbook/chessbook/board"

// MoveIndexer numbers the legal moves of a position in the order of the
// Indexed coding (see the package documentation): a move's number is
// what a Version 3 record codes for it, so it is a stable code for a move
// in its position, below the number of legal moves (at most 218, so a
// byte). The game index (package gamedb) keeps the first moves of each
// game so. A MoveIndexer is scratch space for one goroutine; the zero
// value is ready to use. It allocates nothing.
type MoveIndexer struct {
	ix indexer
}

// MoveNumber is a move's number I among the N legal moves of its
// position (N is at most 218).
type MoveNumber struct{ I, N uint8 }

// Number returns the number of move m among the legal moves of p, or -1
// when m is not legal in p, and the number of legal moves of p.
func (x *MoveIndexer) Number(p *board.Position, m board.Move) (i, n int) {
	return x.ix.number(p, m)
}

// Set numbers the legal moves of p for Move and returns how many there
// are.
func (x *MoveIndexer) Set(p *board.Position) int { return x.ix.set(p) }

// Move returns the move numbered i among the legal moves of the position
// last given to Set; i must be below the number Set returned.
func (x *MoveIndexer) Move(i int) board.Move { return x.ix.move(i) }
