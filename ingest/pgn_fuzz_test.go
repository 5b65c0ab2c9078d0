package ingest

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks, for any input, that parsing never panics, that
// BeginGame and EndGame are balanced, and that parsing the Splitter's
// chunks gives exactly the callbacks of parsing the whole input at once.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*.pgn"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	for _, d := range []string{"../../shared/data/tricky", "/work/shared/data/tricky"} {
		for _, name := range []string{
			"scalachess_fixtures/extracted/unclosedQuote.pgn",
			"scalachess_fixtures/extracted/inlineTags.pgn",
			"scalachess_fixtures/extracted/withDelimiters.pgn",
			"scalachess_fixtures/extracted/chessbaseWeird.pgn",
			"scalachess_fixtures/extracted/weirdDashes.pgn",
			"disservin_chess-library_tests/unescaped_quote_header.pgn",
			"disservin_chess-library_tests/no_moves_but_comment_followed_by_termination_marker.pgn",
			"python-chess_data_pgn/pychesslib_chessbase-empty-line.pgn",
			"python-chess_data_pgn/pychesslib_utf8-bom.pgn",
			"rogermarsh_pgn-read/Little_01.pgn",
			"rogermarsh_pgn-read/twic9nn_error.pgn",
			"pychess_testing_gamefiles/badpgn.pgn",
		} {
			if data, err := os.ReadFile(filepath.Join(d, name)); err == nil {
				f.Add(data)
			}
		}
	}
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 {open\n\n[Event \"y\"]\n\n1. d4 *",
		"[A \"1\"]\n\n[B \"2\"]\n\n[A \"3\"]\r[B \"4\"]\r\r*",
		"1. e4 (1. d4 {)} (1. c4 ;(\n)) e5 1-0 ff [x] <y> z",
		"\xef\xbb\xbf%x\n[Event \"\\\"\"][Site \"a\"b\"]\r\n1.e4 Qc20-1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSplitEquivalence(t, data)
	})
}
