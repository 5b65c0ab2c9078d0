package pgn_test

import (
	"io"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// The corpus tests of package pgn read compressed files (.zst, .bz2) the
// way the project reads them, with ingest.Open.
func init() {
	pgn.OpenCorpus = func(path string) (io.ReadCloser, error) { return ingest.Open(path) }
}
