// Package pgnoracle reads PGN files for tests, as an oracle that knows no
// chess: regular expressions over the text find each game's tags and the
// SAN tokens of its main line, and plain Go derives from the tags what
// lichess would (the speed from TimeControl, the rating band of the mean
// rating, the date). Tests compare what the builder, the store and the
// explorer answer with counts made from these.
//
// It must stay independent of the code it checks: it imports none of the
// project's packages (not pgn, not board, not stats, not ingest), and
// restates lichess's rules itself, so that a broken bound in stats.SpeedOf
// or a game the PGN reader drops shows as a difference. The only shared
// facts are the names and bounds lichess publishes (Speeds, BandFloors),
// which a test compares with the package's constants where it needs to.
//
// What it reads of a game (Parse):
//
//   - a game begins at a tag line that follows movetext, at an Event tag
//     in a tag section that has one (a game of tags only ends there), or
//     at the first tag line of the file; every line of its tag section matching
//     [Name "value"] is a tag, the first value of a name kept, \" and \\
//     unescaped (a line with quotes unescaped inside or without its
//     closing quote is a tag too, its value up to the last quote), bytes
//     that are not UTF-8 read as Windows-1252;
//   - its movetext is the other non-blank lines up to the next game:
//     comments ({...} and ;...), variations (nested), NAGs ($n) and move
//     numbers are dropped, check marks and annotations (+#!?) trimmed
//     from each token, 0-0 written O-O; the termination markers (1-0,
//     0-1, 1/2-1/2, *) are not moves, the last one is Termination.
//
// The derivations follow lichess (see Speed, Band, Date).
package pgnoracle
