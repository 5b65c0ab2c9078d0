package stats

// MaxRefs is the number of game references kept per list: a move keeps
// its MaxRefs best-rated games and its MaxRefs most recent games, as the
// lichess opening explorer shows its top and recent games.
const MaxRefs = 4

// GameRef names one stored game with what ranks it: the players' average
// rating (0: unrated) and the game's date (0: unknown). The zero GameRef
// (ID 0) is an empty slot; stored game ids are never 0.
type GameRef struct {
	ID     uint64
	Rating uint16
	Date   Date
}

// Refs are the game references of one move: Top holds the best-rated
// games, best first (rating, then date, then lower id), Recent the latest
// games, latest first (date, then rating, then lower id). Unused slots are
// zero and come last.
//
// Merging keeps the MaxRefs first of the union under the same total order,
// so it is associative and commutative: the top games of two sets of games
// are always among the top games of each.
type Refs struct {
	Top, Recent [MaxRefs]GameRef
}

// TopBefore reports whether a ranks before b among the top games: higher
// rating, then later date, then lower id.
func TopBefore(a, b GameRef) bool {
	if a.Rating != b.Rating {
		return a.Rating > b.Rating
	}
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	return a.ID < b.ID
}

// RecentBefore reports whether a ranks before b among the recent games:
// later date, then higher rating, then lower id.
func RecentBefore(a, b GameRef) bool {
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	if a.Rating != b.Rating {
		return a.Rating > b.Rating
	}
	return a.ID < b.ID
}

// insertRef puts r in its place in list (ordered by before), dropping the
// last entry if the list is full and r ranks before it. An id already
// present or the zero ref changes nothing.
func insertRef(list *[MaxRefs]GameRef, r GameRef, before func(a, b GameRef) bool) {
	if r.ID == 0 {
		return
	}
	i := 0
	for ; i < MaxRefs && list[i].ID != 0; i++ {
		if list[i].ID == r.ID {
			return
		}
		if before(r, list[i]) {
			break
		}
	}
	if i == MaxRefs {
		return
	}
	// r goes at i; check the rest for the same id (it would rank equal,
	// so it cannot be after i unless the lists were built inconsistently).
	for j := i; j < MaxRefs && list[j].ID != 0; j++ {
		if list[j].ID == r.ID {
			return
		}
	}
	copy(list[i+1:], list[i:MaxRefs-1])
	list[i] = r
}

// Add adds one game to both lists.
func (rs *Refs) Add(r GameRef) {
	insertRef(&rs.Top, r, TopBefore)
	insertRef(&rs.Recent, r, RecentBefore)
}

// Merge adds the games of o to rs.
func (rs *Refs) Merge(o *Refs) {
	for _, r := range o.Top {
		insertRef(&rs.Top, r, TopBefore)
	}
	for _, r := range o.Recent {
		insertRef(&rs.Recent, r, RecentBefore)
	}
}

// Empty reports whether rs holds no game.
func (rs *Refs) Empty() bool { return rs.Top[0].ID == 0 && rs.Recent[0].ID == 0 }

// Len returns the number of games in each list.
func (rs *Refs) Len() (top, recent int) {
	for top < MaxRefs && rs.Top[top].ID != 0 {
		top++
	}
	for recent < MaxRefs && rs.Recent[recent].ID != 0 {
		recent++
	}
	return top, recent
}
