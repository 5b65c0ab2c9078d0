// Package explorer is the query side of chessbook: what a store built by
// bookbuild tells about a position, in the manner of the lichess opening
// explorer. cmd/bookquery's moves, games, game and serve commands are thin
// layers over it (flags, printing, listening); the answers and the JSON
// the command prints and the API serves are this package's.
//
// The package is split as lichess-openingexplorer splits its own:
//
//   - model.go: the answers, as exported types with their JSON field
//     names (Moves, Move, GameRef, Player, Opening, Games, Game).
//   - line.go: the reading of a query: ParseFEN and ParseLine, the one
//     reader of move lines for the command's -fen/-moves and the API's
//     fen, play and moves (see Notation for the syntax), with typed errors
//     (FENError, MoveError) that name the bad move and where it stands.
//     Every error of a query's input matches ErrBadInput: bookquery exits
//     with status 2 on it, the API answers 400.
//   - query.go: the rest of a query, read the same way from the command's
//     flags and the API's parameters: Filters (speeds, ratings, since,
//     until) into a book.Selection, the game list sizes (Query).
//   - moves.go and games.go: the lookups in the store, through an
//     Explorer: the moves of a position with their statistics (how each is
//     computed is told at the top of moves.go), the top and recent games
//     through a position (filtered, and every one of them a page at a
//     time), the history by month, a stored game.
//   - openings.go: opening names, from a table generated from the lichess
//     opening list (openings_gen.go, written by ./internal/openinggen with
//     go generate).
//   - handler.go: the HTTP JSON API (the lichess explorer's routes and
//     ours) as an http.Handler, NewHandler, every route in one table
//     (server.routes, with its parameters and what it answers; Routes
//     gives it to the command's help, and docs/http-api.md is generated
//     from it). It lives here rather than in the command
//     because it is query parsing and answering, like the rest of this
//     package; cmd/bookquery keeps what makes a server of it (the address,
//     the http.Server, its timeouts and connections, signals and
//     shutdown).
//   - gameindex.go and gameindex_http.go: the game index's answers
//     (package gamedb) and their routes: a player's opening tree, a
//     name's spellings, a game search, and the parsing of a search's
//     parameters.
//   - polyglot.go: GET /polyglot, the moves of the Polyglot book the
//     server was started with (HandlerOptions.Book).
//   - scans.go: the bounded pool that the game scans (/games with
//     page=N) run in, with their deadline and cancellation.
//   - web.go and web/: the explorer page served at / (index.html, app.js,
//     style.css, and the board and rules libraries bundled into
//     web/vendor/bundle.js by web/vendor.sh), embedded in the binary, over
//     the same API; page_test.go drives it in headless Chromium.
//
// The text tables bookquery prints are presentation and stay in the
// command.
package explorer
