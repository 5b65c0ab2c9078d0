package explorer

import (
	"net/http"
)

// GET /polyglot: the moves of the Polyglot book the server was started
// with (HandlerOptions.Book), beside the store's.

// BookMoves is the answer of GET /polyglot: a Polyglot book's moves at a
// position, as 'bookquery probe' prints them.
type BookMoves struct {
	FEN   string     `json:"fen"`
	Book  string     `json:"book"`
	Moves []BookMove `json:"moves"` // heaviest first
	// Warnings name the book's entries for the position that are no
	// legal move (left out).
	Warnings []string `json:"warnings,omitempty"`
}

// BookMove is one move of BookMoves.
type BookMove struct {
	UCI     string  `json:"uci"`
	SAN     string  `json:"san"`
	Weight  uint16  `json:"weight"`
	Percent float64 `json:"percent"`
	Learn   uint32  `json:"learn"`
}

// polyglotMoves answers GET /polyglot?fen=FEN&play=...: the moves of the
// Polyglot book the server was started with.
func (s *server) polyglotMoves(w http.ResponseWriter, r *http.Request) {
	if s.opts.Book == nil {
		s.fail(w, r, http.StatusNotFound, "no Polyglot book: start the server with 'bookquery -db DIR serve -book BOOK.bin'")
		return
	}
	req, err := parseRequest(r, endpoint{params: polyglotParams, sanMoves: true})
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	p := req.line[len(req.line)-1]
	moves, perr := s.opts.Book.Probe(&p)
	out := BookMoves{FEN: p.FEN(), Book: s.opts.BookName, Moves: []BookMove{}}
	for _, m := range moves {
		out.Moves = append(out.Moves, BookMove{UCI: m.Move.String(), SAN: p.SAN(m.Move), Weight: m.Weight, Percent: m.Percent, Learn: m.Entry.Learn})
	}
	if perr != nil {
		out.Warnings = append(out.Warnings, perr.Error())
	}
	s.reply(w, r, http.StatusOK, out)
}
