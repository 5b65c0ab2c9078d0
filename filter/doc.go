// Package filter is the one game filter of chessbook: which games a build
// keeps (bookbuild's and bookbeam's -speeds, -ratings, -min-rating,
// -since, -until, -standard-start-only), which games a query of a store's
// histories counts (bookquery moves, history, games; the API's /lichess
// routes: speeds, ratings, since, until) and which games a search of the
// game index keeps (bookquery player and search; /player and /search:
// speeds, ratings, modes, since, until, rating and length bounds).
//
// A [Filter] holds the criteria; its methods say whether it keeps a game
// (from what a [Game] says of it), a date, or a history cell of a month.
// Its dates compare by day or by month ([Unit]): a build and a search
// compare the games' dates, a store's histories count games by month.
//
// One parser reads a filter from text, [Parse], the same syntax for a
// command's flag and an HTTP parameter ([Values]); [AddFlags] declares a
// command's filter flags, with one help text per flag, so that every
// command that takes a filter declares it the same way. The dates are
// read by [ParseDateBound] (a year, a month or a day; a filter by month
// refuses a day). Every error of a value matches [ErrBadInput] (the
// commands exit with status 2, the API answers 400) and names the flag
// or parameter: a [ParamError] ("since=2024-13: month 13: want 01 to
// 12"), or for a build's flags the form bookbuild has always printed
// (`-since "2024-13": month 13: want 01 to 12`, "-speeds: unknown speed
// ...").
//
// The package sits below book, gamedb and explorer: it knows stats (the
// speeds, rating bands, dates and periods) and nothing of stores.
package filter
