//go:build oracle

package main

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real data: the files of
// ../shared/data (the repository's slices of them without -tags oracle,
// see docs/testing.md).

// minTrickyGames is the least number of games the tricky files hold.
const minTrickyGames = 5000

// trickyRoot returns the folder of the tricky files: shared/data/tricky.
func trickyRoot(t *testing.T) string { return testutil.SharedFile(t, "tricky") }

// chess960Input returns a file of Chess960 games, and how many it holds.
func chess960Input(t *testing.T) (string, int64) {
	return testutil.SharedFile(t, filepath.Join("tricky", "tcec_S24_DFRC2_League1.pgn")), 112
}

// reportInput returns the inputs of TestReportAndFilters: lichess_10k.
func reportInput(t *testing.T) reportCase {
	return reportCase{
		lichess: testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst")),
		bad:     testutil.SharedFile(t, filepath.Join("tricky", "pgnmentor_Gelfand_illegal_move_31Qxe1.pgn")),
		read:    10001, stored: 9894, fromFEN: 104, badFENs: 2,
	}
}

// ratingsInputs returns the PGN files TestRatingsAndSpeeds filters by
// rating: the lichess slice and a TWIC issue.
func ratingsInputs(t *testing.T) []string {
	return []string{testutil.Testdata(t, "lichess2k.pgn.zst"), testutil.SharedFile(t, filepath.Join("small", "notnil_twic0920.pgn"))}
}
