//go:build !oracle

package main

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real data: the repository's slices
// of ../shared/data (the files of shared/data with -tags oracle, see
// docs/testing.md).

// minTrickyGames is the least number of games the tricky files hold.
const minTrickyGames = 150

// trickyRoot returns the folder of the tricky files: testdata/tricky.
func trickyRoot(t *testing.T) string { return testutil.Testdata(t, "tricky") }

// chess960Input returns a file of Chess960 games, and how many it holds.
func chess960Input(t *testing.T) (string, int64) {
	return testutil.Testdata(t, filepath.Join("tricky", "tcec_dfrc_3games.pgn")), 3
}

// reportInput returns the inputs of TestReportAndFilters: the lichess
// slice.
func reportInput(t *testing.T) reportCase {
	return reportCase{
		lichess: testutil.Testdata(t, "lichess2k.pgn.zst"),
		bad:     testutil.Testdata(t, filepath.Join("tricky", "pgnmentor_Gelfand_illegal_move_31Qxe1.pgn")),
		read:    2001, stored: 1994, fromFEN: 5, badFENs: 1,
	}
}

// ratingsInputs returns the PGN files TestRatingsAndSpeeds filters by
// rating: the lichess slice.
func ratingsInputs(t *testing.T) []string { return []string{testutil.Testdata(t, "lichess2k.pgn.zst")} }
