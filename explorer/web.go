package explorer

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/polyglot"
)

// The explorer page: static files embedded in the binary (web/: the page,
// its script and style, and the vendored board and rules libraries, see
// web/vendor.sh), served at / and /static/, over the API of this package.
// The page needs no network access besides the server.

//go:embed web/index.html web/app.js web/style.css web/vendor
var webFiles embed.FS

// page serves GET / (the page) and GET /static/... (its files).
func (s *server) routePage(mux *http.ServeMux) {
	static, err := fs.Sub(webFiles, "web")
	if err != nil { // cannot happen: the folder is embedded
		panic(err)
	}
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	s.get(mux, "/{$}", func(w http.ResponseWriter, r *http.Request) {
		b, err := webFiles.ReadFile("web/index.html")
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
	})
	s.get(mux, "/static/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") { // no directory listings
			s.notFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// Position is the answer of GET /position/{code}: the position of a key.
type Position struct {
	FEN string `json:"fen"`
	Key string `json:"key"` // the key as URL-safe text
}

// position answers GET /position/{code}: the FEN of a position key given
// in hex or URL-safe text (what the page's links hold).
func (s *server) position(w http.ResponseWriter, r *http.Request) {
	k, err := keys.ParseCode(r.PathValue("code"))
	if err == nil {
		var p board.Position
		if p, err = keys.Decode(k); err == nil {
			s.reply(w, r, http.StatusOK, Position{FEN: p.FEN(), Key: keys.Text(k)})
			return
		}
	}
	s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("position %s: %v", quoteBounded(r.PathValue("code")), err))
}

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
	req, err := parseRequest(r, endpoint{params: []string{"variant", "fen", "play", "moves", "pos"}, sanMoves: true})
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

// HandlerOptions are what NewHandlerWith adds to the API.
type HandlerOptions struct {
	// Book is a Polyglot book that GET /polyglot probes, shown by the page
	// beside the store's moves; nil for none.
	Book *polyglot.Book
	// BookName names it in the answers (its file name).
	BookName string
}
