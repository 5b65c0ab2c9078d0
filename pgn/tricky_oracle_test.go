//go:build oracle

package pgn

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// withOracles is true in the oracle tests (-tags oracle, see
// docs/testing.md): the tricky seeds then come from the shared data's
// tricky/ folder too.
const withOracles = true

// trickyFiles returns the repository's testdata/tricky files and those of
// ../shared/data/tricky.
func trickyFiles(tb testing.TB) []string {
	tb.Helper()
	return append(testutil.TrickyFiles(tb), testutil.SharedTrickyFiles(tb)...)
}

// corpusCounts returns the folder of the PGN files TestCorpusCounts
// parses and their game counts (its README's): shared/data's small/ and
// medium/.
func corpusCounts(t *testing.T) (string, map[string]int) {
	return testutil.SharedData(t), map[string]int{
		"small/notnil_twic0920.pgn":                            2245,
		"small/notnil_Carlsen.pgn":                             1782,
		"small/barakmich_lichess_head_50k_2022_06.pgn.bz2":     2500,
		"small/allancao_lichess_DrDrunkenstein_2019-01-29.pgn": 984,
		"small/allancao_lichess_DannyTheDonkey_2019-01-29.pgn": 105,
		"small/allancao_games.pgn":                             334,
		"small/cfd_BDG2.PGN":                                   3768,
		"medium/lichess_10k.pgn.zst":                           10000,
		"medium/pgnmentor_world_champions_16players.pgn.zst":   32601,
	}
}

// sharedTrickyCounts are the counts of shared/data's tricky files
// TestCorpusTrickyCounts checks (games, moves, errors).
var sharedTrickyCounts = map[string][3]int{
	"scalachess_fixtures/FWWRC.pgn":                                                         {605, 0, 0},
	"scalachess_fixtures/uzchesscup.pgn":                                                    {45, 0, 0},
	"python-chess_data_pgn/pychesslib_utf8-bom.pgn":                                         {2, 0, 0},
	"python-chess_data_pgn/pychesslib_chessbase-empty-line.pgn":                             {1, 134, 0},
	"rogermarsh_pgn-read/FIDE_longest_possible_game.pgn":                                    {1, 11790, 0},
	"disservin_chess-library_tests/no_moves_but_game_termination_multiple_2.pgn":            {3, 0, 0},
	"disservin_chess-library_tests/no_moves_but_comment_followed_by_termination_marker.pgn": {2, 0, 0},
	"pgnmentor_Gelfand_illegal_move_31Qxe1.pgn":                                             {1, 62, 0},
	"chess_gan_alphazero/alphazero_vs_stockfish_all.pgn":                                    {110, 28575, 0},
	"chess_db_annotated/europe_echecs__f025ed62.pgn":                                        {307, 21024, 1},
	"pychess_testing_gamefiles/badpgn.pgn":                                                  {1, 0, 1},
	"pychess_testing_gamefiles/dortmund.pgn":                                                {347, 27742, 0},
	"rogermarsh_pgn-read/twic9nn_error.pgn":                                                 {7, 140, 0},
	"scid_gtest/scid_res_gameLatin1.pgn":                                                    {1, 149, 0},
	"tcec_S24_DFRC2_League1.pgn":                                                            {112, 14728, 0},
}

// sharedNotPGN returns the binary files of shared/data: its books, the
// HTML page saved as a book, its compressed PGN.
func sharedNotPGN(t *testing.T) []string {
	data := testutil.SharedData(t)
	var files []string
	for _, g := range []string{"books/*.bin", "books/broken/*.bin", "medium/*.zst", "small/*.bz2"} {
		m, _ := filepath.Glob(filepath.Join(data, g))
		files = append(files, m...)
	}
	return files
}
